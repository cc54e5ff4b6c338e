package org.tunekit.tuners.anneal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.spi.TunerProvider;
import org.tunekit.tuners.unitcube.UnitCubeTunerContract;

class AnnealTunerTest extends UnitCubeTunerContract {

    @Override
    protected Tuner create(Map<String, Object> arguments) {
        return new AnnealTunerProvider().create(ClassArguments.of(arguments));
    }

    @Test
    void theProviderIsRegistered() {
        assertThat(ServiceLoader.load(TunerProvider.class).stream().map(ServiceLoader.Provider::type))
                .contains((Class) AnnealTunerProvider.class);
    }

    @Test
    void bestAfterSixtyIsFarBetterThanRandomSampling() throws Exception {
        List<Double> bests = new ArrayList<>();
        for (long seed = 0; seed < 9; seed++) {
            Tuner tuner = create(seed);
            tuner.updateSearchSpace(square());
            bests.add(bestAfter(tuner, 60, UnitCubeTunerContract::quadratic));
        }
        assertThat(median(bests)).isLessThan(0.2 * randomMedian(square(), 25, 60, UnitCubeTunerContract::quadratic));
    }

    @Test
    void theNeighbourhoodNarrowsAsResultsAccumulate() throws Exception {
        Tuner tuner = create(3);
        tuner.updateSearchSpace(square());
        List<Parameters> all = run(tuner, 120, 0, UnitCubeTunerContract::quadratic);
        assertThat(meanDistanceToOptimum(all.subList(100, 120))).isLessThan(0.5 * meanDistanceToOptimum(all.subList(1, 21)));
    }

    private static double meanDistanceToOptimum(List<Parameters> points) {
        double sum = 0;
        for (Parameters p : points) {
            sum += Math.hypot(p.getDouble("x") - 0.3, p.getDouble("y") + 0.2);
        }
        return sum / points.size();
    }

    @Test
    void withoutResultsTheSuggestionsAreDrawsFromThePrior() throws Exception {
        Tuner tuner = create(5);
        tuner.updateSearchSpace(square());
        List<Long> ids = new ArrayList<>();
        for (long i = 0; i < 40; i++) {
            ids.add(i);
        }
        List<Parameters> batch = tuner.generateMultipleParameters(ids);
        long leftHalf = batch.stream().filter(p -> p.getDouble("x") < 0).count();
        assertThat(leftHalf).isBetween(10L, 30L);
    }
}
