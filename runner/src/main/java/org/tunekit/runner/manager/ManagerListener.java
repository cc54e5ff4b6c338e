package org.tunekit.runner.manager;

import java.time.Duration;
import java.util.Map;
import org.tunekit.runner.results.TrialStatus;

/** What a manager tells the person watching (a terminal line, a demo's output). Called on the manager's thread. */
public interface ManagerListener {
    /**
     * The manager's counters at one moment.
     *
     * @param running        trials running
     * @param waiting        trials whose parameters are in and that wait to start (for a free GPU)
     * @param started        trials started in the experiment (the budget used)
     * @param maxTrials      the trial budget, or 0
     * @param elapsed        time since this manager started
     * @param untilDeadline  time left before maxExperimentDuration, or {@code null}
     */
    record Snapshot(int running, int waiting, long started, long maxTrials, Duration elapsed, Duration untilDeadline) {}

    /** A trial that ended before this manager started (a resumed experiment), so that counts and the best so far cover the whole experiment. */
    default void earlier(String trialJobId, int sequence, TrialStatus status, Double finalValue) {}

    default void trialStarted(String trialJobId, int sequence, Map<String, Object> parameters) {}

    default void finalResult(String trialJobId, double value) {}

    default void intermediateResult(String trialJobId, double value) {}

    default void trialEnded(String trialJobId, int sequence, TrialStatus status, String message, Duration took) {}

    default void message(String text) {}

    /** Called on every turn of the loop. */
    default void tick(java.util.function.Supplier<Snapshot> snapshot) {}

    /** A listener that shows nothing. */
    ManagerListener SILENT = new ManagerListener() {};
}
