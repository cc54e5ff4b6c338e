package org.tunekit.tuners.anneal;

import java.util.List;
import java.util.SplittableRandom;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.space.EncodedSpace;
import org.tunekit.tuners.unitcube.UnitCubeTuner;
import org.tunekit.tuners.unitcube.UnitNeighbourhood;

/**
 * Annealing-style local search: every parameter of a suggestion is drawn from a neighbourhood of a
 * value that did well, and the neighbourhoods narrow as results accumulate.
 *
 * <p>One suggestion walks the parameters in order (a nested choice before its sub-space's
 * parameters, so only the parameters of the chosen options are drawn). For each one, the results in
 * which the parameter was active are ranked by loss, and its reference value is taken from the one
 * at rank {@code g}, where {@code g} follows a geometric distribution on 0, 1, 2, ... of mean
 * {@value #MEAN_REFERENCE_RANK}: mostly the best, sometimes one of the next few, and each parameter
 * draws its own rank, so a suggestion can combine values of several good results. With {@code T}
 * the number of those results:
 * <ul>
 *   <li>a real parameter is drawn from a normal around the reference in the unit cube (the prior's
 *       quantile), of standard deviation {@value #INITIAL_SIGMA}{@code  / (1 + T / }{@value
 *       #HALF_WIDTH_TRIALS}{@code )}, truncated to the prior's range;</li>
 *   <li>a choice or an integer keeps the reference with probability {@code 1 - r}, where
 *       {@code r = 1 / (1 + T / }{@value #DISCRETE_HALF_TRIALS}{@code )}; otherwise a choice is drawn
 *       from its prior, and an integer moves to a neighbouring value with probability
 *       {@value #INTEGER_STEP}, else is drawn from its prior.</li>
 * </ul>
 * Before the first result, suggestions are draws from the prior. The constants were chosen on the
 * quality benchmark's suite (seeds other than the reported ones).
 *
 * <p>Class arguments (as NNI's anneal): {@code optimize_mode}, {@code seed}.
 */
final class AnnealTuner extends UnitCubeTuner {
    /** Mean rank (0 = best) of the result a parameter's reference value comes from. */
    static final double MEAN_REFERENCE_RANK = 0.5;
    /** The number of results at which a real parameter's neighbourhood has half its initial width. */
    static final double HALF_WIDTH_TRIALS = 7.0;
    /** The standard deviation of a real parameter's step, in unit-cube lengths, before any result. */
    static final double INITIAL_SIGMA = 0.35;
    /** The number of results at which a choice or an integer leaves its reference half as often as at first. */
    static final double DISCRETE_HALF_TRIALS = 14.0;
    /** The probability that an integer leaving its reference moves to a neighbouring value rather than a prior draw. */
    static final double INTEGER_STEP = 0.5;


    AnnealTuner(OptimizeMode mode, long seed) {
        super(mode, seed);
    }

    static AnnealTuner create(ClassArguments arguments) {
        arguments.requireOnly("optimize_mode", "seed");
        OptimizeMode mode = OptimizeMode.from(arguments, OptimizeMode.MAXIMIZE);
        return new AnnealTuner(mode, seedOf(arguments));
    }

    @Override
    protected double[] propose(long parameterId, int attempt, SplittableRandom rng) {
        UnitNeighbourhood neighbourhood = neighbourhood();
        double[] u = neighbourhood.uniform(rng);
        List<Observation> ranked = UnitNeighbourhood.ranked(observations());
        if (ranked.isEmpty()) {
            return u;
        }
        for (int d = 0; d < u.length; d++) {
            if (!neighbourhood.isActive(u, d)) {
                continue; // a parent comes before its nested coordinates, so activity is already final here
            }
            int rank = geometricRank(rng);
            int count = 0;
            double reference = Double.NaN;
            for (Observation o : ranked) {
                double v = o.unit()[d];
                if (!Double.isNaN(v)) {
                    if (count <= rank) {
                        reference = v;
                    }
                    count++;
                }
            }
            if (count == 0) {
                continue; // never observed: the prior draw stands
            }
            u[d] = reference;
            if (neighbourhood.kind(d) == EncodedSpace.Kind.REAL) {
                u[d] = UnitNeighbourhood.truncatedNormal(reference, INITIAL_SIGMA / (1.0 + count / HALF_WIDTH_TRIALS), rng);
            } else if (rng.nextDouble() < 1.0 / (1.0 + count / DISCRETE_HALF_TRIALS)) {
                if (neighbourhood.kind(d) == EncodedSpace.Kind.INTEGER && rng.nextDouble() < INTEGER_STEP) {
                    neighbourhood.perturb(u, d, 0.0, rng);
                } else {
                    neighbourhood.resample(u, d, false, rng);
                }
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
}
