package org.tunekit.tuners.evolution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.sdk.spi.TunerProvider;
import org.tunekit.tuners.unitcube.UnitCubeTunerContract;

class EvolutionTunerTest extends UnitCubeTunerContract {

    @Override
    protected Tuner create(Map<String, Object> arguments) {
        return new EvolutionTunerProvider().create(ClassArguments.of(arguments));
    }

    @Test
    void theProviderIsRegisteredAndThePopulationDefaultsToThirtyTwo() {
        assertThat(ServiceLoader.load(TunerProvider.class).stream().map(ServiceLoader.Provider::type))
                .contains((Class) EvolutionTunerProvider.class);
        assertThat(EvolutionTuner.create(ClassArguments.empty()).populationSize()).isEqualTo(32);
        assertThatThrownBy(() -> create(Map.of("population_size", 1)))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("population_size");
    }

    @Test
    void theFirstPopulationIsRandomAndTheChildrenDependOnTheResults() throws Exception {
        Tuner a = create(Map.of("seed", 4L, "population_size", 10, "optimize_mode", "minimize"));
        Tuner b = create(Map.of("seed", 4L, "population_size", 10, "optimize_mode", "minimize"));
        a.updateSearchSpace(square());
        b.updateSearchSpace(square());
        List<Parameters> fromA = run(a, 20, 0, UnitCubeTunerContract::quadratic);
        List<Parameters> fromB = run(b, 20, 0, p -> -quadratic(p));
        assertThat(fromA.subList(0, 10)).isEqualTo(fromB.subList(0, 10));
        assertThat(fromA.subList(10, 20)).isNotEqualTo(fromB.subList(10, 20));
    }

    @Test
    void aChildDiffersFromAKnownSetInAFewParameters() throws Exception {
        SearchSpace space = categorical();
        Tuner tuner = create(Map.of("seed", 8L, "population_size", 8, "optimize_mode", "minimize"));
        tuner.updateSearchSpace(space);
        List<Parameters> all = run(tuner, 60, 0, UnitCubeTunerContract::anyObjective);
        List<Integer> distances = new ArrayList<>();
        for (int i = 8; i < all.size(); i++) {
            distances.add(nearest(all.get(i), all.subList(0, i)));
        }
        assertThat(distances).allSatisfy(d -> assertThat(d).isBetween(1, 4));
        assertThat(distances.stream().filter(d -> d == 1).count()).isGreaterThan(distances.size() / 2);
    }

    @Test
    void bestAfterSixtyIsBetterThanRandomSampling() throws Exception {
        List<Double> bests = new ArrayList<>();
        for (long seed = 0; seed < 9; seed++) {
            Tuner tuner = create(Map.of("seed", seed, "population_size", 16, "optimize_mode", "minimize"));
            tuner.updateSearchSpace(square());
            bests.add(bestAfter(tuner, 60, UnitCubeTunerContract::quadratic));
        }
        assertThat(median(bests)).isLessThan(0.5 * randomMedian(square(), 25, 60, UnitCubeTunerContract::quadratic));
    }

    /** Six choices of four options each. */
    static SearchSpace categorical() {
        SearchSpace.Builder b = SearchSpace.builder();
        for (int i = 0; i < 6; i++) {
            b.choice("c" + i, "a", "b", "c", "d");
        }
        return b.build();
    }

    /** The smallest number of differing parameters between {@code p} and any of {@code known}. */
    static int nearest(Parameters p, List<Parameters> known) {
        int best = Integer.MAX_VALUE;
        for (Parameters q : known) {
            int d = 0;
            for (String k : p.values().keySet()) {
                if (!p.get(k).equals(q.get(k))) {
                    d++;
                }
            }
            best = Math.min(best, d);
        }
        return best;
    }
}
