package org.tunekit.tuners.evolution;

import java.util.List;
import java.util.SplittableRandom;
import org.tunekit.sdk.space.EncodedSpace;
import org.tunekit.tuners.unitcube.UnitCubeTuner.Observation;
import org.tunekit.tuners.unitcube.UnitNeighbourhood;

/** Selection and mutation that the evolutionary tuners share. */
public final class Tournament {
    private Tournament() {}

    /**
     * The best of {@code size} members drawn without replacement from {@code population} (all of
     * them when it has no more); ties go to the member listed first.
     */
    public static Observation pick(List<Observation> population, int size, SplittableRandom rng) {
        int n = population.size();
        int k = Math.min(size, n);
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        int best = -1;
        for (int i = 0; i < k; i++) {
            int j = i + rng.nextInt(n - i);
            int t = order[i];
            order[i] = order[j];
            order[j] = t;
            int candidate = order[i];
            if (best < 0 || UnitNeighbourhood.lossOf(population.get(candidate)) < UnitNeighbourhood.lossOf(population.get(best))
                    || (UnitNeighbourhood.lossOf(population.get(candidate)) == UnitNeighbourhood.lossOf(population.get(best)) && candidate < best)) {
                best = candidate;
            }
        }
        return population.get(best);
    }

    /**
     * Mutates coordinate {@code d} of {@code child}: a real or integer coordinate takes a local step
     * with probability {@code localMove} (standard deviation: the coordinate's spread in the
     * population, at least {@code minSigma}) and is otherwise drawn from its prior; a choice takes
     * another option, its nested sub-spaces drawn afresh.
     */
    public static void mutate(UnitNeighbourhood neighbourhood, double[] child, int d, List<Observation> population,
            double localMove, double minSigma, SplittableRandom rng) {
        EncodedSpace.Kind kind = neighbourhood.kind(d);
        if (kind == EncodedSpace.Kind.CATEGORICAL) {
            neighbourhood.resample(child, d, true, rng);
        } else if (rng.nextDouble() < localMove) {
            neighbourhood.perturb(child, d, Math.max(minSigma, spread(population, d)), rng);
        } else {
            neighbourhood.resample(child, d, kind == EncodedSpace.Kind.INTEGER, rng);
        }
    }

    /** The standard deviation of coordinate {@code d} over the members where it is active (0.5 when fewer than two). */
    static double spread(List<Observation> population, int d) {
        double sum = 0;
        double sumSq = 0;
        int n = 0;
        for (Observation o : population) {
            double v = o.unit()[d];
            if (!Double.isNaN(v)) {
                sum += v;
                sumSq += v * v;
                n++;
            }
        }
        if (n < 2) {
            return 0.5;
        }
        double mean = sum / n;
        return Math.sqrt(Math.max(0, sumSq / n - mean * mean));
    }
}
