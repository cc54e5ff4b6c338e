package org.tunekit.tuners.tpe;

import java.util.Arrays;
import java.util.random.RandomGenerator;
import org.tunekit.sdk.space.EncodedSpace;

/**
 * TPE's model of one encoded search space: a {@link ParzenCoordinate} per coordinate, built from
 * observations already split into good and bad, and the two ways of proposing a vector from it.
 *
 * <p>A proposal is a function of the last build and the random source alone. The arrays used while
 * building are kept between builds, so that a build allocates nothing once they have grown.
 */
final class ParzenModel {
    private final ParzenCoordinate[] coordinates;
    private final double priorWeight;
    private final int linearForgetting;
    private final int eiCandidates;

    // scratch space reused by every build
    private byte[] membership = new byte[16];
    private int[] topRank = new int[16];
    private int[] nestedRank = new int[16];

    ParzenModel(EncodedSpace encoded, TpeSettings settings) {
        coordinates = new ParzenCoordinate[encoded.size()];
        for (EncodedSpace.Dimension d : encoded.dimensions()) {
            coordinates[d.index()] = new ParzenCoordinate(d, settings.bandwidthFactor());
        }
        priorWeight = settings.priorWeight();
        linearForgetting = settings.linearForgetting();
        eiCandidates = settings.eiCandidates();
    }

    /**
     * Builds every coordinate's estimators. The completed observations, and the pending ones when
     * {@code withPending}, take part; {@code good[slot]} says which group each is in. Every group is
     * ranked by age (slot order) for the linear forgetting; a top-level coordinate is active in every
     * observation, so they all share one ranking.
     */
    void build(History h, boolean[] good, boolean withPending) {
        if (membership.length < h.slots) {
            int n = Math.max(h.slots, membership.length * 2);
            membership = new byte[n];
            topRank = new int[n];
            nestedRank = new int[n];
        }
        int topGood = 0;
        int topBad = 0;
        for (int s = 0; s < h.slots; s++) {
            byte state = h.state[s];
            if (state == History.DONE || (state == History.PENDING && withPending)) {
                membership[s] = good[s] ? ParzenCoordinate.GOOD : ParzenCoordinate.BAD;
                topRank[s] = good[s] ? topGood++ : topBad++;
            } else {
                membership[s] = ParzenCoordinate.LEFT_OUT;
            }
        }
        for (ParzenCoordinate c : coordinates) {
            if (c.parent < 0) {
                c.build(h, membership, topRank, topGood, topBad, priorWeight, linearForgetting);
                continue;
            }
            double[] col = h.values[c.index];
            int goodSize = 0;
            int badSize = 0;
            for (int s = 0; s < h.slots; s++) {
                if (!Double.isNaN(col[s]) && membership[s] != ParzenCoordinate.LEFT_OUT) {
                    nestedRank[s] = membership[s] == ParzenCoordinate.GOOD ? goodSize++ : badSize++;
                }
            }
            c.build(h, membership, nestedRank, goodSize, badSize, priorWeight, linearForgetting);
        }
    }

    /**
     * Chooses one parameter at a time, in encoded order: for each active coordinate the best by
     * l / g of {@code n_ei_candidates} draws from l. Inactive coordinates are NaN.
     */
    double[] proposeOneAtATime(RandomGenerator rng) {
        double[] x = new double[coordinates.length];
        Arrays.fill(x, Double.NaN);
        for (ParzenCoordinate c : coordinates) {
            if (!c.activeIn(x)) {
                continue;
            }
            double best = Double.NaN;
            double bestScore = Double.NEGATIVE_INFINITY;
            for (int k = 0; k < eiCandidates; k++) {
                double v = c.draw(rng);
                double score = c.logRatio(v);
                if (Double.isNaN(best) || score > bestScore) {
                    best = v;
                    bestScore = score;
                }
            }
            x[c.index] = best;
        }
        return x;
    }

    /** Draws {@code n_ei_candidates} whole vectors from the l estimators and returns the one with the largest joint l / g. */
    double[] proposeJointly(RandomGenerator rng) {
        double[] best = null;
        double bestScore = Double.NEGATIVE_INFINITY;
        for (int k = 0; k < eiCandidates; k++) {
            double[] x = new double[coordinates.length];
            Arrays.fill(x, Double.NaN);
            double score = 0;
            for (ParzenCoordinate c : coordinates) {
                if (c.activeIn(x)) {
                    x[c.index] = c.draw(rng);
                    score += c.logRatio(x[c.index]);
                }
            }
            if (best == null || score > bestScore) {
                best = x;
                bestScore = score;
            }
        }
        return best;
    }
}
