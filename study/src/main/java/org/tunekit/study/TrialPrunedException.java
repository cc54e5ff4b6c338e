package org.tunekit.study;

/**
 * Thrown by an objective function to end its trial early, typically after {@link Trial#shouldPrune()} said
 * so: the trial is recorded as {@link TrialState#EARLY_STOPPED} with the intermediate values it reported,
 * and the study goes on.
 */
public final class TrialPrunedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The trial stopped because the assessor judged it would not do well. */
    public TrialPrunedException() {
        super("pruned");
    }

    /** The trial stopped, for the reason given. */
    public TrialPrunedException(String reason) {
        super(reason);
    }
}
