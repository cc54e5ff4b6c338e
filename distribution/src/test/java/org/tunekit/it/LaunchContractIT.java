package org.tunekit.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.dispatcher.plugin.ExperimentConfig;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.tunekit.dispatcher.protocol.JsonCodec;

/**
 * The launch contract of SPEC.md section 8 against the real {@code tunekit}: it stands in for the
 * Python interpreter an NNI manager calls ({@code -m nni --exp_params}, the version and GPU probes,
 * {@code -c}), and it logs to {@code NNI_LOG_DIRECTORY/dispatcher.log}, never to stdout.
 */
class LaunchContractIT {
    private static final Duration LIMIT = Duration.ofSeconds(60);
    private static final String SPACE = "{\"x\": {\"_type\": \"choice\", \"_value\": [1, 2, 3]}}";

    record Finished(int status, String stdout, String stderr) {}

    static Finished run(String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(TunekitProcess.HOME.resolve("tunekit").toString());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(TunekitProcess.HOME.toFile());
        pb.environment().put("TUNEKIT_NO_BUILD", "1");
        Path out = Files.createTempFile("tunekit-stdout", ".txt");
        Path err = Files.createTempFile("tunekit-stderr", ".txt");
        try {
            pb.redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
            Process p = pb.start();
            assertThat(p.waitFor(LIMIT.toSeconds(), TimeUnit.SECONDS)).as("tunekit " + String.join(" ", args) + " exits").isTrue();
            return new Finished(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
        }
    }

    @Test
    void versionProbePrintsOneJsonLine() throws Exception {
        Finished f = run("-m", "nni.tools.nni_manager_scripts.collect_version_info");
        assertThat(f.status()).isZero();
        assertThat(f.stdout().lines().toList()).hasSize(1);
        Object info = JsonCodec.parse(f.stdout().strip(), "version info");
        assertThat(info).isInstanceOf(Map.class);
        assertThat((String) ((Map<?, ?>) info).get("nniVersion")).startsWith("tunekit-");
    }

    @Test
    void gpuProbeReportsThisMachinesGpus() throws Exception {
        // whatever nvidia-smi is on this machine's PATH (none: no GPUs); the exact lines are TunekitMainTest's
        Finished f = run("-m", "nni.tools.nni_manager_scripts.collect_gpu_info");
        assertThat(f.status()).isZero();
        assertThat(f.stdout().lines().toList()).hasSize(1);
        Map<?, ?> info = (Map<?, ?>) JsonCodec.parse(f.stdout().strip(), "gpu info");
        assertThat(info.get("success")).isEqualTo(true);
        assertThat(info.get("gpuNumber")).isEqualTo((long) ((List<?>) info.get("gpus")).size());
    }

    @Test
    void pythonCodeFailsAtOnceWithoutOutput() throws Exception {
        Finished f = run("-c", "import tensorboard");
        assertThat(f.status()).isNotZero();
        assertThat(f.stdout()).isEmpty();
        assertThat(f.stderr()).contains("-c");
    }

    @Test
    void unknownPythonModuleFails() throws Exception {
        Finished f = run("-m", "nni.tools.something_else");
        assertThat(f.status()).isNotZero();
        assertThat(f.stdout()).isEmpty();
    }

    @Test
    void runsAsTheInterpreterAnNniManagerStartsAndLogsOnlyToItsLogDirectory(@TempDir Path logs) throws Exception {
        String expParams = ExperimentConfig.encode(Map.of("tuner", Map.of("name", "RecordingTuner"), "trialConcurrency", 1));
        Map<String, String> env = Map.of(
                "TUNEKIT_PLUGIN_PATH", TunekitProcess.FIXTURE_PLUGINS.toString(),
                "NNI_TUNER_COMMAND_CHANNEL", "stdio:",
                "NNI_LOG_DIRECTORY", logs.toString(),
                "NNI_LOG_LEVEL", "debug",
                "SDK_PROCESS", "dispatcher",
                "NNI_MODE", "start");
        try (TunekitProcess p = TunekitProcess.start(List.of("-m", "nni", "--exp_params", expParams), env)) {
            p.send(new Command(CommandType.INITIALIZE, SPACE));
            p.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "1"));
            p.send(Command.of(CommandType.TERMINATE));
            // stdout carries nothing but well-formed frames (the reader fails the test on anything else)
            List<Command> replies = p.readAll(LIMIT);
            assertThat(p.waitFor(LIMIT)).isZero();
            assertThat(replies).extracting(Command::type).containsExactly(CommandType.INITIALIZED, CommandType.NEW_TRIAL_JOB);
            Path log = logs.resolve("dispatcher.log");
            assertThat(log).exists();
            assertThat(Files.readString(log)).contains("TE received");
            assertThat(p.stderr()).doesNotContain("TE received");
        }
    }

    @Test
    void pluginsLoggingThroughSystemLoggerLandInTheDispatchersLog(@TempDir Path logs) throws Exception {
        // Random without a seed logs the seed it picked, through the JDK's System.Logger
        String expParams = ExperimentConfig.encode(Map.of("tuner", Map.of("name", "Random")));
        try (TunekitProcess p = TunekitProcess.dispatch(expParams, Map.of("NNI_LOG_DIRECTORY", logs.toString()))) {
            p.send(new Command(CommandType.INITIALIZE, SPACE));
            p.send(Command.of(CommandType.TERMINATE));
            assertThat(p.readAll(LIMIT)).extracting(Command::type).containsExactly(CommandType.INITIALIZED);
            assertThat(p.waitFor(LIMIT)).isZero();
            assertThat(Files.readString(logs.resolve("dispatcher.log"))).contains("RandomTuner - Random tuner: no seed given");
            assertThat(p.stderr()).doesNotContain("no seed given");
        }
    }

    @Test
    void withoutALogDirectoryLogsGoToStderr() throws Exception {
        String expParams = ExperimentConfig.encode(Map.of("tuner", Map.of("name", "NoSuchTuner")));
        try (TunekitProcess p = TunekitProcess.dispatch(expParams, Map.of())) {
            List<Command> replies = p.readAll(LIMIT);
            assertThat(p.waitFor(LIMIT)).isNotZero();
            assertThat(replies).extracting(Command::type).containsExactly(CommandType.ERROR);
            assertThat(p.stderr()).contains("unknown tuner 'NoSuchTuner'");
        }
    }
}
