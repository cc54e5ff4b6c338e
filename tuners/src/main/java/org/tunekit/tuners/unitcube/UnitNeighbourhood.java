package org.tunekit.tuners.unitcube;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.tunekit.sdk.space.EncodedSpace;

/**
 * Moves in the unit cube of an {@link EncodedSpace} that local-search and evolutionary tuners share:
 * drawing a coordinate afresh from the prior, moving it a little, and knowing which coordinates are
 * active. A categorical or integer coordinate is always set to the centre of its cell, so that the
 * point decodes to exactly that option or integer. Redrawing a choice redraws every coordinate of
 * its nested sub-spaces too, so a newly chosen option starts from a fresh sample of its sub-space.
 * Immutable; the randomness comes from the caller's generator.
 */
public final class UnitNeighbourhood {
    private static final int TRUNCATED_NORMAL_TRIES = 32;

    private final EncodedSpace space;
    /** For every coordinate, the coordinates nested below it (empty for non-choices and flat choices). */
    private final int[][] descendants;

    /** The neighbourhood structure of {@code space}. */
    public UnitNeighbourhood(EncodedSpace space) {
        this.space = space;
        int n = space.size();
        List<List<Integer>> below = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            below.add(new ArrayList<>());
        }
        for (EncodedSpace.Dimension d : space.dimensions()) {
            for (int p = d.parent(); p >= 0; p = space.dimensions().get(p).parent()) {
                below.get(p).add(d.index());
            }
        }
        descendants = new int[n][];
        for (int i = 0; i < n; i++) {
            descendants[i] = below.get(i).stream().mapToInt(Integer::intValue).toArray();
        }
    }

    /** The space this neighbourhood belongs to. */
    public EncodedSpace space() {
        return space;
    }

    /** A uniform point of the unit cube: a draw from the prior of every coordinate. */
    public double[] uniform(SplittableRandom rng) {
        double[] u = new double[space.size()];
        for (int i = 0; i < u.length; i++) {
            u[i] = draw(i, rng);
        }
        return u;
    }

    /** A copy of {@code unit} whose {@code NaN} (inactive) coordinates are drawn from the prior. */
    public double[] filled(double[] unit, SplittableRandom rng) {
        double[] u = unit.clone();
        for (int i = 0; i < u.length; i++) {
            if (Double.isNaN(u[i])) {
                u[i] = draw(i, rng);
            }
        }
        return u;
    }

    /** The coordinates that are active in the complete point {@code u}, in index order (parents before children). */
    public int[] active(double[] u) {
        double[] x = space.fromUnit(u);
        return space.dimensions().stream().filter(d -> space.isActive(d, x)).mapToInt(EncodedSpace.Dimension::index).toArray();
    }

    /** True when coordinate {@code d} is active in the complete point {@code u}. */
    public boolean isActive(double[] u, int d) {
        return space.isActive(space.dimensions().get(d), space.fromUnit(u));
    }

    /** The kind of coordinate {@code d}. */
    public EncodedSpace.Kind kind(int d) {
        return space.dimensions().get(d).kind();
    }

    /**
     * Draws coordinate {@code d} afresh from its prior; a choice's nested coordinates are drawn afresh
     * too. With {@code different}, a categorical or integer coordinate with more than one value takes
     * a value other than its current one.
     */
    public void resample(double[] u, int d, boolean different, SplittableRandom rng) {
        EncodedSpace.Dimension dim = space.dimensions().get(d);
        int card = dim.cardinality();
        if (different && card > 1) {
            int current = cellOf(u[d], card);
            int k = rng.nextInt(card - 1);
            u[d] = centre(k >= current ? k + 1 : k, card);
        } else {
            u[d] = draw(d, rng);
        }
        for (int child : descendants[d]) {
            u[child] = draw(child, rng);
        }
    }

    /**
     * Moves coordinate {@code d} a little: a real coordinate by a normal step of standard deviation
     * {@code sigma} (in unit-cube lengths) truncated to [0, 1]; an integer by a rounded normal step of
     * {@code sigma} times its range, at least one value; a categorical coordinate, which has no notion
     * of nearby, is redrawn as another option (with its sub-spaces).
     */
    public void perturb(double[] u, int d, double sigma, SplittableRandom rng) {
        EncodedSpace.Dimension dim = space.dimensions().get(d);
        switch (dim.kind()) {
            case REAL -> u[d] = truncatedNormal(u[d], sigma, rng);
            case CATEGORICAL -> resample(u, d, true, rng);
            case INTEGER -> {
                int card = dim.cardinality();
                if (card <= 1) {
                    return;
                }
                int current = cellOf(u[d], card);
                long step = Math.round(rng.nextGaussian() * sigma * card);
                if (step == 0) {
                    step = rng.nextBoolean() ? 1 : -1;
                }
                int k = (int) Math.max(0, Math.min(card - 1, current + step));
                if (k == current) {
                    k = current + (int) -Math.signum(step);
                }
                u[d] = centre(k, card);
            }
        }
    }

    /** A normal draw around {@code centre} with standard deviation {@code sigma}, truncated to [0, 1]. */
    public static double truncatedNormal(double centre, double sigma, SplittableRandom rng) {
        double c = Math.max(0, Math.min(1, centre));
        if (!(sigma > 0)) {
            return c;
        }
        for (int i = 0; i < TRUNCATED_NORMAL_TRIES; i++) {
            double v = c + sigma * rng.nextGaussian();
            if (v >= 0 && v <= 1) {
                return v;
            }
        }
        return c;
    }

    /** The cell (option index or integer offset) of a unit value of a coordinate with {@code card} values. */
    public static int cellOf(double unit, int card) {
        return (int) Math.max(0, Math.min(card - 1, Math.floor(unit * card)));
    }

    /** The unit value at the centre of cell {@code k} of {@code card}. */
    public static double centre(int k, int card) {
        return (k + 0.5) / card;
    }

    private double draw(int d, SplittableRandom rng) {
        int card = space.dimensions().get(d).cardinality();
        return card > 0 ? centre(rng.nextInt(card), card) : rng.nextDouble();
    }

    /**
     * The observations with a usable loss, best first; ties keep the order of arrival. A {@code NaN}
     * loss counts as the worst.
     */
    public static List<UnitCubeTuner.Observation> ranked(List<UnitCubeTuner.Observation> observations) {
        List<UnitCubeTuner.Observation> out = new ArrayList<>(observations);
        out.sort(Comparator.comparingDouble(UnitNeighbourhood::lossOf));
        return out;
    }

    /** The loss of an observation for ranking: {@code NaN} becomes positive infinity. */
    public static double lossOf(UnitCubeTuner.Observation o) {
        return Double.isNaN(o.loss()) ? Double.POSITIVE_INFINITY : o.loss();
    }
}
