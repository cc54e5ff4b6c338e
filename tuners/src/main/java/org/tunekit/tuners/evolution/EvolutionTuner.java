package org.tunekit.tuners.evolution;

import java.util.List;
import java.util.SplittableRandom;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.space.EncodedSpace;
import org.tunekit.tuners.unitcube.UnitCubeTuner;
import org.tunekit.tuners.unitcube.UnitNeighbourhood;

/**
 * A steady-state evolutionary algorithm over the search space.
 *
 * <p>The first {@code population_size} suggestions (results, pending suggestions and imported data
 * all count) are draws from the prior. After that the population is the {@code population_size}
 * best results: each new result joins it and the worst member leaves, which is what replacing the
 * worst member by the child amounts to. A suggestion is a child: a tournament of
 * {@value #TOURNAMENT_FRACTION} of the population (at least two members, drawn without replacement)
 * picks the parent, then one parameter, and with probability {@value #EXTRA_MUTATION} each a further
 * one, is mutated. A real or integer parameter is moved by a normal step with probability
 * {@value #LOCAL_MOVE}, else drawn afresh from its prior; the step's standard deviation is the spread
 * of that parameter in the population (in unit-cube lengths, at least {@value #MIN_SIGMA}), so steps
 * shrink as the population converges. A choice takes another option; when it has nested
 * sub-spaces, the new option's sub-space is drawn afresh.
 *
 * <p>The constants were chosen on the quality benchmark's suite (seeds other than the reported
 * ones): a tournament of half the population balances selection pressure against diversity.
 *
 * <p>Class arguments (as NNI's evolution): {@code optimize_mode}, {@code population_size} (32),
 * {@code seed}.
 */
final class EvolutionTuner extends UnitCubeTuner {
    static final int DEFAULT_POPULATION = 32;
    /** The share of the population that takes part in a tournament. */
    static final double TOURNAMENT_FRACTION = 0.5;
    /** The probability of each mutation beyond the first. */
    static final double EXTRA_MUTATION = 0.3;
    /** The probability that a numeric mutation is a local step rather than a fresh draw. */
    static final double LOCAL_MOVE = 0.9;
    /** The smallest standard deviation of a local step, in unit-cube lengths. */
    static final double MIN_SIGMA = 1e-3;

    private final int populationSize;

    EvolutionTuner(OptimizeMode mode, int populationSize, long seed) {
        super(mode, seed);
        this.populationSize = populationSize;
    }

    static EvolutionTuner create(ClassArguments arguments) {
        arguments.requireOnly("optimize_mode", "population_size", "seed");
        OptimizeMode mode = OptimizeMode.from(arguments, OptimizeMode.MAXIMIZE);
        int population = arguments.getInt("population_size", DEFAULT_POPULATION, 2);
        return new EvolutionTuner(mode, population, seedOf(arguments));
    }

    int populationSize() {
        return populationSize;
    }

    @Override
    protected double[] propose(long parameterId, int attempt, SplittableRandom rng) {
        UnitNeighbourhood neighbourhood = neighbourhood();
        List<Observation> observations = observations();
        if (observations.isEmpty() || observations.size() + pending().size() < populationSize) {
            return neighbourhood.uniform(rng);
        }
        List<Observation> ranked = UnitNeighbourhood.ranked(observations);
        List<Observation> population = ranked.subList(0, Math.min(populationSize, ranked.size()));
        int tournament = Math.max(2, (int) Math.round(TOURNAMENT_FRACTION * population.size()));
        Observation parent = Tournament.pick(population, tournament, rng);
        double[] child = neighbourhood.filled(parent.unit(), rng);
        int mutations = 1;
        while (rng.nextDouble() < EXTRA_MUTATION) {
            mutations++;
        }
        for (int m = 0; m < mutations; m++) {
            int[] active = neighbourhood.active(child);
            if (active.length == 0) {
                break;
            }
            int d = active[rng.nextInt(active.length)];
            Tournament.mutate(neighbourhood, child, d, population, LOCAL_MOVE, MIN_SIGMA, rng);
        }
        return child;
    }
}
