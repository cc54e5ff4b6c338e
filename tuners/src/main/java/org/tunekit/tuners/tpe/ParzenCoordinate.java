package org.tunekit.tuners.tpe;

import java.util.Arrays;
import java.util.random.RandomGenerator;
import org.tunekit.sdk.space.Choice;
import org.tunekit.sdk.space.Continuous;
import org.tunekit.sdk.space.EncodedSpace;
import org.tunekit.sdk.space.LogNormal;
import org.tunekit.sdk.space.Normal;
import org.tunekit.sdk.space.RandInt;

/**
 * One coordinate of the encoded space with its two Parzen estimators: l over the good observations
 * and g over the bad ones. A {@code choice} coordinate's estimators are weighted option counts plus
 * {@code prior_weight} spread evenly over the options; a numeric one's are {@link NumericEstimator}s
 * (a {@code randint} on [low - 0.5, high - 0.5], a continuous kind in its own (log-)space).
 *
 * <p>{@link #build} replaces both estimators from the observations; {@link #draw} and
 * {@link #logRatio} then answer from them until the next build.
 */
final class ParzenCoordinate {
    /** The weight of a pending trial's numeric component relative to a completed observation's. */
    static final double LIE_WEIGHT = 0.25;

    /** Membership of an observation in a build: left out, bad or good. */
    static final byte LEFT_OUT = 0;
    static final byte BAD = 1;
    static final byte GOOD = 2;

    final int index;
    /** The coordinate of the choice this one is nested in, or -1 at the top level. */
    final int parent;
    /** The option of the parent under which this coordinate is active. */
    final int parentOption;
    private final EncodedSpace.Kind kind;
    private final int cardinality;
    /** The continuous parameter, or null for a choice or a randint. */
    private final Continuous continuous;
    private final double intLow;
    private final double intHigh;
    private final NumericEstimator good;
    private final NumericEstimator bad;
    private final double[] goodProbability;
    private final double[] badProbability;
    private final double[] goodCumulative;

    ParzenCoordinate(EncodedSpace.Dimension d, double bandwidthFactor) {
        index = d.index();
        parent = d.parent();
        parentOption = d.parentOption();
        kind = d.kind();
        cardinality = d.cardinality();
        if (d.parameter() instanceof Choice) {
            continuous = null;
            intLow = intHigh = 0;
            good = bad = null;
            goodProbability = new double[cardinality];
            badProbability = new double[cardinality];
            goodCumulative = new double[cardinality];
            return;
        }
        goodProbability = badProbability = goodCumulative = null;
        if (d.parameter() instanceof RandInt r) {
            continuous = null;
            intLow = r.low();
            intHigh = r.high() - 1;
            good = new NumericEstimator(true, intLow - 0.5, intHigh + 0.5, 0, 0, bandwidthFactor);
            bad = new NumericEstimator(true, intLow - 0.5, intHigh + 0.5, 0, 0, bandwidthFactor);
            return;
        }
        continuous = (Continuous) d.parameter();
        intLow = intHigh = 0;
        if (continuous.bounded()) {
            good = new NumericEstimator(true, d.low(), d.high(), 0, 0, bandwidthFactor);
            bad = new NumericEstimator(true, d.low(), d.high(), 0, 0, bandwidthFactor);
        } else {
            double mu;
            double sigma;
            if (continuous instanceof Normal n) {
                mu = n.mu();
                sigma = n.sigma();
            } else {
                LogNormal n = (LogNormal) continuous;
                mu = n.mu();
                sigma = n.sigma();
            }
            good = new NumericEstimator(false, 0, 0, mu, sigma, bandwidthFactor);
            bad = new NumericEstimator(false, 0, 0, mu, sigma, bandwidthFactor);
        }
    }

    /** True when this coordinate is active in the (partly chosen) encoded vector {@code x}. */
    boolean activeIn(double[] x) {
        return parent < 0 || x[parent] == parentOption;
    }

    /**
     * The weight of the observation of age rank {@code r} (0 the oldest) among {@code m}: 1 for the
     * newest {@code linearForgetting}, a linear ramp from 1/m up for the older ones.
     */
    static double forgettingWeight(int r, int m, int linearForgetting) {
        if (m <= linearForgetting || r >= m - linearForgetting) {
            return 1;
        }
        int ramp = m - linearForgetting;
        return ramp == 1 ? 1.0 / m : 1.0 / m + (1 - 1.0 / m) * r / (ramp - 1);
    }

    /**
     * Rebuilds both estimators from the observations active in this coordinate.
     *
     * @param h          the observations
     * @param membership every slot's membership ({@link #GOOD}, {@link #BAD} or {@link #LEFT_OUT})
     * @param rank       every member slot's age rank within its group, among the slots where this coordinate is active
     * @param goodSize   how many good observations this coordinate is active in
     * @param badSize    how many bad ones
     */
    void build(History h, byte[] membership, int[] rank, int goodSize, int badSize, double priorWeight, int linearForgetting) {
        double[] col = h.values[index];
        int[] order = h.byValue[index];
        int size = h.byValueSize[index];
        if (kind == EncodedSpace.Kind.CATEGORICAL) {
            buildCategorical(col, order, size, membership, rank, goodSize, badSize, priorWeight, linearForgetting);
            return;
        }
        good.reset(priorWeight);
        bad.reset(priorWeight);
        int rampGood = goodSize - linearForgetting;
        int rampBad = badSize - linearForgetting;
        double slopeGood = rampGood > 1 ? (1 - 1.0 / goodSize) / (rampGood - 1) : 0;
        double slopeBad = rampBad > 1 ? (1 - 1.0 / badSize) / (rampBad - 1) : 0;
        double baseGood = 1.0 / goodSize;
        double baseBad = 1.0 / badSize;
        for (int t = 0; t < size; t++) {
            int s = order[t];
            byte member = membership[s];
            double lieFactor = h.state[s] == History.PENDING ? LIE_WEIGHT : 1;
            if (member == GOOD) {
                int r = rank[s];
                good.add(col[s], lieFactor * (r < rampGood ? baseGood + slopeGood * r : 1));
            } else if (member == BAD) {
                int r = rank[s];
                bad.add(col[s], lieFactor * (r < rampBad ? baseBad + slopeBad * r : 1));
            }
        }
        good.finish();
        bad.finish();
    }

    /** A choice's estimators: option weights (a pending trial weighs as much as a result here) plus the spread prior. */
    private void buildCategorical(double[] col, int[] order, int size, byte[] membership, int[] rank, int goodSize, int badSize,
                                  double priorWeight, int linearForgetting) {
        int k = cardinality;
        Arrays.fill(goodProbability, priorWeight / k);
        Arrays.fill(badProbability, priorWeight / k);
        for (int t = 0; t < size; t++) {
            int s = order[t];
            if (membership[s] != LEFT_OUT) {
                int option = (int) col[s];
                if (membership[s] == GOOD) {
                    goodProbability[option] += forgettingWeight(rank[s], goodSize, linearForgetting);
                } else {
                    badProbability[option] += forgettingWeight(rank[s], badSize, linearForgetting);
                }
            }
        }
        double gs = 0;
        double bs = 0;
        for (int o = 0; o < k; o++) {
            gs += goodProbability[o];
            bs += badProbability[o];
        }
        double cum = 0;
        for (int o = 0; o < k; o++) {
            goodProbability[o] /= gs;
            badProbability[o] /= bs;
            cum += goodProbability[o];
            goodCumulative[o] = cum;
        }
    }

    /** Draws a value from the good estimator, rounded or quantised to one the parameter can take. */
    double draw(RandomGenerator random) {
        if (kind == EncodedSpace.Kind.CATEGORICAL) {
            double u = random.nextDouble();
            for (int o = 0; o < cardinality - 1; o++) {
                if (u < goodCumulative[o]) {
                    return o;
                }
            }
            return cardinality - 1;
        }
        double raw = good.sample(random);
        if (kind == EncodedSpace.Kind.INTEGER) {
            return Math.max(intLow, Math.min(intHigh, Math.rint(raw)));
        }
        if (continuous.q() == 0) {
            return raw;
        }
        double value = continuous.quantize(continuous.logScale() ? Math.exp(raw) : raw);
        if (!continuous.logScale()) {
            return value;
        }
        return value > 0 ? Math.log(value) : Math.log(continuous.q() * 0.5);
    }

    /** log l(v) - log g(v): how much more likely the value is under the good estimator than the bad. */
    double logRatio(double v) {
        if (kind == EncodedSpace.Kind.CATEGORICAL) {
            int o = (int) v;
            return Math.log(goodProbability[o] / badProbability[o]);
        }
        double r = good.logDensity(v) - bad.logDensity(v);
        return Double.isNaN(r) ? Double.NEGATIVE_INFINITY : r;
    }
}
