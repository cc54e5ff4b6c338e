package org.tunekit.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PrintedMetricsTest {
    @TempDir
    Path tmp;

    private void append(Path f, String text) throws Exception {
        Files.writeString(f, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    @Test
    void wholeLinesOfNnisPrintedMetricsAreReadOnceEach() throws Exception {
        Path out = tmp.resolve("trial.stdout");
        PrintedMetrics r = new PrintedMetrics(out);
        assertThat(r.poll(false)).as("no file yet").isEmpty();
        append(out, "epoch 1\nNNISDK_MEb'{\"type\": \"PERIODICAL\", \"value\": \"0.5\"}'\nNNISDK_MEb'{\"type\": \"FIN");
        assertThat(r.poll(false)).containsExactly("{\"type\": \"PERIODICAL\", \"value\": \"0.5\"}");
        assertThat(r.poll(false)).as("a line still being written waits").isEmpty();
        append(out, "AL\", \"value\": \"0.9\"}'");
        assertThat(r.poll(false)).isEmpty();
        assertThat(r.poll(true)).containsExactly("{\"type\": \"FINAL\", \"value\": \"0.9\"}");
        assertThat(r.poll(true)).as("read once").isEmpty();
    }
}
