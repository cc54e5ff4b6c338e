package org.tunekit.katib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunekit.katib.api.Experiment;
import org.tunekit.katib.api.GetSuggestionsReply;
import org.tunekit.katib.api.ObjectiveType;

/**
 * A tuner from a plugin folder is served under its own name, with its class arguments as settings,
 * as the dispatcher loads it (its own class loader). Uses the conformance vectors' test plugin, built
 * by {@code protocol-spec/fixture-plugins} (before this module in a full build).
 */
class PluginTunerTest {
    static final Path PLUGINS = Path.of("../protocol-spec/fixture-plugins/target/plugins").toAbsolutePath().normalize();

    @Test
    void aPluginTunerAnswersUnderItsNameAndItsFailuresAreNamed() throws Exception {
        assumeTrue(Files.isRegularFile(PLUGINS.resolve("tunekit-fixture-plugins.jar")),
                "the test plugin is not built: no " + PLUGINS.resolve("tunekit-fixture-plugins.jar") + " (build protocol-spec/fixture-plugins)");
        try (KatibServer server = KatibServer.start(new KatibServer.Options("127.0.0.1", 0, -1, List.of(PLUGINS), 1 << 20, 10, false))) {
            ManagedChannel channel = Katib.channel(server.port());
            try {
                // RecordingTuner's n-th set (from 1) is {"param": 2n, ...}; it takes neither seed nor optimize_mode
                Experiment e = Katib.experiment("plugin", "recordingtuner", Map.of(), ObjectiveType.MINIMIZE, List.of(Katib.ints("param", "0", "1000")));
                GetSuggestionsReply reply = Katib.stub(channel).getSuggestions(Katib.request(e, List.of(), 3, 3));
                assertThat(reply.getParameterAssignmentsList()).extracting(a -> a.getAssignments(0).getValue()).containsExactly("2", "4", "6");

                // fail_on names a parameter id: the ids of a call run from total_request_number - current_request_number
                Experiment failing = Katib.experiment("plugin", "RecordingTuner", Map.of("fail_on", "1"), ObjectiveType.MINIMIZE,
                        List.of(Katib.ints("param", "0", "1000")));
                assertThatThrownBy(() -> Katib.stub(channel).getSuggestions(Katib.request(failing, List.of(), 2, 2)))
                        .isInstanceOfSatisfying(StatusRuntimeException.class, x -> {
                            assertThat(x.getStatus().getCode()).isEqualTo(Status.Code.INTERNAL);
                            assertThat(x.getStatus().getDescription()).contains("algorithm RecordingTuner failed", "scripted tuner failure");
                        });
            } finally {
                channel.shutdownNow();
            }
        }
    }
}
