package org.tunekit.runner.manager;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.tunekit.dispatcher.protocol.JsonCodec;
import org.tunekit.runner.results.TrialStatus;

/**
 * Takes a stored experiment's trials back when a run resumes: every parameter record to the dispatcher
 * ({@code AD}), the finished results to the tuner ({@code IM}), the trials the training service still
 * runs reattached, and only the parameters of trials lost before their final result to run again.
 * Nothing that had ended runs again. Used once, on the manager's thread, before the first trial starts.
 */
final class StoreResumption {
    private final RunState state;
    private final DispatcherLink dispatcher;
    private final TrainingService service;
    private final Journal journal;
    private final ManagerListener listener;
    private final JobIds jobIds;
    private final Clock clock;

    StoreResumption(RunState state, DispatcherLink dispatcher, TrainingService service, Journal journal, ManagerListener listener, JobIds jobIds,
                    Clock clock) {
        this.state = state;
        this.dispatcher = dispatcher;
        this.service = service;
        this.journal = journal;
        this.listener = listener;
        this.jobIds = jobIds;
        this.clock = clock;
    }

    /** Takes the journal's trials back, and records and tells what was taken back. */
    void resume() {
        List<Object> records = new ArrayList<>();
        List<Object> finished = new ArrayList<>();
        int again = 0;
        int reattached = 0;
        int recovered = 0;
        Instant now = clock.instant();
        for (StoredTrial t : journal.trials()) {
            jobIds.reserve(t.trialJobId());
            state.lastParameterId = Math.max(state.lastParameterId, t.parameterId());
            state.nextSequence = Math.max(state.nextSequence, t.sequence() + 1);
            records.add(ParameterRecords.readDispatcherPayload(t.parameterRecord()));
            if (t.status() == TrialStatus.LOST) {
                continue;
            }
            TrialStatus status = t.status();
            if (status == TrialStatus.RUNNING) {
                TrainingService.Reattached r = service.reattach(t);
                if (r.note() != null) {
                    journal.event(r.running() ? "reattached" : "leftover", t.trialJobId(), r.note(), now);
                }
                if (r.running()) {
                    state.running.put(t.trialJobId(), reattachedTrial(t, now));
                    state.used++;
                    reattached++;
                    continue;
                }
                if (t.finalMetric() == null) {
                    ManagedTrial rerun = new ManagedTrial(t.parameterRecord(), t.parameterId());
                    rerun.again = true;
                    state.pending.add(rerun);
                    journal.trialEnded(t.trialJobId(), TrialStatus.LOST, null,
                            "the manager stopped while this trial ran, before its final result; its parameters run again", now);
                    again++;
                    continue;
                }
                status = TrialStatus.SUCCEEDED;
                journal.trialEnded(t.trialJobId(), status, null, "its final result was recorded before the manager stopped", now);
                recovered++;
            }
            state.used++;
            listener.earlier(t.trialJobId(), t.sequence(), status, t.finalValue());
            if (t.finalMetric() != null) {
                finished.add(importedResult(t));
            }
        }
        if (!records.isEmpty()) {
            dispatcher.post(new Command(CommandType.ADD_CUSTOMIZED_TRIAL_JOB, JsonCodec.write(records)));
        }
        if (!finished.isEmpty()) {
            dispatcher.post(new Command(CommandType.IMPORT_DATA, JsonCodec.write(finished)));
        }
        journal.setStatus("RUNNING", null);
        long done = state.used - reattached;
        String summary = "resumed with " + done + " finished trials (" + recovered + " of them ended while the manager was "
                + "stopped), " + reattached + " still running, " + again + " to run again";
        journal.event("resume", null, summary, now);
        listener.message("Resumed: " + done + " trials done before" + (reattached == 0 ? "" : ", " + reattached + " still running")
                + (again == 0 ? "" : ", " + again + " that were running run again"));
    }

    /** A stored trial its service still runs, as the manager keeps it: it had its parameters, and reported if it has a final result. */
    private static ManagedTrial reattachedTrial(StoredTrial t, Instant now) {
        ManagedTrial back = new ManagedTrial(t.parameterRecord(), t.parameterId());
        back.jobId = t.trialJobId();
        back.sequence = t.sequence();
        back.started = t.started();
        back.lastContact = now;
        back.parametersSent = 1;
        back.reported = t.finalMetric() != null;
        back.finalReported = t.finalMetric() != null;
        return back;
    }

    /** A finished trial's result as the tuner imports it ({@code IM}): its parameters, its final result's text, its job id. */
    private static Map<String, Object> importedResult(StoredTrial t) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("parameter", ParameterRecords.parametersOf(t.parameterRecord()));
        d.put("value", t.finalMetric());
        d.put("trialJobId", t.trialJobId());
        return d;
    }
}
