package org.tunekit.tuners.auto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;
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
import org.tunekit.tuners.tpe.MotpeTunerProvider;
import org.tunekit.tuners.tpe.TpeTunerProvider;
import org.tunekit.tuners.turbo.TurboTunerProvider;

class AutoTunerTest {

    /** A flat space of {@code d} uniform parameters x0..x(d-1) on [0, 1], and a choice. */
    private static SearchSpace space(int d) {
        SearchSpace.Builder b = SearchSpace.builder();
        for (int i = 0; i < d; i++) {
            b.uniform("x" + i, 0, 1);
        }
        return b.choice("kind", "a", "b", "c").build();
    }

    /** A sphere centred at 0.3 in every numeric coordinate, plus 0.1 unless the choice is "b". */
    private static double sphere(Parameters p) {
        double s = "b".equals(p.get("kind")) ? 0 : 0.1;
        for (Map.Entry<String, Object> e : p.values().entrySet()) {
            if (e.getValue() instanceof Number n) {
                double v = n.doubleValue() - 0.3;
                s += v * v;
            }
        }
        return s;
    }

    /** Runs {@code n} trials of {@code tuner} on {@code f} in rounds of {@code batch}, returning the suggestions. */
    private static List<Parameters> run(Tuner tuner, SearchSpace space, int n, int batch, ToDoubleFunction<Parameters> f) {
        return runReporting(tuner, space, n, batch, p -> Metric.of(f.applyAsDouble(p)));
    }

    /** Runs {@code n} trials in rounds of {@code batch}, each reporting {@code metric} of its parameters, and returns the suggestions. */
    private static List<Parameters> runReporting(Tuner tuner, SearchSpace space, int n, int batch, Function<Parameters, Metric> metric) {
        tuner.updateSearchSpace(space);
        List<Parameters> out = new ArrayList<>();
        long id = 0;
        while (out.size() < n) {
            List<Long> ids = new ArrayList<>();
            for (int i = 0; i < batch; i++) {
                ids.add(id++);
            }
            List<Parameters> round = tuner.generateMultipleParameters(ids);
            out.addAll(round);
            for (int i = round.size() - 1; i >= 0; i--) {
                tuner.receiveTrialResult(new TrialResult(ids.get(i), round.get(i), metric.apply(round.get(i)), false, null));
                tuner.trialEnd(ids.get(i), true);
            }
        }
        return out;
    }

    @Test
    void theProviderIsRegisteredUnderItsName() {
        assertThat(ServiceLoader.load(TunerProvider.class).stream().map(ServiceLoader.Provider::type))
                .contains((Class) AutoTunerProvider.class);
        assertThat(new AutoTunerProvider().name()).isEqualTo("Auto");
    }

    @Test
    void untilTurbosFirstRegionCollapsesItSearchesAsTurboDoesOneAtATimeAndInBatches() {
        Map<String, Object> args = Map.of("optimize_mode", "minimize", "seed", 5L);
        for (int d : new int[] {2, 9}) {
            for (int batch : new int[] {1, 4}) {
                List<Parameters> auto = run(new AutoTunerProvider().create(ClassArguments.of(args)), space(d), 24, batch, AutoTunerTest::sphere);
                List<Parameters> turbo = run(new TurboTunerProvider().create(ClassArguments.of(args)), space(d), 24, batch, AutoTunerTest::sphere);
                assertThat(auto).as("%d parameters, batches of %d", d, batch).isEqualTo(turbo);
            }
        }
    }

    @Test
    void whenTurbosFirstRegionCollapsesTpeGoesOnFromEveryResult() throws Exception {
        // a flat function: no result improves, so TuRBO's first trust region halves until it collapses
        Map<String, Object> args = Map.of("optimize_mode", "minimize", "seed", 5L);
        List<Parameters> auto = run(new AutoTunerProvider().create(ClassArguments.of(args)), space(2), 60, 1, p -> 1.0);
        List<Parameters> turbo = run(new TurboTunerProvider().create(ClassArguments.of(args)), space(2), 60, 1, p -> 1.0);
        int k = 0;
        while (k < auto.size() && auto.get(k).equals(turbo.get(k))) {
            k++;
        }
        assertThat(k).as("the trial where Auto leaves TuRBO").isBetween(25, 59);
        Tuner tpe = new TpeTunerProvider().create(ClassArguments.of(args));
        tpe.updateSearchSpace(space(2));
        tpe.importData(auto.subList(0, k).stream().map(p -> new ImportedTrial(p, Metric.of(1.0))).toList());
        assertThat(tpe.generateParameters(k)).isEqualTo(auto.get(k));
    }

    @Test
    void theModeReachesTheTuner() {
        Map<String, Object> maximise = Map.of("optimize_mode", "maximize", "seed", 5L);
        assertThat(run(new AutoTunerProvider().create(ClassArguments.of(maximise)), space(3), 20, 1, p -> -sphere(p)))
                .isEqualTo(run(new TurboTunerProvider().create(ClassArguments.of(maximise)), space(3), 20, 1, p -> -sphere(p)));
    }

    @Test
    void severalObjectivesAreTunedAsMotpeTunesThem() {
        Map<String, Object> args = Map.of("seed", 3L, "objectives", List.of(
                Map.of("metric", "error", "mode", "minimize"), Map.of("metric", "cost", "mode", "minimize")));
        List<Parameters> auto = runReporting(new AutoTunerProvider().create(ClassArguments.of(args)), space(3), 30, 2, AutoTunerTest::twoObjectives);
        List<Parameters> motpe = runReporting(new MotpeTunerProvider().create(ClassArguments.of(args)), space(3), 30, 2, AutoTunerTest::twoObjectives);
        assertThat(auto).isEqualTo(motpe);
        // and not as TuRBO would: the suggestions past the start-up differ from a single-objective run's
        assertThat(auto).isNotEqualTo(run(new AutoTunerProvider().create(ClassArguments.of(Map.of("optimize_mode", "minimize", "seed", 3L))),
                space(3), 30, 2, AutoTunerTest::sphere));
    }

    /** Two objectives: the sphere as "error" (and "default") and the distance of x0 from 1 as "cost". */
    private static Metric twoObjectives(Parameters p) {
        double cost = Math.abs(((Number) p.get("x0")).doubleValue() - 1);
        return Metric.fromReported(Map.of("default", sphere(p), "error", sphere(p), "cost", cost));
    }

    @Test
    void oneObjectiveInObjectivesIsRefusedWithWhatToGiveInstead() {
        Map<String, Object> args = Map.of("objectives", List.of(Map.of("metric", "error", "mode", "minimize")));
        assertThatThrownBy(() -> new AutoTunerProvider().create(ClassArguments.of(args)))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("objectives").hasMessageContaining("optimize_mode");
        assertThatThrownBy(() -> new AutoTunerProvider().create(ClassArguments.of(Map.of("optimize_mode", "minimize",
                "objectives", List.of(Map.of("metric", "a", "mode", "minimize"), Map.of("metric", "b", "mode", "minimize"))))))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("optimize_mode");
    }

    @Test
    void argumentsOfTheTunerBehindTheNameAreRefusedByName() {
        assertThatThrownBy(() -> new AutoTunerProvider().create(ClassArguments.of(Map.of("candidates", 100L))))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("candidates");
        assertThatThrownBy(() -> new AutoTunerProvider().create(ClassArguments.of(Map.of("optimize_mode", "sideways"))))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("optimize_mode");
    }
}
