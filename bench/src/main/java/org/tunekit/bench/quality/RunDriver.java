package org.tunekit.bench.quality;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import org.tunekit.demo.TestFunction;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.TunerContext;
import org.tunekit.sdk.space.SearchSpace;

/**
 * Drives one tuner through one run, calling it the way the dispatcher does: the context
 * ({@code open}) and the search space once, parameter ids from 0, {@code generateParameters} for a
 * request of one and {@code generateMultipleParameters} for a larger one, then each trial's final
 * result followed by its successful {@code trialEnd}, in id order. Trials the tuner sends through its
 * {@link TunerContext} take the next id, count toward the budget and fill the next free slots before
 * the tuner is asked again; a sent trial also ends an exhaustion. A tuner that runs out keeps its best
 * value for the rest of the budget. Only the time spent inside the tuner is counted.
 */
final class RunDriver {
    private RunDriver() {}

    /**
     * Runs {@code trials} trials of {@code objective} with {@code tuner}.
     *
     * @throws IllegalStateException when the tuner breaks the contract (null or too many parameter sets),
     *                               naming what it returned; any exception of the tuner passes through
     */
    static RunResult run(RunKey key, Tuner tuner, TestFunction objective, SearchSpace space, int trials) {
        return new Run(tuner, objective).run(key, space, trials);
    }

    /** The state of one run; also the tuner's context, usable only inside the run's calls into the tuner. */
    private static final class Run implements TunerContext {
        private final Tuner tuner;
        private final TestFunction objective;
        private final Thread owner = Thread.currentThread();
        private final Deque<Long> sentIds = new ArrayDeque<>();
        private final Deque<Parameters> sentSets = new ArrayDeque<>();
        private boolean inTuner;
        private long nextId;
        private long tunerNanos;

        Run(Tuner tuner, TestFunction objective) {
            this.tuner = tuner;
            this.objective = objective;
        }

        @Override
        public long sendTrial(Parameters parameters) {
            Objects.requireNonNull(parameters, "TunerContext.sendTrial: parameters must not be null");
            if (Thread.currentThread() != owner || !inTuner) {
                throw new IllegalStateException("TunerContext.sendTrial called from thread '" + Thread.currentThread().getName()
                        + "'" + (inTuner ? "" : " outside the tuner's callbacks")
                        + ": only the tuner's own callbacks, on the thread that calls them, may use the context");
            }
            long id = nextId++;
            sentIds.add(id);
            sentSets.add(parameters);
            return id;
        }

        private void enter() {
            inTuner = true;
        }

        private void leave(long t0) {
            inTuner = false;
            tunerNanos += System.nanoTime() - t0;
        }

        RunResult run(RunKey key, SearchSpace space, int trials) {
            int batch = key.mode().batchSize();
            double[] regret = new double[trials];
            long t0 = System.nanoTime();
            enter();
            try {
                tuner.open(this);
                tuner.updateSearchSpace(space);
            } finally {
                leave(t0);
            }
            int done = 0;
            double best = Double.POSITIVE_INFINITY;
            boolean refused = false;
            while (done < trials && !(refused && sentIds.isEmpty())) {
                int want = Math.min(batch, trials - done);
                List<Long> ids = new ArrayList<>(want);
                List<Parameters> sets = new ArrayList<>(want);
                while (ids.size() < want && !sentIds.isEmpty()) {
                    ids.add(sentIds.poll());
                    sets.add(sentSets.poll());
                }
                refused = false;
                int ask = want - ids.size();
                if (ask > 0) {
                    List<Long> asked = new ArrayList<>(ask);
                    for (int i = 0; i < ask; i++) {
                        asked.add(nextId++);
                    }
                    List<Parameters> got;
                    t0 = System.nanoTime();
                    enter();
                    try {
                        if (ask == 1) {
                            try {
                                got = List.of(requireNonNull(tuner.generateParameters(asked.get(0)), asked.get(0)));
                            } catch (NoMoreTrialsException e) {
                                got = List.of();
                            }
                        } else {
                            got = tuner.generateMultipleParameters(List.copyOf(asked));
                        }
                    } finally {
                        leave(t0);
                    }
                    if (got == null || got.size() > ask) {
                        throw new IllegalStateException("the tuner returned " + (got == null ? "null" : got.size() + " parameter sets")
                                + " for the " + ask + " ids " + asked);
                    }
                    refused = got.size() < ask;
                    ids.addAll(asked.subList(0, got.size()));
                    sets.addAll(got);
                }
                double[] values = new double[sets.size()];
                for (int i = 0; i < sets.size(); i++) {
                    values[i] = objective.evaluate(requireNonNull(sets.get(i), ids.get(i)));
                }
                for (int i = 0; i < sets.size(); i++) {
                    long id = ids.get(i);
                    TrialResult result = new TrialResult(id, sets.get(i), Metric.of(values[i]), false, trialJobId(id));
                    t0 = System.nanoTime();
                    enter();
                    try {
                        tuner.receiveTrialResult(result);
                        tuner.trialEnd(id, true);
                    } finally {
                        leave(t0);
                    }
                    best = Math.min(best, values[i]);
                    regret[done++] = best - objective.optimum();
                }
            }
            int evaluated = done;
            Arrays.fill(regret, done, trials, done == 0 ? Double.POSITIVE_INFINITY : regret[done - 1]);
            return new RunResult(key, regret, evaluated, tunerNanos, null);
        }
    }

    private static Parameters requireNonNull(Parameters p, long id) {
        if (p == null) {
            throw new IllegalStateException("the tuner returned null parameters for id " + id);
        }
        return p;
    }

    /** A trial job id of the kind a manager gives (five characters), derived from the parameter id. */
    static String trialJobId(long id) {
        String s = Long.toString(id, 36);
        return "T" + "0000".substring(Math.min(4, s.length())) + s;
    }
}
