package org.tunekit.tuners.unitcube;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.BiPredicate;
import java.util.function.Function;
import org.tunekit.tuners.unitcube.UnitCubeTuner.Observation;

/**
 * Random candidate points of the unit cube for a model-based tuner to score: uniform points, points
 * near good observations, and good observations with one coordinate drawn anew. A coordinate that is
 * inactive ({@code NaN}) in an observation is drawn uniformly. And the (1+1) local search that
 * improves the best of them.
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
     * A Gaussian step of standard deviation {@code sd} from the observation's unit point, clamped to
     * the cube.
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

    /**
     * A (1+1) hill climb of {@code steps} Gaussian steps from {@code start}, clamped to the cube:
     * the step size starts at 0.05, grows by half (up to 0.2) after a step that improves and shrinks
     * by a fifth (down to 1e-4) after one that does not.
     *
     * @param pointOf the unit point of an evaluated candidate
     * @param evaluate evaluates a unit point (and may record it)
     * @param improves whether its first argument is better than its second
     * @return the last candidate accepted ({@code start} if none improved on it)
     */
    public static <S> S climb(S start, Function<S, double[]> pointOf, Function<double[], S> evaluate, BiPredicate<S, S> improves,
            int steps, SplittableRandom rng) {
        S current = start;
        double step = 0.05;
        for (int t = 0; t < steps; t++) {
            double[] u = pointOf.apply(current);
            double[] v = new double[u.length];
            for (int j = 0; j < u.length; j++) {
                v[j] = Math.max(0, Math.min(1, u[j] + step * rng.nextGaussian()));
            }
            S candidate = evaluate.apply(v);
            if (improves.test(candidate, current)) {
                current = candidate;
                step = Math.min(0.2, step * 1.5);
            } else {
                step = Math.max(1e-4, step * 0.8);
            }
        }
        return current;
    }

    private static double[] centre(Observation o) {
        return o.unit();
    }
}
