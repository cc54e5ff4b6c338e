package org.tunekit.study;

/**
 * What a study optimises: evaluates one trial's parameters and returns its value, in the study's direction.
 * Throwing fails the trial (the study records the exception and goes on, unless told to stop on failures);
 * throwing {@link TrialPrunedException} ends it as pruned.
 */
@FunctionalInterface
public interface ObjectiveFunction {
    /** The trial's value. */
    double evaluate(Trial trial) throws Exception;
}
