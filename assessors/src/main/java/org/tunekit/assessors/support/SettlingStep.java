package org.tunekit.assessors.support;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.stats.RankCorrelation;

/**
 * Finds, from the first trials that complete, the step from which a trial's value predicts its final
 * value: the first step at which an assessor that compares trials at equal steps may judge.
 *
 * <p>Until {@code trialsNeeded} trials have completed successfully, the owner judges nothing and
 * hands every history it sees to {@link #observe} and every end to {@link #trialEnd}; those trials
 * are therefore an unbiased sample. The settling step is then
 * {@link RankCorrelation#firstPredictiveStep} of their curves: the first step from which their values'
 * rank correlation with their last values stays at least {@value RankCorrelation#PREDICTIVE}.
 * Curves that cross late (slow starters overtaking fast ones) give a late step, curves whose order is
 * set early a step near 1. When no step qualifies the step is {@link Integer#MAX_VALUE}: never judge.
 */
public final class SettlingStep {
    /** The fewest curves a step's correlation is computed over. */
    static final int MIN_CURVES = RankCorrelation.MIN_CURVES;

    private final int trialsNeeded;
    private final Map<String, double[]> running = new HashMap<>();
    private final List<double[]> completed = new ArrayList<>();
    private int step;

    /**
     * @param trialsNeeded how many successfully completed trials the step is computed from (at least {@value #MIN_CURVES})
     */
    public SettlingStep(int trialsNeeded) {
        if (trialsNeeded < MIN_CURVES) {
            throw new IllegalArgumentException("the settling step needs at least " + MIN_CURVES + " completed trials, got " + trialsNeeded);
        }
        this.trialsNeeded = trialsNeeded;
    }

    /** Forgets everything, as before the first trial. */
    public void reset() {
        running.clear();
        completed.clear();
        step = 0;
    }

    /** The settling step, once known. */
    public OptionalInt step() {
        return step == 0 ? OptionalInt.empty() : OptionalInt.of(step);
    }

    /** Keeps the latest history of a running trial (until the step is known). */
    public void observe(String trialJobId, List<Metric> history) {
        if (step != 0) {
            return;
        }
        running.put(trialJobId, MetricValues.of(history));
    }

    /**
     * Ends a trial; a successful one with at least two values adds its curve.
     *
     * @return true when this end settled the step
     */
    public boolean trialEnd(String trialJobId, boolean success) {
        double[] curve = running.remove(trialJobId);
        if (step != 0 || !success || curve == null || curve.length < 2) {
            return false;
        }
        completed.add(curve);
        if (completed.size() < trialsNeeded) {
            return false;
        }
        step = settle(completed);
        running.clear();
        return true;
    }

    /** The completed curves the step was (or will be) computed from, in completion order. */
    public List<double[]> completedCurves() {
        return completed.stream().map(double[]::clone).toList();
    }

    /**
     * Restores a state saved as {@link #step()} (0 while unknown) and {@link #completedCurves()}, for
     * owners that write their own checkpoint format.
     */
    public void restore(int settledStep, List<double[]> curves) {
        if (settledStep < 0) {
            throw new IllegalArgumentException("a settling step is at least 1 (0: not known yet), got " + settledStep);
        }
        reset();
        curves.forEach(c -> completed.add(c.clone()));
        step = settledStep;
    }

    /** The state to checkpoint: the step ({@code 0} while unknown) and the completed curves. */
    public List<List<String>> records() {
        List<List<String>> records = new ArrayList<>();
        records.add(StateFile.record("settling", List.of(Integer.toString(step))));
        for (double[] c : completed) {
            records.add(StateFile.record("curve", List.of(), c));
        }
        return records;
    }

    /**
     * Reads one record written by {@link #records}.
     *
     * @return false when the record is not one of this class's
     * @throws IOException naming the line when the record is malformed
     */
    public boolean read(StateFile.Record r) throws IOException {
        switch (r.keyword()) {
            case "settling" -> {
                step = r.expectSize(2).count(1);
                return true;
            }
            case "curve" -> {
                completed.add(r.expectAtLeast(3).numbersFrom(1));
                return true;
            }
            default -> {
                return false;
            }
        }
    }

    /** The settling step of {@code curves}: {@link RankCorrelation#firstPredictiveStep}. */
    public static int settle(List<double[]> curves) {
        return RankCorrelation.firstPredictiveStep(curves);
    }
}
