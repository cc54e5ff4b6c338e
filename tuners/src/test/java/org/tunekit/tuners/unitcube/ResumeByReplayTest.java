package org.tunekit.tuners.unitcube;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.sdk.spi.TunerProvider;
import org.tunekit.tuners.anneal.AnnealTunerProvider;
import org.tunekit.tuners.cmaes.CmaEsTunerProvider;
import org.tunekit.tuners.dngo.DngoTunerProvider;
import org.tunekit.tuners.evolution.EvolutionTunerProvider;
import org.tunekit.tuners.gp.GpTunerProvider;
import org.tunekit.tuners.metis.MetisTunerProvider;
import org.tunekit.tuners.nsga2.Nsga2TunerProvider;
import org.tunekit.tuners.regevo.RegularizedEvolutionTunerProvider;
import org.tunekit.tuners.smac.SmacTunerProvider;
import org.tunekit.tuners.sobol.SobolTunerProvider;
import org.tunekit.tuners.turbo.TurboTunerProvider;

/**
 * Every unit-cube tuner resumes by replay: a fresh tuner given a run's results through
 * {@code importData} continues the run exactly, sequentially and in batches of 4, and never suggests
 * again a set it has a result for. The arguments are small so that the runs reach each tuner's
 * model (or population, generations, trust region) within a few rounds.
 */
class ResumeByReplayTest {
    private static final List<Object> TWO_OBJECTIVES = List.of(Map.of("metric", "f1", "mode", "minimize"),
            Map.of("metric", "f2", "mode", "maximize"));

    /** A tuner under test: its provider and arguments, and whether it needs two objectives. */
    record Case(TunerProvider provider, Map<String, Object> arguments, boolean multiObjective) {
        Tuner create() {
            Map<String, Object> a = new LinkedHashMap<>(arguments);
            a.put("seed", 17L);
            if (multiObjective) {
                a.put("objectives", TWO_OBJECTIVES);
            } else {
                a.put("optimize_mode", "minimize");
            }
            return provider.create(ClassArguments.of(a));
        }

        Function<Parameters, Metric> metric() {
            if (!multiObjective) {
                return p -> Metric.of(UnitCubeTunerContract.anyObjective(p));
            }
            return p -> {
                double f = UnitCubeTunerContract.anyObjective(p);
                return Metric.fromReported(Map.of("default", f, "f1", f, "f2", Math.abs(p.values().toString().hashCode() % 97) / 97.0));
            };
        }

        @Override
        public String toString() {
            return provider.name() + (multiObjective ? " (two objectives)" : "");
        }
    }

    static List<Case> cases() {
        return List.of(
                new Case(new GpTunerProvider(), Map.of("cold_start_num", 4, "selection_num_warm_up", 200), false),
                new Case(new TurboTunerProvider(), Map.of("initial_points", 4, "candidates", 200, "failure_tolerance", 1,
                        "min_length", 0.3), false),
                new Case(new SmacTunerProvider(), Map.of("n_startup_jobs", 4, "random_interleave", 3), false),
                new Case(new DngoTunerProvider(), Map.of("sample_size", 100, "trials_per_update", 3, "num_epochs_per_training", 10), false),
                new Case(new CmaEsTunerProvider(), Map.of("popsize", 4), false),
                new Case(new AnnealTunerProvider(), Map.of(), false),
                new Case(new EvolutionTunerProvider(), Map.of("population_size", 4), false),
                new Case(new RegularizedEvolutionTunerProvider(), Map.of("population_size", 6, "sample_size", 3), false),
                new Case(new SobolTunerProvider(), Map.of(), false),
                new Case(new MetisTunerProvider(), Map.of("cold_start_num", 4, "selection_num_starting_points", 100), false),
                new Case(new Nsga2TunerProvider(), Map.of("population_size", 4), true),
                new Case(new SobolTunerProvider(), Map.of(), true));
    }

    static Stream<Arguments> casesAndBatches() {
        List<Arguments> out = new ArrayList<>();
        for (Case c : cases()) {
            out.add(Arguments.of(c, 1));
            out.add(Arguments.of(c, 4));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}, batches of {1}")
    @MethodSource("casesAndBatches")
    void aReplayedTunerMakesTheSameSuggestionsForTheSameIds(Case c, int batch) {
        // 13 results take every tuner past its start-up phase (DNGO's initial design is 10)
        int before = batch == 1 ? 13 : 4;
        int after = batch == 1 ? 8 : 3;
        ReplayCheck check = new ReplayCheck(c::create, UnitCubeTunerContract.allTypes(), c.metric(), batch);
        assertThat(check.assertReplayContinuesTheRun(before, after)).isEqualTo(after * batch);
    }

    @ParameterizedTest(name = "{0}, batches of {1}")
    @MethodSource("casesAndBatches")
    void aReplayedTunerNeverSuggestsASetItHasAResultFor(Case c, int batch) {
        SearchSpace space = SearchSpace.builder().choice("a", "x", "y", "z").randint("b", 0, 4).quniform("c", 0, 1, 0.5).build();
        ReplayCheck check = new ReplayCheck(c::create, space, c.metric(), batch);
        check.assertReplayNeverRepeatsAResult(batch == 1 ? 13 : 4, 36);
    }
}
