package org.tunekit.tuners.metis;

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
import org.tunekit.tuners.unitcube.UnitCubeTunerContract;

class MetisTunerTest extends UnitCubeTunerContract {

    @Override
    protected Tuner create(Map<String, Object> arguments) {
        return new MetisTunerProvider().create(ClassArguments.of(arguments));
    }

    private static MetisTuner metis(Map<String, Object> arguments) {
        return MetisTuner.create(ClassArguments.of(arguments));
    }

    @Test
    void theProviderIsRegistered() {
        assertThat(ServiceLoader.load(TunerProvider.class).stream().map(ServiceLoader.Provider::type))
                .contains((Class) MetisTunerProvider.class);
    }

    @Test
    void badArgumentsAreNamed() {
        assertThatThrownBy(() -> create(Map.of("exploration_probability", 1.5)))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("exploration_probability");
        assertThatThrownBy(() -> create(Map.of("selection_num_starting_points", 0L)))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("selection_num_starting_points");
        assertThatThrownBy(() -> create(Map.of("cold_start_num", 0L)))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("cold_start_num");
        assertThatThrownBy(() -> create(Map.of("no_resampling", "maybe")))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("no_resampling");
        assertThatThrownBy(() -> create(Map.of("no_candidates", 3L)))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("no_candidates");
    }

    @Test
    void bestAfterFortyBeatsRandomSamplingClearly() throws Exception {
        assertBestAfterFortyBeatsRandomBy(10);
    }

    /** A smooth curve observed on a grid, one observation corrupted: Metis proposes to re-sample next to it. */
    @Test
    void aPoorlyPredictedObservationIsResampled() throws Exception {
        SearchSpace line = SearchSpace.builder().uniform("x", 0, 1).build();
        for (boolean corrupt : new boolean[] {false, true}) {
            MetisTuner tuner = metis(Map.of("seed", 3L, "optimize_mode", "minimize", "no_candidates", true));
            tuner.updateSearchSpace(line);
            List<ImportedTrial> grid = new ArrayList<>();
            for (int i = 0; i <= 20; i++) {
                double x = i / 20.0;
                double y = (x - 0.5) * (x - 0.5);
                if (corrupt && i == 10) {
                    y = 1.0; // the minimum of the curve observed as its worst value
                }
                grid.add(new ImportedTrial(Parameters.of(Map.of("x", x)), Metric.of(y)));
            }
            tuner.importData(grid);
            Parameters next = tuner.generateParameters(0);
            if (corrupt) {
                assertThat(tuner.lastSource()).isEqualTo(MetisTuner.Source.RESAMPLING);
                assertThat(next.getDouble("x")).isCloseTo(0.5, org.assertj.core.data.Offset.offset(0.05));
            } else {
                assertThat(tuner.lastSource()).as("no outlier, no candidates: a random point").isNull();
            }
        }
    }

    @Test
    void withoutExplorationAndResamplingEveryRoundExploits() throws Exception {
        MetisTuner tuner = metis(Map.of("seed", 4L, "optimize_mode", "minimize", "exploration_probability", 0.0,
                "no_resampling", true));
        tuner.updateSearchSpace(square());
        run(tuner, 12, 0, UnitCubeTunerContract::quadratic);
        assertThat(tuner.lastSource()).isEqualTo(MetisTuner.Source.EXPLOITATION);
    }

    @Test
    void expectedImprovementGrowsWithUncertaintyAndWithALowerMean() {
        assertThat(MetisTuner.expectedImprovement(0, 1, 0)).isCloseTo(1 / Math.sqrt(2 * Math.PI), org.assertj.core.data.Offset.offset(1e-12));
        assertThat(MetisTuner.expectedImprovement(0, 2, 0)).isGreaterThan(MetisTuner.expectedImprovement(0, 1, 0));
        assertThat(MetisTuner.expectedImprovement(-1, 1, 0)).isGreaterThan(MetisTuner.expectedImprovement(0, 1, 0));
        assertThat(MetisTuner.expectedImprovement(-1, 0, 0)).isEqualTo(1.0);
    }

    @Test
    void exploitationIsHeldBackNextToPendingPointsOnly() {
        java.util.List<double[]> pending = java.util.List.of(new double[] {0.2, 0.2}, new double[] {0.8, 0.8});
        double atPending = MetisTuner.pendingPenalty(new double[] {0.2, 0.2}, pending);
        double near = MetisTuner.pendingPenalty(new double[] {0.25, 0.2}, pending);
        double far = MetisTuner.pendingPenalty(new double[] {0.5, 0.5}, pending);
        org.assertj.core.api.Assertions.assertThat(atPending).isGreaterThan(near).isGreaterThan(0.99);
        org.assertj.core.api.Assertions.assertThat(near).isGreaterThan(far);
        org.assertj.core.api.Assertions.assertThat(far).isLessThan(1e-3);
        org.assertj.core.api.Assertions.assertThat(MetisTuner.pendingPenalty(new double[] {0.5, 0.5}, java.util.List.of())).isZero();
    }
}
