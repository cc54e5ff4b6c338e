package org.tunekit.tuners.dngo;

import org.hipparchus.linear.Array2DRowRealMatrix;
import org.hipparchus.linear.EigenDecompositionSymmetric;

/**
 * Bayesian linear regression on fixed basis functions (Bishop, "Pattern Recognition and Machine
 * Learning", sections 3.3 and 3.5): weight prior {@code N(0, 1/alpha I)}, noise precision
 * {@code beta}. {@link #fit} chooses {@code alpha} and {@code beta} by maximising the marginal
 * likelihood with the evidence fixed-point iteration; {@link #posterior} conditions on data with
 * given {@code alpha} and {@code beta}. The design matrix gets a constant column for the bias.
 */
final class BayesianLinearRegression {
    private static final double MIN_ALPHA = 1e-6;
    private static final double MAX_ALPHA = 1e6;
    private static final double MIN_BETA = 1e-2;
    /** Noise standard deviation at least 1% of the targets' spread (they are standardised). */
    private static final double MAX_BETA = 1e4;
    private static final int ITERATIONS = 100;

    private BayesianLinearRegression() {}

    /** The regression's hyper-parameters. */
    record Precisions(double alpha, double beta) {}

    /** Basis rows with the bias column appended. */
    static double[][] design(double[][] basis) {
        double[][] phi = new double[basis.length][];
        for (int i = 0; i < basis.length; i++) {
            phi[i] = java.util.Arrays.copyOf(basis[i], basis[i].length + 1);
            phi[i][basis[i].length] = 1;
        }
        return phi;
    }

    /** The precisions maximising the marginal likelihood of {@code y} under design {@code phi}. */
    static Precisions fit(double[][] phi, double[] y) {
        int n = phi.length;
        int m = phi[0].length;
        double[][] gram = new double[m][m];
        double[] phiTy = new double[m];
        gram(phi, y, gram, phiTy);
        Eigen eigen = eigen(gram);
        double[] lambda = eigen.lambda();
        double[][] v = eigen.v();
        // phi^T y in the eigenbasis
        double[] b = new double[m];
        for (int k = 0; k < m; k++) {
            double s = 0;
            for (int i = 0; i < m; i++) {
                s += v[i][k] * phiTy[i];
            }
            b[k] = s;
        }
        double alpha = 1;
        double beta = 10;
        double[] mean = new double[m];
        for (int it = 0; it < ITERATIONS; it++) {
            double gamma = 0;
            double[] c = new double[m];
            for (int k = 0; k < m; k++) {
                double l = Math.max(0, lambda[k]);
                double a = alpha + beta * l;
                gamma += beta * l / a;
                c[k] = beta * b[k] / a;
            }
            double mm = 0;
            for (int i = 0; i < m; i++) {
                double s = 0;
                for (int k = 0; k < m; k++) {
                    s += v[i][k] * c[k];
                }
                mean[i] = s;
                mm += s * s;
            }
            double sse = 0;
            for (int r = 0; r < n; r++) {
                double p = 0;
                for (int i = 0; i < m; i++) {
                    p += phi[r][i] * mean[i];
                }
                sse += (y[r] - p) * (y[r] - p);
            }
            double newAlpha = clamp(gamma / Math.max(mm, 1e-12), MIN_ALPHA, MAX_ALPHA);
            double newBeta = clamp(Math.max(n - gamma, 1e-3) / Math.max(sse, 1e-12), MIN_BETA, MAX_BETA);
            boolean converged = Math.abs(Math.log(newAlpha / alpha)) < 1e-6 && Math.abs(Math.log(newBeta / beta)) < 1e-6;
            alpha = newAlpha;
            beta = newBeta;
            if (converged) {
                break;
            }
        }
        return new Precisions(alpha, beta);
    }

    /** Eigenvalues and eigenvectors (the columns of {@code v}) of a symmetric matrix. */
    record Eigen(double[] lambda, double[][] v) {
    }

    /**
     * The eigen-decomposition of a symmetric matrix by Hipparchus's QL iteration, or, when that does
     * not converge (it can fail on the many equal eigenvalues of a rank-deficient Gram matrix), by
     * cyclic Jacobi rotations.
     */
    private static Eigen eigen(double[][] matrix) {
        try {
            EigenDecompositionSymmetric e = new EigenDecompositionSymmetric(new Array2DRowRealMatrix(matrix, true));
            return new Eigen(e.getEigenvalues(), e.getV().getData());
        } catch (org.hipparchus.exception.MathIllegalStateException e) {
            return jacobi(matrix);
        }
    }

    static Eigen jacobi(double[][] matrix) {
        int m = matrix.length;
        double[][] a = new double[m][];
        double[][] v = new double[m][m];
        for (int i = 0; i < m; i++) {
            a[i] = matrix[i].clone();
            v[i][i] = 1;
        }
        for (int sweep = 0; sweep < 100; sweep++) {
            double off = 0;
            double diag = 0;
            for (int i = 0; i < m; i++) {
                diag += a[i][i] * a[i][i];
                for (int j = i + 1; j < m; j++) {
                    off += a[i][j] * a[i][j];
                }
            }
            if (off <= 1e-30 * Math.max(diag, 1e-300)) {
                break;
            }
            for (int p = 0; p < m; p++) {
                for (int q = p + 1; q < m; q++) {
                    double apq = a[p][q];
                    if (apq == 0) {
                        continue;
                    }
                    double theta = (a[q][q] - a[p][p]) / (2 * apq);
                    double t = Math.signum(theta) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
                    if (theta == 0) {
                        t = 1;
                    }
                    double c = 1 / Math.sqrt(t * t + 1);
                    double sn = t * c;
                    for (int k = 0; k < m; k++) {
                        double akp = a[k][p];
                        double akq = a[k][q];
                        a[k][p] = c * akp - sn * akq;
                        a[k][q] = sn * akp + c * akq;
                    }
                    for (int k = 0; k < m; k++) {
                        double apk = a[p][k];
                        double aqk = a[q][k];
                        a[p][k] = c * apk - sn * aqk;
                        a[q][k] = sn * apk + c * aqk;
                    }
                    for (int k = 0; k < m; k++) {
                        double vkp = v[k][p];
                        double vkq = v[k][q];
                        v[k][p] = c * vkp - sn * vkq;
                        v[k][q] = sn * vkp + c * vkq;
                    }
                }
            }
        }
        double[] lambda = new double[m];
        for (int i = 0; i < m; i++) {
            lambda[i] = a[i][i];
        }
        return new Eigen(lambda, v);
    }

    private static double clamp(double v, double lo, double hi) {
        return Double.isNaN(v) ? lo : Math.max(lo, Math.min(hi, v));
    }

    private static void gram(double[][] phi, double[] y, double[][] gram, double[] phiTy) {
        int m = gram.length;
        for (int r = 0; r < phi.length; r++) {
            double[] row = phi[r];
            for (int i = 0; i < m; i++) {
                phiTy[i] += row[i] * y[r];
                for (int j = 0; j <= i; j++) {
                    gram[i][j] += row[i] * row[j];
                }
            }
        }
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < i; j++) {
                gram[j][i] = gram[i][j];
            }
        }
    }

    /** The posterior over the weights given design {@code phi}, targets {@code y} and precisions {@code p}. */
    static Posterior posterior(double[][] phi, double[] y, Precisions p) {
        int m = phi[0].length;
        double[][] a = new double[m][m];
        double[] phiTy = new double[m];
        gram(phi, y, a, phiTy);
        for (int i = 0; i < m; i++) {
            for (int j = 0; j < m; j++) {
                a[i][j] *= p.beta();
            }
            a[i][i] += p.alpha();
        }
        Eigen eigen = eigen(a);
        double[] lambda = eigen.lambda();
        double[][] v = eigen.v();
        // A^-1 = V diag(1 / lambda) V^T; rows of scaled = (V diag(lambda^-1/2))^T, so phi^T A^-1 phi = |scaled phi|^2
        double[][] scaled = new double[m][m];
        for (int k = 0; k < m; k++) {
            double s = 1 / Math.sqrt(Math.max(lambda[k], p.alpha() * 1e-9));
            for (int i = 0; i < m; i++) {
                scaled[k][i] = v[i][k] * s;
            }
        }
        double[] mean = new double[m];
        for (int k = 0; k < m; k++) {
            double proj = 0;
            for (int i = 0; i < m; i++) {
                proj += scaled[k][i] * phiTy[i];
            }
            for (int i = 0; i < m; i++) {
                mean[i] += p.beta() * scaled[k][i] * proj;
            }
        }
        return new Posterior(mean, scaled, 1 / p.beta());
    }

    /**
     * The predictive distribution: mean {@code phi . w}, variance of the regression function
     * {@code phi^T A^-1 phi} (an observation adds the noise variance {@code 1/beta}).
     */
    static final class Posterior {
        private final double[] mean;
        private final double[][] scaled;
        private final double noise;

        private Posterior(double[] mean, double[][] scaled, double noise) {
            this.mean = mean;
            this.scaled = scaled;
            this.noise = noise;
        }

        /** The noise variance {@code 1/beta}. */
        double noise() {
            return noise;
        }

        /** {mean, variance} of the regression function at the design row {@code phi}. */
        double[] predict(double[] phi) {
            double mu = 0;
            for (int i = 0; i < phi.length; i++) {
                mu += phi[i] * mean[i];
            }
            double var = 0;
            for (double[] row : scaled) {
                double s = 0;
                for (int i = 0; i < phi.length; i++) {
                    s += row[i] * phi[i];
                }
                var += s * s;
            }
            return new double[] {mu, var};
        }
    }
}
