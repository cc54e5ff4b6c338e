package org.tunekit.study;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.tunekit.sdk.Parameters;

/** A study's trials in this process's memory, gone when it ends. */
final class MemoryStore implements StudyStore {
    private final StudyDefinition definition;
    private final List<TrialRecord> trials = new ArrayList<>();
    private final List<Integer> endOrder = new ArrayList<>();
    private final Deque<Parameters> enqueued = new ArrayDeque<>();
    private long nextParameterId;
    private int running;

    MemoryStore(StudyDefinition definition) {
        this.definition = definition;
    }

    @Override
    public StudyDefinition definition() {
        return definition;
    }

    @Override
    public boolean shared() {
        return false;
    }

    @Override
    public synchronized TrialRecord startEnqueued(String worker, Instant now) {
        Parameters p = enqueued.poll();
        return p == null ? null : add(nextParameterId++, p, true, worker, now);
    }

    @Override
    public synchronized long takeParameterId() {
        return nextParameterId++;
    }

    @Override
    public synchronized TrialRecord start(long parameterId, Parameters parameters, String worker, Instant now) {
        return add(parameterId, parameters, false, worker, now);
    }

    private TrialRecord add(long parameterId, Parameters parameters, boolean isEnqueued, String worker, Instant now) {
        TrialRecord t = new TrialRecord(trials.size(), parameterId, parameters, TrialState.RUNNING, List.of(), TrialRecord.noIntermediate(),
                isEnqueued, null, worker, now, null);
        trials.add(t);
        running++;
        return t;
    }

    @Override
    public synchronized void enqueue(Parameters parameters, Instant now) {
        enqueued.add(parameters);
    }

    @Override
    public synchronized TrialRecord report(int number, long step, double value, Instant now) {
        TrialRecord t = runningTrial(number);
        if (!t.intermediate().isEmpty() && t.intermediate().lastKey() >= step) {
            throw new StudyException("trial " + number + " already reported step " + t.intermediate().lastKey()
                    + ": steps must grow, got " + step);
        }
        TrialRecord u = t.withIntermediate(step, value);
        trials.set(number, u);
        return u;
    }

    @Override
    public synchronized TrialRecord finish(int number, TrialState state, List<Double> values, Object reported, String message, Instant now) {
        TrialRecord t = runningTrial(number).ended(state, values, message, now);
        trials.set(number, t);
        endOrder.add(number);
        running--;
        return t;
    }

    private TrialRecord runningTrial(int number) {
        if (number < 0 || number >= trials.size()) {
            throw new StudyException("the study has no trial " + number);
        }
        TrialRecord t = trials.get(number);
        if (t.state().ended()) {
            throw new StudyException("trial " + number + " has already ended as " + t.state());
        }
        return t;
    }

    @Override
    public synchronized Ended endedSince(long cursor) {
        List<TrialRecord> out = new ArrayList<>();
        for (int i = (int) cursor; i < endOrder.size(); i++) {
            out.add(trials.get(endOrder.get(i)));
        }
        return new Ended(out, endOrder.size());
    }

    @Override
    public synchronized List<TrialRecord> trials() {
        return List.copyOf(trials);
    }

    @Override
    public synchronized int running() {
        return running;
    }

    @Override
    public void heartbeat(String worker, Instant now) {}

    @Override
    public List<TrialRecord> failSilentWorkers(Instant silentSince, Instant now, boolean retry) {
        return List.of();
    }

    @Override
    public void close() {}
}
