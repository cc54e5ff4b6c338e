package org.tunekit.katib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tunekit.katib.api.Distribution;
import org.tunekit.katib.api.Experiment;
import org.tunekit.katib.api.GetSuggestionsReply;
import org.tunekit.katib.api.ObjectiveType;
import org.tunekit.katib.api.ParameterSpec;
import org.tunekit.katib.api.ParameterType;
import org.tunekit.katib.api.SuggestionGrpc;
import org.tunekit.katib.api.ValidateAlgorithmSettingsRequest;

/** The suggestion service over a real loopback socket, called with the generated client. */
class SuggestionServiceTest {
    static KatibServer server;
    static ManagedChannel channel;

    @BeforeAll
    static void start() throws Exception {
        // warmed up, as the command starts it: the made-up requests must not leave anything behind
        server = KatibServer.start(new KatibServer.Options("127.0.0.1", 0, -1, List.of(), KatibServer.Options.DEFAULT_MAX_INBOUND_BYTES,
                KatibServer.Options.DEFAULT_MAX_ASSIGNMENTS, true));
        channel = Katib.channel(server.port());
    }

    @AfterAll
    static void stop() {
        channel.shutdownNow();
        server.close();
    }

    static SuggestionGrpc.SuggestionBlockingStub stub() {
        return Katib.stub(channel);
    }

    /** Every kind of parameter Katib has, each distribution, with and without steps. */
    static final List<ParameterSpec> ALL_KINDS = List.of(
            Katib.doubles("lr", "0.01", "0.05"),
            Katib.ints("layers", "1", "8"),
            Katib.range("dropout", ParameterType.DOUBLE, "0.1", "0.5", "0.05", Distribution.UNIFORM),
            Katib.range("units", ParameterType.INT, "16", "256", "16", Distribution.DISTRIBUTION_UNSPECIFIED),
            Katib.range("wd", ParameterType.DOUBLE, "0.00001", "0.1", null, Distribution.LOG_UNIFORM),
            Katib.range("batch", ParameterType.INT, "32", "512", null, Distribution.LOG_UNIFORM),
            Katib.range("momentum", ParameterType.DOUBLE, "0.5", "0.99", null, Distribution.NORMAL),
            Katib.range("epochs", ParameterType.INT, "1", "20", null, Distribution.NORMAL),
            Katib.range("scale", ParameterType.DOUBLE, "0.001", "10", null, Distribution.LOG_NORMAL),
            Katib.range("width", ParameterType.INT, "2", "100", null, Distribution.LOG_NORMAL),
            Katib.range("lrq", ParameterType.DOUBLE, "0.01", "0.05", "0.01", Distribution.NORMAL),
            Katib.list("heads", ParameterType.DISCRETE, "1", "2", "4.0", "8"),
            Katib.list("optimizer", ParameterType.CATEGORICAL, "sgd", "adam", "ftrl"),
            Katib.range("fixed", ParameterType.DOUBLE, "0.3", "0.3", null, Distribution.UNIFORM));

    @Test
    void healthIsServingForKatibsProbeAndTheServer() {
        var health = HealthGrpc.newBlockingStub(channel);
        for (String name : List.of(KatibServer.HEALTH_NAME, "")) {
            assertThat(health.check(HealthCheckRequest.newBuilder().setService(name).build()).getStatus())
                    .isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"random", "tpe", "multivariate-tpe", "cmaes", "grid", "sobol", "bayesianoptimization",
            "TPE", "Random", "Anneal", "Evolution", "GPTuner", "SMAC", "CMAES", "CMA-ES", "Sobol", "GridSearch", "MetisTuner",
            "DNGOTuner", "RegularizedEvolutionTuner"})
    void everyAlgorithmRunsAnExperimentOverEveryKindOfParameter(String algorithm) {
        Experiment e = Katib.experiment("every-" + algorithm.toLowerCase(), algorithm, Map.of(), ObjectiveType.MINIMIZE, ALL_KINDS);
        stub().validateAlgorithmSettings(ValidateAlgorithmSettingsRequest.newBuilder().setExperiment(e).build());
        ControllerLoop loop = new ControllerLoop(e, 7).run(15, 3, r -> stub().getSuggestions(r));
        assertThat(loop.trials).hasSize(15);
        assertThat(loop.duplicates).isZero();
    }
}
