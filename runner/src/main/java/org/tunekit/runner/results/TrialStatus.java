package org.tunekit.runner.results;

/** The state of a trial of a local experiment; the terminal ones are NNI's trial-end events, plus {@link #LOST}. */
public enum TrialStatus {
    /** Started; its process has not ended. */
    RUNNING,
    /** Its process exited with status 0. */
    SUCCEEDED,
    /** Its process exited with another status, could not be started, or broke the trial protocol. */
    FAILED,
    /** Stopped by the assessor or advisor ({@code KI}). */
    EARLY_STOPPED,
    /** Stopped because it ran past {@code maxTrialDuration}, stayed silent too long, or the experiment was stopped. */
    USER_CANCELED,
    /** Was running when the runner died; recorded on resume (its parameters run again in a new trial). */
    LOST;

    /** True once the trial has ended. */
    public boolean ended() {
        return this != RUNNING;
    }

    /**
     * True when a final value of a trial in this state is ranked among the results, as NNI ranks every
     * trial with a final value whatever its state: all but {@link #LOST}, whose parameters ran again in a
     * later trial that reports its own (the lost one's value would count them twice, or rank a result the
     * runner could not see to its end).
     */
    public boolean ranked() {
        return this != LOST;
    }
}
