package org.tunekit.tuners.unitcube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.SearchSpace;

/**
 * What every unit-cube tuner must do; each tuner's test extends this with its provider. Public so
 * that the tuners' test packages can extend it.
 */
public abstract class UnitCubeTunerContract {

    /** Creates the tuner under test with these class arguments. */
    protected abstract Tuner create(Map<String, Object> arguments);

    /** Creates the tuner with a seed and {@code optimize_mode} minimize. */
    protected Tuner create(long seed) {
        return create(Map.of("seed", seed, "optimize_mode", "minimize"));
    }

    /**
     * Asserts that the median, over seeds 0 to 8, of the best {@link #quadratic} value within 40
     * suggestions on {@link #square()} is below random search's median divided by {@code factor}.
     */
    protected void assertBestAfterFortyBeatsRandomBy(double factor) throws NoMoreTrialsException {
        List<Double> bests = new ArrayList<>();
        for (long seed = 0; seed < 9; seed++) {
            Tuner tuner = create(seed);
            tuner.updateSearchSpace(square());
            bests.add(bestAfter(tuner, 40, UnitCubeTunerContract::quadratic));
        }
        double random = randomMedian(square(), 25, 40, UnitCubeTunerContract::quadratic);
        assertThat(median(bests)).as("best after 40 per seed %s, random median %s", bests, random).isLessThan(random / factor);
    }

    /** Every NNI type, plus a nested choice. */
    public static SearchSpace allTypes() {
        return SearchSpace.builder()
                .choice("act", "relu", "tanh", "sigmoid")
                .randint("layers", 1, 5)
                .uniform("dropout", 0.0, 0.5)
                .quniform("units", 16, 128, 16)
                .loguniform("lr", 1e-5, 1e-1)
                .qloguniform("batch", 8, 256, 8)
                .normal("bias", 0, 1)
                .qnormal("shift", 10, 2, 0.5)
                .lognormal("scale", 0, 0.5)
                .qlognormal("steps", 3, 1, 10)
                .nestedChoice("model", nested())
                .build();
    }

    private static Map<String, SearchSpace> nested() {
        Map<String, SearchSpace> m = new LinkedHashMap<>();
        m.put("tree", SearchSpace.builder().randint("depth", 2, 9).uniform("gamma", 0, 1).build());
        m.put("linear", SearchSpace.builder().loguniform("c", 0.01, 100).choice("penalty", "l1", "l2").build());
        m.put("none", SearchSpace.builder().build());
        return m;
    }

    /** A 2-d quadratic with its minimum 0 at (0.3, -0.2), inputs in [-1, 1]^2. */
    public static SearchSpace square() {
        return SearchSpace.builder().uniform("x", -1, 1).uniform("y", -1, 1).build();
    }

    /** The quadratic of {@link #square()}. */
    public static double quadratic(Parameters p) {
        double dx = p.getDouble("x") - 0.3;
        double dy = p.getDouble("y") + 0.2;
        return dx * dx + 3 * dy * dy;
    }

    /** A metric made up for any parameter set of {@link #allTypes()}: deterministic, varied. */
    public static double anyObjective(Parameters p) {
        return Math.abs(p.values().toString().hashCode() % 1000) / 1000.0;
    }

    /** Runs {@code trials} sequential trials; returns the suggestions in order. */
    public static List<Parameters> run(Tuner tuner, int trials, long firstId, ToDoubleFunction<Parameters> objective)
            throws NoMoreTrialsException {
        List<Parameters> out = new ArrayList<>();
        for (long id = firstId; id < firstId + trials; id++) {
            Parameters p = tuner.generateParameters(id);
            out.add(p);
            tuner.receiveTrialResult(new TrialResult(id, p, Metric.of(objective.applyAsDouble(p)), false, null));
            tuner.trialEnd(id, true);
        }
        return out;
    }

    /** The best objective value among the first {@code trials} suggestions. */
    public static double bestAfter(Tuner tuner, int trials, ToDoubleFunction<Parameters> objective) throws NoMoreTrialsException {
        double best = Double.POSITIVE_INFINITY;
        for (Parameters p : run(tuner, trials, 0, objective)) {
            best = Math.min(best, objective.applyAsDouble(p));
        }
        return best;
    }

    /** The median of {@code values}. */
    public static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(Double::compare);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /** The median over seeds 0..seeds-1 of random sampling's best after {@code trials}. */
    public static double randomMedian(SearchSpace space, int seeds, int trials, ToDoubleFunction<Parameters> objective) {
        List<Double> bests = new ArrayList<>();
        for (int s = 0; s < seeds; s++) {
            SplittableRandom rng = new SplittableRandom(1000 + s);
            double best = Double.POSITIVE_INFINITY;
            for (int t = 0; t < trials; t++) {
                best = Math.min(best, objective.applyAsDouble(space.sample(rng)));
            }
            bests.add(best);
        }
        return median(bests);
    }

    @Test
    void everySuggestionLiesInTheSpaceForAllTenTypesAndNestedChoices() throws Exception {
        SearchSpace space = allTypes();
        Tuner tuner = create(3);
        tuner.updateSearchSpace(space);
        Set<String> nestedOptions = new HashSet<>();
        for (Parameters p : run(tuner, 40, 0, UnitCubeTunerContract::anyObjective)) {
            assertThat(space.violation(p)).as("%s", p).isEmpty();
            nestedOptions.add(String.valueOf(((Map<?, ?>) p.get("model")).get("_name")));
        }
        List<Parameters> batch = tuner.generateMultipleParameters(List.of(100L, 101L, 102L, 103L, 104L, 105L));
        assertThat(batch).hasSize(6).allSatisfy(p -> assertThat(space.violation(p)).isEmpty());
        assertThat(nestedOptions).containsExactlyInAnyOrder("tree", "linear", "none");
    }

    @Test
    void theSameSeedGivesTheSameSequenceAndAnotherSeedAnother() throws Exception {
        List<Parameters> a = runFresh(5, 25);
        List<Parameters> b = runFresh(5, 25);
        List<Parameters> c = runFresh(6, 25);
        assertThat(a).isEqualTo(b);
        assertThat(a).isNotEqualTo(c);
    }

    private List<Parameters> runFresh(long seed, int trials) throws NoMoreTrialsException {
        Tuner t = create(seed);
        t.updateSearchSpace(allTypes());
        List<Parameters> out = run(t, trials, 0, UnitCubeTunerContract::anyObjective);
        out.addAll(t.generateMultipleParameters(List.of(50L, 51L, 52L, 53L)));
        return out;
    }

    @Test
    void aBatchHasNoDuplicatesEvenInASmallDiscreteSpace() throws Exception {
        SearchSpace space = SearchSpace.builder().choice("a", 1, 2, 3).randint("b", 0, 4).quniform("c", 0, 1, 0.5).build();
        Tuner tuner = create(11);
        tuner.updateSearchSpace(space);
        run(tuner, 12, 0, p -> p.getDouble("b") + p.getDouble("c"));
        List<Long> ids = new ArrayList<>();
        for (long i = 100; i < 112; i++) {
            ids.add(i);
        }
        List<Parameters> batch = tuner.generateMultipleParameters(ids);
        assertThat(batch).hasSize(12).doesNotHaveDuplicates();
        assertThat(batch).allSatisfy(p -> assertThat(space.violation(p)).isEmpty());
    }

    @Test
    void aFiniteSpaceIsExhaustedWithoutRepeats() throws Exception {
        SearchSpace space = SearchSpace.builder().choice("a", "x", "y", "z").randint("b", 0, 2).build();
        Tuner tuner = create(2);
        tuner.updateSearchSpace(space);
        List<Long> ids = new ArrayList<>();
        for (long i = 0; i < 10; i++) {
            ids.add(i);
        }
        List<Parameters> all = tuner.generateMultipleParameters(ids);
        assertThat(all).hasSize(6).doesNotHaveDuplicates();
        assertThatThrownBy(() -> tuner.generateParameters(99)).isInstanceOf(NoMoreTrialsException.class);
    }

    @Test
    void importedSetsAreKnownAndNeverSuggestedAgain() throws Exception {
        SearchSpace space = SearchSpace.builder().choice("a", "x", "y", "z").randint("b", 0, 2).build();
        Tuner tuner = create(4);
        tuner.updateSearchSpace(space);
        List<ImportedTrial> imported = new ArrayList<>();
        for (String a : List.of("x", "y", "z")) {
            for (long b = 0; b < 2; b++) {
                if (!(a.equals("y") && b == 1)) {
                    imported.add(new ImportedTrial(Parameters.of(Map.of("a", a, "b", b)), Metric.of(b)));
                }
            }
        }
        tuner.importData(imported);
        assertThat(tuner.generateParameters(0)).isEqualTo(Parameters.of(Map.of("a", "y", "b", 1L)));
        assertThatThrownBy(() -> tuner.generateParameters(1)).isInstanceOf(NoMoreTrialsException.class);
    }

    @Test
    void importsThatArriveBeforeTheSpaceAreAppliedWithIt() throws Exception {
        SearchSpace space = SearchSpace.builder().choice("a", "x", "y").build();
        Tuner tuner = create(4);
        tuner.importData(List.of(new ImportedTrial(Parameters.of(Map.of("a", "x")), Metric.of(1))));
        tuner.updateSearchSpace(space);
        assertThat(tuner.generateParameters(0)).isEqualTo(Parameters.of(Map.of("a", "y")));
    }

    @Test
    void unknownAndMalformedArgumentsAreNamed() {
        assertThatThrownBy(() -> create(Map.of("sede", 1L)))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("sede");
        assertThatThrownBy(() -> create(Map.of("optimize_mode", "upwards")))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("optimize_mode");
        assertThatThrownBy(() -> create(Map.of("seed", "abc")))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("seed");
    }

    @Test
    void maximizeModeTurnsMetricsIntoLosses() throws Exception {
        Tuner maximize = create(Map.of("seed", 21L, "optimize_mode", "maximize"));
        Tuner minimize = create(Map.of("seed", 21L, "optimize_mode", "minimize"));
        maximize.updateSearchSpace(square());
        minimize.updateSearchSpace(square());
        List<Parameters> a = run(maximize, 30, 0, p -> -quadratic(p));
        List<Parameters> b = run(minimize, 30, 0, UnitCubeTunerContract::quadratic);
        assertThat(a).isEqualTo(b);
    }

    @Test
    void aNewSearchSpaceKeepsTheObservationsThatFitIt() throws Exception {
        Tuner tuner = create(13);
        tuner.updateSearchSpace(square());
        run(tuner, 12, 0, UnitCubeTunerContract::quadratic);
        SearchSpace wider = SearchSpace.builder().uniform("x", -1, 1).uniform("y", -1, 1).choice("z", "a", "b").build();
        tuner.updateSearchSpace(wider);
        for (Parameters p : run(tuner, 12, 20, UnitCubeTunerContract::quadratic)) {
            assertThat(wider.violation(p)).isEmpty();
        }
    }

    @Test
    void aSpaceWithoutParametersHasOneSet() throws Exception {
        Tuner tuner = create(1);
        tuner.updateSearchSpace(SearchSpace.empty());
        assertThat(tuner.generateParameters(0).values()).isEmpty();
        assertThatThrownBy(() -> tuner.generateParameters(1)).isInstanceOf(NoMoreTrialsException.class);
    }

    @Test
    void aQuantisedSpaceWhoseBoundsAreNotMultiplesIsExhaustedToo() throws Exception {
        // clip(round(x / q) * q) over [0.5, 3] gives 0.5, 1, 2, 3: four values, whatever size() says
        SearchSpace space = SearchSpace.builder().quniform("a", 0.5, 3, 1).choice("b", "x", "y").build();
        Tuner tuner = create(6);
        tuner.updateSearchSpace(space);
        List<Parameters> all = new ArrayList<>();
        try {
            for (long id = 0; id < 20; id++) {
                all.add(tuner.generateParameters(id));
            }
        } catch (NoMoreTrialsException expected) {
            // the space is exhausted
        }
        assertThat(all).hasSize(8).doesNotHaveDuplicates().allSatisfy(p -> assertThat(space.violation(p)).isEmpty());
    }

    @Test
    void theSameSpaceAgainChangesNothing() throws Exception {
        Tuner once = create(14);
        Tuner twice = create(14);
        once.updateSearchSpace(allTypes());
        twice.updateSearchSpace(allTypes());
        List<Parameters> a = run(once, 12, 0, UnitCubeTunerContract::anyObjective);
        List<Parameters> b = run(twice, 12, 0, UnitCubeTunerContract::anyObjective);
        List<Parameters> pendingA = once.generateMultipleParameters(List.of(20L, 21L));
        List<Parameters> pendingB = twice.generateMultipleParameters(List.of(20L, 21L));
        twice.updateSearchSpace(allTypes());
        for (int i = 0; i < 2; i++) {
            once.receiveTrialResult(new TrialResult(20 + i, pendingA.get(i), Metric.of(anyObjective(pendingA.get(i))), false, null));
            twice.receiveTrialResult(new TrialResult(20 + i, pendingB.get(i), Metric.of(anyObjective(pendingB.get(i))), false, null));
        }
        assertThat(run(twice, 10, 30, UnitCubeTunerContract::anyObjective)).isEqualTo(run(once, 10, 30, UnitCubeTunerContract::anyObjective));
    }

    /** Builds class arguments for {@link #create(Map)} in tests. */
    public static ClassArguments args(Map<String, Object> m) {
        return ClassArguments.of(m);
    }
}
