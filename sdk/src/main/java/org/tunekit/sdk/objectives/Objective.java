package org.tunekit.sdk.objectives;

import java.util.Objects;
import java.util.OptionalDouble;
import org.tunekit.sdk.OptimizeMode;

/**
 * One objective of a multi-objective experiment: a key of the trials' metric objects and its
 * direction.
 *
 * @param metric    the metric's key in the reported object ({@code "default"} also names a metric
 *                  that is reported as a plain number)
 * @param mode      whether larger or smaller values are better
 * @param reference the value that bounds the hypervolume on this objective (a value no better than
 *                  any that matters), or empty to let whoever measures the hypervolume choose one
 */
public record Objective(String metric, OptimizeMode mode, OptionalDouble reference) {

    /** Checks the fields. */
    public Objective {
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(reference, "reference");
        if (metric.isBlank()) {
            throw new IllegalArgumentException("an objective's metric must not be blank");
        }
        if (reference.isPresent() && !Double.isFinite(reference.getAsDouble())) {
            throw new IllegalArgumentException("objective '" + metric + "': reference must be finite, got " + reference.getAsDouble());
        }
    }

    /** An objective without a reference value. */
    public static Objective of(String metric, OptimizeMode mode) {
        return new Objective(metric, mode, OptionalDouble.empty());
    }

    /** The value as a loss: smaller is always better. */
    public double toLoss(double value) {
        return mode.toLoss(value);
    }

    /** The reference value as a loss, if there is one. */
    public OptionalDouble referenceLoss() {
        return reference.isPresent() ? OptionalDouble.of(toLoss(reference.getAsDouble())) : OptionalDouble.empty();
    }
}
