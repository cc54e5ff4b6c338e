package org.tunekit.tuners.random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.tuners.contract.ReplayCheck;
import org.tunekit.tuners.common.SeenParameters;

class RandomTunerTest {

    static final SearchSpace ALL_TYPES = SearchSpace.builder()
            .choice("c", "a", "b", 3L)
            .randint("ri", -2, 5)
            .uniform("u", -1, 1)
            .quniform("qu", 0, 0.8, 0.05)
            .loguniform("lu", 1e-5, 1)
            .qloguniform("qlu", 1, 100, 1)
            .normal("n", 0, 1)
            .qnormal("qn", 10, 3, 0.5)
            .lognormal("ln", 0, 1)
            .qlognormal("qln", 1, 0.5, 2)
            .nestedChoice("model", new LinkedHashMap<>(Map.of(
                    "tree", SearchSpace.builder().randint("depth", 1, 16).qloguniform("min_leaf", 1, 100, 1).build())))
            .build();

    private static RandomTuner tuner(long seed, SearchSpace space) {
        RandomTuner t = new RandomTuner(ClassArguments.of(Map.of("seed", seed)));
        t.updateSearchSpace(space);
        return t;
    }

    private static List<Parameters> draw(RandomTuner t, int n) throws NoMoreTrialsException {
        List<Parameters> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(t.generateParameters(i));
        }
        return out;
    }

    @Test
    void everyTypeAndNestedChoiceIsSampledInsideTheSpaceWithNnisValueKinds() throws Exception {
        RandomTuner t = tuner(7, ALL_TYPES);
        for (Parameters p : draw(t, 300)) {
            assertThat(ALL_TYPES.violation(p)).as("%s", p).isEmpty();
            assertThat(p.get("ri")).isInstanceOf(Long.class);
            assertThat(p.get("qu")).isInstanceOf(Double.class);
            assertThat(p.get("qlu")).isInstanceOf(Double.class);
            assertThat(p.getDouble("qn") / 0.5).isEqualTo(Math.rint(p.getDouble("qn") / 0.5));
            assertThat(p.getDouble("ln")).isPositive();
            @SuppressWarnings("unchecked")
            Map<String, Object> model = (Map<String, Object>) p.get("model");
            assertThat(model).containsEntry("_name", "tree").containsKeys("depth", "min_leaf");
        }
    }

    @Test
    void sameSeedSameSequenceOtherSeedOtherSequence() throws Exception {
        List<Parameters> a = draw(tuner(42, ALL_TYPES), 20);
        List<Parameters> b = draw(tuner(42, ALL_TYPES), 20);
        List<Parameters> c = draw(tuner(43, ALL_TYPES), 20);
        assertThat(a).isEqualTo(b);
        assertThat(a).isNotEqualTo(c);
    }

    @Test
    void finiteSpaceIsCoveredWithoutRepeatsThenExhausted() throws Exception {
        SearchSpace space = SearchSpace.builder().choice("a", 1L, 2L, 3L).randint("b", 0, 4).build();
        RandomTuner t = tuner(1, space);
        List<Parameters> all = draw(t, 12);
        assertThat(all).doesNotHaveDuplicates();
        assertThatThrownBy(() -> t.generateParameters(12)).isInstanceOf(NoMoreTrialsException.class)
                .hasMessageContaining("12");
    }

    @Test
    void importedPointsCountAsSeen() throws Exception {
        SearchSpace space = SearchSpace.builder().choice("a", 1L, 2L, 3L).build();
        RandomTuner t = tuner(5, space);
        t.importData(List.of(new ImportedTrial(Parameters.of(Map.of("a", 2.0)), Metric.of(1)),
                new ImportedTrial(Parameters.of(Map.of("a", 9L)), Metric.of(1))));
        List<Parameters> all = draw(t, 2);
        assertThat(all).extracting(p -> p.get("a")).containsExactlyInAnyOrder(1L, 3L);
        assertThatThrownBy(() -> t.generateParameters(2)).isInstanceOf(NoMoreTrialsException.class);
    }

    @Test
    void aNewSpaceForgetsThePointsOfTheOldOne() throws Exception {
        RandomTuner t = tuner(5, SearchSpace.builder().choice("a", 1L).build());
        draw(t, 1);
        assertThatThrownBy(() -> t.generateParameters(1)).isInstanceOf(NoMoreTrialsException.class);
        t.updateSearchSpace(SearchSpace.builder().choice("a", 1L, 2L).build());
        assertThat(draw(t, 2)).extracting(p -> p.get("a")).containsExactlyInAnyOrder(1L, 2L);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 4})
    void aFreshInstanceGivenTheResultsSuggestsWhatTheUninterruptedOneWould(int batch) {
        ReplayCheck.of(() -> new RandomTuner(ClassArguments.of(Map.of("seed", 99))), ALL_TYPES, p -> Metric.of(p.getDouble("u")))
                .inBatchesOf(batch)
                .check(10, 12);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 4})
    void afterAReplayAFiniteSpaceIsCoveredWithoutRepeatingAResult(int batch) {
        SearchSpace space = SearchSpace.builder().randint("a", 0, 6).choice("b", "x", "y").build(); // 12 points
        List<Parameters> after = ReplayCheck.of(() -> new RandomTuner(ClassArguments.of(Map.of("seed", 99))), space, p -> Metric.of(1))
                .inBatchesOf(batch)
                .check(5, 20);
        assertThat(after).hasSize(7).doesNotHaveDuplicates();
    }

    @Test
    void theSuggestionForAnIdDependsOnlyOnTheSeedAndThePointsSeen() throws Exception {
        RandomTuner inOrder = tuner(3, ALL_TYPES);
        inOrder.generateParameters(0);
        Parameters fifth = inOrder.generateParameters(5);
        assertThat(tuner(3, ALL_TYPES).generateParameters(5)).isEqualTo(fifth);
    }

    @Test
    void aReceivedResultCountsAsSeen() throws Exception {
        SearchSpace space = SearchSpace.builder().choice("a", 1L, 2L).build();
        RandomTuner t = tuner(5, space);
        t.receiveTrialResult(new TrialResult(7, Parameters.of(Map.of("a", 2L)), Metric.of(0), true, "customised"));
        assertThat(t.generateParameters(0).get("a")).isEqualTo(1L);
        assertThatThrownBy(() -> t.generateParameters(1)).isInstanceOf(NoMoreTrialsException.class);
    }

    @Test
    void withoutSeedTheTunerPicksOne() throws Exception {
        RandomTuner t = new RandomTuner(ClassArguments.empty());
        t.updateSearchSpace(ALL_TYPES);
        assertThat(ALL_TYPES.violation(t.generateParameters(0))).isEmpty();
    }

    @Test
    void classArgumentsAreChecked() {
        assertThatThrownBy(() -> new RandomTuner(ClassArguments.of(Map.of("seeed", 1))))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("'seeed'");
        assertThatThrownBy(() -> new RandomTuner(ClassArguments.of(Map.of("optimize_mode", "maximise"))))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("optimize_mode");
        new RandomTuner(ClassArguments.of(Map.of("optimize_mode", "minimize", "seed", 3)));
    }

    @Test
    void keysCompareNumbersByValueAndIgnoreKeyOrder() {
        Map<String, Object> ab = new LinkedHashMap<>();
        ab.put("a", 1L);
        ab.put("b", Map.of("x", -0.0, "y", "s\"t"));
        Map<String, Object> ba = new LinkedHashMap<>();
        ba.put("b", Map.of("y", "s\"t", "x", 0.0));
        ba.put("a", 1.0);
        assertThat(SeenParameters.keyOf(Parameters.of(ab))).isEqualTo(SeenParameters.keyOf(Parameters.of(ba)));
        assertThat(SeenParameters.keyOf(Parameters.of(Map.of("a", 0.1))))
                .isNotEqualTo(SeenParameters.keyOf(Parameters.of(Map.of("a", 0.10000000000000002))));
        assertThat(SeenParameters.keyOf(Parameters.of(Map.of("a", "1"))))
                .isNotEqualTo(SeenParameters.keyOf(Parameters.of(Map.of("a", 1L))));
    }
}
