package org.tunekit.sdk.trial;

import org.tunekit.sdk.internal.Json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.Parameters;

class TrialClientHttpTest {
    private static final String RECORD_3 = "{\"parameter_id\": 3, \"parameter_source\": \"algorithm\", "
            + "\"parameters\": {\"x\": 0.25, \"lr\": 0.01, \"layers\": 4, \"act\": \"relu\"}, \"parameter_index\": 0}";

    private FakeManager manager;

    @BeforeEach
    void start() throws Exception {
        manager = new FakeManager();
    }

    @AfterEach
    void stop() {
        manager.close();
    }

    private TrialClient client() {
        return TrialClient.fromEnvironment(Map.of(
                "NNI_TRIAL_COMMAND_CHANNEL", manager.url(),
                "NNI_PLATFORM", "local",
                "NNI_TRIAL_JOB_ID", "t1",
                "NNI_SYS_DIR", "/tmp/nni/t1",
                "NNI_OUTPUT_DIR", "/tmp/nni/t1/out"));
    }

    @Test
    void asksForParametersThenPollsPastTimeouts() {
        // The command as the manager sends it: the record is JSON text inside a JSON string.
        manager.parameterReplies.add("{\"type\": \"parameter\", \"parameter\": \"{\\\"parameter_id\\\": 3, "
                + "\\\"parameter_source\\\": \\\"algorithm\\\", \\\"parameters\\\": {\\\"x\\\": 0.25, \\\"lr\\\": 0.01, "
                + "\\\"layers\\\": 4, \\\"act\\\": \\\"relu\\\"}, \\\"parameter_index\\\": 0}\"}");
        TrialClient trial = client();
        assertThat(trial.kind()).isEqualTo(TrialEnvironment.Kind.HTTP);
        assertThat(trial.parameterId()).isEmpty();

        Parameters p = trial.parameters();

        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("x", 0.25);
        expected.put("lr", 0.01);
        expected.put("layers", 4L);
        expected.put("act", "relu");
        assertThat(p.values()).isEqualTo(expected);
        assertThat(trial.parameterId()).isEqualTo(OptionalLong.of(3));
        assertThat(manager.timeouts.get()).isGreaterThanOrEqualTo(1);
        assertThat(manager.gets.get()).isGreaterThanOrEqualTo(2);
        assertThat(manager.putBodies).containsExactly("{\"type\":\"request_parameter\"}");
        assertThat(manager.putContentTypes).containsExactly("application/json");

        // Later calls give the same parameters without asking again.
        int gets = manager.gets.get();
        assertThat(trial.parameters()).isSameAs(p);
        assertThat(manager.putBodies).hasSize(1);
        assertThat(manager.gets.get()).isEqualTo(gets);
        assertThat(trial.trialJobId()).isEqualTo("t1");
        assertThat(trial.outputDirectory()).isEqualTo(Path.of("/tmp/nni/t1/out"));
    }

    @Test
    void reportsAreDoubleEncodedMetricCommands() {
        manager.parameterReplies.add(FakeManager.parameterCommand(RECORD_3));
        TrialClient trial = client();
        trial.parameters();

        trial.reportIntermediate(0.71);
        Map<String, Object> metrics = new LinkedHashMap<>();
        metrics.put("default", 0.72);
        metrics.put("loss", 0.3);
        metrics.put("epoch", 1);
        trial.reportIntermediate(metrics);
        trial.reportIntermediate(Double.NaN);
        trial.reportFinal(0.83);

        List<String> bodies = manager.putBodies.subList(1, manager.putBodies.size());
        assertThat(bodies).hasSize(4);
        assertThat(bodies.get(0)).isEqualTo("{\"type\":\"metric\",\"metric\":\"{\\\"parameter_id\\\":3,\\\"trial_job_id\\\":\\\"t1\\\","
                + "\\\"type\\\":\\\"PERIODICAL\\\",\\\"sequence\\\":0,\\\"value\\\":\\\"0.71\\\"}\"}");
        assertThat(metricOf(bodies.get(1))).isEqualTo(metric(3L, "PERIODICAL", 1, "{\"default\":0.72,\"loss\":0.3,\"epoch\":1}"));
        assertThat(metricOf(bodies.get(2))).isEqualTo(metric(3L, "PERIODICAL", 2, "NaN"));
        assertThat(metricOf(bodies.get(3))).isEqualTo(metric(3L, "FINAL", 0, "0.83"));
        assertThat(manager.putContentTypes).containsOnly("application/json");
    }

    @Test
    void aReportBeforeTheParametersNamesNoParameterId() {
        TrialClient trial = client();
        trial.reportIntermediate(0.5);
        assertThat(metricOf(manager.putBodies.get(0))).isEqualTo(metric(null, "PERIODICAL", 0, "0.5"));
    }

    @Test
    void nextParametersAsksAgainUntilTheManagerCloses() {
        manager.parameterReplies.add(FakeManager.parameterCommand(RECORD_3));
        manager.parameterReplies.add(FakeManager.parameterCommand(
                "{\"parameter_id\": 4, \"parameter_source\": \"algorithm\", \"parameters\": {\"x\": 0.5}, \"parameter_index\": 1}"));
        TrialClient trial = client();
        assertThat(trial.parameters().get("x")).isEqualTo(0.25);

        assertThat(trial.nextParameters()).map(Parameters::values).contains(Map.of("x", 0.5));
        assertThat(trial.parameterId()).isEqualTo(OptionalLong.of(4));
        assertThat(trial.parameters().values()).isEqualTo(Map.of("x", 0.5));
        trial.reportFinal(0.9);
        assertThat(metricOf(manager.putBodies.get(manager.putBodies.size() - 1))).isEqualTo(metric(4L, "FINAL", 0, "0.9"));

        manager.closed = true;
        assertThat(trial.nextParameters()).isEmpty();
        assertThat(trial.parameterId()).isEqualTo(OptionalLong.of(4));
    }

    @Test
    void aManagerThatClosesBeforeParametersIsAClearFailure() {
        manager.closed = true;
        TrialClient trial = client();
        assertThatThrownBy(trial::parameters).isInstanceOf(UncheckedIOException.class)
                .hasMessage("no parameters will come: PUT " + manager.url()
                        + " answered 410 Gone: the manager has closed this trial's channel");
        assertThatThrownBy(() -> trial.reportFinal(1.0)).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("cannot report the final result: PUT " + manager.url() + " answered 410 Gone");
    }

    @Test
    void aPollAnswered410IsAClearFailure() {
        manager.pollStatus = 410;
        TrialClient trial = client();
        assertThatThrownBy(trial::parameters).isInstanceOf(UncheckedIOException.class)
                .hasMessage("no parameters will come: GET " + manager.url()
                        + " answered 410 Gone: the manager has closed this trial's channel");
        assertThat(trial.nextParameters()).isEmpty();
    }

    @Test
    void anUnexpectedStatusNamesTheUrlStatusAndBody() {
        manager.pollStatus = 500;
        manager.statusBody = "boom";
        assertThatThrownBy(() -> client().parameters()).isInstanceOf(UncheckedIOException.class)
                .hasMessage("cannot get this trial's parameters: GET " + manager.url() + " answered HTTP 500: \"boom\"");
        assertThatThrownBy(() -> client().nextParameters()).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("answered HTTP 500");
    }

    @Test
    void aBadCommandNamesTheUrl() {
        manager.parameterReplies.add("not json");
        assertThatThrownBy(() -> client().parameters()).isInstanceOf(UncheckedIOException.class)
                .hasMessageStartingWith("cannot get this trial's parameters: GET " + manager.url() + " answered with a body that is not JSON");
        manager.parameterReplies.add("{\"type\": \"kill\"}");
        assertThatThrownBy(() -> client().parameters()).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("answered with a command that is not {\"type\": \"parameter\", ...}: \"{\"type\": \"kill\"}\"");
        manager.parameterReplies.add(FakeManager.parameterCommand("{\"parameter_id\": 1}"));
        assertThatThrownBy(() -> client().parameters()).isInstanceOf(UncheckedIOException.class)
                .hasMessage("cannot get this trial's parameters: the parameter from " + manager.url()
                        + ": \"parameters\" must be a JSON object, got nothing");
        manager.parameterReplies.add(FakeManager.parameterCommand("{\"parameter_id\": 1.5, \"parameters\": {}}"));
        assertThatThrownBy(() -> client().parameters()).isInstanceOf(UncheckedIOException.class)
                .hasMessageContaining("\"parameter_id\" must be an integer or null, got 1.5");
    }

    @Test
    void anUnreachableManagerNamesTheUrl() {
        String url = manager.url();
        manager.close();
        TrialClient trial = client();
        assertThatThrownBy(trial::parameters).isInstanceOf(UncheckedIOException.class)
                .hasMessageStartingWith("cannot get this trial's parameters: PUT " + url + " failed: ");
        assertThatThrownBy(() -> trial.reportIntermediate(1.0)).isInstanceOf(UncheckedIOException.class)
                .hasMessageStartingWith("cannot report the intermediate result: PUT " + url + " failed: ");
    }

    @Test
    void onlyAnHttpChannelIsSpoken() {
        assertThatThrownBy(() -> TrialClient.fromEnvironment(Map.of("NNI_TRIAL_COMMAND_CHANNEL", "ws://localhost:8080/x",
                "NNI_TRIAL_JOB_ID", "t1")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("NNI_TRIAL_COMMAND_CHANNEL is ws://localhost:8080/x, but a Java trial speaks only NNI's HTTP trial channel (http://...)");
        assertThatThrownBy(() -> TrialClient.fromEnvironment(Map.of("NNI_TRIAL_COMMAND_CHANNEL", manager.url())))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("NNI_TRIAL_JOB_ID is not set, though NNI_TRIAL_COMMAND_CHANNEL says this trial runs under a manager");
    }

    /** The metric text inside a metric command, read back. */
    private static Object metricOf(String body) {
        Map<?, ?> command = (Map<?, ?>) Json.parse(body);
        assertThat(command.get("type")).isEqualTo("metric");
        return Json.parse((String) command.get("metric"));
    }

    private static Map<String, Object> metric(Long parameterId, String type, int sequence, String value) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("parameter_id", parameterId);
        m.put("trial_job_id", "t1");
        m.put("type", type);
        m.put("sequence", (long) sequence);
        m.put("value", value);
        return m;
    }
}
