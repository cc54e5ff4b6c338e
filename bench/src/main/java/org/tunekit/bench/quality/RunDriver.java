package org.tunekit.bench.quality;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.tunekit.demo.TestFunction;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.TunerContext;
import org.tunekit.sdk.internal.TrialRequests;
import org.tunekit.sdk.space.SearchSpace;

/**
 * Drives one tuner through one run, calling it the way the dispatcher does: the context
 * ({@code open}) and the search space once, then requests for trials answered by the dispatcher's rule
 * ({@link TrialRequests}: parameter ids from 0, {@code generateParameters} for a request of one and
 * {@code generateMultipleParameters} for a larger one), then each trial's final
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
        private final TrialRequests requests;
        private boolean inTuner;
        private long nextId;
        private long tunerNanos;

        Run(Tuner tuner, TestFunction objective) {
            this.tuner = tuner;
            this.objective = objective;
            this.requests = new TrialRequests(tuner, () -> nextId++);
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
            requests.add(id, parameters);
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
            while (done < trials && !requests.exhausted()) {
                List<TrialRequests.Trial> got;
                t0 = System.nanoTime();
                enter();
                try {
                    got = requests.request(Math.min(batch, trials - done)).trials();
                } catch (TrialRequests.TunerFailure f) {
                    // the tuner's own exceptions pass through
                    if (f.getCause() instanceof RuntimeException e) {
                        throw e;
                    }
                    throw new IllegalStateException(f.getMessage(), f);
                } finally {
                    leave(t0);
                }
                double[] values = new double[got.size()];
                for (int i = 0; i < got.size(); i++) {
                    values[i] = objective.evaluate(got.get(i).parameters());
                }
                for (int i = 0; i < got.size(); i++) {
                    long id = got.get(i).parameterId();
                    TrialResult result = new TrialResult(id, got.get(i).parameters(), Metric.of(values[i]), false, trialJobId(id));
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

    /** A trial job id of the kind a manager gives (five characters), derived from the parameter id. */
    static String trialJobId(long id) {
        String s = Long.toString(id, 36);
        return "T" + "0000".substring(Math.min(4, s.length())) + s;
    }
}
