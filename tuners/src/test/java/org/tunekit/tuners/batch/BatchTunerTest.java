package org.tunekit.tuners.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
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

class BatchTunerTest {
    static final SearchSpace BATCH = SearchSpace.parse(Map.of("combine_params", Map.of("_type", "choice", "_value", List.of(
            Map.of("optimizer", "Adam", "learning_rate", 1e-5),
            Map.of("optimizer", "SGD", "learning_rate", 0.01),
            Map.of("optimizer", "SGD", "learning_rate", 0.005)))));

    private static BatchTuner tuner() {
        BatchTuner t = new BatchTuner(ClassArguments.empty());
        t.updateSearchSpace(BATCH);
        return t;
    }

    @Test
    void handsOutTheSetsInOrderThenNoMore() throws Exception {
        BatchTuner t = tuner();
        assertThat(t.generateParameters(0).values()).isEqualTo(Map.of("optimizer", "Adam", "learning_rate", 1e-5));
        assertThat(t.generateParameters(1).values()).isEqualTo(Map.of("optimizer", "SGD", "learning_rate", 0.01));
        assertThat(t.generateParameters(2).values()).isEqualTo(Map.of("optimizer", "SGD", "learning_rate", 0.005));
        assertThatThrownBy(() -> t.generateParameters(3)).isInstanceOf(NoMoreTrialsException.class);
        assertThatThrownBy(() -> t.generateParameters(4)).isInstanceOf(NoMoreTrialsException.class);
    }

    @Test
    void importedSetsAreSkipped() throws Exception {
        BatchTuner t = tuner();
        t.importData(List.of(new ImportedTrial(Parameters.of(Map.of("learning_rate", 0.01, "optimizer", "SGD")), Metric.of(1))));
        assertThat(t.generateParameters(0).get("optimizer")).isEqualTo("Adam");
        assertThat(t.generateParameters(1).get("learning_rate")).isEqualTo(0.005);
        assertThatThrownBy(() -> t.generateParameters(2)).isInstanceOf(NoMoreTrialsException.class);
    }

    @Test
    void otherSpacesAreRejectedWithTheReason() {
        BatchTuner t = new BatchTuner(ClassArguments.empty());
        assertThatThrownBy(() -> t.updateSearchSpace(SearchSpace.builder().choice("combine_params", Map.of("a", 1)).uniform("x", 0, 1).build()))
                .hasMessageContaining("exactly one parameter, 'combine_params'").hasMessageContaining("x");
        assertThatThrownBy(() -> t.updateSearchSpace(SearchSpace.builder().uniform("combine_params", 0, 1).build()))
                .hasMessageContaining("must be of type choice, got uniform");
        assertThatThrownBy(() -> t.updateSearchSpace(SearchSpace.builder().choice("combine_params", Map.of("a", 1), 7L).build()))
                .hasMessageContaining("option 1 of 'combine_params'").hasMessageContaining("7");
    }

    @Test
    void checkpointKeepsThePosition(@TempDir Path dir) throws Exception {
        BatchTuner first = tuner();
        first.generateParameters(0);
        first.saveCheckpoint(dir);
        BatchTuner second = new BatchTuner(ClassArguments.empty());
        second.loadCheckpoint(dir);
        second.updateSearchSpace(BATCH);
        assertThat(second.generateParameters(1).get("learning_rate")).isEqualTo(0.01);
    }

    @Test
    void takesOnlyASeed() {
        new BatchTuner(ClassArguments.of(Map.of("seed", 3)));
        assertThatThrownBy(() -> new BatchTuner(ClassArguments.of(Map.of("optimize_mode", "maximize"))))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("optimize_mode");
        assertThatThrownBy(() -> new BatchTuner(ClassArguments.of(Map.of("seed", "x"))))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("seed");
    }
}
