package org.tunekit.runner.manager;

import java.time.Duration;
import java.util.Map;

/**
 * The limits a manager keeps to.
 *
 * @param searchSpace            the search space's definition (plain JSON values), sent with {@code IN}
 * @param trialConcurrency       trials running at once
 * @param maxTrialNumber         trials to start at most, or 0 for no limit
 * @param maxExperimentDuration  how long the experiment may run, or {@code null}
 * @param maxTrialDuration       how long one trial may run, or {@code null}
 * @param silenceTimeout         a trial with no request and no metric for this long is stopped as failed, or {@code null}
 * @param stopGrace              how long a stopped trial has to end before it is killed
 */
public record ManagerSettings(Map<String, Object> searchSpace, int trialConcurrency, long maxTrialNumber, Duration maxExperimentDuration,
                              Duration maxTrialDuration, Duration silenceTimeout, Duration stopGrace) {
    public ManagerSettings {
        if (trialConcurrency < 1) {
            throw new IllegalArgumentException("trialConcurrency must be at least 1, got " + trialConcurrency);
        }
        if (maxTrialNumber < 0) {
            throw new IllegalArgumentException("maxTrialNumber must not be negative, got " + maxTrialNumber);
        }
    }
}
