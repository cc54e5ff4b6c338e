package org.tunekit.tuners.common;

import org.tunekit.sdk.Parameters;

/**
 * A built-in tuner that can take over the trials another tuner suggested and that are still
 * running, when it succeeds that tuner in the same experiment: it treats each as a suggestion of
 * its own that waits for its result, so that it does not suggest the same parameter set again and
 * models the trial as pending (its constant liar, say) until the result arrives.
 */
public interface TakesOverTrials {
    /**
     * Counts the trial as this tuner's own pending suggestion. Called after the search space and the
     * results so far; a parameter set outside the space is ignored.
     */
    void takeOver(long parameterId, Parameters parameters);
}
