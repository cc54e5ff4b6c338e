package org.tunekit.runner.manager;

import org.tunekit.runner.results.TrialStatus;

/**
 * How a trial's end is recorded, worked out from what the manager knows when the trial ends: the
 * final-result rules as pure functions, with no state of their own.
 *
 * @param status   the status recorded
 * @param message  why, for the records, or {@code null}
 * @param exitCode the exit status recorded, or {@code null} when there is none worth keeping
 */
record TrialEnd(TrialStatus status, String message, Integer exitCode) {
    /**
     * The end of a trial.
     * <ul>
     *   <li>a trial being stopped ends as it was being stopped ({@code stopAs}, for {@code stopReason});</li>
     *   <li>else exit status 0 is SUCCEEDED and any other FAILED, naming the status (and the signal) and
     *       where the trial's errors are;</li>
     *   <li>a trial that never asked for its parameters did not run them: SUCCEEDED becomes FAILED (not
     *       for one the assessor stopped early);</li>
     *   <li>so does one that talked wrongly ({@code protocolProblem});</li>
     *   <li>an exit status is not kept when there was none, or when it is a signal the manager's stop sent.</li>
     * </ul>
     *
     * @param exitCode                 the trial's exit status, or {@code null} when it ended without one ({@code stopAs} is then set)
     * @param neverAskedForParameters  true when its service sees requests for parameters and it made none
     * @param protocolProblem          what was wrong with what it reported, or {@code null}
     */
    static TrialEnd of(String trialJobId, Integer exitCode, TrialStatus stopAs, String stopReason, boolean neverAskedForParameters,
                       String protocolProblem) {
        TrialStatus status;
        String message = stopReason;
        if (stopAs != null) {
            status = stopAs;
        } else if (exitCode != null && exitCode == 0) {
            status = TrialStatus.SUCCEEDED;
        } else {
            status = TrialStatus.FAILED;
            message = "exited with status " + exitCode + (exitCode > 128 ? " (signal " + (exitCode - 128) + ")" : "")
                    + "; see trials/" + trialJobId + "/trial.stderr";
        }
        if (neverAskedForParameters && status != TrialStatus.EARLY_STOPPED) {
            message = (message == null ? "" : message + "; ") + "it never asked for its parameters";
            if (status == TrialStatus.SUCCEEDED) {
                status = TrialStatus.FAILED;
            }
        }
        if (protocolProblem != null) {
            message = (message == null ? "" : message + "; ") + protocolProblem;
            if (status == TrialStatus.SUCCEEDED) {
                status = TrialStatus.FAILED;
            }
        }
        Integer recorded = exitCode == null || stopAs != null && exitCode > 128 ? null : exitCode;
        return new TrialEnd(status, message, recorded);
    }

    /** The status the dispatcher is told: as NNI's manager, a trial stopped on the assessor's KI ends USER_CANCELED on the wire. */
    String wireStatus() {
        return status == TrialStatus.EARLY_STOPPED ? TrialStatus.USER_CANCELED.name() : status.name();
    }
}
