package org.tunekit.tuners.gp;

import java.util.Arrays;

/**
 * A monotone transformation of a model's training targets that makes them closer to Gaussian
 * before a Gaussian process is fitted to them: objectives such as Rosenbrock span many orders of
 * magnitude, and standardised as they are, the few huge values flatten everything near the optimum.
 */
public final class OutputWarping {
    private OutputWarping() {}

    /** The scales tried by {@link #leastSkewed}, in multiples of the median of {@code y - min}; 0 stands for no warping. */
    private static final double[] WARP_SCALES = {1, 10, 100, 0};

    /**
     * The losses made closer to Gaussian, standardised: of {@code log(1 + (y - min) / (c m))} for
     * {@code c} in 1, 10, 100 ({@code m} the median of {@code y - min}, or 1 when that is 0) and
     * {@code y} itself, the one whose skewness is smallest in magnitude (the first on ties). Every
     * candidate is monotone, so the order and the incumbent are kept; heavy right tails (Rosenbrock,
     * Levy) are pulled in, symmetric values are left as they are.
     */
    public static double[] leastSkewed(double[] y) {
        int n = y.length;
        double min = Double.POSITIVE_INFINITY;
        for (double v : y) {
            min = Math.min(min, v);
        }
        double[] shifted = new double[n];
        for (int i = 0; i < n; i++) {
            shifted[i] = y[i] - min;
        }
        double[] sorted = shifted.clone();
        Arrays.sort(sorted);
        double median = n % 2 == 1 ? sorted[n / 2] : 0.5 * (sorted[n / 2 - 1] + sorted[n / 2]);
        double m = median > 0 ? median : 1;
        double[] best = null;
        double bestSkew = Double.POSITIVE_INFINITY;
        for (double c : WARP_SCALES) {
            double[] w = new double[n];
            for (int i = 0; i < n; i++) {
                w[i] = c == 0 ? shifted[i] : Math.log1p(shifted[i] / (c * m));
            }
            double skew = Math.abs(standardise(w));
            if (skew < bestSkew) {
                bestSkew = skew;
                best = w;
            }
        }
        return best;
    }

    /** Standardises {@code w} in place (divides by 1 when it is constant) and returns its skewness. */
    private static double standardise(double[] w) {
        int n = w.length;
        double mean = 0;
        for (double v : w) {
            mean += v / n;
        }
        double ss = 0;
        for (double v : w) {
            ss += (v - mean) * (v - mean);
        }
        double sd = Math.sqrt(ss / n);
        if (!(sd > 1e-12)) {
            sd = 1;
        }
        double skew = 0;
        for (int i = 0; i < n; i++) {
            w[i] = (w[i] - mean) / sd;
            skew += w[i] * w[i] * w[i] / n;
        }
        return skew;
    }

}
