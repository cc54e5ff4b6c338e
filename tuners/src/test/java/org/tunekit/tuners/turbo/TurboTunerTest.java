package org.tunekit.tuners.turbo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.sdk.spi.TunerProvider;
import org.tunekit.tuners.unitcube.UnitCubeTunerContract;

class TurboTunerTest extends UnitCubeTunerContract {

    @Override
    protected Tuner create(Map<String, Object> arguments) {
        return new TurboTunerProvider().create(ClassArguments.of(arguments));
    }

    private static TurboTuner turbo(Map<String, Object> arguments) {
        return TurboTuner.create(ClassArguments.of(arguments));
    }

    @Test
    void theProviderIsRegistered() {
        assertThat(ServiceLoader.load(TunerProvider.class).stream().map(ServiceLoader.Provider::type))
                .contains((Class) TurboTunerProvider.class);
        assertThat(new TurboTunerProvider().name()).isEqualTo("TuRBO");
    }

    @Test
    void badArgumentsAreNamed() {
        assertThatThrownBy(() -> create(Map.of("candidates", 100_000L))).isInstanceOf(InvalidClassArgumentException.class)
                .hasMessageContaining("candidates");
        assertThatThrownBy(() -> create(Map.of("success_tolerance", 0L))).isInstanceOf(InvalidClassArgumentException.class)
                .hasMessageContaining("success_tolerance");
        assertThatThrownBy(() -> create(Map.of("min_length", 0.0))).isInstanceOf(InvalidClassArgumentException.class)
                .hasMessageContaining("min_length");
        assertThatThrownBy(() -> create(Map.of("initial_length", 1.9))).isInstanceOf(InvalidClassArgumentException.class)
                .hasMessageContaining("initial_length");
        assertThatThrownBy(() -> create(Map.of("output_warping", "yes please"))).isInstanceOf(InvalidClassArgumentException.class)
                .hasMessageContaining("output_warping");
    }

    @Test
    void bestAfterFortyBeatsRandomSamplingClearly() throws Exception {
        assertBestAfterFortyBeatsRandomBy(10);
    }

    /** A 12-d sphere off-centre: sum (x_i - 0.3)^2 on [-1, 1]^12. */
    private static SearchSpace box12() {
        SearchSpace.Builder b = SearchSpace.builder();
        for (int j = 1; j <= 12; j++) {
            b.uniform("x" + j, -1, 1);
        }
        return b.build();
    }

    private static double sphere12(Parameters p) {
        double f = 0;
        for (int j = 1; j <= 12; j++) {
            double d = p.getDouble("x" + j) - 0.3;
            f += d * d;
        }
        return f;
    }

    @Test
    void inTwelveDimensionsItBeatsRandomSamplingByFarAndTheRegionShrinksAroundTheOptimum() throws Exception {
        List<Double> bests = new ArrayList<>();
        for (long seed = 0; seed < 3; seed++) {
            TurboTuner t = turbo(Map.of("seed", seed, "optimize_mode", "minimize"));
            t.updateSearchSpace(box12());
            bests.add(bestAfter(t, 60, TurboTunerTest::sphere12));
        }
        double random = randomMedian(box12(), 9, 60, TurboTunerTest::sphere12);
        assertThat(median(bests)).as("TuRBO %s, random %s", bests, random).isLessThan(random / 5);
    }

    @Test
    void failuresHalveTheRegionAndACollapsedRegionRestarts() throws Exception {
        // a flat function: nothing ever improves, so every trust-region result is a failure
        TurboTuner t = turbo(Map.of("seed", 3L, "optimize_mode", "minimize", "initial_points", 4L, "failure_tolerance", 2L,
                "initial_length", 0.8, "min_length", 0.1));
        t.updateSearchSpace(square());
        run(t, 4, 0, p -> 1.0);
        assertThat(t.length()).isEqualTo(0.8);
        run(t, 2, 4, p -> 1.0);
        assertThat(t.length()).isEqualTo(0.4);
        run(t, 4, 6, p -> 1.0);
        assertThat(t.length()).isEqualTo(0.1);
        assertThat(t.restarts()).isZero();
        run(t, 2, 10, p -> 1.0);
        // 0.05 < min_length: a new region with the initial length and a new Sobol design of 4 points
        assertThat(t.restarts()).isEqualTo(1);
        assertThat(t.length()).isEqualTo(0.8);
        run(t, 4, 12, p -> 1.0);
        assertThat(t.length()).isEqualTo(0.8);
        run(t, 2, 16, p -> 1.0);
        assertThat(t.length()).isEqualTo(0.4);
    }

    @Test
    void successesDoubleTheRegionUpToItsMaximum() throws Exception {
        TurboTuner t = turbo(Map.of("seed", 5L, "optimize_mode", "minimize", "initial_points", 4L, "success_tolerance", 2L,
                "initial_length", 0.5, "max_length", 1.2));
        t.updateSearchSpace(square());
        // every result better than all before it: a success each time
        double[] value = {100};
        run(t, 4, 0, p -> value[0]--);
        run(t, 2, 4, p -> value[0]--);
        assertThat(t.length()).isEqualTo(1.0);
        run(t, 2, 6, p -> value[0]--);
        assertThat(t.length()).isEqualTo(1.2);
    }

    @Test
    void theRegionIsCentredOnTheBestPointAndStretchedAlongLongLengthScales() {
        TurboTuner t = turbo(Map.of("seed", 1L, "optimize_mode", "minimize", "initial_length", 0.4));
        t.updateSearchSpace(square());
        // log length-scales -1 and +1: geometric mean 1, weights e^-1 and e^1
        double[][] box = t.box(new double[] {0.5, 0.5}, new double[] {0, -1, 1});
        assertThat(box[0][0]).isCloseTo(0.5 - 0.2 * Math.exp(-1), within(1e-12));
        assertThat(box[1][0]).isCloseTo(0.5 + 0.2 * Math.exp(-1), within(1e-12));
        assertThat(box[0][1]).isEqualTo(0.0); // 0.5 - 0.2 e clipped
        assertThat(box[1][1]).isEqualTo(1.0);
    }

    @Test
    void expectedImprovementIsTheKnownFormula() {
        assertThat(TurboTuner.expectedImprovement(0, 1, 0)).isCloseTo(1 / Math.sqrt(2 * Math.PI), within(1e-12));
        assertThat(TurboTuner.expectedImprovement(-1, 0, 0)).isEqualTo(1.0);
        assertThat(TurboTuner.expectedImprovement(1, 0, 0)).isEqualTo(0.0);
    }

    @Test
    void aBatchFromTheTrustRegionIsSpreadOut() throws Exception {
        TurboTuner t = turbo(Map.of("seed", 4L, "optimize_mode", "minimize"));
        t.updateSearchSpace(square());
        run(t, 12, 0, UnitCubeTunerContract::quadratic);
        List<Parameters> batch = t.generateMultipleParameters(List.of(100L, 101L, 102L, 103L, 104L, 105L, 106L, 107L));
        assertThat(batch).hasSize(8);
        double closest = Double.POSITIVE_INFINITY;
        for (int i = 0; i < batch.size(); i++) {
            for (int j = 0; j < i; j++) {
                double dx = batch.get(i).getDouble("x") - batch.get(j).getDouble("x");
                double dy = batch.get(i).getDouble("y") - batch.get(j).getDouble("y");
                closest = Math.min(closest, Math.hypot(dx, dy));
            }
        }
        assertThat(closest).isGreaterThan(1e-3);
        long id = 100;
        for (Parameters p : batch) {
            t.receiveTrialResult(new TrialResult(id, p, Metric.of(quadratic(p)), false, null));
            t.trialEnd(id++, true);
        }
    }

    @Test
    void choicesAndIntegersAreSearchedToo() throws Exception {
        SearchSpace space = SearchSpace.builder().choice("opt", "sgd", "adam", "rmsprop").randint("layers", 1, 9)
                .loguniform("lr", 1e-5, 1).quniform("dropout", 0, 0.8, 0.05).build();
        List<Double> bests = new ArrayList<>();
        for (long seed = 0; seed < 5; seed++) {
            TurboTuner t = turbo(Map.of("seed", seed, "optimize_mode", "minimize"));
            t.updateSearchSpace(space);
            bests.add(bestAfter(t, 40, TurboTunerTest::mixed));
        }
        double random = randomMedian(space, 9, 40, TurboTunerTest::mixed);
        assertThat(median(bests)).as("TuRBO %s, random %s", bests, random).isLessThan(random / 2);
    }

    private static double mixed(Parameters p) {
        double u = Math.log10(p.getDouble("lr")) + 3;
        double l = p.getDouble("layers") - 5;
        double d = p.getDouble("dropout") - 0.25;
        return u * u + 0.05 * l * l + 4 * d * d + (p.getString("opt").equals("adam") ? 0 : 0.3);
    }

    @Test
    void aRunIsReproducibleAcrossARestartOfTheRegion() throws Exception {
        List<List<Parameters>> runs = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            TurboTuner t = turbo(Map.of("seed", 9L, "optimize_mode", "minimize", "initial_points", 3L, "failure_tolerance", 1L,
                    "min_length", 0.3));
            t.updateSearchSpace(square());
            SplittableRandom noise = new SplittableRandom(1);
            runs.add(run(t, 20, 0, p -> quadratic(p) + noise.nextDouble()));
            assertThat(t.restarts()).isPositive();
        }
        assertThat(runs.get(0)).isEqualTo(runs.get(1));
    }
}
