package org.tunekit.assessors.curvefitting;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tunekit.assessors.support.StateFile;
import org.tunekit.sdk.AssessResult;
import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.OptimizeMode;

/**
 * Learning-curve extrapolation. A trial with {@code n} intermediate values is judged when
 * {@code n >= start_step}, {@code (n - start_step)} is a multiple of {@code gap}, {@code n < epoch_num}
 * and some trial has completed successfully. Its curve (epochs 1..n, NaN values left out) is
 * extrapolated to epoch {@code epoch_num} by {@link CurveEnsemble}, giving a Gaussian prediction
 * {@code N(μ, σ²)}. The bar is {@code best - (1 - threshold) × |best|}, {@code best} being the best final
 * value of the successful trials so far (for a positive maximised metric that is
 * {@code threshold × best}, as in NNI; for a minimised one it allows the same relative slack above the
 * best). The trial is {@code BAD} when even the optimistic end of its prediction, {@code μ + 1.645σ}
 * (one-sided 95%), does not reach the bar; otherwise, or when no model can be fitted, {@code GOOD}.
 *
 * <p>A trial's final value is the last intermediate value seen for it, counted when it ends successfully.
 * Each trial's latest fits are kept as warm starts for its next judgement; they are dropped when it ends
 * and are not checkpointed (a resumed experiment fits from scratch once per trial).
 */
final class CurvefittingAssessor implements Assessor {
    static final String STATE_FILE = "curvefitting.state";

    private final int epochNum;
    private final int startStep;
    private final double threshold;
    private final int gap;
    private final OptimizeMode mode;

    private double best = Double.NaN;
    private final Map<String, Double> lastValue = new HashMap<>();
    private final Map<String, double[][]> warmStarts = new HashMap<>();

    CurvefittingAssessor(int epochNum, int startStep, double threshold, int gap, OptimizeMode mode) {
        this.epochNum = epochNum;
        this.startStep = startStep;
        this.threshold = threshold;
        this.gap = gap;
        this.mode = mode;
    }

    static CurvefittingAssessor fromArguments(ClassArguments arguments) {
        arguments.requireOnly("epoch_num", "start_step", "threshold", "gap", "optimize_mode");
        if (!arguments.has("epoch_num")) {
            throw new InvalidClassArgumentException("class argument 'epoch_num' is required (the total number of epochs of a trial)");
        }
        double threshold = arguments.getDouble("threshold", 0.95);
        if (!(threshold > 0 && threshold <= 1e6)) {
            throw new InvalidClassArgumentException("class argument 'threshold' must be a positive number, got " + threshold);
        }
        return new CurvefittingAssessor(
                arguments.getInt("epoch_num", 0, 1),
                arguments.getInt("start_step", 6, 1),
                threshold,
                arguments.getInt("gap", 1, 1),
                OptimizeMode.from(arguments, OptimizeMode.MAXIMIZE));
    }

    @Override
    public AssessResult assessTrial(String trialJobId, List<Metric> history) {
        int n = history.size();
        if (n == 0) {
            return AssessResult.GOOD;
        }
        lastValue.put(trialJobId, history.get(n - 1).value());
        if (n < startStep || (n - startStep) % gap != 0 || n >= epochNum || Double.isNaN(best)) {
            return AssessResult.GOOD;
        }
        CurveEnsemble.Prediction prediction = predict(trialJobId, history);
        if (prediction == null) {
            return AssessResult.GOOD;
        }
        double bar = gain(best) - (1 - threshold) * Math.abs(best);
        return prediction.mean() + CurveEnsemble.GAUSSIAN_TAIL * prediction.sd() < bar ? AssessResult.BAD : AssessResult.GOOD;
    }

    /**
     * The prediction for epoch {@code epoch_num} as a gain (the value, negated when minimising), or
     * {@code null} when there are too few finite values or no model fits.
     */
    CurveEnsemble.Prediction predict(String trialJobId, List<Metric> history) {
        double[] xs = new double[history.size()];
        double[] ys = new double[history.size()];
        int count = 0;
        for (int i = 0; i < history.size(); i++) {
            double v = history.get(i).value();
            if (Double.isFinite(v)) {
                xs[count] = i + 1;
                ys[count] = gain(v);
                count++;
            }
        }
        if (count < 3) {
            return null;
        }
        double[][] warm = warmStarts.computeIfAbsent(trialJobId, id -> new double[CurveEnsemble.modelCount()][]);
        return CurveEnsemble.predict(Arrays.copyOf(xs, count), Arrays.copyOf(ys, count), epochNum, warm);
    }

    private double gain(double value) {
        return mode == OptimizeMode.MAXIMIZE ? value : -value;
    }

    @Override
    public void trialEnd(String trialJobId, boolean success) {
        Double last = lastValue.remove(trialJobId);
        warmStarts.remove(trialJobId);
        if (success && last != null && !Double.isNaN(last) && (Double.isNaN(best) || mode.isBetter(last, best))) {
            best = last;
        }
    }

    /** The best final value so far, or NaN. */
    double bestFinalValue() {
        return best;
    }

    @Override
    public void saveCheckpoint(Path directory) throws IOException {
        List<List<String>> records = new ArrayList<>();
        records.add(StateFile.record("best", List.of(), best));
        for (Map.Entry<String, Double> e : lastValue.entrySet()) {
            records.add(StateFile.record("last", List.of(e.getKey()), e.getValue()));
        }
        StateFile.write(directory.resolve(STATE_FILE), "Curvefitting", records);
    }

    @Override
    public void loadCheckpoint(Path directory) throws IOException {
        best = Double.NaN;
        lastValue.clear();
        warmStarts.clear();
        for (StateFile.Record r : StateFile.read(directory.resolve(STATE_FILE), "Curvefitting")) {
            switch (r.keyword()) {
                case "best" -> best = r.expectSize(2).number(1);
                case "last" -> lastValue.put(r.expectSize(3).text(1), r.number(2));
                default -> throw r.error("unknown record");
            }
        }
    }
}
