package org.tunekit.dispatcher.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.tunekit.dispatcher.embedded.Objective;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.SearchSpace;

/**
 * Drives one tuner through one run, calling it the way the dispatcher does: the search space once,
 * parameter ids from 0, {@code generateParameters} for a request of one and
 * {@code generateMultipleParameters} for a larger one, then each trial's final result followed by its
 * successful {@code trialEnd}, in id order. A tuner that runs out keeps its best value for the rest
 * of the budget. Only the time spent inside the tuner is counted.
 */
final class RunDriver {
    private RunDriver() {}

    /**
     * Runs {@code trials} trials of {@code objective} with {@code tuner}.
     *
     * @throws IllegalStateException when the tuner breaks the contract (null or too many parameter sets),
     *                               naming what it returned; any exception of the tuner passes through
     */
    static RunResult run(RunKey key, Tuner tuner, Objective objective, SearchSpace space, int trials) {
        int batch = key.mode().batchSize();
        double[] regret = new double[trials];
        long tunerNanos = 0;
        long t0 = System.nanoTime();
        tuner.updateSearchSpace(space);
        tunerNanos += System.nanoTime() - t0;
        long nextId = 0;
        int done = 0;
        double best = Double.POSITIVE_INFINITY;
        boolean exhausted = false;
        while (done < trials && !exhausted) {
            int want = Math.min(batch, trials - done);
            List<Long> ids = new ArrayList<>(want);
            for (int i = 0; i < want; i++) {
                ids.add(nextId++);
            }
            List<Parameters> sets;
            t0 = System.nanoTime();
            if (want == 1) {
                try {
                    sets = List.of(requireNonNull(tuner.generateParameters(ids.get(0)), ids.get(0)));
                } catch (NoMoreTrialsException e) {
                    sets = List.of();
                }
            } else {
                sets = tuner.generateMultipleParameters(List.copyOf(ids));
            }
            tunerNanos += System.nanoTime() - t0;
            if (sets == null || sets.size() > want) {
                throw new IllegalStateException("the tuner returned " + (sets == null ? "null" : sets.size() + " parameter sets")
                        + " for the " + want + " ids " + ids);
            }
            if (sets.size() < want) {
                exhausted = true;
            }
            double[] values = new double[sets.size()];
            for (int i = 0; i < sets.size(); i++) {
                values[i] = objective.evaluate(requireNonNull(sets.get(i), ids.get(i)));
            }
            for (int i = 0; i < sets.size(); i++) {
                long id = ids.get(i);
                TrialResult result = new TrialResult(id, sets.get(i), Metric.of(values[i]), false, trialJobId(id));
                t0 = System.nanoTime();
                tuner.receiveTrialResult(result);
                tuner.trialEnd(id, true);
                tunerNanos += System.nanoTime() - t0;
                best = Math.min(best, values[i]);
                regret[done++] = best - objective.optimum();
            }
        }
        int evaluated = done;
        Arrays.fill(regret, done, trials, done == 0 ? Double.POSITIVE_INFINITY : regret[done - 1]);
        return new RunResult(key, regret, evaluated, tunerNanos, null);
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
