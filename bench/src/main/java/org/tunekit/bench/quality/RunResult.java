package org.tunekit.bench.quality;

import java.util.Arrays;

/**
 * What one run produced.
 *
 * @param key        which run
 * @param bestRegret best-so-far regret after trial 1, 2, ... (length = the budget), or {@code null} when the run failed
 * @param evaluated  how many trials were evaluated (fewer than the budget when the tuner ran out)
 * @param tunerNanos time spent inside the tuner's methods (objective evaluation excluded)
 * @param failure    why the run failed, or {@code null}
 */
record RunResult(RunKey key, double[] bestRegret, int evaluated, long tunerNanos, String failure) {

    RunResult {
        bestRegret = bestRegret == null ? null : bestRegret.clone();
    }

    static RunResult failed(RunKey key, String failure, long tunerNanos) {
        return new RunResult(key, null, 0, tunerNanos, failure);
    }

    boolean succeeded() {
        return failure == null;
    }

    /** The best-so-far regret after {@code trials} trials (1-based). */
    double regretAfter(int trials) {
        return bestRegret[trials - 1];
    }

    @Override
    public double[] bestRegret() {
        return bestRegret == null ? null : bestRegret.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RunResult r && key.equals(r.key) && Arrays.equals(bestRegret, r.bestRegret) && evaluated == r.evaluated
                && tunerNanos == r.tunerNanos && java.util.Objects.equals(failure, r.failure);
    }

    @Override
    public int hashCode() {
        return 31 * key.hashCode() + Arrays.hashCode(bestRegret);
    }

    @Override
    public String toString() {
        return "RunResult[" + key + ", evaluated=" + evaluated + (failure != null ? ", failure=" + failure : "") + "]";
    }
}
