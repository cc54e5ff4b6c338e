package org.tunekit.examples.assessor;

import java.util.List;
import org.tunekit.sdk.AssessResult;
import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.OptimizeMode;

/**
 * Stops a trial that has stopped learning, or that is hopeless. A trial is {@code BAD} when, from
 * step {@code start_step} on, its best value has not improved by more than {@code min_delta} in the
 * last {@code patience} steps; or, when {@code threshold} is given, when its latest value is worse
 * than that threshold from {@code start_step} on.
 *
 * <p>The judgement reads only the trial's own history, so the assessor keeps no state between calls
 * and a checkpoint has nothing to save.
 *
 * <p>Class arguments: {@code optimize_mode} (maximize), {@code patience} (3), {@code min_delta} (0),
 * {@code start_step} (patience + 1), {@code threshold} (none).
 */
public final class NoImprovementAssessor implements Assessor {
    private final OptimizeMode mode;
    private final int patience;
    private final double minDelta;
    private final int startStep;
    private final Double thresholdLoss;

    /** An assessor with these class arguments; an unknown or malformed argument is an error naming it. */
    public NoImprovementAssessor(ClassArguments args) {
        args.requireOnly("optimize_mode", "patience", "min_delta", "start_step", "threshold");
        this.mode = OptimizeMode.from(args, OptimizeMode.MAXIMIZE);
        this.patience = args.getInt("patience", 3, 1);
        this.minDelta = args.getDouble("min_delta", 0, 0, Double.MAX_VALUE);
        this.startStep = args.getInt("start_step", patience + 1, 1);
        this.thresholdLoss = args.has("threshold") ? mode.toLoss(args.getDouble("threshold", 0)) : null;
    }

    @Override
    public AssessResult assessTrial(String trialJobId, List<Metric> history) {
        int steps = history.size();
        if (steps < startStep) {
            return AssessResult.GOOD;
        }
        double latest = mode.toLoss(history.get(steps - 1).value());
        if (thresholdLoss != null && !(latest <= thresholdLoss)) {
            return AssessResult.BAD;
        }
        if (steps <= patience) {
            return AssessResult.GOOD;
        }
        double bestBefore = Double.POSITIVE_INFINITY;
        for (Metric m : history.subList(0, steps - patience)) {
            bestBefore = Math.min(bestBefore, mode.toLoss(m.value()));
        }
        double bestRecent = Double.POSITIVE_INFINITY;
        for (Metric m : history.subList(steps - patience, steps)) {
            bestRecent = Math.min(bestRecent, mode.toLoss(m.value()));
        }
        return bestRecent < bestBefore - minDelta ? AssessResult.GOOD : AssessResult.BAD;
    }
}
