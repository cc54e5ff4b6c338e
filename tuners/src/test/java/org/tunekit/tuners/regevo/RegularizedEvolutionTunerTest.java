package org.tunekit.tuners.regevo;

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

class RegularizedEvolutionTunerTest extends UnitCubeTunerContract {

    @Override
    protected Tuner create(Map<String, Object> arguments) {
        return new RegularizedEvolutionTunerProvider().create(ClassArguments.of(arguments));
    }

    @Test
    void theProviderIsRegisteredAndTheSizesAreChecked() {
        assertThat(ServiceLoader.load(TunerProvider.class).stream().map(ServiceLoader.Provider::type))
                .contains((Class) RegularizedEvolutionTunerProvider.class);
        assertThatThrownBy(() -> create(Map.of("population_size", 10, "sample_size", 11)))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("sample_size");
        assertThatThrownBy(() -> create(Map.of("sample_size", 0)))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("sample_size");
    }

    @Test
    void everyChildIsOneMutationAwayFromAMemberOfTheLivingPopulation() throws Exception {
        SearchSpace space = categorical();
        int population = 10;
        Tuner tuner = create(Map.of("seed", 2L, "population_size", population, "sample_size", 3, "optimize_mode", "minimize"));
        tuner.updateSearchSpace(space);
        List<Parameters> all = run(tuner, 80, 0, UnitCubeTunerContract::anyObjective);
        for (int i = 3; i < all.size(); i++) {
            List<Parameters> living = all.subList(Math.max(0, i - population), i);
            assertThat(nearest(all.get(i), living)).as("suggestion %d", i).isEqualTo(1);
        }
    }

    @Test
    void theFirstSampleSizeSuggestionsAreRandomAndTheChildrenDependOnTheResults() throws Exception {
        Map<String, Object> args = Map.of("seed", 4L, "population_size", 20, "sample_size", 5, "optimize_mode", "minimize");
        Tuner a = create(args);
        Tuner b = create(args);
        a.updateSearchSpace(square());
        b.updateSearchSpace(square());
        List<Parameters> fromA = run(a, 20, 0, UnitCubeTunerContract::quadratic);
        List<Parameters> fromB = run(b, 20, 0, p -> -quadratic(p));
        assertThat(fromA.subList(0, 5)).isEqualTo(fromB.subList(0, 5));
        assertThat(fromA.subList(5, 20)).isNotEqualTo(fromB.subList(5, 20));
    }

    @Test
    void bestAfterSixtyIsBetterThanRandomSampling() throws Exception {
        List<Double> bests = new ArrayList<>();
        for (long seed = 0; seed < 9; seed++) {
            Tuner tuner = create(seed);
            tuner.updateSearchSpace(square());
            bests.add(bestAfter(tuner, 60, UnitCubeTunerContract::quadratic));
        }
        assertThat(median(bests)).isLessThan(0.5 * randomMedian(square(), 25, 60, UnitCubeTunerContract::quadratic));
    }

    private static SearchSpace categorical() {
        SearchSpace.Builder b = SearchSpace.builder();
        for (int i = 0; i < 6; i++) {
            b.choice("c" + i, "a", "b", "c", "d");
        }
        return b.build();
    }

    private static int nearest(Parameters p, List<Parameters> known) {
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
