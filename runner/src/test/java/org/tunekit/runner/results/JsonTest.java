package org.tunekit.runner.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tunekit.runner.results.Trials.T0;
import static org.tunekit.runner.results.Trials.experiment;
import static org.tunekit.runner.results.Trials.trial;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonTest {
    @TempDir
    Path dir;

    private static ExperimentResults finite() {
        TrialRecord failed = new TrialRecord(1, "B2", 7, Map.of("lr", 0.5, "optimizer",
                Map.of("_name", "sgd", "momentum", 0.9), "layers", List.of(64L, 32L), "bn", true),
                TrialStatus.FAILED, null, null, List.of(0.1), T0, null, null, "a <b> \"c\"\nd");
        TrialRecord ok = new TrialRecord(0, "A1", 3, Map.of("lr", 1e-5, "name", "x"), TrialStatus.SUCCEEDED, 0.25,
                Map.of("default", 0.25, "loss", 1.5, "epochs", 10L), List.of(0.1, 0.2, 0.25), T0.plusNanos(123456789),
                T0.plusSeconds(90), 0, null);
        Map<String, Object> space = Map.of("lr", Map.of("_type", "loguniform", "_value", List.of(1e-5, 0.5)),
                "layers", Map.of("_type", "choice", "_value", List.of(List.of(64L, 32L), List.of(128L))));
        return new ExperimentResults("exp<1>", "made \"up\"", true, T0, null, "RUNNING", List.of(ok, failed), List.of(), space);
    }

    @Test
    void roundTripsThroughGson() throws IOException {
        Path file = dir.resolve("out/experiment.json");
        ResultsOutput.writeJson(finite(), file);
        try (Reader in = Files.newBufferedReader(file)) {
            assertThat(Json.read(in)).isEqualTo(finite());
        }
    }

    @Test
    void timesAreIsoTextAndEveryComponentIsThere() throws IOException {
        Path file = dir.resolve("experiment.json");
        ResultsOutput.writeJson(finite(), file);
        JsonObject root = JsonParser.parseString(Files.readString(file)).getAsJsonObject();
        assertThat(root.keySet()).containsExactly("id", "name", "maximize", "started", "ended", "status", "trials", "objectives",
                "searchSpace");
        assertThat(root.get("started").getAsString()).isEqualTo("2026-03-01T10:00:00Z");
        assertThat(root.get("ended").isJsonNull()).isTrue();
        JsonObject trial = root.getAsJsonArray("trials").get(0).getAsJsonObject();
        assertThat(trial.keySet()).containsExactly("sequence", "trialJobId", "parameterId", "parameters", "status",
                "finalValue", "finalMetric", "intermediate", "started", "ended", "exitCode", "message", "gpus");
        assertThat(trial.get("started").getAsString()).isEqualTo("2026-03-01T10:00:00.123456789Z");
        assertThat(trial.getAsJsonObject("finalMetric").get("epochs").toString()).isEqualTo("10");
        JsonObject failed = root.getAsJsonArray("trials").get(1).getAsJsonObject();
        assertThat(failed.getAsJsonObject("parameters").keySet()).containsExactly("bn", "layers", "lr", "optimizer");
        assertThat(failed.getAsJsonObject("parameters").getAsJsonObject("optimizer").keySet())
                .containsExactly("_name", "momentum");
    }

    @Test
    void numbersJsonCannotHoldAreWrittenAsNull() throws IOException {
        TrialRecord t = new TrialRecord(0, "A", 0, Map.of("x", Double.NaN), TrialStatus.SUCCEEDED, Double.NaN,
                Map.of("default", Double.POSITIVE_INFINITY), List.of(1.0, Double.NaN, Double.NEGATIVE_INFINITY),
                T0, T0, 0, null);
        ExperimentResults r = experiment(false, List.of(t, trial(1, 2.0, Map.of())));
        String text = Json.toJson(r);
        assertThat(text).doesNotContain("NaN").doesNotContain("Infinity");
        JsonReader strict = new JsonReader(new StringReader(text));
        strict.setStrictness(Strictness.STRICT);
        JsonObject trial = JsonParser.parseReader(strict).getAsJsonObject().getAsJsonArray("trials").get(0)
                .getAsJsonObject();
        assertThat(trial.get("finalValue").isJsonNull()).isTrue();
        assertThat(trial.getAsJsonObject("finalMetric").get("default").isJsonNull()).isTrue();
        assertThat(trial.getAsJsonObject("parameters").get("x").isJsonNull()).isTrue();
        assertThat(trial.get("intermediate").toString()).isEqualTo("[1.0,null,null]");

        TrialRecord noNaNParameter = new TrialRecord(0, "A", 0, Map.of(), t.status(), t.finalValue(),
                t.finalMetric(), t.intermediate(), T0, T0, 0, null);
        TrialRecord back = Json.read(new StringReader(Json.toJson(experiment(false, List.of(noNaNParameter)))))
                .trials().get(0);
        assertThat(back.finalValue()).isNull();
        assertThat(back.intermediate()).containsExactly(1.0, Double.NaN, Double.NaN);
    }
}
