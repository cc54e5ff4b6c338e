package org.tunekit.tuners.anneal;

import java.util.List;
import java.util.SplittableRandom;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.space.EncodedSpace;
import org.tunekit.tuners.unitcube.UnitCubeTuner;
import org.tunekit.tuners.unitcube.UnitNeighbourhood;

/**
 * Annealing-style local search: every suggestion starts from one of the best results so far and
 * draws each parameter from a neighbourhood of that result's value that narrows as results
 * accumulate.
 *
 * <p>One suggestion: the observations are ranked by loss and the reference is the one at rank
 * {@code g}, where {@code g} follows a geometric distribution of mean {@value #MEAN_REFERENCE_RANK}
 * (so mostly the best, sometimes one of the next few). For each parameter active in the suggestion,
 * with {@code T} the number of observations in which the parameter was active, the neighbourhood
 * scale is {@code s = 1 / (1 + T / }{@value #HALF_WIDTH_TRIALS}{@code )}: a real parameter is drawn
 * from a normal around the reference's value in the unit cube (the prior's quantile) with standard
 * deviation {@value #INITIAL_SIGMA}{@code  * s}, truncated to the prior's range; a choice or an
 * integer keeps the reference's value with probability {@code 1 - s} and is otherwise drawn from its
 * prior. A choice that changes starts its nested sub-space from a fresh draw. Before the first
 * result, suggestions are draws from the prior.
 *
 * <p>Class arguments (as NNI's anneal): {@code optimize_mode}, {@code seed}.
 */
final class AnnealTuner extends UnitCubeTuner {
    /** Mean rank (0 = best) of the observation a suggestion starts from. */
    static final double MEAN_REFERENCE_RANK = 1.0;
    /** The number of observations of a parameter at which its neighbourhood has half its initial width. */
    static final double HALF_WIDTH_TRIALS = 10.0;
    /** The standard deviation of a real parameter's step, in unit-cube lengths, before any observation. */
    static final double INITIAL_SIGMA = 0.5;

    private UnitNeighbourhood neighbourhood;

    AnnealTuner(OptimizeMode mode, long seed) {
        super("Anneal", mode, seed);
    }

    static AnnealTuner create(ClassArguments arguments) {
        arguments.requireOnly("optimize_mode", "seed");
        OptimizeMode mode = OptimizeMode.from(arguments, OptimizeMode.MAXIMIZE);
        return new AnnealTuner(mode, seedOf(arguments));
    }

    @Override
    protected void spaceChanged(EncodedSpace space) {
        neighbourhood = new UnitNeighbourhood(space);
    }

    @Override
    protected double[] propose(long parameterId, int attempt, SplittableRandom rng) {
        if (neighbourhood == null || neighbourhood.space() != encoded()) {
            neighbourhood = new UnitNeighbourhood(encoded());
        }
        List<Observation> ranked = UnitNeighbourhood.ranked(observations());
        if (ranked.isEmpty()) {
            return neighbourhood.uniform(rng);
        }
        int rank = Math.min(ranked.size() - 1, geometricRank(rng));
        double[] u = neighbourhood.filled(ranked.get(rank).unit(), rng);
        int[] counts = activeCounts(ranked);
        for (int d = 0; d < u.length; d++) {
            if (!neighbourhood.isActive(u, d)) {
                continue; // parents come before their nested coordinates, so activity is already final here
            }
            double s = 1.0 / (1.0 + counts[d] / HALF_WIDTH_TRIALS);
            if (neighbourhood.kind(d) == EncodedSpace.Kind.REAL) {
                u[d] = UnitNeighbourhood.truncatedNormal(u[d], INITIAL_SIGMA * s, rng);
            } else if (rng.nextDouble() < s) {
                neighbourhood.resample(u, d, false, rng);
            }
        }
        return u;
    }

    /** A draw of the geometric distribution on 0, 1, 2, ... with mean {@link #MEAN_REFERENCE_RANK}. */
    private static int geometricRank(SplittableRandom rng) {
        double p = 1.0 / (1.0 + MEAN_REFERENCE_RANK);
        double v = Math.floor(Math.log1p(-rng.nextDouble()) / Math.log1p(-p));
        return (int) Math.min(Integer.MAX_VALUE, v);
    }

    /** For each coordinate, in how many observations it was active. */
    private int[] activeCounts(List<Observation> all) {
        int[] counts = new int[dimension()];
        for (Observation o : all) {
            double[] unit = o.unit();
            for (int d = 0; d < counts.length; d++) {
                if (!Double.isNaN(unit[d])) {
                    counts[d]++;
                }
            }
        }
        return counts;
    }
}
