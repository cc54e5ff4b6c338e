package org.tunekit.tuners.cmaes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.spi.TunerProvider;
import org.tunekit.tuners.unitcube.UnitCubeTunerContract;

class CmaEsTunerTest extends UnitCubeTunerContract {

    @Override
    protected Tuner create(Map<String, Object> arguments) {
        return new CmaEsTunerProvider().create(ClassArguments.of(arguments));
    }

    private static CmaEsTuner cma(Map<String, Object> arguments) {
        return CmaEsTuner.create(ClassArguments.of(arguments));
    }

    @Test
    void theProviderIsRegistered() {
        assertThat(ServiceLoader.load(TunerProvider.class).stream().map(ServiceLoader.Provider::type))
                .contains((Class) CmaEsTunerProvider.class);
    }

    @Test
    void badArgumentsAreNamed() {
        assertThatThrownBy(() -> create(Map.of("sigma0", -0.1))).isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("sigma0");
        assertThatThrownBy(() -> create(Map.of("popsize", 1L))).isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("popsize");
        assertThatThrownBy(() -> create(Map.of("restarts", -1L))).isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("restarts");
    }

    @Test
    void theDefaultPopulationIsFourPlusThreeLogN() {
        CmaEsTuner t = cma(Map.of("seed", 1L));
        t.updateSearchSpace(square());
        assertThat(t.populationSize()).isEqualTo(6);
        CmaEsTuner ten = cma(Map.of("seed", 1L, "popsize", 10L));
        ten.updateSearchSpace(square());
        assertThat(ten.populationSize()).isEqualTo(10);
    }

    @Test
    void aGenerationIsUpdatedWhenItsResultsAreInWhateverTheirOrder() throws Exception {
        CmaEsTuner t = cma(Map.of("seed", 3L, "optimize_mode", "minimize"));
        t.updateSearchSpace(square());
        List<Long> ids = new ArrayList<>();
        for (long i = 0; i < 9; i++) {
            ids.add(i);
        }
        List<Parameters> batch = t.generateMultipleParameters(ids); // 6 of generation 0, then 3 more from the same distribution
        assertThat(batch).hasSize(9).doesNotHaveDuplicates();
        List<Integer> order = new ArrayList<>(List.of(8, 2, 5, 0, 7, 1, 3, 6, 4));
        int reported = 0;
        for (int k : order) {
            t.receiveTrialResult(new TrialResult(k, batch.get(k), Metric.of(quadratic(batch.get(k))), false, null));
            reported++;
            assertThat(t.generation()).isEqualTo(reported >= 6 ? 1 : 0);
        }
    }

    @Test
    void failedTrialsDoNotCountTowardsAGeneration() throws Exception {
        CmaEsTuner t = cma(Map.of("seed", 3L, "optimize_mode", "minimize", "popsize", 4L));
        t.updateSearchSpace(square());
        List<Parameters> batch = t.generateMultipleParameters(List.of(0L, 1L, 2L, 3L));
        t.trialEnd(0, false);
        for (int k = 1; k < 4; k++) {
            t.receiveTrialResult(new TrialResult(k, batch.get(k), Metric.of(quadratic(batch.get(k))), false, null));
        }
        assertThat(t.generation()).isZero();
        Parameters extra = t.generateParameters(4);
        t.receiveTrialResult(new TrialResult(4, extra, Metric.of(quadratic(extra)), false, null));
        assertThat(t.generation()).isEqualTo(1);
    }

    @Test
    void aFlatObjectiveTriggersRestartsThatDoubleThePopulation() throws Exception {
        CmaEsTuner t = cma(Map.of("seed", 5L, "popsize", 4L, "restarts", 2L));
        t.updateSearchSpace(square());
        run(t, 1000, 0, p -> 1.0);
        assertThat(t.restartCount()).isGreaterThanOrEqualTo(3);
        assertThat(t.populationSize()).isEqualTo(16); // 4 doubled twice, then kept
    }

    @Test
    void importedResultsMoveTheFirstMean() throws Exception {
        CmaEsTuner t = cma(Map.of("seed", 8L, "optimize_mode", "minimize", "sigma0", 0.05));
        t.updateSearchSpace(square());
        t.importData(List.of(
                new org.tunekit.sdk.ImportedTrial(Parameters.of(Map.of("x", 0.3, "y", -0.2)), Metric.of(0)),
                new org.tunekit.sdk.ImportedTrial(Parameters.of(Map.of("x", -0.9, "y", 0.9)), Metric.of(5))));
        for (Parameters p : t.generateMultipleParameters(List.of(0L, 1L, 2L, 3L, 4L, 5L))) {
            assertThat(Math.hypot(p.getDouble("x") - 0.3, p.getDouble("y") + 0.2)).isLessThan(0.5);
        }
    }

    @Test
    void reflectionKeepsCoordinatesInTheUnitInterval() {
        assertThat(CmaEsTuner.reflect(-0.25)).isEqualTo(0.25);
        assertThat(CmaEsTuner.reflect(1.25)).isEqualTo(0.75);
        assertThat(CmaEsTuner.reflect(2.5)).isEqualTo(0.5);
        assertThat(CmaEsTuner.reflect(0.4)).isEqualTo(0.4);
    }

    @Test
    void bestAfterFortyBeatsRandomSamplingClearly() throws Exception {
        assertBestAfterFortyBeatsRandomBy(3);
    }
}
