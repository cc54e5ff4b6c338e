package org.tunekit.tuners.unitcube;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import org.tunekit.tuners.unitcube.UnitCubeTuner.Observation;

/**
 * Random candidate points of the unit cube for a model-based tuner to score: uniform points, points
 * near good observations, and good observations with one coordinate drawn anew. A coordinate that is
 * inactive ({@code NaN}) in an observation is drawn uniformly.
 */
public final class CandidatePoints {
    private CandidatePoints() {}

    /** The {@code count} observations with the smallest losses, best first (a new list). */
    public static List<Observation> best(List<Observation> observations, int count) {
        List<Observation> sorted = new ArrayList<>(observations);
        sorted.sort(Comparator.comparingDouble(Observation::loss));
        return new ArrayList<>(sorted.subList(0, Math.min(count, sorted.size())));
    }

    /** A uniform point of the {@code d}-dimensional unit cube. */
    public static double[] uniform(int d, SplittableRandom rng) {
        double[] u = new double[d];
        for (int j = 0; j < d; j++) {
            u[j] = rng.nextDouble();
        }
        return u;
    }

    /**
     * A Gaussian step of standard deviation {@code sd} from the observation's point (its raw unit
     * point when it has one), clamped to the cube.
     */
    public static double[] near(Observation o, double sd, int d, SplittableRandom rng) {
        double[] centre = centre(o);
        double[] u = new double[d];
        for (int j = 0; j < d; j++) {
            double mu = Double.isNaN(centre[j]) ? rng.nextDouble() : centre[j];
            u[j] = Math.max(0, Math.min(1, mu + sd * rng.nextGaussian()));
        }
        return u;
    }

    /** The observation's point with one coordinate, chosen at random, drawn anew: reaches other options of a choice. */
    public static double[] redrawOne(Observation o, int d, SplittableRandom rng) {
        double[] centre = centre(o);
        double[] u = new double[d];
        for (int j = 0; j < d; j++) {
            u[j] = Double.isNaN(centre[j]) ? rng.nextDouble() : centre[j];
        }
        u[rng.nextInt(d)] = rng.nextDouble();
        return u;
    }

    /**
     * The {@code c}-th point of a screening round that mixes all three kinds: of every four, two
     * uniform, one near one of {@code top} (standard deviation 0.02 or 0.1 in turn) and one of
     * {@code top} with a coordinate redrawn. Uniform only when {@code top} is empty.
     */
    public static double[] screening(int c, List<Observation> top, int d, SplittableRandom rng) {
        if (c % 4 == 1 && !top.isEmpty()) {
            return redrawOne(top.get((c / 4) % top.size()), d, rng);
        }
        return nearOrUniform(c, top, d, rng);
    }

    /**
     * The {@code c}-th point of a screening round of uniform points and, one in four, points near
     * one of {@code top} (standard deviation 0.02 or 0.1 in turn). Uniform only when {@code top} is empty.
     */
    public static double[] nearOrUniform(int c, List<Observation> top, int d, SplittableRandom rng) {
        if (c % 4 == 3 && !top.isEmpty()) {
            return near(top.get((c / 4) % top.size()), (c / 4) % 2 == 0 ? 0.02 : 0.1, d, rng);
        }
        return uniform(d, rng);
    }

    private static double[] centre(Observation o) {
        return o.raw() != null ? o.raw() : o.unit();
    }
}
