package org.tunekit.assessors.percentile;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.tunekit.assessors.support.MetricValues;
import org.tunekit.assessors.support.SettlingStep;
import org.tunekit.assessors.support.SortedDoubles;
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
 *
 * <p>With {@code n_warmup_steps} {@code "auto"}, nothing is judged until the first
 * {@code max(n_startup_trials, 10)} trials have completed; the warm-up then lasts until their
 * {@link SettlingStep}, the step from which their values predict their final ranking.
 */
final class PercentileAssessor implements Assessor {
    static final String STATE_FILE = "percentile.state";

    private final double percentile;
    private final int startupTrials;
    /** Steps of warm-up; -1 while {@link #settling} has not found them. */
    private int warmupSteps;
    /** Finds the warm-up with {@code n_warmup_steps} auto, else {@code null}. */
    private final SettlingStep settling;
    private final int intervalSteps;
    private final OptimizeMode mode;

    private final Map<String, double[]> running = new HashMap<>();
    private final List<double[]> completed = new ArrayList<>();
    /** Index {@code s}: the completed trials' non-NaN values at step {@code s}, sorted, so a judgement needs no scan. */
    private final List<SortedDoubles> completedAtStep = new ArrayList<>();

    /** Used in the arguments for the warm-up to be found from the first completed trials. */
    static final String AUTO = "auto";
    /** With {@link #AUTO}, the fewest completed trials the warm-up is found from. */
    static final int AUTO_TRIALS = 10;

    /**
     * @param warmupSteps steps of warm-up, or -1 to find them from the first {@code max(startupTrials, 10)} completed trials
     */
    PercentileAssessor(double percentile, int startupTrials, int warmupSteps, int intervalSteps, OptimizeMode mode) {
        this.percentile = percentile;
        this.startupTrials = startupTrials;
        this.warmupSteps = warmupSteps;
        this.settling = warmupSteps < 0 ? new SettlingStep(Math.max(startupTrials, AUTO_TRIALS)) : null;
        this.intervalSteps = intervalSteps;
        this.mode = mode;
    }

    static PercentileAssessor fromArguments(ClassArguments arguments) {
        arguments.requireOnly("percentile", "n_startup_trials", "n_warmup_steps", "interval_steps", "optimize_mode");
        return new PercentileAssessor(
                arguments.getDouble("percentile", 50, 0, 100),
                arguments.getInt("n_startup_trials", 5, 0),
                AUTO.equals(arguments.get("n_warmup_steps")) ? -1 : arguments.getInt("n_warmup_steps", 0, 0),
                arguments.getInt("interval_steps", 1, 1),
                OptimizeMode.from(arguments, OptimizeMode.MAXIMIZE));
    }

    @Override
    public AssessResult assessTrial(String trialJobId, List<Metric> history) {
        double[] values = MetricValues.of(history);
        running.put(trialJobId, values);
        if (warmupSteps < 0) {
            settling.observe(trialJobId, history);
            return AssessResult.GOOD;
        }
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
        if (step >= completedAtStep.size() || completedAtStep.get(step).size() == 0) {
            return AssessResult.GOOD;
        }
        double q = mode == OptimizeMode.MAXIMIZE ? 100 - percentile : percentile;
        double reference = completedAtStep.get(step).percentile(q);
        return mode.isBetter(reference, best) ? AssessResult.BAD : AssessResult.GOOD;
    }


    @Override
    public void trialEnd(String trialJobId, boolean success) {
        double[] values = running.remove(trialJobId);
        if (success && values != null && values.length > 0) {
            addCompleted(values);
        }
        if (warmupSteps < 0 && settling.trialEnd(trialJobId, success)) {
            warmupSteps = warmupOf(settling.step().orElseThrow());
        }
    }

    /** Steps count from 0 here: values from history length {@code settled} on are judged. */
    private static int warmupOf(int settled) {
        return settled == Integer.MAX_VALUE ? Integer.MAX_VALUE : settled - 1;
    }

    /** The warm-up in steps, once known. */
    OptionalInt warmupSteps() {
        return warmupSteps < 0 ? OptionalInt.empty() : OptionalInt.of(warmupSteps);
    }

    private void addCompleted(double[] values) {
        completed.add(values);
        for (int s = 0; s < values.length; s++) {
            if (completedAtStep.size() <= s) {
                completedAtStep.add(new SortedDoubles());
            }
            if (!Double.isNaN(values[s])) {
                completedAtStep.get(s).add(values[s]);
            }
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
        if (settling != null) {
            records.addAll(settling.records());
        }
        StateFile.write(directory.resolve(STATE_FILE), "Percentile", records);
    }

    @Override
    public void loadCheckpoint(Path directory) throws IOException {
        running.clear();
        completed.clear();
        completedAtStep.clear();
        if (settling != null) {
            settling.reset();
        }
        boolean settlingRead = false;
        for (StateFile.Record r : StateFile.read(directory.resolve(STATE_FILE), "Percentile")) {
            switch (r.keyword()) {
                case "completed" -> addCompleted(r.numbersFrom(1));
                case "running" -> running.put(r.expectAtLeast(2).text(1), r.numbersFrom(2));
                default -> {
                    if (settling == null || !settling.read(r)) {
                        throw r.error(settling == null ? "unknown record (was the state written with n_warmup_steps \"auto\"?)"
                                : "unknown record");
                    }
                    settlingRead = true;
                }
            }
        }
        if (settling != null && !settlingRead) {
            throw new IOException(directory.resolve(STATE_FILE) + ": no settling record, but n_warmup_steps is \"auto\" (was the state "
                    + "written with a fixed n_warmup_steps?)");
        }
        if (settling != null) {
            settling.step().ifPresent(settled -> warmupSteps = warmupOf(settled));
        }
    }

    int completedTrials() {
        return completed.size();
    }
}
