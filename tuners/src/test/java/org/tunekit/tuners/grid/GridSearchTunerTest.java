package org.tunekit.tuners.grid;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.space.SearchSpace;

class GridSearchTunerTest {

    private static GridSearchTuner tuner(SearchSpace space) {
        GridSearchTuner t = new GridSearchTuner(ClassArguments.empty());
        t.updateSearchSpace(space);
        return t;
    }

    private static List<Parameters> drain(GridSearchTuner t, int max) {
        List<Parameters> out = new ArrayList<>();
        try {
            for (int i = 0; i < max; i++) {
                out.add(t.generateParameters(i));
            }
        } catch (NoMoreTrialsException e) {
            return out;
        }
        return out;
    }

    @Test
    void categoricalGridIsTheFullProductLastParameterFastestThenNoMore() {
        GridSearchTuner t = tuner(SearchSpace.builder().choice("a", 1L, "two", 3.5).choice("b", true, false).randint("n", 0, 3).build());
        List<Parameters> all = drain(t, 100);
        assertThat(all).hasSize(18);
        assertThat(all.get(0).values()).containsExactly(Map.entry("a", 1L), Map.entry("b", true), Map.entry("n", 0L));
        assertThat(all.get(1).values()).containsEntry("n", 1L).containsEntry("b", true);
        assertThat(all.get(3).values()).containsEntry("a", 1L).containsEntry("b", false).containsEntry("n", 0L);
        assertThat(all.get(17).values()).containsEntry("a", 3.5).containsEntry("b", false).containsEntry("n", 2L);
        assertThatThrownBy(() -> t.generateParameters(99)).isInstanceOf(NoMoreTrialsException.class);
    }

    @Test
    void continuousDimensionsAreRefinedRoundByRoundInNnisOrder() {
        GridSearchTuner t = tuner(SearchSpace.builder().uniform("x", 0, 1).quniform("q", 0, 10, 2.5).loguniform("lr", 0.001, 1).build());
        List<Parameters> all = drain(t, 40);
        double[] xs = {0.5, 0.25, 0.75};
        double[] qs = {5, 2.5, 7.5};
        double[] lrs = {Math.pow(10, -1.5), Math.pow(10, -2.25), Math.pow(10, -0.75)};
        int k = 0;
        for (double x : xs) {
            for (double q : qs) {
                for (double lr : lrs) {
                    Parameters p = all.get(k++);
                    assertThat(p.getDouble("x")).as("point %d", k).isEqualTo(x);
                    assertThat(p.getDouble("q")).as("point %d", k).isEqualTo(q);
                    assertThat(p.getDouble("lr")).as("point %d", k).isCloseTo(lr, within(1e-12));
                }
            }
        }
        // round 2: new lr octiles first with the old x and q values
        assertThat(all.get(27).getDouble("lr")).isCloseTo(Math.pow(10, -3 + 3 * 0.125), within(1e-12));
        assertThat(all.get(30).getDouble("lr")).isCloseTo(Math.pow(10, -3 + 3 * 0.875), within(1e-12));
        assertThat(all.get(31).getDouble("q")).isEqualTo(2.5);
        // q's new values this round are its bounds 0 and 10 (2.5-steps in between are taken)
        assertThat(all.get(39).values()).containsEntry("x", 0.5).containsEntry("q", 0.0);
        assertThat(all.get(39).getDouble("lr")).isCloseTo(Math.pow(10, -1.5), within(1e-12));
    }

    @Test
    void quantisedSpaceEndsOnceEveryValueIsUsed() {
        List<Parameters> all = drain(tuner(SearchSpace.builder().quniform("q", 0, 10, 2.5).build()), 100);
        assertThat(all).extracting(p -> p.getDouble("q")).containsExactly(5.0, 2.5, 7.5, 0.0, 10.0);
    }

    @Test
    void quantisedLogSpaceFindsEveryValue() {
        SearchSpace space = SearchSpace.builder().qloguniform("n", 1, 64, 1).build();
        List<Parameters> all = drain(tuner(space), 1000);
        assertThat(all).extracting(p -> p.getDouble("n")).doesNotHaveDuplicates().hasSize(64);
        assertThat(space.size()).hasValue(64);
    }

    @Test
    void unboundedParametersUseQuantilesOfThePrior() {
        List<Parameters> all = drain(tuner(SearchSpace.builder().normal("z", 10, 2).build()), 7);
        assertThat(all.get(0).getDouble("z")).isCloseTo(10, within(1e-9));
        // the quartiles of N(10, 2): 10 -/+ 2 * 0.6744897501960817
        assertThat(all.get(1).getDouble("z")).isCloseTo(10 - 2 * 0.6744897501960817, within(1e-9));
        assertThat(all.get(2).getDouble("z")).isCloseTo(10 + 2 * 0.6744897501960817, within(1e-9));
        assertThat(all.get(3).getDouble("z")).isLessThan(all.get(1).getDouble("z"));
        assertThat(all).hasSize(7);
    }

    @Test
    void nestedChoiceMovesOnlyTheParametersOfTheChosenOption() {
        SearchSpace space = SearchSpace.builder()
                .nestedChoice("model", new java.util.LinkedHashMap<>(Map.of(
                        "tree", SearchSpace.builder().randint("depth", 1, 3).build())))
                .choice("c", "u", "v")
                .build();
        SearchSpace withPlain = SearchSpace.parse(Map.of("model", Map.of("_type", "choice", "_value",
                List.of(Map.of("_name", "tree", "depth", Map.of("_type", "randint", "_value", List.of(1, 3))), "none"))));
        List<Parameters> all = drain(tuner(space), 100);
        assertThat(all).hasSize(4);
        assertThat(all.get(0).values()).isEqualTo(Map.of("model", Map.of("_name", "tree", "depth", 1L), "c", "u"));
        assertThat(all.get(1).values()).isEqualTo(Map.of("model", Map.of("_name", "tree", "depth", 1L), "c", "v"));
        assertThat(all.get(2).values()).isEqualTo(Map.of("model", Map.of("_name", "tree", "depth", 2L), "c", "u"));

        List<Parameters> plain = drain(tuner(withPlain), 100);
        assertThat(plain).extracting(p -> p.get("model")).containsExactly(
                Map.of("_name", "tree", "depth", 1L), Map.of("_name", "tree", "depth", 2L), "none");
    }

    @Test
    void nestedContinuousParametersAreRefinedToo() {
        SearchSpace space = SearchSpace.parse(Map.of("m", Map.of("_type", "choice", "_value", List.of(
                Map.of("_name", "a", "x", Map.of("_type", "uniform", "_value", List.of(0, 1))),
                Map.of("_name", "b")))));
        List<Parameters> all = drain(tuner(space), 5);
        assertThat(all).extracting(p -> p.get("m")).containsExactly(
                Map.of("_name", "a", "x", 0.5), Map.of("_name", "b"),
                Map.of("_name", "a", "x", 0.25), Map.of("_name", "a", "x", 0.75),
                Map.of("_name", "a", "x", 0.125));
    }

    @Test
    void importedPointsAreSkipped() {
        GridSearchTuner t = tuner(SearchSpace.builder().choice("a", 1L, 2L, 3L).build());
        t.importData(List.of(new ImportedTrial(Parameters.of(Map.of("a", 2.0)), Metric.of(0.5))));
        assertThat(drain(t, 10)).extracting(p -> p.get("a")).containsExactly(1L, 3L);
    }

    @Test
    void everyTypeGivesDistinctPointsInsideTheSpace() {
        SearchSpace space = SearchSpace.builder()
                .choice("c", "a", "b").randint("ri", 0, 2).uniform("u", -1, 1).quniform("qu", 0, 1, 0.25)
                .loguniform("lu", 1e-3, 1).qloguniform("qlu", 1, 8, 1).normal("n", 0, 1).qnormal("qn", 0, 2, 1)
                .lognormal("ln", 0, 1).qlognormal("qln", 2, 1, 1).build();
        List<Parameters> all = drain(tuner(space), 3000);
        assertThat(all).hasSize(3000).doesNotHaveDuplicates();
        for (Parameters p : all) {
            assertThat(space.violation(p)).as("%s", p).isEmpty();
        }
    }

    @Test
    void emptySpaceGivesOneEmptyPoint() {
        assertThat(drain(tuner(SearchSpace.empty()), 10)).containsExactly(Parameters.of(Map.of()));
    }

    @Test
    void checkpointRestoreContinuesWhereTheGridStopped(@TempDir Path dir) throws Exception {
        SearchSpace space = SearchSpace.builder().uniform("x", 0, 1).choice("c", "a", "b").build();
        List<Parameters> uninterrupted = drain(tuner(space), 30);

        GridSearchTuner first = tuner(space);
        List<Parameters> before = drain(first, 11);
        first.saveCheckpoint(dir);
        GridSearchTuner second = new GridSearchTuner(ClassArguments.empty());
        second.loadCheckpoint(dir);
        second.updateSearchSpace(space);
        List<Parameters> after = drain(second, 19);
        List<Parameters> joined = new ArrayList<>(before);
        joined.addAll(after);
        assertThat(joined).isEqualTo(uninterrupted);
        assertThat(new HashSet<>(joined)).hasSize(30);
    }

    @Test
    void unknownClassArgumentIsNamed() {
        assertThatThrownBy(() -> new GridSearchTuner(ClassArguments.of(Map.of("sed", 1))))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("'sed'");
    }
}
