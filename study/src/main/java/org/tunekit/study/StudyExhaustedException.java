package org.tunekit.study;

/**
 * The tuner has no parameters to suggest: it has been through its whole space (grid search, a batch), or it
 * waits for results of trials still running (a generation, a round). {@link #trialsRunning()} tells which:
 * when trials run, asking again after one of them is told may succeed.
 */
public final class StudyExhaustedException extends StudyException {
    private static final long serialVersionUID = 1L;
    private final boolean trialsRunning;

    StudyExhaustedException(String message, boolean trialsRunning) {
        super(message);
        this.trialsRunning = trialsRunning;
    }

    /** True when trials of the study were running, so that the tuner may suggest again once they end. */
    public boolean trialsRunning() {
        return trialsRunning;
    }
}
