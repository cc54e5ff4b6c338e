package org.tunekit.assessors.curvefitting;

import java.util.Arrays;
import org.hipparchus.distribution.continuous.TDistribution;
import org.hipparchus.exception.MathRuntimeException;
import org.hipparchus.linear.Array2DRowRealMatrix;
import org.hipparchus.linear.ArrayRealVector;
import org.hipparchus.linear.DiagonalMatrix;
import org.hipparchus.linear.RealMatrix;
import org.hipparchus.linear.RealVector;
import org.hipparchus.optim.nonlinear.vector.leastsquares.LeastSquaresBuilder;
import org.hipparchus.optim.nonlinear.vector.leastsquares.LeastSquaresProblem;
import org.hipparchus.optim.nonlinear.vector.leastsquares.LevenbergMarquardtOptimizer;
import org.hipparchus.util.Pair;

/**
 * Fits every {@link CurveModel} to a learning curve by weighted least squares (Levenberg-Marquardt) and
 * combines their extrapolations.
 *
 * <p>The values are first scaled to [0, 1] by their own range, so starting points and bounds do not
 * depend on the metric's units. Later points weigh up to twice as much as the first (they say more
 * about the asymptote). Each model's extrapolation gets a Gaussian predictive variance: the residual
 * variance {@code s²} plus the parameter uncertainty by the delta method, {@code s² gᵀ(JᵀWJ)⁻¹g}, with
 * {@code g} the parameter gradient at the target epoch (a tiny ridge keeps unidentifiable parameters
 * finite). As {@code s²} is estimated from only {@code n - p} degrees of freedom, each model's standard
 * deviation is widened by the ratio of Student's t to the normal 95% point (2.92 / 1.645 with two degrees
 * of freedom, close to 1 with fifty), so that its Gaussian stand-in has the t distribution's one-sided
 * 95% point. The models are averaged with weights {@code exp(-BIC/2)}, the usual large-sample approximation
 * of Bayesian model averaging, and the ensemble's variance adds the spread of the models' means to their
 * own variances. Models whose fit fails or whose extrapolation runs off more than ten ranges from the
 * data are left out.
 *
 * <p>Fitting from the previous fit's parameters (a warm start) usually converges in a few iterations;
 * without one, a model whose fit from its first starting point fails is tried from a second. The
 * sigmoid-like four-parameter models (Weibull, MMF, Janoschek) fit a power law only in a limit, so on
 * such curves they use up their evaluations creeping along a valley; their best point so far is used.
 */
final class CurveEnsemble {
    private static final CurveModel[] MODELS = CurveModel.values();
    private static final double MAX_EXCURSION = 10;
    private static final int MAX_EVALUATIONS = 60;
    /** The one-sided 95% point of the standard normal distribution. */
    static final double GAUSSIAN_TAIL = 1.6448536269514722;
    /** The one-sided 95% points of Student's t with 1..{@code length - 1} degrees of freedom. */
    private static final double[] STUDENT_TAILS = new double[64];

    private static final LevenbergMarquardtOptimizer OPTIMIZER = new LevenbergMarquardtOptimizer()
            .withCostRelativeTolerance(1e-9)
            .withParameterRelativeTolerance(1e-9);

    static {
        for (int dof = 1; dof < STUDENT_TAILS.length; dof++) {
            STUDENT_TAILS[dof] = new TDistribution(dof).inverseCumulativeProbability(0.95);
        }
    }

    /**
     * An extrapolation.
     *
     * @param mean   the predicted value
     * @param sd     its standard deviation
     * @param models how many models took part
     */
    record Prediction(double mean, double sd, int models) {}

    private CurveEnsemble() {}

    /** The number of models, the length of a warm-start array. */
    static int modelCount() {
        return MODELS.length;
    }

    /**
     * Extrapolates the curve {@code (xs[i], ys[i])} to epoch {@code target}.
     *
     * @param xs     epochs, from 1, increasing
     * @param ys     finite values, larger being better
     * @param target the epoch to predict
     * @param warm   per model, the parameters of an earlier fit of the same curve (or {@code null}); the new
     *               fits are written back
     * @return the prediction (for a flat curve, its value with no spread), or {@code null} when no model
     *         could be fitted
     */
    static Prediction predict(double[] xs, double[] ys, double target, double[][] warm) {
        int n = ys.length;
        if (n == 0) {
            return null;
        }
        double lo = Double.POSITIVE_INFINITY;
        double hi = Double.NEGATIVE_INFINITY;
        for (double y : ys) {
            lo = Math.min(lo, y);
            hi = Math.max(hi, y);
        }
        double range = hi - lo;
        if (!Double.isFinite(range)) {
            return null;
        }
        if (!(range > 1e-12 * Math.max(1, Math.abs(hi)))) {
            return new Prediction(ys[n - 1], 0, 0);
        }
        double[] z = new double[n];
        for (int i = 0; i < n; i++) {
            z[i] = (ys[i] - lo) / range;
        }
        double[] w = new double[n];
        double wsum = 0;
        for (int i = 0; i < n; i++) {
            w[i] = 1 + (i + 1.0) / n;
            wsum += w[i];
        }
        for (int i = 0; i < n; i++) {
            w[i] *= n / wsum;
        }
        double first = z[0];
        int tail = Math.min(3, n);
        double last = 0;
        for (int i = n - tail; i < n; i++) {
            last += z[i] / tail;
        }

        double[] means = new double[MODELS.length];
        double[] variances = new double[MODELS.length];
        double[] bics = new double[MODELS.length];
        boolean[] used = new boolean[MODELS.length];
        double minBic = Double.POSITIVE_INFINITY;
        for (int m = 0; m < MODELS.length; m++) {
            CurveModel model = MODELS[m];
            int p = model.parameterCount();
            if (n <= p) {
                continue;
            }
            double[] fit = null;
            double bestCost = Double.POSITIVE_INFINITY;
            if (warm[m] != null) {
                fit = fit(model, xs, z, w, warm[m].clone());
                bestCost = fit == null ? bestCost : cost(model, xs, z, w, fit);
            }
            if (fit == null) {
                for (int variant = 0; variant < 2 && fit == null; variant++) {
                    double asymptote = last + (variant == 0 ? 0.1 : 0.5) * (last - first);
                    double[] candidate = fit(model, xs, z, w, model.start(first, asymptote, xs[n - 1], variant));
                    double c = candidate == null ? Double.POSITIVE_INFINITY : cost(model, xs, z, w, candidate);
                    if (c < bestCost) {
                        bestCost = c;
                        fit = candidate;
                    }
                }
            }
            if (fit == null || !Double.isFinite(bestCost)) {
                warm[m] = null;
                continue;
            }
            warm[m] = fit;
            double mean = model.value(target, fit);
            if (!Double.isFinite(mean) || Math.abs(mean - 0.5) > MAX_EXCURSION) {
                continue;
            }
            double s2 = bestCost / (n - p);
            double widen = studentTail(n - p) / GAUSSIAN_TAIL;
            double variance = widen * widen * s2 * (1 + parameterVariance(model, xs, w, fit, target));
            if (!Double.isFinite(variance)) {
                continue;
            }
            means[m] = mean;
            variances[m] = variance;
            bics[m] = n * Math.log(Math.max(bestCost / n, 1e-14)) + p * Math.log(n);
            used[m] = true;
            minBic = Math.min(minBic, bics[m]);
        }

        double total = 0;
        double mean = 0;
        int count = 0;
        double[] weights = new double[MODELS.length];
        for (int m = 0; m < MODELS.length; m++) {
            if (used[m]) {
                weights[m] = Math.exp(-0.5 * (bics[m] - minBic));
                total += weights[m];
                mean += weights[m] * means[m];
                count++;
            }
        }
        if (count == 0) {
            return null;
        }
        mean /= total;
        double variance = 0;
        for (int m = 0; m < MODELS.length; m++) {
            if (used[m]) {
                double d = means[m] - mean;
                variance += weights[m] / total * (variances[m] + d * d);
            }
        }
        return new Prediction(lo + mean * range, Math.sqrt(variance) * range, count);
    }

    /** The one-sided 95% point of Student's t with {@code dof} degrees of freedom. */
    static double studentTail(int dof) {
        return dof < STUDENT_TAILS.length ? STUDENT_TAILS[dof] : GAUSSIAN_TAIL;
    }

    /**
     * Fits {@code model} from {@code start}; the parameters, or {@code null} when the fit fails. When the
     * optimiser runs out of evaluations, the best point it evaluated is taken: a fit that is still creeping
     * along a flat valley is good enough for an extrapolation, and waiting for it would cost more than
     * the whole rest of the ensemble.
     */
    private static double[] fit(CurveModel model, double[] xs, double[] z, double[] w, double[] start) {
        int n = z.length;
        int p = model.parameterCount();
        double[] g = new double[p];
        double[] bestCost = {Double.POSITIVE_INFINITY};
        double[][] bestPoint = {null};
        LeastSquaresProblem problem = new LeastSquaresBuilder()
                .start(model.clamp(start))
                .target(z)
                .weight(new DiagonalMatrix(w, false))
                .model(point -> {
                    double[] params = point.toArray();
                    double[] values = new double[n];
                    double[][] jacobian = new double[n][];
                    double cost = 0;
                    for (int i = 0; i < n; i++) {
                        values[i] = model.gradient(xs[i], params, g);
                        jacobian[i] = g.clone();
                        double r = z[i] - values[i];
                        cost += w[i] * r * r;
                    }
                    if (cost < bestCost[0]) {
                        bestCost[0] = cost;
                        bestPoint[0] = params;
                    }
                    return new Pair<RealVector, RealMatrix>(new ArrayRealVector(values, false),
                            new Array2DRowRealMatrix(jacobian, false));
                })
                .parameterValidator(point -> new ArrayRealVector(model.clamp(point.toArray()), false))
                .maxEvaluations(MAX_EVALUATIONS)
                .maxIterations(MAX_EVALUATIONS)
                .lazyEvaluation(false)
                .build();
        double[] fit;
        try {
            fit = OPTIMIZER.optimize(problem).getPoint().toArray();
        } catch (MathRuntimeException e) {
            fit = bestPoint[0];
        }
        if (fit == null) {
            return null;
        }
        for (double v : fit) {
            if (!Double.isFinite(v)) {
                return null;
            }
        }
        return fit;
    }

    /** The weighted residual sum of squares. */
    private static double cost(CurveModel model, double[] xs, double[] z, double[] w, double[] p) {
        double sum = 0;
        for (int i = 0; i < z.length; i++) {
            double r = z[i] - model.value(xs[i], p);
            sum += w[i] * r * r;
        }
        return Double.isNaN(sum) ? Double.POSITIVE_INFINITY : sum;
    }

    /** {@code gᵀ(JᵀWJ + λI)⁻¹g} at epoch {@code target}: the parameter variance per unit noise variance. */
    private static double parameterVariance(CurveModel model, double[] xs, double[] w, double[] fit, double target) {
        int p = model.parameterCount();
        double[][] a = new double[p][p + 1];
        double[] g = new double[p];
        for (int i = 0; i < xs.length; i++) {
            model.gradient(xs[i], fit, g);
            for (int r = 0; r < p; r++) {
                for (int c = 0; c < p; c++) {
                    a[r][c] += w[i] * g[r] * g[c];
                }
            }
        }
        double trace = 0;
        for (int r = 0; r < p; r++) {
            trace += a[r][r];
        }
        double ridge = 1e-8 * trace / p + 1e-12;
        model.gradient(target, fit, g);
        for (int r = 0; r < p; r++) {
            a[r][r] += ridge;
            a[r][p] = g[r];
        }
        double[] v = solve(a);
        if (v == null) {
            return Double.POSITIVE_INFINITY;
        }
        double q = 0;
        for (int r = 0; r < p; r++) {
            q += g[r] * v[r];
        }
        return Math.max(q, 0);
    }

    /** Solves the augmented system {@code a} (p rows, p + 1 columns) by elimination with partial pivoting. */
    static double[] solve(double[][] a) {
        int p = a.length;
        for (int col = 0; col < p; col++) {
            int pivot = col;
            for (int r = col + 1; r < p; r++) {
                if (Math.abs(a[r][col]) > Math.abs(a[pivot][col])) {
                    pivot = r;
                }
            }
            if (!(Math.abs(a[pivot][col]) > 0)) {
                return null;
            }
            double[] swap = a[col];
            a[col] = a[pivot];
            a[pivot] = swap;
            for (int r = col + 1; r < p; r++) {
                double f = a[r][col] / a[col][col];
                for (int c = col; c <= p; c++) {
                    a[r][c] -= f * a[col][c];
                }
            }
        }
        double[] x = new double[p];
        for (int r = p - 1; r >= 0; r--) {
            double s = a[r][p];
            for (int c = r + 1; c < p; c++) {
                s -= a[r][c] * x[c];
            }
            x[r] = s / a[r][r];
        }
        return Arrays.stream(x).allMatch(Double::isFinite) ? x : null;
    }
}
