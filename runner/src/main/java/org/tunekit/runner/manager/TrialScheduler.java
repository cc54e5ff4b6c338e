package org.tunekit.runner.manager;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.tunekit.dispatcher.protocol.JsonCodec;
import org.tunekit.runner.results.TrialStatus;

/**
 * Puts parameters onto free slots: asks the dispatcher for trials ({@code GE}) as slots and the budget
 * allow, takes the parameters it sends ({@code GT}) or its {@code NO}, gives trials added by hand their
 * parameter ids, and starts waiting trials while their service {@linkplain TrainingService#canStart can
 * start} one (a free GPU). Used on the manager's thread only.
 */
final class TrialScheduler {
    private final RunState state;
    private final DispatcherLink dispatcher;
    private final TrainingService service;
    private final Journal journal;
    private final ManagerListener listener;
    private final Stopping stopping;
    private final JobIds jobIds;
    private final Clock clock;
    private final boolean lockStep;

    TrialScheduler(RunState state, DispatcherLink dispatcher, TrainingService service, Journal journal, ManagerListener listener,
                   Stopping stopping, JobIds jobIds, Clock clock, boolean lockStep) {
        this.state = state;
        this.dispatcher = dispatcher;
        this.service = service;
        this.journal = journal;
        this.listener = listener;
        this.stopping = stopping;
        this.jobIds = jobIds;
        this.clock = clock;
        this.lockStep = lockStep;
    }

    /** One turn: added trials get their ids, waiting trials start, and the dispatcher is asked for what slots remain. */
    void schedule() {
        takeAddedTrials();
        startPending();
        requestTrials();
        if (lockStep) {
            // the answers are in: the new trials start before the running ones take their next step
            startPending();
        }
    }

    /** The dispatcher sent parameters ({@code GT}): they wait to start, unless the budget is spent or the run stops. */
    void newTrial(Command c) {
        state.requested = Math.max(0, state.requested - 1);
        long budget = state.maxTrialNumber > 0 ? state.maxTrialNumber - state.used - state.pending.size() - state.toAdd.size() : Long.MAX_VALUE;
        Map<?, ?> record = (Map<?, ?>) ParameterRecords.readDispatcherPayload(c.payload());
        long id = ((Number) record.get("parameter_id")).longValue();
        state.lastParameterId = Math.max(state.lastParameterId, id);
        if (budget <= 0 || state.stopping) {
            journal.event("unused", null, "parameters " + id + " not run: "
                    + (state.stopping ? "the experiment is stopping" : "maxTrialNumber reached"), clock.instant());
            return;
        }
        state.pending.add(new ManagedTrial(c.payload(), id));
    }

    /** The tuner has no more parameters ({@code NO}): nothing is asked for until a slot is freed. */
    void noMoreTrials() {
        state.requested = 0;
        if (!state.noMoreTrials) {
            journal.event("no-more-trials", null, "the tuner has no more parameters", clock.instant());
        }
        state.noMoreTrials = true;
        state.requestCredit = 0;
    }

    /**
     * Gives the trials added by hand their parameter ids, after the last one the dispatcher gave, and
     * tells the dispatcher of them ({@code AD}, so that its own ids go on after them): only while no
     * request is outstanding, so that an id is never given twice. They run first, in the order added.
     */
    void takeAddedTrials() {
        if (state.toAdd.isEmpty() || state.requested > 0) {
            return;
        }
        List<Object> records = new ArrayList<>();
        List<ManagedTrial> first = new ArrayList<>();
        for (ManagerEvent.TrialAdded a : state.toAdd) {
            long id = ++state.lastParameterId;
            Map<String, Object> record = ParameterRecords.customized(id, a.parameters());
            records.add(record);
            ManagedTrial t = new ManagedTrial(JsonCodec.write(record), id);
            t.added = true;
            first.add(t);
            journal.event("added", null, "parameters " + id + " " + JsonCodec.write(a.parameters()) + (a.note() == null ? "" : ": " + a.note()),
                    clock.instant());
            a.done().complete(new AddedTrial(id));
        }
        state.toAdd.clear();
        dispatcher.post(new Command(CommandType.ADD_CUSTOMIZED_TRIAL_JOB, JsonCodec.write(records)));
        // before the tuner's, behind trials lost and waiting to run again and those added before
        List<ManagedTrial> rest = new ArrayList<>(state.pending);
        state.pending.clear();
        rest.stream().filter(t -> t.again).forEach(state.pending::add);
        rest.stream().filter(t -> t.added && !t.again).forEach(state.pending::add);
        state.pending.addAll(first);
        rest.stream().filter(t -> !t.again && !t.added).forEach(state.pending::add);
    }

    private void startPending() {
        while (state.running.size() < state.trialConcurrency && !state.pending.isEmpty() && !state.stopping && service.canStart()) {
            startTrial(state.pending.poll());
        }
    }

    private void requestTrials() {
        if (state.stopping || !state.canRequest()) {
            return;
        }
        long free = state.trialConcurrency - state.running.size() - state.pending.size() - state.requested;
        long budget = state.maxTrialNumber > 0
                ? state.maxTrialNumber - state.used - state.pending.size() - state.toAdd.size() - state.requested : Long.MAX_VALUE;
        long n = Math.min(free, budget);
        if (state.noMoreTrials) {
            n = Math.min(n, state.requestCredit);
        }
        if (n > 0 && lockStep && state.used > 0) {
            // one slot at a time, each answer taken before the next request, as NNI's manager asks for freed slots
            for (long i = 0; i < n && state.canRequest() && state.running.size() + state.pending.size() + state.requested < state.trialConcurrency;
                 i++) {
                state.requested++;
                if (state.noMoreTrials) {
                    state.requestCredit--;
                }
                dispatcher.post(new Command(CommandType.REQUEST_TRIAL_JOBS, "1"));
            }
        } else if (n > 0) {
            state.requested += (int) n;
            if (state.noMoreTrials) {
                state.requestCredit -= (int) n;
            }
            dispatcher.post(new Command(CommandType.REQUEST_TRIAL_JOBS, Long.toString(n)));
        }
    }

    private void startTrial(ManagedTrial t) {
        t.jobId = jobIds.next(state.nextSequence, lockStep);
        t.sequence = state.nextSequence++;
        state.used++;
        Instant now = clock.instant();
        t.started = now;
        t.lastContact = now;
        // recorded before it starts: a manager killed in between finds it and does not lose its parameters
        journal.trialStarted(t.sequence, t.jobId, t.parameterId, t.parameterRecord, now);
        Placement placement;
        try {
            placement = service.start(new TrialLaunch(journal.id(), t.jobId, t.sequence, t.parameterId, t.parameterRecord));
        } catch (java.io.IOException | RuntimeException e) {
            journal.trialEnded(t.jobId, TrialStatus.FAILED, null, "could not be started: " + e.getMessage(), clock.instant());
            stopping.fail("trial " + t.jobId + " could not be started " + service.describe() + ": " + e.getMessage());
            return;
        }
        journal.trialPlaced(t.jobId, placement);
        state.running.put(t.jobId, t);
        listener.trialStarted(t.jobId, t.sequence, ParameterRecords.parametersOf(t.parameterRecord));
    }
}
