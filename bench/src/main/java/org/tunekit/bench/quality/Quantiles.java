package org.tunekit.bench.quality;

import java.util.Arrays;

/**
 * Median and quartiles as numpy's {@code percentile} computes them by default (Hyndman and Fan's
 * type 7): for sorted values x_0..x_{n-1} the p-quantile sits at position h = (n - 1) p and is
 * x_{floor h} + (h - floor h)(x_{floor h + 1} - x_{floor h}). With 30 seeds the median is the mean
 * of the 15th and 16th smallest values, Q1 = x_7 + 0.25 (x_8 - x_7) and Q3 = x_21 + 0.75 (x_22 - x_21).
 *
 * @param q1     the first quartile
 * @param median the median
 * @param q3     the third quartile
 * @param n      how many values
 */
public record Quantiles(double q1, double median, double q3, int n) {

    /** The quartiles of {@code values} (which are not changed). */
    public static Quantiles of(double[] values) {
        if (values.length == 0) {
            throw new IllegalArgumentException("no values to take quantiles of");
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return new Quantiles(quantile(sorted, 0.25), quantile(sorted, 0.5), quantile(sorted, 0.75), sorted.length);
    }

    /** The type-7 {@code p}-quantile of values already sorted in ascending order. */
    public static double quantile(double[] sorted, double p) {
        if (sorted.length == 0) {
            throw new IllegalArgumentException("no values to take a quantile of");
        }
        if (!(p >= 0 && p <= 1)) {
            throw new IllegalArgumentException("quantile level must be in [0, 1], got " + p);
        }
        double h = (sorted.length - 1) * p;
        int lo = (int) Math.floor(h);
        int hi = Math.min(lo + 1, sorted.length - 1);
        double frac = h - lo;
        if (frac == 0 || sorted[lo] == sorted[hi]) {
            return sorted[lo];
        }
        return sorted[lo] + frac * (sorted[hi] - sorted[lo]);
    }
}
