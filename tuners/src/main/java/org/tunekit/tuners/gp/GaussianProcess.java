package org.tunekit.tuners.gp;

import java.util.List;
import org.hipparchus.exception.MathIllegalArgumentException;
import org.hipparchus.linear.Array2DRowRealMatrix;
import org.hipparchus.linear.ArrayRealVector;
import org.hipparchus.linear.CholeskyDecomposition;
import org.hipparchus.linear.DecompositionSolver;

/**
 * Gaussian-process regression with a Matérn kernel, one length-scale per group of inputs and a
 * signal amplitude (Rasmussen and Williams, "Gaussian Processes for Machine Learning", chapters 2
 * and 5). Hyper-parameters {@code theta = (log amplitude, log length-scale per group)} are fitted by
 * maximising the log marginal likelihood plus weak log-normal priors (which keep fits on a handful
 * of points sensible), using its analytic gradient and projected gradient ascent with
 * Barzilai-Borwein steps and backtracking inside box bounds. The noise variance is fixed.
 * Targets are expected to be standardised (zero mean, unit variance).
 */
public final class GaussianProcess {
    static final double MIN_LOG_AMPLITUDE = Math.log(0.01);
    static final double MAX_LOG_AMPLITUDE = Math.log(100);
    static final double MIN_LOG_LENGTH = Math.log(0.01);
    static final double MAX_LOG_LENGTH = Math.log(20);
    static final double PRIOR_LOG_LENGTH = Math.log(0.3);
    private static final double PRIOR_SD = 1.5;
    private static final double LOG_2PI = Math.log(2 * Math.PI);

    private final double[][] x;
    private final double[] y;
    private final int groups;
    private final MaternKernel kernel;
    private final double noise;
    /** Squared distance of every pair along each group: {@code dist[g][i][j]}. */
    private final double[][][] dist;

    /**
     * @param x       the inputs, one row per point
     * @param y       the standardised targets
     * @param groupOf the group of each input
     * @param groups  the number of groups
     * @param kernel  the Matérn kernel
     * @param noise   the noise variance added to the diagonal
     */
    public GaussianProcess(double[][] x, double[] y, int[] groupOf, int groups, MaternKernel kernel, double noise) {
        this.x = x;
        this.y = y;
        this.groups = groups;
        this.kernel = kernel;
        this.noise = noise;
        int n = x.length;
        dist = new double[groups][n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < i; j++) {
                for (int f = 0; f < groupOf.length; f++) {
                    double d = x[i][f] - x[j][f];
                    dist[groupOf[f]][i][j] += d * d;
                }
                for (int g = 0; g < groups; g++) {
                    dist[g][j][i] = dist[g][i][j];
                }
            }
        }
    }

    /** The default hyper-parameters: unit amplitude, every length-scale at the prior's centre. */
    public static double[] defaultTheta(int groups) {
        double[] t = new double[groups + 1];
        java.util.Arrays.fill(t, PRIOR_LOG_LENGTH);
        t[0] = 0;
        return t;
    }

    /** The objective (log marginal likelihood plus log prior) and its gradient; {@code null} when K is not positive definite. */
    double[] objective(double[] theta, double[] gradient) {
        int n = x.length;
        double amp = Math.exp(theta[0]);
        double[] inv2 = new double[groups];
        for (int g = 0; g < groups; g++) {
            inv2[g] = Math.exp(-2 * theta[g + 1]);
        }
        double[][] k = new double[n][n];
        double[][] slope = new double[n][n];
        for (int i = 0; i < n; i++) {
            k[i][i] = amp + noise;
            for (int j = 0; j < i; j++) {
                double r2 = 0;
                for (int g = 0; g < groups; g++) {
                    r2 += dist[g][i][j] * inv2[g];
                }
                double r = Math.sqrt(r2);
                double v = amp * kernel.value(r);
                k[i][j] = v;
                k[j][i] = v;
                slope[i][j] = amp * kernel.slope(r);
            }
        }
        CholeskyDecomposition chol;
        try {
            chol = new CholeskyDecomposition(new Array2DRowRealMatrix(k, false), 1e-10, 1e-14);
        } catch (MathIllegalArgumentException e) {
            return null;
        }
        DecompositionSolver solver = chol.getSolver();
        double[] alpha = solver.solve(new ArrayRealVector(y, false)).toArray();
        double[][] kinv = solver.getInverse().getData();
        double[][] l = chol.getL().getData();
        double fit = 0;
        double logDet = 0;
        for (int i = 0; i < n; i++) {
            fit += y[i] * alpha[i];
            logDet += 2 * Math.log(l[i][i]);
        }
        double value = -0.5 * fit - 0.5 * logDet - 0.5 * n * LOG_2PI;
        java.util.Arrays.fill(gradient, 0);
        for (int i = 0; i < n; i++) {
            gradient[0] += 0.5 * (alpha[i] * alpha[i] - kinv[i][i]) * amp;
            for (int j = 0; j < i; j++) {
                double w = alpha[i] * alpha[j] - kinv[i][j];
                gradient[0] += w * k[i][j];
                double ws = w * slope[i][j];
                if (ws != 0) {
                    for (int g = 0; g < groups; g++) {
                        gradient[g + 1] += ws * dist[g][i][j] * inv2[g];
                    }
                }
            }
        }
        // log-normal priors
        value -= 0.5 * theta[0] * theta[0] / (PRIOR_SD * PRIOR_SD);
        gradient[0] -= theta[0] / (PRIOR_SD * PRIOR_SD);
        for (int g = 0; g < groups; g++) {
            double d = theta[g + 1] - PRIOR_LOG_LENGTH;
            value -= 0.5 * d * d / (PRIOR_SD * PRIOR_SD);
            gradient[g + 1] -= d / (PRIOR_SD * PRIOR_SD);
        }
        return new double[] {value};
    }

    private static double[] clampTheta(double[] theta) {
        double[] t = theta.clone();
        t[0] = Math.max(MIN_LOG_AMPLITUDE, Math.min(MAX_LOG_AMPLITUDE, t[0]));
        for (int i = 1; i < t.length; i++) {
            t[i] = Math.max(MIN_LOG_LENGTH, Math.min(MAX_LOG_LENGTH, t[i]));
        }
        return t;
    }

    /**
     * Maximises the objective from each start; returns the best end point (or the first start when
     * no evaluation succeeded).
     */
    public double[] fit(List<double[]> starts, int maxIterations) {
        double[] best = clampTheta(starts.get(0));
        double bestValue = Double.NEGATIVE_INFINITY;
        for (double[] start : starts) {
            double[] t = clampTheta(start);
            double[] g = new double[t.length];
            double[] v = objective(t, g);
            if (v == null) {
                continue;
            }
            double f = v[0];
            double step = 0.05;
            for (int it = 0; it < maxIterations; it++) {
                double[] candidate = new double[t.length];
                for (int i = 0; i < t.length; i++) {
                    candidate[i] = t[i] + step * g[i];
                }
                candidate = clampTheta(candidate);
                double moved = 0;
                double ascent = 0;
                for (int i = 0; i < t.length; i++) {
                    moved = Math.max(moved, Math.abs(candidate[i] - t[i]));
                    ascent += g[i] * (candidate[i] - t[i]);
                }
                if (moved < 1e-6) {
                    break;
                }
                double[] g2 = new double[t.length];
                double[] v2 = objective(candidate, g2);
                if (v2 != null && v2[0] >= f + 1e-4 * ascent) {
                    double ss = 0;
                    double sy = 0;
                    for (int i = 0; i < t.length; i++) {
                        double s = candidate[i] - t[i];
                        ss += s * s;
                        sy += s * (g2[i] - g[i]);
                    }
                    step = sy < 0 ? Math.min(10, Math.max(1e-4, ss / -sy)) : Math.min(10, step * 2);
                    boolean converged = v2[0] - f < 1e-7 * Math.max(1, Math.abs(f));
                    t = candidate;
                    g = g2;
                    f = v2[0];
                    if (converged) {
                        break;
                    }
                } else {
                    step *= 0.25;
                    if (step < 1e-7) {
                        break;
                    }
                }
            }
            if (f > bestValue) {
                bestValue = f;
                best = t;
            }
        }
        return best;
    }

    /** The posterior given hyper-parameters {@code theta}, or {@code null} when K cannot be factorised even with added jitter. */
    public Posterior posterior(double[] theta) {
        int n = x.length;
        double amp = Math.exp(theta[0]);
        double[] inv2 = new double[groups];
        for (int g = 0; g < groups; g++) {
            inv2[g] = Math.exp(-2 * theta[g + 1]);
        }
        double[][] k = new double[n][n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < i; j++) {
                double r2 = 0;
                for (int g = 0; g < groups; g++) {
                    r2 += dist[g][i][j] * inv2[g];
                }
                double v = amp * kernel.value(Math.sqrt(r2));
                k[i][j] = v;
                k[j][i] = v;
            }
        }
        for (double jitter = noise; jitter < 1; jitter = Math.max(jitter * 10, 1e-10)) {
            for (int i = 0; i < n; i++) {
                k[i][i] = amp + jitter;
            }
            try {
                CholeskyDecomposition chol = new CholeskyDecomposition(new Array2DRowRealMatrix(k, true), 1e-10, 1e-14);
                double[] alpha = chol.getSolver().solve(new ArrayRealVector(y, false)).toArray();
                return new Posterior(x, chol.getL().getData(), alpha, amp, inv2, kernel);
            } catch (MathIllegalArgumentException e) {
                // not positive definite: retry with more jitter
            }
        }
        return null;
    }

    /** A fitted posterior: predicts mean and variance of the latent function. */
    public static final class Posterior {
        private final double[][] x;
        private final double[][] l;
        private final double[] alpha;
        private final double amp;
        private final double[] inv2;
        private final MaternKernel kernel;

        Posterior(double[][] x, double[][] l, double[] alpha, double amp, double[] inv2, MaternKernel kernel) {
            this.x = x;
            this.l = l;
            this.alpha = alpha;
            this.amp = amp;
            this.inv2 = inv2;
            this.kernel = kernel;
        }

        /**
         * Mean and variance at {@code f}; {@code groupOf} maps each input to its group.
         *
         * @return {mean, variance}
         */
        public double[] predict(double[] f, int[] groupOfInput) {
            int n = x.length;
            double[] ks = new double[n];
            double mean = 0;
            for (int i = 0; i < n; i++) {
                double r2 = 0;
                double[] xi = x[i];
                for (int c = 0; c < f.length; c++) {
                    double d = f[c] - xi[c];
                    r2 += d * d * inv2[groupOfInput[c]];
                }
                ks[i] = amp * kernel.value(Math.sqrt(r2));
                mean += ks[i] * alpha[i];
            }
            // v = L^-1 k*, by forward substitution
            double vv = 0;
            for (int i = 0; i < n; i++) {
                double s = ks[i];
                double[] li = l[i];
                for (int j = 0; j < i; j++) {
                    s -= li[j] * ks[j];
                }
                s /= li[i];
                ks[i] = s;
                vv += s * s;
            }
            return new double[] {mean, Math.max(amp - vv, 1e-12 * amp)};
        }

        /**
         * Leave-one-out predictions at the training points (Rasmussen and Williams, section 5.4.2):
         * for each point {@code i}, the mean and variance of the observation {@code y_i} predicted by
         * the same hyper-parameters from all the other points, {@code y_i - alpha_i / [K^-1]_ii} and
         * {@code 1 / [K^-1]_ii}, where {@code K} includes the noise (and any jitter) on its diagonal.
         *
         * @param y the targets the posterior was built from
         * @return {means, variances}
         */
        public double[][] leaveOneOut(double[] y) {
            int n = x.length;
            // diag(K^-1) = column sums of squares of L^-1; column i of L^-1 solves L z = e_i
            double[] diag = new double[n];
            double[] z = new double[n];
            for (int i = 0; i < n; i++) {
                java.util.Arrays.fill(z, 0, i, 0);
                z[i] = 1 / l[i][i];
                double ss = z[i] * z[i];
                for (int r = i + 1; r < n; r++) {
                    double s = 0;
                    double[] lr = l[r];
                    for (int c = i; c < r; c++) {
                        s -= lr[c] * z[c];
                    }
                    z[r] = s / lr[r];
                    ss += z[r] * z[r];
                }
                diag[i] = ss;
            }
            double[] mean = new double[n];
            double[] variance = new double[n];
            for (int i = 0; i < n; i++) {
                mean[i] = y[i] - alpha[i] / diag[i];
                variance[i] = 1 / diag[i];
            }
            return new double[][] {mean, variance};
        }
    }
}
