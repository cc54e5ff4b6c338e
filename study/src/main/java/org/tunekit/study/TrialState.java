package org.tunekit.study;

/** Where a trial of a study stands; the names are those of a run's trials in {@code experiment.db}. */
public enum TrialState {
    /** Handed out by {@link Study#ask()}, not yet told. */
    RUNNING,
    /** Told a result. */
    SUCCEEDED,
    /** Its objective threw, it was told a failure, or its worker stopped sending heartbeats. */
    FAILED,
    /** Pruned: stopped early on the assessor's verdict. */
    EARLY_STOPPED;

    /** True once the trial has ended. */
    public boolean ended() {
        return this != RUNNING;
    }
}
