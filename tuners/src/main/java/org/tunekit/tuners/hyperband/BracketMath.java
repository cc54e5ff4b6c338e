package org.tunekit.tuners.hyperband;

import java.util.List;
import java.util.SplittableRandom;

/**
 * Hyperband's arithmetic, as pure functions of the schedule ({@code R}, {@code eta}, {@code s_max}):
 * how many configurations a bracket starts and each rung keeps, the budget of each budget index, and
 * the generator of each drawn configuration.
 */
final class BracketMath {
    /** The largest {@code s_max} a schedule may have. */
    static final int MAX_S = 30;

    private BracketMath() {
    }

    /** The largest {@code s} with {@code eta^s <= ratio} (within rounding), at least 0. */
    static int largestBracket(double ratio, int eta) {
        int s = 0;
        double p = eta;
        while (p <= ratio * (1 + 1e-9) && s < MAX_S) {
            s++;
            p *= eta;
        }
        return s;
    }

    /** The number of configurations bracket {@code s} starts: {@code ceil((s_max+1)/(s+1) · eta^s)}. */
    static long bracketSize(int sMax, int eta, int s) {
        long etaPow = pow(eta, s);
        return ((long) (sMax + 1) * etaPow + s) / (s + 1);
    }

    /** The number of configurations in rung {@code rung} of bracket {@code s}: {@code floor(n · eta^-rung)}. */
    static long rungSize(int sMax, int eta, int s, int rung) {
        return bracketSize(sMax, eta, s) / pow(eta, rung);
    }

    /** The budget of budget index {@code i}: {@code R · eta^(i - s_max)} (0 is the smallest, {@code s_max} is {@code R}). */
    static double budget(double maxBudget, int eta, int sMax, int i) {
        return maxBudget / Math.pow(eta, sMax - i);
    }

    /** The budget as sent in the parameters: a whole number as a {@code Long}, otherwise a {@code Double}. */
    static Object budgetValue(double budget) {
        double r = Math.rint(budget);
        if (Math.abs(budget - r) <= 1e-9 * Math.max(1, Math.abs(budget)) && Math.abs(r) < 9e15) {
            return (long) r;
        }
        return budget;
    }

    /** The step of a full-budget curve of {@code curveLength} values that {@code budget} corresponds to: its share of {@code R}, at least 1. */
    static int stepOf(double budget, double maxBudget, int curveLength) {
        return (int) Math.max(1, Math.round(budget / maxBudget * curveLength));
    }

    /** The median length of some curves (0 for none). */
    static int typicalLength(List<double[]> curves) {
        int[] lengths = curves.stream().mapToInt(c -> c.length).sorted().toArray();
        return lengths.length == 0 ? 0 : lengths[lengths.length / 2];
    }

    /** The generator of configuration number {@code number}: a function of the seed and the number alone. */
    static SplittableRandom rngFor(long seed, long number) {
        return new SplittableRandom(mix(seed ^ mix(number + 0x632BE59BD9B4E019L)));
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
        z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
        return z ^ (z >>> 33);
    }

    /** {@code base^exponent}, refusing to overflow. */
    static long pow(long base, int exponent) {
        long p = 1;
        for (int i = 0; i < exponent; i++) {
            p = Math.multiplyExact(p, base);
        }
        return p;
    }
}
