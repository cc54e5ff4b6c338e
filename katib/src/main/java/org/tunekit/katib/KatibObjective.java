package org.tunekit.katib;

import org.tunekit.katib.api.ExperimentSpec;
import org.tunekit.katib.api.ObjectiveType;
import org.tunekit.sdk.OptimizeMode;

/**
 * An experiment's objective as both services read it: the metric's name and whether it is
 * minimised or maximised.
 *
 * @param metric the objective metric's name, not blank
 * @param mode   the direction
 */
record KatibObjective(String metric, OptimizeMode mode) {
    /**
     * Reads the spec's objective.
     *
     * @throws KatibException (INVALID_ARGUMENT) when the metric name is blank or the type is neither
     *                        MINIMIZE nor MAXIMIZE
     */
    static KatibObjective of(ExperimentSpec spec) {
        String metric = spec.getObjective().getObjectiveMetricName();
        if (metric.isBlank()) {
            throw KatibException.invalid("the experiment's objective has no objective_metric_name");
        }
        ObjectiveType type = spec.getObjective().getType();
        OptimizeMode mode = switch (type) {
            case MINIMIZE -> OptimizeMode.MINIMIZE;
            case MAXIMIZE -> OptimizeMode.MAXIMIZE;
            default -> throw KatibException.invalid("the experiment's objective type must be MINIMIZE or MAXIMIZE, got "
                    + type + " (" + spec.getObjective().getTypeValue() + ")");
        };
        return new KatibObjective(metric, mode);
    }

    boolean maximize() {
        return mode == OptimizeMode.MAXIMIZE;
    }
}
