package ${package};

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tunekit.sdk.AssessResult;
import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.OptimizeMode;

/**
 * Stops a trial whose learning curve falls behind the best one so far. The reference curve is that of
 * the completed trial with the best last value; from step {@code start_step} on, a running trial is
 * {@code BAD} when its value at a step is worse than the reference's value at the same step by more
 * than {@code tolerance}, relative to the reference's magnitude.
 *
 * <p>Class arguments: {@code optimize_mode} (maximize), {@code start_step} (3), {@code tolerance} (0.1).
 */
public final class BestCurveAssessor implements Assessor {
    private final OptimizeMode mode;
    private final int startStep;
    private final double tolerance;

    private final Map<String, List<Double>> running = new HashMap<>();
    private List<Double> reference;
    private double referenceLoss = Double.POSITIVE_INFINITY;

    /** An assessor with these class arguments; an unknown or malformed argument is an error naming it. */
    public BestCurveAssessor(ClassArguments args) {
        args.requireOnly("optimize_mode", "start_step", "tolerance");
        this.mode = OptimizeMode.from(args, OptimizeMode.MAXIMIZE);
        this.startStep = args.getInt("start_step", 3, 1);
        this.tolerance = args.getDouble("tolerance", 0.1, 0, Double.MAX_VALUE);
    }

    @Override
    public AssessResult assessTrial(String trialJobId, List<Metric> history) {
        List<Double> losses = new ArrayList<>(history.size());
        for (Metric m : history) {
            losses.add(mode.toLoss(m.value()));
        }
        running.put(trialJobId, losses);
        int step = losses.size();
        if (reference == null || step < startStep || step > reference.size()) {
            return AssessResult.GOOD;
        }
        double mine = losses.get(step - 1);
        double ref = reference.get(step - 1);
        return mine > ref + tolerance * Math.max(Math.abs(ref), 1e-12) ? AssessResult.BAD : AssessResult.GOOD;
    }

    @Override
    public void trialEnd(String trialJobId, boolean success) {
        List<Double> curve = running.remove(trialJobId);
        if (success && curve != null && !curve.isEmpty()) {
            double last = curve.get(curve.size() - 1);
            if (last < referenceLoss) {
                referenceLoss = last;
                reference = curve;
            }
        }
    }
}
