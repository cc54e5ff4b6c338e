package org.tunekit.runner.manager;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.tunekit.runner.results.TrialStatus;

/**
 * How trials and the experiment stop: the time limits ({@code maxExperimentDuration},
 * {@code maxTrialDuration}, silence), one trial stopped (the assessor's {@code KI}, a person, a limit),
 * and every trial stopped when the experiment is stopped or fails. A stopped trial ends as it was
 * stopped once its service reports its end. Used on the manager's thread only.
 */
final class Stopping {
    private final RunState state;
    private final ManagerSettings settings;
    private final TrainingService service;
    private final Journal journal;
    private final ManagerListener listener;
    private final Clock clock;

    Stopping(RunState state, ManagerSettings settings, TrainingService service, Journal journal, ManagerListener listener, Clock clock) {
        this.state = state;
        this.settings = settings;
        this.service = service;
        this.journal = journal;
        this.listener = listener;
        this.clock = clock;
    }

    /** Stops the experiment once it passed its deadline, and each trial that ran too long or was silent too long. */
    void checkTimes() {
        Instant now = clock.instant();
        if (state.deadline != null && !state.stopping && now.isAfter(state.deadline)) {
            journal.event("deadline", null, "maxExperimentDuration reached", now);
            listener.message("maxExperimentDuration reached: stopping the running trials");
            stopAll(TrialStatus.USER_CANCELED, "the experiment reached maxExperimentDuration");
        }
        for (ManagedTrial t : List.copyOf(state.running.values())) {
            if (t.stopAs != null || !state.running.containsKey(t.jobId)) {
                continue;
            }
            Duration maxTrialDuration = settings.maxTrialDuration();
            Duration silenceTimeout = settings.silenceTimeout();
            if (maxTrialDuration != null && Duration.between(t.started, now).compareTo(maxTrialDuration) > 0) {
                stop(t, TrialStatus.USER_CANCELED, "ran longer than maxTrialDuration (" + ExperimentManager.human(maxTrialDuration) + ")");
            } else if (silenceTimeout != null && Duration.between(t.lastContact, now).compareTo(silenceTimeout) > 0) {
                String silence = t.parametersSent == 0 && !t.reported ? "neither asked for its parameters nor reported" : "reported nothing";
                stop(t, TrialStatus.FAILED, silence + " for " + ExperimentManager.human(silenceTimeout) + " (--silence-timeout)");
            }
        }
    }

    /** A stop asked for from outside: every trial ends USER_CANCELED and the run ends STOPPED. Once only. */
    void stopRequested(String reason) {
        if (state.stopping) {
            return;
        }
        stopAll(TrialStatus.USER_CANCELED, reason);
        state.outcome = ExperimentManager.Outcome.STOPPED;
        listener.message("Stopping: " + reason);
    }

    /** The run stops: added trials are refused, waiting parameters are not run, and every running trial is stopped {@code as}. */
    void stopAll(TrialStatus as, String reason) {
        state.stopping = true;
        for (ManagerEvent.TrialAdded a : state.toAdd) {
            a.done().completeExceptionally(new IllegalArgumentException("not added: " + reason));
        }
        state.toAdd.clear();
        for (ManagedTrial t : state.pending) {
            journal.event("unused", null, "parameters " + t.parameterId + " not run: " + reason, clock.instant());
        }
        state.pending.clear();
        for (ManagedTrial t : List.copyOf(state.running.values())) {
            if (t.stopAs == null && state.running.containsKey(t.jobId)) {
                stop(t, as, reason);
            }
        }
    }

    /** Asks the trial's service to stop it; it will end {@code as}, for {@code reason}. */
    void stop(ManagedTrial t, TrialStatus as, String reason) {
        t.stopAs = as;
        t.stopReason = reason;
        journal.event("stop", t.jobId, reason, clock.instant());
        service.stop(t.jobId, settings.stopGrace());
    }

    /** The run fails: the first message is kept as its error, and its trials are stopped. */
    void fail(String message) {
        if (state.error == null) {
            state.error = message;
        }
        state.outcome = ExperimentManager.Outcome.ERROR;
        if (!state.stopping) {
            stopAll(TrialStatus.USER_CANCELED, "the experiment failed");
        }
    }
}
