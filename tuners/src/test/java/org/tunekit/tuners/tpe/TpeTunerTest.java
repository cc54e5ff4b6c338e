package org.tunekit.tuners.tpe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.sdk.spi.TunerProvider;
import org.tunekit.tuners.contract.ReplayCheck;

class TpeTunerTest {

    private static TpeTuner tuner(Map<String, Object> args) {
        return (TpeTuner) new TpeTunerProvider().create(ClassArguments.of(args));
    }

    private static Map<String, Object> args(long seed, Object... tpeArgs) {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("seed", seed);
        Map<String, Object> t = new LinkedHashMap<>();
        for (int i = 0; i < tpeArgs.length; i += 2) {
            t.put((String) tpeArgs[i], tpeArgs[i + 1]);
        }
        if (!t.isEmpty()) {
            a.put("tpe_args", t);
        }
        return a;
    }

    /** Every NNI type, and a nested choice whose options hold parameters of their own. */
    static SearchSpace allTypes() {
        Map<String, SearchSpace> options = new LinkedHashMap<>();
        options.put("a", SearchSpace.builder().uniform("u", -1, 1).randint("k", 0, 4).build());
        options.put("b", SearchSpace.builder().qloguniform("ql", 1, 100, 1)
                .nestedChoice("inner", Map.of("deep", SearchSpace.builder().qnormal("qn", 0, 2, 0.5).build())).build());
        options.put("c", SearchSpace.builder().build());
        return SearchSpace.builder()
                .choice("ch", "x", 2L, 3.5, true)
                .randint("ri", -3, 7)
                .uniform("un", 0, 1)
                .quniform("qu", 0, 0.8, 0.05)
                .loguniform("lu", 1e-5, 1)
                .qloguniform("qlu", 1, 1000, 10)
                .normal("no", 3, 2)
                .qnormal("qno", 0, 1, 0.25)
                .lognormal("ln", 0, 1)
                .qlognormal("qln", 0, 1, 0.5)
                .nestedChoice("model", options)
                .build();
    }

    /** A loss over the all-types space that depends on every parameter, so the model has something to learn. */
    static double allTypesLoss(Parameters p) {
        double f = Math.pow(p.getDouble("un") - 0.7, 2) + Math.abs(Math.log10(p.getDouble("lu")) + 3)
                + Math.abs(p.getLong("ri") - 2) * 0.1 + Math.abs(p.getDouble("no") - 1) * 0.1;
        @SuppressWarnings("unchecked")
        Map<String, Object> model = (Map<String, Object>) p.get("model");
        return f + ("b".equals(model.get("_name")) ? 0 : 1);
    }

    private static List<Parameters> drive(Tuner t, SearchSpace space, ToDoubleFunction<Parameters> f, int trials, int batch) {
        t.updateSearchSpace(space);
        List<Parameters> out = new ArrayList<>();
        long id = 0;
        while (out.size() < trials) {
            List<Long> ids = new ArrayList<>();
            for (int i = 0; i < batch; i++) {
                ids.add(id++);
            }
            List<Parameters> ps = t.generateMultipleParameters(ids);
            for (int i = 0; i < ps.size(); i++) {
                out.add(ps.get(i));
                t.receiveTrialResult(new TrialResult(ids.get(i), ps.get(i), Metric.of(f.applyAsDouble(ps.get(i))), false, null));
                t.trialEnd(ids.get(i), true);
            }
            if (ps.isEmpty()) {
                break;
            }
        }
        return out;
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void everyTypeAndNestedSpaceGivesValuesInTheSpace(boolean multivariate) {
        SearchSpace space = allTypes();
        Map<String, Object> a = args(3, "n_startup_jobs", 5L);
        a.put("multivariate", multivariate);
        List<Parameters> suggested = drive(tuner(a), space, TpeTunerTest::allTypesLoss, 80, 4);
        assertThat(suggested).hasSize(80);
        Set<Object> nestedOptions = new HashSet<>();
        for (Parameters p : suggested) {
            assertThat(space.violation(p)).as("%s", p).isEmpty();
            nestedOptions.add(((Map<?, ?>) p.get("model")).get("_name"));
        }
        assertThat(nestedOptions).contains("a", "b");
        // the model learnt that option b is better
        long b = suggested.subList(40, 80).stream().filter(p -> "b".equals(((Map<?, ?>) p.get("model")).get("_name"))).count();
        assertThat(b).isGreaterThan(20);
    }

    @Test
    void sameSeedAndEventsGiveTheSameSuggestions() {
        SearchSpace space = allTypes();
        List<Parameters> first = drive(tuner(args(11, "n_startup_jobs", 4L)), space, TpeTunerTest::allTypesLoss, 40, 4);
        List<Parameters> second = drive(tuner(args(11, "n_startup_jobs", 4L)), space, TpeTunerTest::allTypesLoss, 40, 4);
        List<Parameters> other = drive(tuner(args(12, "n_startup_jobs", 4L)), space, TpeTunerTest::allTypesLoss, 40, 4);
        assertThat(second).isEqualTo(first);
        assertThat(other).isNotEqualTo(first);
    }

    @ParameterizedTest
    @ValueSource(strings = {"best", "worst", "mean"})
    void batchesNeverRepeatAndAFiniteSpaceRunsOut(String liar) throws Exception {
        SearchSpace space = SearchSpace.builder().choice("c", "a", "b", "c").randint("k", 0, 5).build(); // 15 sets
        TpeTuner t = tuner(args(5, "n_startup_jobs", 2L, "constant_liar_type", liar));
        t.updateSearchSpace(space);
        List<Parameters> first = t.generateMultipleParameters(List.of(0L, 1L, 2L));
        for (int i = 0; i < first.size(); i++) {
            t.receiveTrialResult(new TrialResult(i, first.get(i), Metric.of(i), false, null));
        }
        List<Long> ids = new ArrayList<>();
        for (long i = 3; i < 30; i++) {
            ids.add(i);
        }
        List<Parameters> rest = t.generateMultipleParameters(ids);
        assertThat(rest).hasSize(12);
        Set<Parameters> all = new HashSet<>(first);
        all.addAll(rest);
        assertThat(all).hasSize(15);
        assertThatThrownBy(() -> t.generateParameters(99)).isInstanceOf(NoMoreTrialsException.class);
    }

    @Test
    void repeatedSingleRequestsBeforeResultsDoNotRepeat() throws Exception {
        SearchSpace space = SearchSpace.builder().quniform("q", 0, 1, 0.1).build(); // 11 values
        TpeTuner t = tuner(args(1, "n_startup_jobs", 1L));
        t.updateSearchSpace(space);
        Parameters p0 = t.generateParameters(0);
        t.receiveTrialResult(new TrialResult(0, p0, Metric.of(1), false, null));
        Set<Object> values = new HashSet<>();
        values.add(p0.get("q"));
        for (int i = 1; i < 11; i++) {
            assertThat(values.add(t.generateParameters(i).get("q"))).isTrue();
        }
        assertThat(t.pendingCount()).isEqualTo(10);
        assertThatThrownBy(() -> t.generateParameters(11)).isInstanceOf(NoMoreTrialsException.class)
                .hasMessageContaining("11");
    }

    @Test
    void importedResultsAreObservationsAndAreNotSuggestedAgain() throws Exception {
        SearchSpace space = SearchSpace.builder().choice("c", 1L, 2L, 3L).randint("k", 0, 2).build(); // 6 sets
        TpeTuner t = tuner(args(2, "n_startup_jobs", 2L));
        t.updateSearchSpace(space);
        List<ImportedTrial> data = new ArrayList<>();
        for (long c = 1; c <= 3; c++) {
            for (long k = 0; k < 2; k++) {
                if (c != 2 || k != 1) {
                    data.add(new ImportedTrial(Parameters.of(Map.of("c", c, "k", k)), Metric.of(c + k)));
                }
            }
        }
        data.add(new ImportedTrial(Parameters.of(Map.of("c", 9L, "k", 0L)), Metric.of(0))); // not in the space: ignored
        t.importData(data);
        assertThat(t.observationCount()).isEqualTo(5);
        assertThat(t.generateParameters(0).values()).isEqualTo(Map.of("c", 2L, "k", 1L));
        assertThatThrownBy(() -> t.generateParameters(1)).isInstanceOf(NoMoreTrialsException.class);
    }

    @Test
    void aTrialTakenOverIsPendingAsItsOwnAndIsNotSuggestedAgain() throws Exception {
        SearchSpace space = SearchSpace.builder().choice("c", 1L, 2L, 3L).randint("k", 0, 2).build(); // 6 sets
        TpeTuner t = tuner(args(2, "n_startup_jobs", 2L));
        t.updateSearchSpace(space);
        Parameters running = Parameters.of(Map.of("c", 2L, "k", 1L));
        t.takeOver(40, running);
        t.takeOver(41, Parameters.of(Map.of("c", 9L, "k", 0L))); // not in the space: ignored
        assertThat(t.pendingCount()).isEqualTo(1);
        Set<Map<String, Object>> suggested = new HashSet<>();
        for (int i = 0; i < 5; i++) {
            suggested.add(t.generateParameters(i).values());
        }
        assertThat(suggested).hasSize(5).doesNotContain(running.values());
        assertThatThrownBy(() -> t.generateParameters(5)).isInstanceOf(NoMoreTrialsException.class);
        t.receiveTrialResult(new TrialResult(40, running, Metric.of(1), false, null)); // completes it in place
        assertThat(t.pendingCount()).isEqualTo(5);
        assertThat(t.observationCount()).isEqualTo(1);
    }

    @Test
    void trialsThatEndWithoutAResultAreForgottenAndResultsAreKept() throws Exception {
        SearchSpace space = SearchSpace.builder().uniform("x", 0, 1).build();
        TpeTuner t = tuner(args(4));
        t.updateSearchSpace(space);
        Parameters p0 = t.generateParameters(0);
        Parameters p1 = t.generateParameters(1);
        t.generateParameters(2);
        assertThat(t.pendingCount()).isEqualTo(3);
        t.trialEnd(2, false); // ended without a result
        assertThat(t.pendingCount()).isEqualTo(2);
        t.receiveTrialResult(new TrialResult(0, p0, Metric.of(1), false, null));
        t.receiveTrialResult(new TrialResult(1, p1, Metric.of(2), false, null));
        assertThat(t.observationCount()).isEqualTo(2);
        t.trialEnd(0, true);
        t.trialEnd(1, false); // stopped after its result (an included intermediate value): still learnt from
        assertThat(t.observationCount()).isEqualTo(2);
        assertThat(t.pendingCount()).isZero();
    }

    private static final List<Map<String, Object>> OBJECTIVES = List.of(
            Map.of("metric", "loss", "mode", "minimize"), Map.of("metric", "gain", "mode", "maximize"));

    /** Two objectives over the all-types space that pull apart: the all-types loss, and {@code un} (to be maximised). */
    private static Metric twoObjectives(Parameters p) {
        double loss = allTypesLoss(p);
        return Metric.fromReported(Map.of("default", loss, "loss", loss, "gain", p.getDouble("un")));
    }

    /** TPE or MOTPE with a short start-up, so that the replayed history reaches the model. */
    private static Tuner tunerFor(boolean multiObjective, boolean multivariate, String liar, long seed) {
        Map<String, Object> a = args(seed, "n_startup_jobs", 5L, "constant_liar_type", liar);
        a.put("multivariate", multivariate);
        if (!multiObjective) {
            return tuner(a);
        }
        a.put("objectives", OBJECTIVES);
        return new MotpeTunerProvider().create(ClassArguments.of(a));
    }

    static List<Object[]> replayCases() {
        List<Object[]> cases = new ArrayList<>();
        for (boolean multiObjective : new boolean[] {false, true}) {
            for (boolean multivariate : new boolean[] {false, true}) {
                for (String liar : List.of("best", "worst", "mean", "none")) {
                    for (int batch : new int[] {1, 4}) {
                        cases.add(new Object[] {multiObjective, multivariate, liar, batch});
                    }
                }
            }
        }
        return cases;
    }

    @ParameterizedTest(name = "multi-objective {0}, multivariate {1}, liar {2}, batch {3}")
    @MethodSource("replayCases")
    void aFreshInstanceGivenTheResultsSuggestsWhatTheUninterruptedOneWould(boolean multiObjective, boolean multivariate, String liar, int batch) {
        ReplayCheck.of(() -> tunerFor(multiObjective, multivariate, liar, 21), allTypes(),
                        multiObjective ? TpeTunerTest::twoObjectives : p -> Metric.of(allTypesLoss(p)))
                .inBatchesOf(batch)
                .check(24, 16);
    }

    @Test
    void aReplayInTheStartUpPhaseContinuesIt() {
        // 3 of 5 start-up results: the resumed instance draws from the prior as the uninterrupted one does, then both reach the model
        ReplayCheck.of(() -> tunerFor(false, false, "best", 4), allTypes(), p -> Metric.of(allTypesLoss(p))).check(3, 10);
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void afterAReplayAFiniteSpaceIsCoveredWithoutRepeatingAResult(boolean multiObjective) {
        SearchSpace space = SearchSpace.builder().choice("c", "a", "b", "c").randint("k", 0, 5).build(); // 15 sets
        ToDoubleFunction<Parameters> f = p -> p.getLong("k") + ("b".equals(p.get("c")) ? 0 : 2);
        java.util.function.Supplier<Tuner> factory = () -> {
            Map<String, Object> a = args(6, "n_startup_jobs", 3L);
            if (!multiObjective) {
                return tuner(a);
            }
            a.put("objectives", OBJECTIVES);
            return new MotpeTunerProvider().create(ClassArguments.of(a));
        };
        List<Parameters> after = ReplayCheck.of(factory, space, p -> multiObjective
                        ? Metric.fromReported(Map.of("default", f.applyAsDouble(p), "loss", f.applyAsDouble(p), "gain", (double) p.getLong("k")))
                        : Metric.of(f.applyAsDouble(p)))
                .inBatchesOf(2)
                .check(6, 20);
        assertThat(after).hasSize(9).doesNotHaveDuplicates();
    }

    @Test
    void argumentsAreCheckedAndErrorsNameThem() {
        assertThatThrownBy(() -> tuner(Map.of("optimise_mode", "maximize")))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("optimise_mode");
        assertThatThrownBy(() -> tuner(Map.of("tpe_args", Map.of("n_startup", 3L))))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("tpe_args.n_startup");
        assertThatThrownBy(() -> tuner(Map.of("tpe_args", Map.of("gamma", 1.5))))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("tpe_args.gamma");
        assertThatThrownBy(() -> tuner(Map.of("tpe_args", Map.of("constant_liar_type", "optimistic"))))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("constant_liar_type");
        assertThatThrownBy(() -> tuner(Map.of("tpe_args", Map.of("prior_weight", 0L))))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("prior_weight");
        assertThatThrownBy(() -> tuner(Map.of("optimize_mode", "largest")))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("optimize_mode");
        assertThatThrownBy(() -> tuner(Map.of("multivariate", "yes")))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("multivariate");

        assertThatThrownBy(() -> tuner(Map.of("multivariate", true, "tpe_args", Map.of("multivariate", true))))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("multivariate");
        assertThat(tuner(Map.of("tpe_args", Map.of("multivariate", true))).settings().multivariate()).isTrue();
        assertThat(tuner(Map.of("multivariate", true)).settings().multivariate()).isTrue();

        Map<String, Object> liarNull = new LinkedHashMap<>();
        liarNull.put("constant_liar_type", null);
        TpeTuner t = tuner(Map.of("optimize_mode", "maximize", "tpe_args", liarNull));
        assertThat(t.settings().liar()).isEqualTo(TpeSettings.ConstantLiar.NONE);
        assertThat(t.settings().mode()).isEqualTo(org.tunekit.sdk.OptimizeMode.MAXIMIZE);
        TpeSettings defaults = tuner(Map.of()).settings();
        assertThat(defaults.liar()).isEqualTo(TpeSettings.ConstantLiar.WORST);
        assertThat(defaults.startupJobs()).isEqualTo(10);
        assertThat(defaults.eiCandidates()).isEqualTo(24);
        assertThat(defaults.linearForgetting()).isEqualTo(25);
        assertThat(defaults.priorWeight()).isEqualTo(1.0);
        assertThat(defaults.gamma()).isEqualTo(0.25);
        assertThat(defaults.multivariate()).isFalse();
        assertThat(defaults.bandwidthFactor()).isEqualTo(1.0);
        Map<String, Object> objectives = Map.of("objectives",
                List.of(Map.of("metric", "a", "mode", "minimize"), Map.of("metric", "b", "mode", "minimize")));
        assertThat(TpeSettings.fromMultiObjective(ClassArguments.of(objectives)).multivariate()).as("MOTPE's default").isTrue();
        assertThat(TpeSettings.fromMultiObjective(ClassArguments.of(objectives)).gamma()).as("two objectives").isEqualTo(0.25);
        List<Map<String, Object>> three = List.of(Map.of("metric", "a", "mode", "minimize"), Map.of("metric", "b", "mode", "minimize"),
                Map.of("metric", "c", "mode", "minimize"));
        assertThat(TpeSettings.fromMultiObjective(ClassArguments.of(Map.of("objectives", three))).gamma()).as("three").isEqualTo(0.5);
        assertThat(TpeSettings.motpeGamma(4)).isEqualTo(0.75);
        assertThat(TpeSettings.motpeGamma(9)).as("at most 1").isEqualTo(1.0);
        assertThat(TpeSettings.fromMultiObjective(ClassArguments.of(Map.of("objectives", three, "tpe_args", Map.of("gamma", 0.3)))).gamma())
                .as("a given gamma is kept").isEqualTo(0.3);
        Map<String, Object> univariate = new java.util.HashMap<>(objectives);
        univariate.put("multivariate", false);
        assertThat(TpeSettings.fromMultiObjective(ClassArguments.of(univariate)).multivariate()).isFalse();
        assertThat(tuner(Map.of("tpe_args", Map.of("bandwidth_factor", 0.4))).settings().bandwidthFactor()).isEqualTo(0.4);
        for (Object bad : List.of(0L, -0.5, 1.5)) {
            assertThatThrownBy(() -> tuner(Map.of("tpe_args", Map.of("bandwidth_factor", bad))))
                    .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("tpe_args.bandwidth_factor");
        }
    }

    @ParameterizedTest
    @ValueSource(doubles = {1.0, 0.5, 0.2})
    void theBandwidthFactorMultipliesTheClippedBandwidth(double factor) {
        // one component in the middle of [0, 10]: its bandwidth is half the domain, 5, before the factor
        NumericEstimator e = new NumericEstimator(true, 0, 10, 0, 0, factor);
        e.reset(1e-12);
        e.add(5, 1);
        e.finish();
        double sigma = 5 * factor;
        // a Gaussian's log density falls by d^2 / (2 sigma^2) at distance d; truncation to the domain cancels out
        assertThat(e.logDensity(5) - e.logDensity(6)).isCloseTo(1 / (2 * sigma * sigma), org.assertj.core.data.Offset.offset(1e-4));
        assertThat(e.logDensity(5) - e.logDensity(3.5)).isCloseTo(2.25 / (2 * sigma * sigma), org.assertj.core.data.Offset.offset(1e-4));
    }

    @Test
    void theProviderIsRegisteredUnderNnisName() {
        List<String> names = new ArrayList<>();
        for (TunerProvider p : ServiceLoader.load(TunerProvider.class)) {
            names.add(p.name());
        }
        assertThat(names).contains("TPE");
    }

    /** Best loss after {@code trials} sequential trials on a 1-d quadratic. */
    private static double bestOnQuadratic(Tuner t, int trials, boolean maximize) throws Exception {
        SearchSpace space = SearchSpace.builder().uniform("x", -5, 5).build();
        t.updateSearchSpace(space);
        double best = Double.POSITIVE_INFINITY;
        for (long id = 0; id < trials; id++) {
            Parameters p = t.generateParameters(id);
            double loss = Math.pow(p.getDouble("x") - 1.3, 2);
            best = Math.min(best, loss);
            t.receiveTrialResult(new TrialResult(id, p, Metric.of(maximize ? -loss : loss), false, null));
            t.trialEnd(id, true);
        }
        return best;
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void convergesFasterThanRandomSearchOnAQuadratic(boolean maximize) throws Exception {
        int seeds = 15;
        double[] tpe = new double[seeds];
        double[] random = new double[seeds];
        for (int s = 0; s < seeds; s++) {
            Map<String, Object> a = args(s, "n_startup_jobs", 10L);
            a.put("optimize_mode", maximize ? "maximize" : "minimize");
            tpe[s] = bestOnQuadratic(tuner(a), 50, maximize);
            SplittableRandom r = new SplittableRandom(s);
            random[s] = Double.POSITIVE_INFINITY;
            for (int i = 0; i < 50; i++) {
                random[s] = Math.min(random[s], Math.pow(-5 + 10 * r.nextDouble() - 1.3, 2));
            }
        }
        Arrays.sort(tpe);
        Arrays.sort(random);
        // the medians differ by orders of magnitude; a factor of 5 leaves a wide margin
        assertThat(tpe[seeds / 2] * 5).isLessThan(random[seeds / 2]);
    }
}
