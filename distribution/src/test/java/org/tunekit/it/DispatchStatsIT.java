package org.tunekit.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.dispatcher.plugin.ExperimentConfig;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;

/** {@code tunekit dispatch --stats}: the handling figures on stderr at the end, and in the log. */
class DispatchStatsIT {
    private static final Duration LIMIT = Duration.ofSeconds(30);

    @Test
    void theFiguresOfEveryKindOfCommandAreReported(@TempDir Path tmp) throws Exception {
        String config = ExperimentConfig.encode(Map.of("tuner", Map.of("name", "Random", "classArgs", Map.of("seed", 3)),
                "assessor", Map.of("name", "Medianstop")));
        Path logs = tmp.resolve("log");
        try (TunekitProcess p = TunekitProcess.start(List.of("dispatch", "--channel", "stdio:", "--stats", "--exp_params", config),
                Map.of("NNI_LOG_DIRECTORY", logs.toString()))) {
            p.send(new Command(CommandType.INITIALIZE, "{\"x\": {\"_type\": \"uniform\", \"_value\": [0, 1]}}"));
            assertThat(p.next(LIMIT).type()).isEqualTo(CommandType.INITIALIZED);
            for (int i = 0; i < 5; i++) {
                p.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "1"));
                assertThat(p.next(LIMIT).type()).isEqualTo(CommandType.NEW_TRIAL_JOB);
                p.send(new Command(CommandType.REPORT_METRIC_DATA, "{\"parameter_id\": " + i + ", \"trial_job_id\": \"T" + i
                        + "\", \"type\": \"PERIODICAL\", \"sequence\": 0, \"value\": \"0.3\"}"));
                p.send(new Command(CommandType.REPORT_METRIC_DATA, "{\"parameter_id\": " + i + ", \"trial_job_id\": \"T" + i
                        + "\", \"type\": \"FINAL\", \"sequence\": 0, \"value\": \"0.3\"}"));
                p.send(new Command(CommandType.TRIAL_END, "{\"trial_job_id\": \"T" + i + "\", \"event\": \"SUCCEEDED\", \"hyper_params\": "
                        + "\"{\\\"parameter_id\\\": " + i + "}\"}"));
            }
            p.send(Command.of(CommandType.TERMINATE));
            assertThat(p.waitFor(LIMIT)).isZero();
            String stderr = p.stderr();
            assertThat(stderr).containsPattern("GE\\s+5 handled").containsPattern("ME FINAL\\s+5 handled")
                    .containsPattern("ME PERIODICAL\\s+5 handled").containsPattern("EN\\s+\\d+ handled").contains("queues: default 0 waiting");
        }
        assertThat(Files.readString(logs.resolve("dispatcher.log"))).contains("handling figures:").containsPattern("GE\\s+5 handled");
    }
}
