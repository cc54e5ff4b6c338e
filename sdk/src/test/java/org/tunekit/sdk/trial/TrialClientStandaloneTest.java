package org.tunekit.sdk.trial;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TrialClientStandaloneTest {
    private final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();

    private TrialClient client(Map<String, String> env) {
        return TrialClient.create(env, new PrintStream(stdout, true, UTF_8), new PrintStream(stderr, true, UTF_8));
    }

    @Test
    void withoutAManagerTheParametersAreEmptyAndReportsArePrinted() {
        TrialClient trial = client(Map.of());
        assertThat(trial.kind()).isEqualTo(TrialEnvironment.Kind.STANDALONE);
        assertThat(trial.parameters().values()).isEmpty();
        assertThat(trial.parameterId()).isEmpty();
        assertThat(trial.trialJobId()).isEqualTo("STANDALONE");
        assertThat(trial.outputDirectory()).isEqualTo(Path.of("").toAbsolutePath());

        trial.reportIntermediate(0.71);
        trial.reportIntermediate(Map.of("default", 0.5));
        trial.reportFinal(0.83);
        String n = System.lineSeparator();
        assertThat(stderr.toString(UTF_8)).isEqualTo("[trial] intermediate result 0: 0.71" + n
                + "[trial] intermediate result 1: {\"default\":0.5}" + n
                + "[trial] final result: 0.83" + n);
        assertThat(stdout.size()).isZero();
        assertThat(trial.nextParameters()).isEmpty();
    }

    @Test
    void theParametersCanBeGivenInAVariable() {
        TrialClient trial = client(Map.of("TUNEKIT_TRIAL_PARAMETERS", "{\"x\": 0.2, \"lr\": 1e-3, \"layers\": 3, \"act\": \"tanh\"}",
                "NNI_TRIAL_JOB_ID", "mine", "NNI_OUTPUT_DIR", "/tmp/out"));
        assertThat(trial.nextParameters()).isPresent();
        assertThat(trial.parameters().getDouble("x")).isEqualTo(0.2);
        assertThat(trial.parameters().getDouble("lr")).isEqualTo(0.001);
        assertThat(trial.parameters().getLong("layers")).isEqualTo(3);
        assertThat(trial.parameters().getString("act")).isEqualTo("tanh");
        assertThat(trial.nextParameters()).isEmpty();
        assertThat(trial.trialJobId()).isEqualTo("mine");
        assertThat(trial.outputDirectory()).isEqualTo(Path.of("/tmp/out"));
    }

    @Test
    void badParametersInTheVariableAreNamed() {
        assertThatThrownBy(() -> client(Map.of("TUNEKIT_TRIAL_PARAMETERS", "{\"x\": }")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("TUNEKIT_TRIAL_PARAMETERS is not JSON: invalid JSON at position 6: expected a value, found '}'");
        assertThatThrownBy(() -> client(Map.of("TUNEKIT_TRIAL_PARAMETERS", "[1, 2]")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("TUNEKIT_TRIAL_PARAMETERS must be a JSON object of parameter names to values, got [1, 2]");
    }

    @Test
    void theChannelIsChosenAsNniChoosesIt() {
        assertThat(client(Map.of("NNI_PLATFORM", "unittest")).kind()).isEqualTo(TrialEnvironment.Kind.STANDALONE);
        assertThat(client(Map.of("NNI_PLATFORM", "", "NNI_TRIAL_COMMAND_CHANNEL", "")).kind()).isEqualTo(TrialEnvironment.Kind.STANDALONE);
        assertThat(TrialEnvironment.of(Map.of("NNI_PLATFORM", "local")).kind()).isEqualTo(TrialEnvironment.Kind.FILE);
        assertThat(TrialEnvironment.of(Map.of("NNI_PLATFORM", "local", "NNI_TRIAL_COMMAND_CHANNEL", "http://localhost:1/env/a/b")).kind())
                .isEqualTo(TrialEnvironment.Kind.HTTP);
    }

    @Test
    void reportedValuesAreChecked() {
        TrialClient trial = client(Map.of());
        assertThatThrownBy(() -> trial.reportIntermediate(Double.POSITIVE_INFINITY)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a metric must be a finite number or NaN, got Infinity");
        assertThatThrownBy(() -> trial.reportFinal(Double.NEGATIVE_INFINITY)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a metric must be a finite number or NaN, got -Infinity");
        assertThatThrownBy(() -> trial.reportFinal(Map.of("loss", 0.1))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("metrics have no \"default\" key, the number the tuner optimises; keys: [loss]");
        assertThatThrownBy(() -> trial.reportFinal(Map.of("default", "0.5"))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("metrics' \"default\" must be a number, got \"0.5\"");
        assertThatThrownBy(() -> trial.reportFinal(Map.of("default", true))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("metrics' \"default\" must be a number, got true");
        Map<String, Object> nullDefault = new LinkedHashMap<>();
        nullDefault.put("default", null);
        assertThatThrownBy(() -> trial.reportFinal(nullDefault)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("metrics' \"default\" must be a number, got null");
        assertThatThrownBy(() -> trial.reportIntermediate(Map.of("default", Double.POSITIVE_INFINITY)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("metrics' \"default\" must be a finite number or NaN, got Infinity");
        assertThatThrownBy(() -> trial.reportIntermediate(Map.of("default", 1.0, "model", new Object())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("metrics must be JSON values: not a JSON value: java.lang.Object");
        assertThatThrownBy(() -> trial.reportFinal((Map<String, ?>) null)).isInstanceOf(NullPointerException.class);
        assertThat(stderr.size()).isZero();

        // Refused reports take no sequence number; NaN, integers and nested values are fine.
        trial.reportIntermediate(Double.NaN);
        Map<String, Object> rich = new LinkedHashMap<>();
        rich.put("default", 3);
        rich.put("curve", List.of(1.5f, 2L));
        rich.put("note", null);
        trial.reportIntermediate(rich);
        String n = System.lineSeparator();
        assertThat(stderr.toString(UTF_8)).isEqualTo("[trial] intermediate result 0: NaN" + n
                + "[trial] intermediate result 1: {\"default\":3,\"curve\":[1.5,2],\"note\":null}" + n);
    }
}
