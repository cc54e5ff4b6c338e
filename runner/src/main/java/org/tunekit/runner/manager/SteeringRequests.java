package org.tunekit.runner.manager;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.tunekit.runner.results.TrialStatus;

/**
 * What people ask of a running experiment: new limits, a trial added, a trial stopped. Each is answered
 * through its event's future, completed on the manager's thread (so that an answer recorded there is on
 * disk before what it answers takes effect further). Used on the manager's thread only.
 */
final class SteeringRequests {
    private final RunState state;
    private final TrialScheduler scheduler;
    private final Stopping stopping;
    private final Journal journal;
    private final ManagerListener listener;
    private final Clock clock;

    SteeringRequests(RunState state, TrialScheduler scheduler, Stopping stopping, Journal journal, ManagerListener listener, Clock clock) {
        this.state = state;
        this.scheduler = scheduler;
        this.stopping = stopping;
        this.journal = journal;
        this.listener = listener;
        this.clock = clock;
    }

    /** Applies new limits; the answer says what changed ("trialConcurrency 1 -> 2"), or "limits unchanged". */
    void changeLimits(ManagerEvent.LimitsChanged c) {
        ExperimentManager.Limits l = c.limits();
        List<String> changed = new ArrayList<>();
        if (l.trialConcurrency() != null && l.trialConcurrency() != state.trialConcurrency) {
            changed.add("trialConcurrency " + state.trialConcurrency + " -> " + l.trialConcurrency());
            state.trialConcurrency = l.trialConcurrency();
        }
        if (l.maxTrialNumber() != null && l.maxTrialNumber() != state.maxTrialNumber) {
            changed.add("maxTrialNumber " + (state.maxTrialNumber == 0 ? "none" : state.maxTrialNumber) + " -> "
                    + (l.maxTrialNumber() == 0 ? "none" : l.maxTrialNumber()));
            state.maxTrialNumber = l.maxTrialNumber();
        }
        if (l.maxExperimentDuration() != null) {
            Instant next = l.maxExperimentDuration().isZero() ? null : state.start.plus(l.maxExperimentDuration());
            if (!Objects.equals(next, state.deadline)) {
                changed.add("maxExperimentDuration -> " + (next == null ? "none" : ExperimentManager.human(l.maxExperimentDuration())));
                state.deadline = next;
            }
        }
        String text = changed.isEmpty() ? "limits unchanged" : String.join(", ", changed);
        if (!changed.isEmpty()) {
            journal.event("limits", null, text, clock.instant());
            listener.message("Limits changed: " + text);
        }
        c.done().complete(text);
    }

    /** Stops a running trial as a person does (USER_CANCELED); refused when no such trial runs. */
    void stopTrial(ManagerEvent.TrialStopRequested s) {
        ManagedTrial t = state.running.get(s.jobId());
        if (t == null) {
            s.done().completeExceptionally(new IllegalArgumentException("no trial " + s.jobId() + " is running"));
            return;
        }
        if (t.stopAs == null) {
            stopping.stop(t, TrialStatus.USER_CANCELED, s.reason());
        }
        s.done().complete("trial " + s.jobId() + " is stopping");
    }

    /** Takes an added trial, to get its parameter id as soon as no request is outstanding; refused when stopping or over budget. */
    void addTrial(ManagerEvent.TrialAdded a) {
        if (state.stopping) {
            a.done().completeExceptionally(new IllegalArgumentException("the experiment is stopping"));
            return;
        }
        if (state.maxTrialNumber > 0 && state.used + state.pending.size() + state.toAdd.size() >= state.maxTrialNumber) {
            a.done().completeExceptionally(new IllegalArgumentException("maxTrialNumber (" + state.maxTrialNumber
                    + ") trials have started or wait to: raise maxTrialNumber to add one"));
            return;
        }
        state.toAdd.add(a);
        scheduler.takeAddedTrials();
    }
}
