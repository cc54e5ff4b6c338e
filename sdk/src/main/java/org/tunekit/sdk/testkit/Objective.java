package org.tunekit.sdk.testkit;

import java.util.Objects;
import java.util.function.ToDoubleFunction;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.Parameters;

/**
 * A function a {@link TunerTestKit#run test run} evaluates for each suggestion, and whether smaller
 * or larger values are better. The tuner is told nothing of the direction: give it the matching
 * {@code optimize_mode} in its arguments.
 *
 * @param function the function of a parameter set
 * @param mode     whether it is minimised or maximised
 */
public record Objective(ToDoubleFunction<Parameters> function, OptimizeMode mode) {

    /** Checks the fields. */
    public Objective {
        Objects.requireNonNull(function, "function");
        Objects.requireNonNull(mode, "mode");
    }

    /** A function to minimise. */
    public static Objective minimize(ToDoubleFunction<Parameters> function) {
        return new Objective(function, OptimizeMode.MINIMIZE);
    }

    /** A function to maximise. */
    public static Objective maximize(ToDoubleFunction<Parameters> function) {
        return new Objective(function, OptimizeMode.MAXIMIZE);
    }

    /** The function's value at {@code parameters}. */
    public double evaluate(Parameters parameters) {
        return function.applyAsDouble(parameters);
    }
}
