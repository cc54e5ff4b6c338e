package org.tunekit.assessors.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StateFileTest {

    @Test
    void roundTripsTextAndNumbersExactly(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("x.state");
        StateFile.write(file, "Kind", List.of(
                StateFile.record("trial", List.of("a b%c\nd", ""), 0.1, Double.NaN, Double.NEGATIVE_INFINITY, -0.0),
                StateFile.record("empty", List.of())));
        List<StateFile.Record> records = StateFile.read(file, "Kind");
        assertThat(records).hasSize(2);
        StateFile.Record r = records.get(0);
        assertThat(r.keyword()).isEqualTo("trial");
        assertThat(r.text(1)).isEqualTo("a b%c\nd");
        assertThat(r.text(2)).isEmpty();
        assertThat(r.numbersFrom(3)).containsExactly(0.1, Double.NaN, Double.NEGATIVE_INFINITY, -0.0);
        assertThat(records.get(1).tokens()).containsExactly("empty");
    }

    @Test
    void aMissingFileIsNoRecords(@TempDir Path dir) throws IOException {
        assertThat(StateFile.read(dir.resolve("absent"), "Kind")).isEmpty();
    }

    @Test
    void errorsNameTheFileAndLine(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("x.state");
        Files.writeString(file, "tunekit-assessor-state Other 1\n");
        assertThatThrownBy(() -> StateFile.read(file, "Kind")).hasMessageContaining("x.state:1").hasMessageContaining("Kind");
        Files.writeString(file, "tunekit-assessor-state Kind 1\nrung 0 1.5\nrung x y\n");
        StateFile.Record bad = StateFile.read(file, "Kind").get(1);
        assertThatThrownBy(() -> bad.count(1)).hasMessageContaining("x.state:3").hasMessageContaining("'x'");
        assertThatThrownBy(() -> bad.number(2)).hasMessageContaining("'y'");
    }
}
