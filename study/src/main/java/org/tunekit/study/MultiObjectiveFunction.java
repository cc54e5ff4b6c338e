package org.tunekit.study;

/** What a study of several objectives optimises: one value per objective, in the order the study names them. */
@FunctionalInterface
public interface MultiObjectiveFunction {
    /** The trial's values, one per objective. */
    double[] evaluate(Trial trial) throws Exception;
}
