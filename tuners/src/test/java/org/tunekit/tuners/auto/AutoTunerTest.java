package org.tunekit.tuners.auto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
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
import org.tunekit.tuners.unitcube.ReplayCheck;
import org.tunekit.tuners.gp.GpTunerProvider;
import org.tunekit.tuners.turbo.TurboTunerProvider;

class AutoTunerTest {
    private static final Map<String, Object> ARGS = Map.of("optimize_mode", "minimize", "seed", 5L);

    private static AutoTuner auto() {
        return new AutoTuner(ClassArguments.of(ARGS));
    }

    /** A flat space of {@code d} uniform parameters x0..x(d-1) on [0, 1]. */
    private static SearchSpace cube(int d) {
        SearchSpace.Builder b = SearchSpace.builder();
        for (int i = 0; i < d; i++) {
            b.uniform("x" + i, 0, 1);
        }
        return b.build();
    }

    /** A sphere centred at 0.3 in every coordinate. */
    private static double sphere(Parameters p) {
        double s = 0;
        for (String name : p.values().keySet()) {
            double v = p.getDouble(name) - 0.3;
            s += v * v;
        }
        return s;
    }

    /** Runs {@code n} sequential trials of {@code tuner} on {@code f}, returning the suggestions. */
    private static List<Parameters> run(Tuner tuner, SearchSpace space, int n, ToDoubleFunction<Parameters> f) throws Exception {
        tuner.updateSearchSpace(space);
        List<Parameters> out = new ArrayList<>();
        for (long id = 0; id < n; id++) {
            Parameters p = tuner.generateParameters(id);
            out.add(p);
            tuner.receiveTrialResult(new TrialResult(id, p, Metric.of(f.applyAsDouble(p)), false, null));
            tuner.trialEnd(id, true);
        }
        return out;
    }

    @Test
    void theProviderIsRegisteredUnderItsName() {
        assertThat(ServiceLoader.load(TunerProvider.class).stream().map(ServiceLoader.Provider::type))
                .contains((Class) AutoTunerProvider.class);
        assertThat(new AutoTunerProvider().name()).isEqualTo("Auto");
        assertThat(new AutoTunerProvider().create(ClassArguments.of(ARGS))).isInstanceOf(AutoTuner.class);
    }

    @Test
    void anUnknownArgumentIsNamed() {
        assertThatThrownBy(() -> new AutoTuner(ClassArguments.of(Map.of("tuner", "TPE"))))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("tuner");
    }

    @Test
    void aSmallSpaceIsSearchedByTheGaussianProcessAsGpTunerWould() throws Exception {
        SearchSpace space = cube(3);
        AutoTuner auto = auto();
        List<Parameters> ours = run(auto, space, 30, AutoTunerTest::sphere);
        List<Parameters> gp = run(new GpTunerProvider().create(ClassArguments.of(ARGS)), space, 30, AutoTunerTest::sphere);
        assertThat(ours).isEqualTo(gp);
        assertThat(auto.current()).isEqualTo("GPTuner");
    }

    private static AutoTuner auto(long budget) {
        Map<String, Object> args = new LinkedHashMap<>(ARGS);
        args.put("max_trial_number", budget);
        return new AutoTuner(ClassArguments.of(args));
    }

    @Test
    void aLargerSpaceIsSearchedByTurboAsTurboWould() throws Exception {
        SearchSpace space = cube(8);
        AutoTuner auto = auto();
        List<Parameters> ours = run(auto, space, 30, AutoTunerTest::sphere);
        assertThat(auto.current()).isEqualTo("TuRBO");
        assertThat(ours).isEqualTo(run(new TurboTunerProvider().create(ClassArguments.of(ARGS)), space, 30, AutoTunerTest::sphere));
        AutoTuner large = auto(100);
        run(large, space, 1, AutoTunerTest::sphere);
        assertThat(large.current()).isEqualTo("TuRBO");
    }

    @Test
    void aLargerSpaceWithAShortBudgetIsSearchedByTheGaussianProcess() throws Exception {
        AutoTuner auto = auto(74);
        List<Parameters> ours = run(auto, cube(8), 20, AutoTunerTest::sphere);
        assertThat(auto.current()).isEqualTo("GPTuner");
        assertThat(ours).isEqualTo(run(new GpTunerProvider().create(ClassArguments.of(ARGS)), cube(8), 20, AutoTunerTest::sphere));
    }

    @Test
    void aBadBudgetIsNamed() {
        assertThatThrownBy(() -> auto(0)).isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("max_trial_number");
        assertThatThrownBy(() -> new AutoTuner(ClassArguments.of(Map.of("max_trial_number", "many"))))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("max_trial_number");
    }

    @Test
    void aNestedSpaceStaysWithTheGaussianProcess() throws Exception {
        SearchSpace branch = cube(4);
        SearchSpace space = SearchSpace.builder().nestedChoice("model", Map.of("a", branch, "b", cube(4))).build();
        AutoTuner auto = auto();
        run(auto, space, 50, p -> p.values().toString().length());
        assertThat(auto.current()).isEqualTo("GPTuner");
    }

    @Test
    void aChangedSpaceThatCallsForTheOtherTunerGivesItTheResultsSoFar() throws Exception {
        AutoTuner auto = auto();
        List<Parameters> first = run(auto, cube(8), 15, AutoTunerTest::sphere);
        assertThat(auto.current()).isEqualTo("TuRBO");
        SearchSpace smaller = cube(3);
        auto.updateSearchSpace(smaller);
        assertThat(auto.current()).isEqualTo("GPTuner");

        // the same as a GPTuner on the new space that was given the earlier results
        Tuner gp = new GpTunerProvider().create(ClassArguments.of(ARGS));
        gp.updateSearchSpace(smaller);
        List<ImportedTrial> earlier = new ArrayList<>();
        for (Parameters p : first) {
            earlier.add(new ImportedTrial(p, Metric.of(sphere(p))));
        }
        gp.importData(earlier);
        Parameters p = auto.generateParameters(15);
        assertThat(p.values().keySet()).containsExactlyInAnyOrder("x0", "x1", "x2");
        assertThat(p).isEqualTo(gp.generateParameters(15));
    }

    @Test
    void aResumedTunerContinuesAsTheUninterruptedOne() {
        // results in the order they came (a round's last suggestion first), as the unit-cube tuners replay them
        for (SearchSpace space : List.of(cube(3), cube(7))) {
            assertThat(new ReplayCheck(AutoTunerTest::auto, space, p -> Metric.of(sphere(p)), 1).assertReplayContinuesTheRun(15, 10)).isEqualTo(10);
            assertThat(new ReplayCheck(AutoTunerTest::auto, space, p -> Metric.of(sphere(p)), 4).assertReplayContinuesTheRun(5, 3)).isEqualTo(12);
        }
    }

    @Test
    void theModeAndSeedReachTheChosenTuner() throws Exception {
        Map<String, Object> maximise = new LinkedHashMap<>(ARGS);
        maximise.put("optimize_mode", "maximize");
        SearchSpace space = cube(2);
        List<Parameters> ours = run(new AutoTuner(ClassArguments.of(maximise)), space, 15, p -> -sphere(p));
        assertThat(ours).isEqualTo(run(new GpTunerProvider().create(ClassArguments.of(maximise)), space, 15, p -> -sphere(p)));
    }
}
