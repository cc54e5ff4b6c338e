package org.tunekit.katib;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ManagedChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.tunekit.dispatcher.plugin.AlgorithmCatalog;
import org.tunekit.katib.api.AlgorithmSetting;
import org.tunekit.katib.api.GetSuggestionsReply;
import org.tunekit.katib.api.ObjectiveType;
import org.tunekit.katib.api.ParameterSpec;
import org.tunekit.katib.api.Trial;
import org.tunekit.katib.api.TrialStatus;

/**
 * Katib's {@code tpe} and {@code multivariate-tpe} run Tunekit's TPE with Katib's start-up (10) and
 * the focused estimator ({@code prior_weight} 0.5, {@code bandwidth_factor} 0.4) unless the
 * experiment sets them, over a real loopback socket.
 */
class KatibTpeDefaultsTest {
    private static final List<ParameterSpec> PARAMS = List.of(Katib.doubles("lr", "0.01", "0.05"), Katib.doubles("momentum", "0.5", "0.9"));
    static KatibServer server;
    static ManagedChannel channel;

    @BeforeAll
    static void start() throws Exception {
        server = KatibServer.start(new KatibServer.Options("127.0.0.1", 0, -1, List.of(), KatibServer.Options.DEFAULT_MAX_INBOUND_BYTES,
                KatibServer.Options.DEFAULT_MAX_ASSIGNMENTS, false));
        channel = Katib.channel(server.port());
    }

    @AfterAll
    static void stop() throws Exception {
        channel.shutdownNow();
        server.close();
    }

    /** 12 completed trials (past the start-up of 10) and 2 running, as a request of a parallel experiment. */
    private static List<Trial> trials() {
        SplittableRandom r = new SplittableRandom(7);
        List<Trial> out = new ArrayList<>();
        for (int i = 0; i < 14; i++) {
            double lr = 0.01 + 0.04 * r.nextDouble();
            double m = 0.5 + 0.4 * r.nextDouble();
            double loss = Math.pow((lr - 0.03) / 0.04, 2) + Math.pow((m - 0.6) / 0.4, 2);
            boolean running = i >= 12;
            out.add(Katib.trial("t-" + i, Katib.assign("lr", KatibSpace.format(lr), "momentum", KatibSpace.format(m)),
                    running ? TrialStatus.TrialConditionType.RUNNING : TrialStatus.TrialConditionType.SUCCEEDED,
                    running ? null : loss, running ? null : String.format("2026-01-01T00:00:%02dZ", i)));
        }
        return out;
    }

    private static GetSuggestionsReply ask(String algorithm, Map<String, String> settings) {
        return Katib.stub(channel).getSuggestions(Katib.request(
                Katib.experiment("defaults", algorithm, settings, ObjectiveType.MINIMIZE, PARAMS), trials(), 3, 17));
    }

    @Test
    void katibsTpeIsTunekitsTpeWithTheFocusedEstimator() {
        for (String katib : List.of("tpe", "multivariate-tpe")) {
            String multivariate = "true"; // both names draw whole parameter sets
            GetSuggestionsReply plain = ask("TPE", Map.of("multivariate", multivariate, "tpe_args", "{\"n_startup_jobs\": 10}"));
            GetSuggestionsReply focused = ask("TPE", Map.of("multivariate", multivariate,
                    "tpe_args", "{\"n_startup_jobs\": 10, \"prior_weight\": 0.5, \"bandwidth_factor\": 0.4}"));
            assertThat(ask(katib, Map.of())).as(katib).isEqualTo(focused);
            assertThat(focused).as(katib).isNotEqualTo(plain);
            // a prior_weight the experiment gives wins over the default
            GetSuggestionsReply given = ask("TPE", Map.of("multivariate", multivariate,
                    "tpe_args", "{\"n_startup_jobs\": 10, \"prior_weight\": 2.0, \"bandwidth_factor\": 0.4}"));
            assertThat(ask(katib, Map.of("prior_weight", "2.0"))).as(katib).isEqualTo(given);
            assertThat(given).as(katib).isNotEqualTo(focused);
        }
    }

    @Test
    void theRecipeNamesTheDefaultsAndKeepsGivenSettings() {
        Algorithms algorithms = new Algorithms(AlgorithmCatalog.discover(List.of()));
        @SuppressWarnings("unchecked")
        Map<String, Object> tpe = (Map<String, Object>) algorithms.resolve("tpe", List.of()).arguments().get("tpe_args");
        assertThat(tpe).containsEntry("n_startup_jobs", 10).containsEntry("prior_weight", Algorithms.KATIB_TPE_PRIOR_WEIGHT)
                .containsEntry("bandwidth_factor", Algorithms.KATIB_TPE_BANDWIDTH_FACTOR);
        @SuppressWarnings("unchecked")
        Map<String, Object> given = (Map<String, Object>) algorithms.resolve("multivariate-tpe", List.of(
                AlgorithmSetting.newBuilder().setName("prior_weight").setValue("1.5").build(),
                AlgorithmSetting.newBuilder().setName("n_startup_trials").setValue("4").build())).arguments().get("tpe_args");
        assertThat(given).containsEntry("n_startup_jobs", 4).containsEntry("prior_weight", 1.5)
                .containsEntry("bandwidth_factor", Algorithms.KATIB_TPE_BANDWIDTH_FACTOR);
    }
}
