package org.tunekit.tuners.sobol;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.sdk.spi.TunerProvider;
import org.tunekit.tuners.unitcube.UnitCubeTunerContract;

class SobolTunerTest extends UnitCubeTunerContract {

    @Override
    protected Tuner create(Map<String, Object> arguments) {
        return new SobolTunerProvider().create(ClassArguments.of(arguments));
    }

    @Test
    void theProviderIsRegistered() {
        assertThat(ServiceLoader.load(TunerProvider.class).stream().map(ServiceLoader.Provider::type))
                .contains((Class) SobolTunerProvider.class);
    }

    @Test
    void theFirstPowerOfTwoPointsStratifyEveryCoordinate() throws Exception {
        // a digitally shifted Sobol sequence keeps the net property: the first 2^m points put exactly
        // one value into each of the 2^m equal slices of every coordinate
        for (long seed : new long[] {1, 2, 3}) {
            Tuner tuner = create(seed);
            tuner.updateSearchSpace(SearchSpace.builder().uniform("a", 0, 1).uniform("b", 0, 1).uniform("c", 0, 1).build());
            List<Parameters> points = run(tuner, 32, 0, p -> 0);
            for (String name : List.of("a", "b", "c")) {
                Set<Integer> slices = new HashSet<>();
                for (Parameters p : points) {
                    slices.add((int) Math.floor(p.getDouble(name) * 32));
                }
                assertThat(slices).as("seed %d, coordinate %s", seed, name).hasSize(32);
            }
        }
    }

    @Test
    void bestAfterFortyIsNoWorseThanRandomSampling() throws Exception {
        List<Double> bests = new java.util.ArrayList<>();
        for (long seed = 0; seed < 9; seed++) {
            Tuner tuner = create(seed);
            tuner.updateSearchSpace(square());
            bests.add(bestAfter(tuner, 40, UnitCubeTunerContract::quadratic));
        }
        assertThat(median(bests)).isLessThanOrEqualTo(1.5 * randomMedian(square(), 25, 40, UnitCubeTunerContract::quadratic));
    }
}
