package org.tunekit.tuners.smac;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.sdk.spi.TunerProvider;
import org.tunekit.tuners.unitcube.UnitCubeTunerContract;

class SmacTunerTest extends UnitCubeTunerContract {

    @Override
    protected Tuner create(Map<String, Object> arguments) {
        return new SmacTunerProvider().create(ClassArguments.of(arguments));
    }

    private static SmacTuner smac(Map<String, Object> arguments) {
        return SmacTuner.create(ClassArguments.of(arguments));
    }

    @Test
    void theProviderIsRegistered() {
        assertThat(ServiceLoader.load(TunerProvider.class).stream().map(ServiceLoader.Provider::type))
                .contains((Class) SmacTunerProvider.class);
    }

    @Test
    void badArgumentsAreNamed() {
        assertThatThrownBy(() -> create(Map.of("n_trees", 0L))).isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("n_trees");
        assertThatThrownBy(() -> create(Map.of("n_startup_jobs", "many"))).isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("n_startup_jobs");
        assertThatThrownBy(() -> create(Map.of("random_interleave", 1L))).isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("random_interleave");
        assertThatThrownBy(() -> create(Map.of("config_dedup", "maybe"))).isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("config_dedup");
        assertThatThrownBy(() -> create(Map.of("log_transform", "maybe"))).isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("log_transform");
        assertThatThrownBy(() -> create(Map.of("n_trees", 10L, "n_tress", 5L))).isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("n_tress");
        assertThat(create(Map.of("config_dedup", true, "optimize_mode", "minimize", "n_trees", 20L, "n_startup_jobs", 5L, "random_interleave", 0L)))
                .isNotNull();
    }

    @Test
    void bestAfterFortyBeatsRandomSamplingClearly() throws Exception {
        assertBestAfterFortyBeatsRandomBy(5);
    }

    /** Only the option and one nested number matter; SMAC must find the right option and narrow the number. */
    @Test
    void findsTheRightOptionOfANestedChoice() throws Exception {
        SearchSpace space = allTypes();
        List<Double> bests = new ArrayList<>();
        for (long seed = 0; seed < 5; seed++) {
            Tuner tuner = create(seed);
            tuner.updateSearchSpace(space);
            bests.add(bestAfter(tuner, 60, SmacTunerTest::nestedObjective));
        }
        double random = randomMedian(space, 25, 60, SmacTunerTest::nestedObjective);
        assertThat(median(bests)).isLessThan(random);
        assertThat(median(bests)).isLessThan(1.05);
    }

    @SuppressWarnings("unchecked")
    static double nestedObjective(Parameters p) {
        Map<String, Object> model = (Map<String, Object>) p.values().get("model");
        double act = p.values().get("act").equals("tanh") ? 0 : 0.5;
        if (!"tree".equals(model.get("_name"))) {
            return 2 + act;
        }
        double gamma = ((Number) model.get("gamma")).doubleValue();
        return 1 + act + (gamma - 0.7) * (gamma - 0.7);
    }

    @Test
    void importedResultsReplaceTheStartup() throws Exception {
        SmacTuner t = smac(Map.of("seed", 2L, "optimize_mode", "minimize", "random_interleave", 0L));
        t.updateSearchSpace(square());
        List<ImportedTrial> imported = new ArrayList<>();
        SplittableRandom rng = new SplittableRandom(7);
        for (int i = 0; i < 25; i++) {
            Parameters p = square().sample(rng);
            imported.add(new ImportedTrial(p, Metric.of(quadratic(p))));
        }
        t.importData(imported);
        assertThat(t.rows()).isEqualTo(25);
        double best = imported.stream().mapToDouble(i -> quadratic(i.parameters())).min().orElseThrow();
        double found = Double.POSITIVE_INFINITY;
        for (Parameters p : run(t, 5, 0, UnitCubeTunerContract::quadratic)) {
            found = Math.min(found, quadratic(p));
        }
        assertThat(found).isLessThan(best);
    }

    @Test
    void failedTrialsAreNotObservations() throws Exception {
        SmacTuner t = smac(Map.of("seed", 3L, "optimize_mode", "minimize"));
        t.updateSearchSpace(square());
        run(t, 4, 0, UnitCubeTunerContract::quadratic);
        t.generateParameters(10);
        t.trialEnd(10, false);
        t.generateParameters(11);
        t.receiveTrialResult(new TrialResult(11, null, Metric.of(Double.NaN), false, null));
        assertThat(t.rows()).isEqualTo(4);
    }

    @Test
    void aBatchOfEightIsDistinctAndSpreadOut() throws Exception {
        for (int n : new int[] {20, SmacTuner.FULL_FIT_LIMIT + 30}) {
            SmacTuner t = smac(Map.of("seed", 4L, "optimize_mode", "minimize", "random_interleave", 0L));
            t.updateSearchSpace(square());
            run(t, n, 0, UnitCubeTunerContract::quadratic);
            List<Parameters> batch = t.generateMultipleParameters(List.of(1000L, 1001L, 1002L, 1003L, 1004L, 1005L, 1006L, 1007L));
            assertThat(batch).hasSize(8).doesNotHaveDuplicates();
            double closest = Double.POSITIVE_INFINITY;
            for (int i = 0; i < batch.size(); i++) {
                for (int j = 0; j < i; j++) {
                    double dx = batch.get(i).getDouble("x") - batch.get(j).getDouble("x");
                    double dy = batch.get(i).getDouble("y") - batch.get(j).getDouble("y");
                    closest = Math.min(closest, Math.hypot(dx, dy));
                }
            }
            assertThat(closest).as("closest pair after %d results", n).isGreaterThan(1e-3);
        }
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(booleans = {true, false})
    void theIncrementalForestFollowsTheSameSequenceAfterAReplay(boolean log) {
        // past FULL_FIT_LIMIT the forest grows at a tenth more results and takes the others into its leaves;
        // batches of 4 add the pending suggestions as liars to those leaves and take them out again
        org.tunekit.tuners.unitcube.ReplayCheck check = new org.tunekit.tuners.unitcube.ReplayCheck(
                () -> smac(Map.of("seed", 5L, "optimize_mode", "minimize", "log_transform", log)), square(),
                p -> Metric.of(UnitCubeTunerContract.quadratic(p)), 4);
        // 264 results, then 40 more cross the next growth (at 275)
        assertThat(check.assertReplayContinuesTheRun((SmacTuner.FULL_FIT_LIMIT + 14) / 4, 10)).isEqualTo(40);
    }

    @Test
    void withoutTheLogTransformItStillBeatsRandomSampling() throws Exception {
        List<Double> bests = new ArrayList<>();
        for (long seed = 0; seed < 9; seed++) {
            Tuner tuner = create(Map.of("seed", seed, "optimize_mode", "minimize", "log_transform", false));
            tuner.updateSearchSpace(square());
            bests.add(bestAfter(tuner, 40, UnitCubeTunerContract::quadratic));
        }
        assertThat(median(bests)).isLessThan(randomMedian(square(), 25, 40, UnitCubeTunerContract::quadratic));
    }

    @Test
    void fitSizesGrowByATenthBeyondTheLimit() {
        assertThat(SmacTuner.fitSizeFor(10)).isEqualTo(10);
        assertThat(SmacTuner.fitSizeFor(SmacTuner.FULL_FIT_LIMIT)).isEqualTo(SmacTuner.FULL_FIT_LIMIT);
        int limit = SmacTuner.FULL_FIT_LIMIT;
        assertThat(SmacTuner.fitSizeFor(limit + 1)).isEqualTo(limit);
        assertThat(SmacTuner.fitSizeFor(limit + limit / 10)).isEqualTo(limit + limit / 10);
        int refits = 0;
        for (int n = limit + 1, last = limit; n <= 5000; n++) {
            int s = SmacTuner.fitSizeFor(n);
            assertThat(s).isBetween(last, n);
            if (s != last) {
                refits++;
                last = s;
            }
        }
        assertThat(refits).isBetween(20, 40);
    }

    @Test
    void expectedImprovementGrowsWithUncertaintyAndWithALowerMean() {
        assertThat(SmacTuner.expectedImprovement(0, 1, 0)).isCloseTo(1 / Math.sqrt(2 * Math.PI), org.assertj.core.data.Offset.offset(1e-6));
        assertThat(SmacTuner.expectedImprovement(0, 2, 0)).isGreaterThan(SmacTuner.expectedImprovement(0, 1, 0));
        assertThat(SmacTuner.expectedImprovement(-1, 1, 0)).isGreaterThan(SmacTuner.expectedImprovement(0, 1, 0));
        assertThat(SmacTuner.expectedImprovement(-1, 0, 0)).isEqualTo(1);
        assertThat(SmacTuner.expectedImprovement(1, 0, 0)).isZero();
        assertThat(SmacTuner.normalCdf(1.96)).isCloseTo(0.975, org.assertj.core.data.Offset.offset(1e-4));
    }
}
