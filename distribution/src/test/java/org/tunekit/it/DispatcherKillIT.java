package org.tunekit.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.dispatcher.plugin.ExperimentConfig;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;

/**
 * The dispatcher killed with SIGKILL at random moments, over and over, and resumed as NNI's manager
 * resumes it ({@code NNI_MODE=resume}, {@code IN}, then {@code FD} with every finished trial and no
 * parameter ids): with a checkpoint after every result, kills land in the middle of checkpoint writes
 * too. No parameter id is ever handed out twice, and every resume starts from a usable checkpoint.
 */
class DispatcherKillIT {
    private static final Duration LIMIT = Duration.ofSeconds(30);
    private static final Pattern ID = Pattern.compile("\"parameter_id\": (\\d+)");
    private static final Pattern PARAMETERS = Pattern.compile("\"parameters\": (\\{.*\\}), \"parameter_index\"");
    private static final String SPACE = "{\"x\":{\"_type\":\"uniform\",\"_value\":[0,1]},\"k\":{\"_type\":\"choice\",\"_value\":[1,2,3,4]}}";
    private static final String CONFIG = ExperimentConfig.encode(Map.of(
            "tuner", Map.of("name", "TPE", "classArgs", Map.of("seed", 5, "optimize_mode", "minimize")),
            "assessor", Map.of("name", "Medianstop")));

    @TempDir
    Path tmp;

    @Test
    void killedAtRandomMomentsAndResumedItNeverReusesAParameterId() throws Exception {
        long seed = 20261125L;
        SplittableRandom random = new SplittableRandom(seed);
        Path checkpoints = tmp.resolve("checkpoint");
        List<Long> handedOut = new ArrayList<>();
        List<String> finished = new ArrayList<>();
        ScheduledExecutorService killer = Executors.newSingleThreadScheduledExecutor();
        try {
            int kills = 15;
            for (int run = 0; run <= kills; run++) {
                boolean last = run == kills;
                Map<String, String> env = Map.of("NNI_CHECKPOINT_DIRECTORY", checkpoints.toString(), "NNI_MODE", run == 0 ? "start" : "resume",
                        "TUNEKIT_CHECKPOINT_INTERVAL_MS", "0", "NNI_LOG_DIRECTORY", tmp.resolve("log-" + run).toString());
                try (TunekitProcess p = TunekitProcess.dispatch(CONFIG, env)) {
                    p.send(new Command(CommandType.INITIALIZE, SPACE));
                    Command id = p.next(LIMIT);
                    assertThat(id.type()).as("run %d (seed %d): %s\n%s", run, seed, id, p.stderr()).isEqualTo(CommandType.INITIALIZED);
                    if (!finished.isEmpty()) {
                        p.sendRaw(org.tunekit.dispatcher.protocol.PipeFrameCodec.encode(
                                new Command(CommandType.IMPORT_DATA, "[" + String.join(", ", finished) + "]")));
                    }
                    if (!last) {
                        long pid = p.pid();
                        killer.schedule(() -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly),
                                20 + random.nextInt(400), TimeUnit.MILLISECONDS);
                    }
                    int trials = last ? 6 : Integer.MAX_VALUE;
                    for (int t = 0; t < trials; t++) {
                        p.sendRaw(org.tunekit.dispatcher.protocol.PipeFrameCodec.encode(new Command(CommandType.REQUEST_TRIAL_JOBS, "1")));
                        Command tr = p.next(LIMIT);
                        while (tr != null && tr.type() == CommandType.KILL_TRIAL_JOB) {
                            tr = p.next(LIMIT); // the assessor's verdict on an earlier trial
                        }
                        if (tr == null) {
                            break; // killed
                        }
                        assertThat(tr.type()).as("run %d (seed %d): %s\n%s", run, seed, tr, p.stderr()).isEqualTo(CommandType.NEW_TRIAL_JOB);
                        long parameterId = number(ID, tr.payload());
                        handedOut.add(parameterId);
                        double value = random.nextDouble();
                        String job = "T" + parameterId;
                        for (int s = 0; s < 3; s++) {
                            p.sendRaw(frame(CommandType.REPORT_METRIC_DATA, "{\"parameter_id\": " + parameterId + ", \"trial_job_id\": \"" + job
                                    + "\", \"type\": \"PERIODICAL\", \"sequence\": " + s + ", \"value\": \"" + (value + 1.0 / (s + 1)) + "\"}"));
                        }
                        p.sendRaw(frame(CommandType.REPORT_METRIC_DATA, "{\"parameter_id\": " + parameterId + ", \"trial_job_id\": \"" + job
                                + "\", \"type\": \"FINAL\", \"sequence\": 0, \"value\": \"" + value + "\"}"));
                        p.sendRaw(frame(CommandType.TRIAL_END, "{\"trial_job_id\": \"" + job + "\", \"event\": \"SUCCEEDED\", \"hyper_params\": "
                                + org.tunekit.dispatcher.protocol.JsonCodec.write(tr.payload()) + "}"));
                        finished.add("{\"parameter\": " + group(PARAMETERS, tr.payload()) + ", \"value\": " + value + ", \"trialJobId\": \"" + job + "\"}");
                    }
                    if (last) {
                        p.send(Command.of(CommandType.TERMINATE));
                        assertThat(p.waitFor(LIMIT)).as(p.stderr()).isZero();
                    } else {
                        assertThat(p.waitFor(LIMIT)).as("run %d was killed", run).isEqualTo(137);
                    }
                    for (Command c : p.readAll(Duration.ofSeconds(5))) {
                        assertThat(c.type()).as("run %d (seed %d): %s", run, seed, c).isNotEqualTo(CommandType.ERROR);
                    }
                }
            }
        } finally {
            killer.shutdownNow();
        }
        Set<Long> unique = new HashSet<>(handedOut);
        assertThat(unique).as("parameter ids handed out (seed %d): %s", seed, handedOut).hasSameSizeAs(handedOut);
        assertThat(handedOut).hasSizeGreaterThan(6);
        assertThat(Files.isSymbolicLink(checkpoints.resolve("assessor"))).as("the assessor's checkpoint").isTrue();
    }

    private static byte[] frame(CommandType type, String payload) {
        return org.tunekit.dispatcher.protocol.PipeFrameCodec.encode(new Command(type, payload));
    }

    private static long number(Pattern p, String text) {
        return Long.parseLong(group(p, text));
    }

    private static String group(Pattern p, String text) {
        Matcher m = p.matcher(text);
        assertThat(m.find()).as(text).isTrue();
        return m.group(1);
    }
}
