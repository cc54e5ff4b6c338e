package org.tunekit.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.dispatcher.plugin.ExperimentConfig;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.tunekit.dispatcher.protocol.JsonCodec;

/**
 * Checkpoints and resume through the real process: a stopped experiment writes the tuner's and the
 * assessor's checkpoints under {@code NNI_CHECKPOINT_DIRECTORY}, logs go to
 * {@code NNI_LOG_DIRECTORY/dispatcher.log}, and a resumed experiment ({@code NNI_MODE=resume},
 * {@code AD} with the earlier trials) continues with the parameters the uninterrupted one would have
 * produced. Grid search and the median rule keep checkpoints (what a grid handed out and the earlier
 * curves are not in the results); the tuners that resume by replay are covered by {@link TunerResumeIT}.
 */
class CheckpointResumeIT {
    private static final Duration LIMIT = Duration.ofSeconds(60);
    private static final String SPACE = "{\"lr\":{\"_type\":\"loguniform\",\"_value\":[0.0001,1]},"
            + "\"units\":{\"_type\":\"choice\",\"_value\":[16,32,64,128]},\"depth\":{\"_type\":\"randint\",\"_value\":[1,9]}}";
    private static final String CONFIG = ExperimentConfig.encode(Map.of(
            "tuner", Map.of("name", "GridSearch"),
            "assessor", Map.of("name", "Medianstop")));

    @Test
    void aResumedExperimentContinuesWhereTheStoppedOneWouldHave(@TempDir Path tmp) throws Exception {
        // the uninterrupted experiment: 3 trials, then 2 more
        List<String> uninterrupted = new ArrayList<>();
        try (TunekitProcess p = TunekitProcess.dispatch(CONFIG, Map.of())) {
            List<String> first = runTrials(p, 3, 0);
            p.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "2"));
            uninterrupted.addAll(first);
            uninterrupted.add(p.next(LIMIT).payload());
            uninterrupted.add(p.next(LIMIT).payload());
            p.send(Command.of(CommandType.TERMINATE));
            assertThat(p.waitFor(LIMIT)).as(p.stderr()).isZero();
        }

        // the same experiment stopped after 3 trials ...
        Path checkpoints = tmp.resolve("checkpoint");
        Path logs = tmp.resolve("log");
        List<String> before;
        try (TunekitProcess p = TunekitProcess.dispatch(CONFIG,
                Map.of("NNI_CHECKPOINT_DIRECTORY", checkpoints.toString(), "NNI_LOG_DIRECTORY", logs.toString()))) {
            before = runTrials(p, 3, 0);
            p.send(Command.of(CommandType.TERMINATE));
            assertThat(p.waitFor(LIMIT)).as(p.stderr()).isZero();
            assertThat(p.stderr()).as("logs go to the log directory, not stderr").doesNotContain("INFO");
        }
        assertThat(before).isEqualTo(uninterrupted.subList(0, 3));
        assertThat(nonEmptyFiles(checkpoints.resolve("tuner"))).as("tuner checkpoint files").isNotEmpty();
        assertThat(nonEmptyFiles(checkpoints.resolve("assessor"))).as("assessor checkpoint files").isNotEmpty();
        assertThat(logs.resolve("dispatcher.log")).exists();
        assertThat(Files.readString(logs.resolve("dispatcher.log"))).contains("checkpoint saved");

        // ... and resumed: the manager re-adds the earlier trials, then asks for two more
        try (TunekitProcess p = TunekitProcess.dispatch(CONFIG,
                Map.of("NNI_CHECKPOINT_DIRECTORY", checkpoints.toString(), "NNI_MODE", "resume"))) {
            p.send(new Command(CommandType.INITIALIZE, SPACE));
            assertThat(p.next(LIMIT).type()).isEqualTo(CommandType.INITIALIZED);
            p.send(new Command(CommandType.ADD_CUSTOMIZED_TRIAL_JOB, "[" + String.join(",", before) + "]"));
            p.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "2"));
            List<String> after = List.of(p.next(LIMIT).payload(), p.next(LIMIT).payload());
            p.send(Command.of(CommandType.TERMINATE));
            assertThat(p.waitFor(LIMIT)).as(p.stderr()).isZero();
            assertThat(after.stream().map(CheckpointResumeIT::json).toList())
                    .as("ids continue after the resumed ones, with the uninterrupted run's parameters")
                    .isEqualTo(uninterrupted.subList(3, 5).stream().map(CheckpointResumeIT::json).toList());
        }
    }

    /** IN, GE n, then a final result and a successful end for each trial; returns the TR payloads. */
    private static List<String> runTrials(TunekitProcess p, int n, int firstId) throws Exception {
        p.send(new Command(CommandType.INITIALIZE, SPACE));
        assertThat(p.next(LIMIT).type()).as(p.stderr()).isEqualTo(CommandType.INITIALIZED);
        p.send(new Command(CommandType.REQUEST_TRIAL_JOBS, String.valueOf(n)));
        List<String> records = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Command tr = p.next(LIMIT);
            assertThat(tr.type()).as(p.stderr()).isEqualTo(CommandType.NEW_TRIAL_JOB);
            records.add(tr.payload());
        }
        for (int i = 0; i < n; i++) {
            long id = firstId + i;
            for (int s = 0; s < 3; s++) {
                p.send(new Command(CommandType.REPORT_METRIC_DATA, "{\"parameter_id\": " + id + ", \"trial_job_id\": \"J" + id
                        + "\", \"type\": \"PERIODICAL\", \"sequence\": " + s + ", \"value\": \"" + (0.1 * (i + s)) + "\"}"));
            }
            p.send(new Command(CommandType.REPORT_METRIC_DATA, "{\"parameter_id\": " + id + ", \"trial_job_id\": \"J" + id
                    + "\", \"type\": \"FINAL\", \"sequence\": 0, \"value\": \"" + (0.5 + i) + "\"}"));
            p.send(new Command(CommandType.TRIAL_END, "{\"trial_job_id\": \"J" + id + "\", \"event\": \"SUCCEEDED\", \"hyper_params\": "
                    + JsonCodec.write(records.get(i)) + "}"));
        }
        return records;
    }

    private static Object json(String text) {
        try {
            return JsonCodec.parse(text, "TR");
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static List<Path> nonEmptyFiles(Path dir) throws Exception {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        // the plugin's folder is reached through a link to its current generation
        try (Stream<Path> s = Files.walk(dir, java.nio.file.FileVisitOption.FOLLOW_LINKS)) {
            return s.filter(Files::isRegularFile).filter(f -> f.toFile().length() > 0).toList();
        }
    }
}
