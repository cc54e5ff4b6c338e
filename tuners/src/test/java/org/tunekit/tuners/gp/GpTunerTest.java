package org.tunekit.tuners.gp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.sdk.spi.TunerProvider;
import org.tunekit.tuners.unitcube.UnitCubeTuner;
import org.tunekit.tuners.unitcube.UnitCubeTunerContract;

class GpTunerTest extends UnitCubeTunerContract {

    @Override
    protected Tuner create(Map<String, Object> arguments) {
        return new GpTunerProvider().create(ClassArguments.of(arguments));
    }

    private static GpTuner gp(Map<String, Object> arguments) {
        return GpTuner.create(ClassArguments.of(arguments));
    }

    @Test
    void theProviderIsRegistered() {
        assertThat(ServiceLoader.load(TunerProvider.class).stream().map(ServiceLoader.Provider::type))
                .contains((Class) GpTunerProvider.class);
    }

    @Test
    void badArgumentsAreNamed() {
        assertThatThrownBy(() -> create(Map.of("nu", 2.0))).isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("nu");
        assertThatThrownBy(() -> create(Map.of("utility", "pi"))).isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("utility");
        assertThatThrownBy(() -> create(Map.of("kappa", -1.0))).isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("kappa");
        assertThatThrownBy(() -> create(Map.of("cold_start_num", 0L))).isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("cold_start_num");
        assertThatThrownBy(() -> create(Map.of("selection_num_warm_up", "many"))).isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("selection_num_warm_up");
        assertThatThrownBy(() -> create(Map.of("alpha", -1e-6))).isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("alpha");
    }

    @Test
    void everyUtilityAndSmoothnessImprovesOnItsColdStart() throws Exception {
        for (String utility : List.of("ei", "ucb", "poi")) {
            for (double nu : new double[] {0.5, 1.5, 2.5}) {
                // probability of improvement needs a margin: with xi = 0 it creeps along next to the incumbent
                double xi = utility.equals("poi") ? 0.05 : 0.0;
                Tuner tuner = create(Map.of("seed", 1L, "optimize_mode", "minimize", "utility", utility, "nu", nu, "xi", xi));
                tuner.updateSearchSpace(square());
                List<Parameters> suggested = run(tuner, 30, 0, UnitCubeTunerContract::quadratic);
                double coldStart = suggested.subList(0, 10).stream().mapToDouble(UnitCubeTunerContract::quadratic).min().orElseThrow();
                double modelled = suggested.subList(10, 30).stream().mapToDouble(UnitCubeTunerContract::quadratic).min().orElseThrow();
                assertThat(modelled).as("%s, nu %s", utility, nu).isLessThan(coldStart / 2);
            }
        }
    }

    @Test
    void bestAfterFortyBeatsRandomSamplingClearly() throws Exception {
        assertBestAfterFortyBeatsRandomBy(10);
    }

    @Test
    void lengthScalesFollowWhatMatters() throws Exception {
        GpTuner t = gp(Map.of("seed", 2L, "optimize_mode", "minimize"));
        t.updateSearchSpace(square());
        run(t, 30, 0, p -> Math.sin(6 * p.getDouble("x"))); // y does not matter
        double[] theta = t.theta();
        assertThat(theta[2]).isGreaterThan(theta[1] + 1); // log length-scale of y well above that of x
    }

    @Test
    void importedResultsReplaceTheColdStart() throws Exception {
        GpTuner t = gp(Map.of("seed", 2L, "optimize_mode", "minimize"));
        t.updateSearchSpace(square());
        List<ImportedTrial> imported = new ArrayList<>();
        java.util.SplittableRandom rng = new java.util.SplittableRandom(7);
        for (int i = 0; i < 25; i++) {
            Parameters p = square().sample(rng);
            imported.add(new ImportedTrial(p, Metric.of(quadratic(p))));
        }
        t.importData(imported);
        double best = imported.stream().mapToDouble(i -> quadratic(i.parameters())).min().orElseThrow();
        // with the model fitted on the imported data, the first suggestions already improve on it
        double found = Double.POSITIVE_INFINITY;
        for (Parameters p : run(t, 5, 0, UnitCubeTunerContract::quadratic)) {
            found = Math.min(found, quadratic(p));
        }
        assertThat(t.theta()).isNotNull();
        assertThat(found).isLessThan(best);
    }

    @Test
    void pendingPointsSpreadABatchOut() throws Exception {
        GpTuner t = gp(Map.of("seed", 4L, "optimize_mode", "minimize"));
        SearchSpace space = square();
        t.updateSearchSpace(space);
        run(t, 11, 0, UnitCubeTunerContract::quadratic);
        List<Parameters> batch = t.generateMultipleParameters(List.of(100L, 101L, 102L, 103L, 104L));
        double closest = Double.POSITIVE_INFINITY;
        for (int i = 0; i < batch.size(); i++) {
            for (int j = 0; j < i; j++) {
                double dx = batch.get(i).getDouble("x") - batch.get(j).getDouble("x");
                double dy = batch.get(i).getDouble("y") - batch.get(j).getDouble("y");
                closest = Math.min(closest, Math.hypot(dx, dy));
            }
        }
        assertThat(closest).isGreaterThan(0.01);
    }

    @Test
    void aboveSixParametersTheIncumbentsNeighbourhoodIsSearchedAlongAFewCoordinatesAtATime() {
        UnitCubeTuner.Observation best = new UnitCubeTuner.Observation(Parameters.of(Map.of()),
                new double[] {0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5}, 1.0);
        java.util.SplittableRandom rng = new java.util.SplittableRandom(3);
        int moved = 0;
        for (int k = 0; k < 300; k++) {
            double[] u = GpTuner.perturbed(best, k, 20, rng);
            int m = 0;
            for (double v : u) {
                assertThat(v).isBetween(0.0, 1.0);
                m += v != 0.5 ? 1 : 0;
            }
            assertThat(m).isPositive();
            moved += m;
        }
        // each of 20 coordinates moves with probability 10 / 20: about 10 per candidate
        assertThat(moved / 300.0).isBetween(8.5, 11.5);
    }

    @Test
    void outputWarpingIsAnArgumentThatMustBeABoolean() {
        assertThatThrownBy(() -> create(Map.of("output_warping", "sometimes"))).isInstanceOf(InvalidClassArgumentException.class)
                .hasMessageContaining("output_warping");
        assertThat(create(Map.of("output_warping", true, "seed", 1L))).isNotNull();
    }
}
