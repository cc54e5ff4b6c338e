package org.tunekit.assessors.percentile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tunekit.assessors.support.MetricValues;
import org.tunekit.assessors.support.StateFile;
import org.tunekit.sdk.AssessResult;
import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.OptimizeMode;

/**
 * Percentile pruning. Steps count from 0 (the first intermediate value is step 0). At step {@code s},
 * a trial is judged when at least {@code n_startup_trials} trials have completed successfully,
 * {@code s >= n_warmup_steps} and {@code (s - n_warmup_steps)} is a multiple of {@code interval_steps}.
 * It is {@code BAD} when its best value over steps 0..s is worse than the reference: the
 * {@code percentile}-th best of the completed trials' values at step {@code s} (linear interpolation
 * between order statistics; for {@code maximize} that is the {@code (100 - percentile)}-th percentile of
 * the values, for {@code minimize} the {@code percentile}-th). A trial whose values so far are all NaN is
 * {@code BAD}; NaN values of completed trials are left out; with no completed value at step {@code s}
 * there is no judgement. Only successful trials count as completed: a trial stopped early does not lower
 * the bar for others.
 */
final class PercentileAssessor implements Assessor {
    static final String STATE_FILE = "percentile.state";

    private final double percentile;
    private final int startupTrials;
    private final int warmupSteps;
    private final int intervalSteps;
    private final OptimizeMode mode;

    private final Map<String, double[]> running = new HashMap<>();
    private final List<double[]> completed = new ArrayList<>();

    PercentileAssessor(double percentile, int startupTrials, int warmupSteps, int intervalSteps, OptimizeMode mode) {
        this.percentile = percentile;
        this.startupTrials = startupTrials;
        this.warmupSteps = warmupSteps;
        this.intervalSteps = intervalSteps;
        this.mode = mode;
    }

    static PercentileAssessor fromArguments(ClassArguments arguments) {
        arguments.requireOnly("percentile", "n_startup_trials", "n_warmup_steps", "interval_steps", "optimize_mode");
        return new PercentileAssessor(
                arguments.getDouble("percentile", 50, 0, 100),
                arguments.getInt("n_startup_trials", 5, 0),
                arguments.getInt("n_warmup_steps", 0, 0),
                arguments.getInt("interval_steps", 1, 1),
                OptimizeMode.from(arguments, OptimizeMode.MAXIMIZE));
    }

    @Override
    public AssessResult assessTrial(String trialJobId, List<Metric> history) {
        double[] values = MetricValues.of(history);
        running.put(trialJobId, values);
        int step = values.length - 1;
        if (completed.size() < startupTrials || step < warmupSteps || (step - warmupSteps) % intervalSteps != 0) {
            return AssessResult.GOOD;
        }
        double best = Double.NaN;
        for (double v : values) {
            if (!Double.isNaN(v) && (Double.isNaN(best) || mode.isBetter(v, best))) {
                best = v;
            }
        }
        if (Double.isNaN(best)) {
            return AssessResult.BAD;
        }
        double[] atStep = new double[completed.size()];
        int n = 0;
        for (double[] c : completed) {
            if (c.length > step && !Double.isNaN(c[step])) {
                atStep[n++] = c[step];
            }
        }
        if (n == 0) {
            return AssessResult.GOOD;
        }
        double q = mode == OptimizeMode.MAXIMIZE ? 100 - percentile : percentile;
        double reference = percentile(Arrays.copyOf(atStep, n), q);
        return mode.isBetter(reference, best) ? AssessResult.BAD : AssessResult.GOOD;
    }

    /** The {@code q}-th percentile of {@code values}, interpolating linearly between order statistics. */
    static double percentile(double[] values, double q) {
        Arrays.sort(values);
        double rank = q / 100.0 * (values.length - 1);
        int below = (int) Math.floor(rank);
        int above = Math.min(below + 1, values.length - 1);
        double fraction = rank - below;
        return values[below] + fraction * (values[above] - values[below]);
    }

    @Override
    public void trialEnd(String trialJobId, boolean success) {
        double[] values = running.remove(trialJobId);
        if (success && values != null && values.length > 0) {
            completed.add(values);
        }
    }

    @Override
    public void saveCheckpoint(Path directory) throws IOException {
        List<List<String>> records = new ArrayList<>();
        for (double[] c : completed) {
            records.add(StateFile.record("completed", List.of(), c));
        }
        for (Map.Entry<String, double[]> e : running.entrySet()) {
            records.add(StateFile.record("running", List.of(e.getKey()), e.getValue()));
        }
        StateFile.write(directory.resolve(STATE_FILE), "Percentile", records);
    }

    @Override
    public void loadCheckpoint(Path directory) throws IOException {
        running.clear();
        completed.clear();
        for (StateFile.Record r : StateFile.read(directory.resolve(STATE_FILE), "Percentile")) {
            switch (r.keyword()) {
                case "completed" -> completed.add(r.numbersFrom(1));
                case "running" -> running.put(r.expectAtLeast(2).text(1), r.numbersFrom(2));
                default -> throw r.error("unknown record");
            }
        }
    }

    int completedTrials() {
        return completed.size();
    }
}
