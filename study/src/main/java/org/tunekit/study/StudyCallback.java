package org.tunekit.study;

/**
 * Called by {@link Study#optimize} after each trial ends, on the thread that ran it. A callback may call
 * {@link Study#stop()}; one that throws stops the optimisation, which then throws its exception.
 */
@FunctionalInterface
public interface StudyCallback {
    /** The trial has ended (succeeded, failed or pruned). */
    void trialEnded(Study study, TrialRecord trial);
}
