package org.tunekit.dispatcher;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.tunekit.dispatcher.protocol.Payloads;
import org.tunekit.dispatcher.protocol.Payloads.MetricData;
import org.tunekit.dispatcher.protocol.Payloads.TrialEndData;
import org.tunekit.sdk.AssessResult;
import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.Metric;

/**
 * The assessor's side of {@link MsgDispatcher}, used on the assessor worker only: each running trial's
 * intermediate results, ordered by sequence number and handed to the assessor without gaps; a trial
 * the assessor judges {@code BAD} is killed ({@code KI}) and not judged again; a trial's history is
 * forgotten at its end, and the most recently ended trials' late results are ignored.
 */
final class Assessments {
    /** Sends a command to the manager. */
    interface Sender {
        void send(Command command) throws IOException;
    }

    private final Assessor assessor;
    private final Sender sender;
    private final Runnable afterTrialEnd;
    private final Map<String, TrialHistory> histories = new HashMap<>();
    /** The most recently ended trials, whose late intermediate metrics are ignored; bounded so that memory stays flat. */
    private final Set<String> endedTrials = java.util.Collections.newSetFromMap(new LinkedHashMap<>(1024, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
            return size() > MsgDispatcher.ENDED_TRIALS_KEPT;
        }
    });

    /**
     * @param assessor      the assessor
     * @param sender        how a {@code KI} reaches the manager
     * @param afterTrialEnd run after the assessor has heard a trial's end (the dispatcher's checkpoint of it)
     */
    Assessments(Assessor assessor, Sender sender, Runnable afterTrialEnd) {
        this.assessor = assessor;
        this.sender = sender;
        this.afterTrialEnd = afterTrialEnd;
    }

    /** How many trials' histories are held (for tests of bounded memory). */
    int tracked() {
        return histories.size();
    }

    /**
     * Adds an intermediate result to its trial's history and, when the history has no gap up to it,
     * has the assessor judge it; a {@code BAD} verdict sends {@code KI}. Returns the last value of the
     * history when this result got the trial killed, else {@code null}.
     */
    Metric intermediate(MetricData m) throws IOException {
        String trial = m.trialJobId();
        if (endedTrials.contains(trial)) {
            return null;
        }
        TrialHistory h = histories.computeIfAbsent(trial, k -> new TrialHistory());
        if (h.killed) {
            return null;
        }
        List<Metric> ordered = h.add(m.sequence(), m.metric());
        if (ordered == null) {
            return null;
        }
        AssessResult verdict;
        try {
            verdict = assessor.assessTrial(trial, ordered);
        } catch (RuntimeException e) {
            throw new PluginException("the assessor failed in assessTrial(\"" + trial + "\")", e);
        }
        if (verdict == null) {
            throw new PluginException("the assessor returned null from assessTrial(\"" + trial + "\")", null);
        }
        if (verdict == AssessResult.BAD) {
            h.killed = true;
            sender.send(new Command(CommandType.KILL_TRIAL_JOB, Payloads.killTrial(trial)));
            return ordered.get(ordered.size() - 1);
        }
        return null;
    }

    void trialEnd(TrialEndData end) {
        endedTrials.add(end.trialJobId());
        TrialHistory h = histories.remove(end.trialJobId());
        if (h == null) {
            return;
        }
        try {
            assessor.trialEnd(end.trialJobId(), end.succeeded());
        } catch (RuntimeException e) {
            throw new PluginException("the assessor failed in trialEnd(\"" + end.trialJobId() + "\")", e);
        }
        afterTrialEnd.run();
    }

    /** A trial's intermediate results by sequence number, and the contiguous prefix handed to the assessor. */
    static final class TrialHistory {
        private final Map<Integer, Metric> bySequence = new HashMap<>();
        private final List<Metric> contiguous = new ArrayList<>();
        boolean killed;

        /**
         * Adds a value; returns the contiguous history when the new value is part of it (so the
         * assessor should be asked), else {@code null}.
         */
        List<Metric> add(int sequence, Metric metric) {
            if (sequence < contiguous.size()) {
                contiguous.set(sequence, metric);
                return List.copyOf(contiguous);
            }
            bySequence.put(sequence, metric);
            if (sequence != contiguous.size()) {
                return null;
            }
            Metric next;
            while ((next = bySequence.remove(contiguous.size())) != null) {
                contiguous.add(next);
            }
            return List.copyOf(contiguous);
        }
    }
}
