package org.tunekit.tuners.regevo;

import java.util.List;
import java.util.SplittableRandom;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.space.EncodedSpace;
import org.tunekit.tuners.evolution.Tournament;
import org.tunekit.tuners.unitcube.UnitCubeTuner;
import org.tunekit.tuners.unitcube.UnitNeighbourhood;

/**
 * Regularized (aging) evolution, after Real et al., "Regularized Evolution for Image Classifier
 * Architecture Search" (AAAI 2019).
 *
 * <p>The population is the {@code population_size} most recent results, in order of arrival: when a
 * new result joins a full population, the oldest member dies, however good it was. A suggestion is
 * a child: {@code sample_size} members drawn at random without replacement, the best of them is the
 * parent, and exactly one of its active parameters is mutated. A real or integer parameter takes a
 * normal step with probability {@value #LOCAL_MOVE} (standard deviation: that parameter's spread in
 * the population, in unit-cube lengths, at least {@value #MIN_SIGMA}) and is otherwise drawn afresh
 * from its prior; a choice takes another option, and a nested option's sub-space is drawn afresh.
 *
 * <p>The paper fills the whole population with random samples before the first child; here
 * evolution starts as soon as {@code min(sample_size, population_size)} suggestions (results,
 * pending suggestions and imported data) exist, and the population keeps growing up to
 * {@code population_size} before the first member dies. With NNI's default sizes this makes the
 * difference between 100 random trials and 25 random trials followed by 75 children.
 *
 * <p>Class arguments (as NNI's): {@code optimize_mode}, {@code population_size} (100),
 * {@code sample_size} (25), {@code seed}.
 */
final class RegularizedEvolutionTuner extends UnitCubeTuner {
    static final int DEFAULT_POPULATION = 100;
    static final int DEFAULT_SAMPLE = 25;
    /** The probability that a numeric mutation is a local step rather than a fresh draw. */
    static final double LOCAL_MOVE = 0.9;
    /** The smallest standard deviation of a local step, in unit-cube lengths. */
    static final double MIN_SIGMA = 1e-3;

    private final int populationSize;
    private final int sampleSize;

    RegularizedEvolutionTuner(OptimizeMode mode, int populationSize, int sampleSize, long seed) {
        super(mode, seed);
        this.populationSize = populationSize;
        this.sampleSize = sampleSize;
    }

    static RegularizedEvolutionTuner create(ClassArguments arguments) {
        arguments.requireOnly("optimize_mode", "population_size", "sample_size", "seed");
        OptimizeMode mode = OptimizeMode.from(arguments, OptimizeMode.MAXIMIZE);
        int population = arguments.getInt("population_size", DEFAULT_POPULATION, 1);
        int sample = arguments.getInt("sample_size", DEFAULT_SAMPLE, 1);
        if (sample > population) {
            throw new InvalidClassArgumentException("sample_size (" + sample + ") must not exceed population_size (" + population + ")");
        }
        return new RegularizedEvolutionTuner(mode, population, sample, seedOf(arguments));
    }

    @Override
    protected double[] propose(long parameterId, int attempt, SplittableRandom rng) {
        UnitNeighbourhood neighbourhood = neighbourhood();
        List<Observation> observations = observations();
        if (observations.isEmpty() || observations.size() + pending().size() < Math.min(sampleSize, populationSize)) {
            return neighbourhood.uniform(rng);
        }
        List<Observation> population = observations.subList(Math.max(0, observations.size() - populationSize), observations.size());
        Observation parent = Tournament.pick(population, sampleSize, rng);
        double[] child = neighbourhood.filled(parent.unit(), rng);
        int[] active = neighbourhood.active(child);
        if (active.length > 0) {
            int d = active[rng.nextInt(active.length)];
            Tournament.mutate(neighbourhood, child, d, population, LOCAL_MOVE, MIN_SIGMA, rng);
        }
        return child;
    }
}
