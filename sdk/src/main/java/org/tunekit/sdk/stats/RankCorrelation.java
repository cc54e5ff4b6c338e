package org.tunekit.sdk.stats;

import java.util.Arrays;
import java.util.List;

/**
 * Spearman's rank correlation: how well one series of values orders a set of trials the way another
 * does (1: the same order, -1: the reverse, about 0: unrelated). An assessor can ask, for example,
 * whether the values of completed trials at some step already ranked them as their final values do.
 */
public final class RankCorrelation {
    /** The correlation from which a step's values are taken to predict the final ranking. */
    public static final double PREDICTIVE = 0.7;
    /** How many consecutive steps must reach {@link #PREDICTIVE}: one noisy step is not enough. */
    public static final int STEADY_STEPS = 3;
    /** The fewest curves a step's correlation is computed over. */
    public static final int MIN_CURVES = 3;

    private RankCorrelation() {}

    /**
     * The first step (1-based) from which completed learning curves' values order them as their last
     * values do: the first {@code s} at which {@link #atStep} is at least {@value #PREDICTIVE} and stays
     * so for the next {@value #STEADY_STEPS} − 1 steps. Curves that cross late (slow starters overtaking
     * fast ones) give a late step, curves whose order is set early a step near 1; when no step qualifies
     * the answer is {@link Integer#MAX_VALUE}.
     */
    public static int firstPredictiveStep(List<double[]> curves) {
        int longest = curves.stream().mapToInt(c -> c.length).max().orElse(0);
        double[] rho = new double[longest];
        for (int s = 1; s < longest; s++) {
            rho[s] = atStep(curves, s);
            if (Double.isNaN(rho[s])) {
                break;
            }
        }
        for (int s = 1; s < longest; s++) {
            boolean steady = !Double.isNaN(rho[s]);
            for (int t = s; t < Math.min(s + STEADY_STEPS, longest) && steady; t++) {
                steady = rho[t] >= PREDICTIVE;
            }
            if (steady) {
                return s;
            }
        }
        return Integer.MAX_VALUE;
    }

    /**
     * Spearman's correlation between the curves' values at step {@code s} (1-based) and their last
     * values, over the curves longer than {@code s}; NaN when fewer than {@value #MIN_CURVES} are.
     */
    public static double atStep(List<double[]> curves, int s) {
        List<double[]> longer = curves.stream().filter(c -> c.length > s).toList();
        if (longer.size() < MIN_CURVES) {
            return Double.NaN;
        }
        double[] at = new double[longer.size()];
        double[] last = new double[longer.size()];
        for (int i = 0; i < at.length; i++) {
            at[i] = longer.get(i)[s - 1];
            last[i] = longer.get(i)[longer.get(i).length - 1];
        }
        return spearman(at, last);
    }

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
