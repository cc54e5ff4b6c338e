package org.tunekit.sdk.testkit;

import java.util.Objects;
import java.util.function.ToDoubleFunction;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.Parameters;

/**
 * The function a {@link TunerTestKit#run test run} optimises: it is evaluated at each suggestion,
 * and smaller or larger values are better. The tuner is told nothing of the direction: give it the
 * matching {@code optimize_mode} in its arguments. (What an experiment optimises, a metric of the
 * trials and its direction, is {@link org.tunekit.sdk.objectives.Objective}.)
 *
 * @param function the function of a parameter set
 * @param mode     whether it is minimised or maximised
 */
public record TargetFunction(ToDoubleFunction<Parameters> function, OptimizeMode mode) {

    /** Checks the fields. */
    public TargetFunction {
        Objects.requireNonNull(function, "function");
        Objects.requireNonNull(mode, "mode");
    }

    /** A function to minimise. */
    public static TargetFunction minimize(ToDoubleFunction<Parameters> function) {
        return new TargetFunction(function, OptimizeMode.MINIMIZE);
    }

    /** A function to maximise. */
    public static TargetFunction maximize(ToDoubleFunction<Parameters> function) {
        return new TargetFunction(function, OptimizeMode.MAXIMIZE);
    }

    /** The function's value at {@code parameters}. */
    public double evaluate(Parameters parameters) {
        return function.applyAsDouble(parameters);
    }
}
