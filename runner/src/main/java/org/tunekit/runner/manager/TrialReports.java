package org.tunekit.runner.manager;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.Payloads;
import org.tunekit.dispatcher.protocol.ProtocolException;
import org.tunekit.runner.results.TrialStatus;
import org.tunekit.sdk.MetricReport;

/**
 * What running trials say and how they end, as their training service reports it: requests for
 * parameters (answered with the trial's own, or passed to the tuner, whose {@code SP} comes back here),
 * metrics (recorded, then handed to the dispatcher as {@code ME}), protocol problems, and ends (the
 * status recorded by {@link TrialEnd}'s rules and told as {@code EN}; a lost trial's parameters wait to
 * run again). Used on the manager's thread only.
 */
final class TrialReports {
    private final RunState state;
    private final DispatcherLink dispatcher;
    private final TrainingService service;
    private final Journal journal;
    private final ManagerListener listener;
    private final Stopping stopping;
    private final Clock clock;

    TrialReports(RunState state, DispatcherLink dispatcher, TrainingService service, Journal journal, ManagerListener listener,
                 Stopping stopping, Clock clock) {
        this.state = state;
        this.dispatcher = dispatcher;
        this.service = service;
        this.journal = journal;
        this.listener = listener;
        this.stopping = stopping;
        this.clock = clock;
    }

    /** A running trial asks for parameters: see {@link TrialEvents#parameterRequest}. */
    void parameterRequest(String jobId, boolean byFile, int index) {
        ManagedTrial t = state.running.get(jobId);
        if (t != null) {
            parameterRequest(t, byFile, index);
        }
    }

    /** A trial asks for parameters: the first time on a live channel it gets its own, after that the tuner makes more. */
    private void parameterRequest(ManagedTrial t, boolean byFile, int index) {
        t.lastContact = clock.instant();
        t.lastAskedByFile = byFile;
        if (!byFile && t.parametersSent == 0) {
            t.parametersSent = 1;
            service.sendParameters(t.jobId, t.parameterRecord, 0, false);
        } else {
            // a multi-phase trial asks again: the tuner makes new parameters, which come back as SP
            dispatcher.post(Command.of(new Payloads.MetricData(t.parameterId, t.jobId, MetricReport.Type.REQUEST_PARAMETER, 0, null,
                    index >= 0 ? index : t.parametersSent)));
        }
    }

    /** The tuner's new parameters for a trial that asked again ({@code SP}), sent the way it asked. */
    void parametersMade(Command c) {
        Map<?, ?> record = (Map<?, ?>) ParameterRecords.readDispatcherPayload(c.payload());
        ManagedTrial t = state.running.get(String.valueOf(record.get("trial_job_id")));
        if (t != null) {
            int index = record.get("parameter_index") instanceof Number n ? n.intValue() : t.parametersSent;
            if (!t.lastAskedByFile) {
                t.parametersSent++;
            }
            service.sendParameters(t.jobId, c.payload(), index, t.lastAskedByFile);
        }
    }

    /** A trial's metric: recorded, and its sender told so, or told what is wrong with it. */
    void metric(ManagerEvent.MetricReceived m) {
        ManagedTrial t = state.running.get(m.jobId());
        if (t == null) {
            m.recorded().completeExceptionally(new IllegalArgumentException("trial " + m.jobId() + " has ended"));
            return;
        }
        String problem;
        try {
            problem = recordMetric(t, m.text(), m.from());
        } catch (RuntimeException e) {
            m.recorded().completeExceptionally(e);
            stopping.fail(e.getMessage());
            return;
        }
        if (problem != null) {
            m.recorded().completeExceptionally(new IllegalArgumentException(problem));
        } else {
            m.recorded().complete(null);
        }
    }

    /**
     * Records a trial's metric (ME text, read here once) and hands it to the dispatcher as the record it
     * was read into; a request for parameters is handled as one. Returns what is wrong with a malformed
     * metric (also recorded as an event), else null. A frame read from a file is counted as read in the
     * store, whatever it was.
     */
    private String recordMetric(ManagedTrial t, String text, MetricStream from) {
        t.lastContact = clock.instant();
        ReportedMetric reported;
        try {
            reported = ReportedMetric.read(text, t.jobId, t.parameterId);
        } catch (ProtocolException e) {
            String problem = "trial " + t.jobId + " reported a malformed metric: " + e.getMessage();
            t.protocolProblem = problem;
            journal.event("bad-metric", t.jobId, problem, clock.instant());
            journal.frameRead(t.jobId, from);
            return problem;
        }
        Payloads.MetricData data = reported.data();
        if (data.type() == MetricReport.Type.REQUEST_PARAMETER) {
            journal.frameRead(t.jobId, from);
            parameterRequest(t, from != MetricStream.LIVE, data.parameterIndex());
            return null;
        }
        t.reported = true;
        journal.metric(t.jobId, from, data.parameterId(), data.type().name(), data.sequence(), reported.valueText(), data.metric().value(),
                clock.instant());
        if (data.type() == MetricReport.Type.FINAL) {
            t.finalReported = true;
            listener.finalResult(t.jobId, data.metric().value());
        } else if (data.type() == MetricReport.Type.PERIODICAL) {
            listener.intermediateResult(t.jobId, data.metric().value());
        }
        dispatcher.post(Command.of(data));
        return null;
    }

    /** A trial talks wrongly: recorded, and it cannot succeed. */
    void problem(String jobId, String text) {
        ManagedTrial t = state.running.get(jobId);
        if (t != null) {
            t.protocolProblem = text;
            journal.event("bad-metric", t.jobId, text, clock.instant());
        }
    }

    /**
     * A trial's job ended without its exit status: see {@link TrialEvents#ended}. A trial lost with the
     * place it ran ends LOST and, unless it was being stopped, its parameters wait to run again first,
     * without counting twice against maxTrialNumber; the dispatcher is not told of an end (the
     * parameters' end comes with the new trial's). One lost after its final result was recorded succeeded.
     */
    void ended(String jobId, TrialStatus status, String reason) {
        ManagedTrial t = state.running.get(jobId);
        if (t == null) {
            return;
        }
        if (t.stopAs == null && status == TrialStatus.LOST && t.finalReported) {
            t.stopAs = TrialStatus.SUCCEEDED;
            t.stopReason = reason + "; its final result was recorded before";
        } else if (t.stopAs == null && status == TrialStatus.LOST) {
            // what it reported before it was lost is recorded; its parameters run again, first in line
            service.collect(jobId);
            state.running.remove(jobId);
            state.used--;
            Instant now = clock.instant();
            String message = reason + "; its parameters run again";
            journal.trialEnded(jobId, TrialStatus.LOST, null, message, now);
            ManagedTrial rerun = new ManagedTrial(t.parameterRecord, t.parameterId);
            rerun.again = true;
            state.pending.addFirst(rerun);
            listener.trialEnded(jobId, t.sequence, TrialStatus.LOST, message, Duration.between(t.started, now));
            return;
        } else if (t.stopAs == null) {
            t.stopAs = status;
            t.stopReason = reason;
        }
        exited(jobId, null);
    }

    /** A trial's end: its exit status, or {@code null} when it ended without one (its status is then {@code stopAs}). */
    void exited(String jobId, Integer exitCode) {
        ManagedTrial t = state.running.get(jobId);
        if (t == null) {
            return;
        }
        // what the trial left unread reaches the dispatcher before its end
        service.collect(jobId);
        state.running.remove(jobId);
        TrialEnd end = TrialEnd.of(jobId, exitCode, t.stopAs, t.stopReason, service.seesParameterRequests() && t.parametersSent == 0,
                t.protocolProblem);
        Instant now = clock.instant();
        journal.trialEnded(jobId, end.status(), end.exitCode(), end.message(), now);
        dispatcher.post(Command.of(new Payloads.TrialEndData(jobId, end.wireStatus(), t.parameterId)));
        if (state.noMoreTrials) {
            // as NNI's manager: a freed slot is offered to the tuner again, even after it said NO
            state.requestCredit++;
        }
        listener.trialEnded(jobId, t.sequence, end.status(), end.message(), Duration.between(t.started, now));
    }
}
