package org.tunekit.assessors.threshold;

import java.util.List;
import org.tunekit.sdk.AssessResult;
import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.Metric;

/**
 * {@code BAD} as soon as a trial's latest intermediate value is below {@code lower}, above
 * {@code upper}, or not a number; never before step {@code n_warmup_steps} (steps count from 0, the
 * first intermediate value being step 0). Holds no state, so it writes no checkpoint.
 */
final class ThresholdAssessor implements Assessor {
    private final double lower;
    private final double upper;
    private final int warmupSteps;

    ThresholdAssessor(double lower, double upper, int warmupSteps) {
        this.lower = lower;
        this.upper = upper;
        this.warmupSteps = warmupSteps;
    }

    /** Reads {@code lower}, {@code upper} (at least one) and {@code n_warmup_steps}. */
    static ThresholdAssessor fromArguments(ClassArguments arguments) {
        // optimize_mode is accepted, as by every assessor, and unused: the bounds are absolute
        arguments.requireOnly("lower", "upper", "n_warmup_steps", "optimize_mode");
        if (!arguments.has("lower") && !arguments.has("upper")) {
            throw new InvalidClassArgumentException("class argument 'lower' or 'upper' is required (or both)");
        }
        double lower = arguments.getDouble("lower", Double.NEGATIVE_INFINITY);
        double upper = arguments.getDouble("upper", Double.POSITIVE_INFINITY);
        if (Double.isNaN(lower)) {
            throw new InvalidClassArgumentException("class argument 'lower' must be a number, got NaN");
        }
        if (Double.isNaN(upper)) {
            throw new InvalidClassArgumentException("class argument 'upper' must be a number, got NaN");
        }
        if (lower > upper) {
            throw new InvalidClassArgumentException("class argument 'lower' (" + lower
                    + ") must not be greater than 'upper' (" + upper + ")");
        }
        return new ThresholdAssessor(lower, upper, arguments.getInt("n_warmup_steps", 0, 0));
    }

    @Override
    public AssessResult assessTrial(String trialJobId, List<Metric> history) {
        int step = history.size() - 1;
        if (step < warmupSteps) {
            return AssessResult.GOOD;
        }
        double latest = history.get(step).value();
        boolean inside = latest >= lower && latest <= upper; // false for NaN
        return inside ? AssessResult.GOOD : AssessResult.BAD;
    }
}
