package org.tunekit.sdk.stats;

import java.util.Arrays;

/**
 * Spearman's rank correlation: how well one series of values orders a set of trials the way another
 * does (1: the same order, -1: the reverse, about 0: unrelated). An assessor can ask, for example,
 * whether the values of completed trials at some step already ranked them as their final values do.
 */
public final class RankCorrelation {
    private RankCorrelation() {}

    /**
     * Spearman's correlation of {@code x} and {@code y}: Pearson's correlation of their ranks, ties
     * sharing their average rank. When either series has a single distinct value it orders nothing,
     * and the correlation is 0.
     *
     * @throws IllegalArgumentException when the lengths differ or are below 2
     */
    public static double spearman(double[] x, double[] y) {
        if (x.length != y.length || x.length < 2) {
            throw new IllegalArgumentException("two series of the same length, at least 2, are needed; got " + x.length + " and " + y.length);
        }
        double[] a = ranks(x);
        double[] b = ranks(y);
        double mean = (x.length - 1) / 2.0;
        double sab = 0;
        double saa = 0;
        double sbb = 0;
        for (int i = 0; i < a.length; i++) {
            sab += (a[i] - mean) * (b[i] - mean);
            saa += (a[i] - mean) * (a[i] - mean);
            sbb += (b[i] - mean) * (b[i] - mean);
        }
        return saa == 0 || sbb == 0 ? 0 : sab / Math.sqrt(saa * sbb);
    }

    /** Ranks from 0 in ascending order, ties sharing their average rank; NaN ranks above every number. */
    public static double[] ranks(double[] values) {
        Integer[] order = new Integer[values.length];
        for (int i = 0; i < values.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(values[a], values[b]));
        double[] r = new double[values.length];
        for (int i = 0; i < values.length;) {
            int j = i;
            while (j + 1 < values.length && Double.compare(values[order[j + 1]], values[order[i]]) == 0) {
                j++;
            }
            for (int k = i; k <= j; k++) {
                r[order[k]] = (i + j) / 2.0;
            }
            i = j + 1;
        }
        return r;
    }
}
