package org.tunekit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tunekit.it.Sql.count;
import static org.tunekit.it.Sql.longs;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tunekit run}: the real process runs real trial processes, is killed with SIGKILL and resumed. */
class RunnerIT {
    private static final Pattern EXPERIMENT = Pattern.compile("^Experiment ([a-z0-9]{8})");

    @TempDir
    Path tmp;

    /** A finished run: exit status, everything printed. */
    record Run(int status, String out, String err) {}

    private Run tunekit(List<String> args, Map<String, String> env) throws Exception {
        Process p = start(args, env);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
        return new Run(p.exitValue(), out, Files.readString(tmp.resolve("stderr.txt")));
    }

    private Process start(List<String> args, Map<String, String> env) throws IOException {
        return TunekitProcess.run(args, tmp.resolve("experiments"), tmp.resolve("stderr.txt"), env);
    }

    private static String experimentId(String out) {
        Matcher m = EXPERIMENT.matcher(out);
        assertThat(m.find()).as(out).isTrue();
        return m.group(1);
    }

    /**
     * A trial on NNI 2.x's file channel (no curl needed): reads x and its parameter id from parameter.cfg,
     * runs {@code before}, appends its final result x as one frame to .nni/metrics, then runs {@code after}.
     */
    private static String fileTrial(String before, String after) {
        return """
                p=$(cat "$NNI_SYS_DIR/parameter.cfg")
                x=$(printf '%s' "$p" | sed -n 's/.*"x": *\\([-0-9.eE+]*\\).*/\\1/p')
                id=$(printf '%s' "$p" | sed -n 's/.*"parameter_id": *\\([0-9]*\\).*/\\1/p')
                """ + before + """
                body="{\\"parameter_id\\": $id, \\"trial_job_id\\": \\"$NNI_TRIAL_JOB_ID\\", \\"type\\": \\"FINAL\\", \\"sequence\\": 0, \\"value\\": \\"$x\\"}"
                mkdir -p "$NNI_SYS_DIR/.nni"
                n=$(printf '%s\\n' "$body" | wc -c)
                printf 'ME%06d%s\\n' "$n" "$body" >> "$NNI_SYS_DIR/.nni/metrics"
                """ + after;
    }

    @Test
    void theJavaExampleRunsEndToEndWithEarlyStoppingAndATable() throws Exception {
        Run r = tunekit(List.of("run", "examples/java-trial/config.yml"), Map.of());
        assertThat(r.status()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).contains("Experiment ").contains("Best parameters").contains("tunekit results");
        String id = experimentId(r.out());
        Path folder = tmp.resolve("experiments").resolve(id);
        assertThat(folder.resolve("experiment.db")).isRegularFile();
        try (Connection db = DriverManager.getConnection("jdbc:sqlite:" + folder.resolve("experiment.db"))) {
            assertThat(count(db, "SELECT count(*) FROM trials")).isEqualTo(16);
            assertThat(count(db, "SELECT count(*) FROM trials WHERE status = 'SUCCEEDED' AND final_value IS NOT NULL")).isPositive();
            assertThat(count(db, "SELECT count(*) FROM trials WHERE status NOT IN ('SUCCEEDED', 'EARLY_STOPPED')")).isZero();
            assertThat(count(db, "SELECT count(*) FROM metrics WHERE type = 'PERIODICAL'")).isGreaterThanOrEqualTo(16 * 2);
        }
        Run results = tunekit(List.of("results", id), Map.of());
        assertThat(results.status()).isZero();
        assertThat(results.out()).contains(id).contains("Best parameters");
    }

    @Test
    void aBadConfigIsRefusedBeforeAnythingStarts() throws Exception {
        Path config = tmp.resolve("bad.yml");
        Files.writeString(config, "searchSpace: {x: {_type: uniform, _value: [1, 0]}}\ntrialCommand: exit 0\ntrialConcurrency: 1\n"
                + "tuner: {name: Random}\n");
        Run r = tunekit(List.of("run", config.toString()), Map.of());
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).startsWith("tunekit run: searchSpace.x: ");
        assertThat(tmp.resolve("experiments")).doesNotExist();
    }

    @Test
    void aSnakeCaseConfigRunsAsNniReadsIt() throws Exception {
        Path code = Files.createDirectories(tmp.resolve("code"));
        Files.writeString(code.resolve("t.sh"), """
                p=$(cat "$NNI_SYS_DIR/parameter.cfg")
                id=$(printf '%s' "$p" | sed -n 's/.*"parameter_id": *\\([0-9]*\\).*/\\1/p')
                body="{\\"parameter_id\\": $id, \\"trial_job_id\\": \\"$NNI_TRIAL_JOB_ID\\", \\"type\\": \\"FINAL\\", \\"sequence\\": 0, \\"value\\": \\"1\\"}"
                mkdir -p "$NNI_SYS_DIR/.nni"
                n=$(printf '%s\\n' "$body" | wc -c)
                printf 'ME%06d%s\\n' "$n" "$body" >> "$NNI_SYS_DIR/.nni/metrics"
                """);
        Path config = tmp.resolve("config.yml");
        Files.writeString(config, """
                experiment_name: snake
                search_space: {x: {_type: uniform, _value: [0, 1]}}
                trial_command: sh t.sh
                trial_code_directory: code
                trial_concurrency: 2
                max_trial_number: 3
                max_trial_duration: 1m
                tuner: {name: Random, class_args: {seed: 1}}
                training_service: {platform: local, use_active_gpu: false}
                """);
        Run r = tunekit(List.of("run", config.toString()), Map.of());
        assertThat(r.status()).as(r.out() + r.err()).isZero();
        assertThat(r.err()).doesNotContain("tunekit run: warning");
        assertThat(r.out()).contains("(snake)").contains("3 trials, 2 at a time");
        Path db = tmp.resolve("experiments").resolve(experimentId(r.out())).resolve("experiment.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            assertThat(count(c, "SELECT count(*) FROM trials WHERE status = 'SUCCEEDED'")).isEqualTo(3);
        }
    }

    @Test
    void aRemoteConfigWhoseMachineCannotBeReachedIsRefusedNamingItBeforeAnythingIsRecorded() throws Exception {
        int closed;
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0)) {
            closed = probe.getLocalPort();
        }
        Path config = tmp.resolve("remote.yml");
        Files.writeString(config, """
                search_space: {x: {_type: uniform, _value: [0, 1]}}
                trial_command: exit 0
                trial_concurrency: 1
                tuner: {name: Random}
                training_service:
                  platform: remote
                  machine_list: [{host: 127.0.0.1, port: PORT, user: bob, password: pw}]
                """.replace("PORT", Integer.toString(closed)));
        Run r = tunekit(List.of("run", config.toString()), Map.of());
        assertThat(r.status()).isEqualTo(2);
        assertThat(r.err()).startsWith("tunekit run: trainingService.machineList: cannot reach machine 127.0.0.1:" + closed + " (user bob): Connection refused");
        // refused once the experiment's folder was made (the machines are reached after the config is read): it is gone again
        assertThat(tmp.resolve("experiments")).satisfiesAnyOf(p -> assertThat(p).doesNotExist(), p -> assertThat(p).isEmptyDirectory());
    }

    @Test
    void aRunnerKilledWithSigkillResumesWithoutLosingOrRepeatingAnything() throws Exception {
        Path code = Files.createDirectories(tmp.resolve("code"));
        Files.writeString(code.resolve("t.sh"), fileTrial("sleep 0.4\n", ""));
        Path config = code.resolve("config.yml");
        Files.writeString(config, """
                searchSpace: {x: {_type: uniform, _value: [0, 1]}}
                trialCommand: sh t.sh
                trialConcurrency: 3
                maxTrialNumber: 24
                tuner: {name: TPE, classArgs: {optimize_mode: minimize, seed: 1}}
                """);
        String id = null;
        int kills = 0;
        int[] killAfter = {2, 5, 4};
        while (true) {
            List<String> args = id == null ? List.of("run", config.toString()) : List.of("run", "--resume", id);
            Process p = start(args, Map.of());
            BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            StringBuilder seen = new StringBuilder();
            int ended = 0;
            String line;
            boolean killed = false;
            while ((line = out.readLine()) != null) {
                seen.append(line).append('\n');
                if (id == null && line.startsWith("Experiment ")) {
                    id = experimentId(line);
                }
                if (line.startsWith("  trial ") && ++ended == (kills < killAfter.length ? killAfter[kills] : Integer.MAX_VALUE)) {
                    p.toHandle().destroyForcibly();
                    killed = true;
                    kills++;
                    break;
                }
            }
            assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
            if (!killed) {
                assertThat(p.exitValue()).as(seen + Files.readString(tmp.resolve("stderr.txt"))).isZero();
                break;
            }
            assertThat(p.exitValue()).isEqualTo(137);
        }
        assertThat(kills).isEqualTo(3);
        Path db = tmp.resolve("experiments").resolve(id).resolve("experiment.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            assertThat(count(c, "SELECT count(*) FROM trials WHERE status = 'RUNNING'")).isZero();
            assertThat(count(c, "SELECT count(*) FROM trials WHERE status = 'SUCCEEDED'")).isEqualTo(24);
            assertThat(count(c, "SELECT count(DISTINCT parameter_id) FROM trials WHERE status = 'SUCCEEDED'")).isEqualTo(24);
            assertThat(count(c, "SELECT count(*) FROM trials WHERE status = 'SUCCEEDED' AND final_value IS NULL")).isZero();
            // every trial a kill interrupted ran again with the same parameters
            Set<Long> lost = new HashSet<>(longs(c, "SELECT parameter_id FROM trials WHERE status = 'LOST'"));
            assertThat(lost).isNotEmpty();
            assertThat(longs(c, "SELECT parameter_id FROM trials WHERE status = 'SUCCEEDED'")).containsAll(lost);
            assertThat(c.createStatement().executeQuery("SELECT status FROM experiment").getString(1)).isEqualTo("DONE");
        }
    }

    @Test
    void killsAtRandomMomentsNeverRunATrialWhoseFinalResultWasStored() throws Exception {
        Path code = Files.createDirectories(tmp.resolve("code"));
        // reports its final result, then takes a while to end: a kill in between finds the result stored
        Files.writeString(code.resolve("t.sh"), fileTrial("sleep 0.2\n", "sleep 0.8\n"));
        Path config = code.resolve("config.yml");
        Files.writeString(config, """
                searchSpace: {x: {_type: uniform, _value: [0, 1]}}
                trialCommand: sh t.sh
                trialConcurrency: 3
                maxTrialNumber: 18
                tuner: {name: Random, classArgs: {seed: 5, optimize_mode: minimize}}
                """);
        java.util.Random moments = new java.util.Random(21);
        String id = null;
        int kills = 0;
        String lastOut = "";
        while (true) {
            List<String> args = id == null ? List.of("run", config.toString()) : List.of("run", "--resume", id);
            Process p = start(args, Map.of());
            ProcessOutput seen = new ProcessOutput(p);
            boolean killed = false;
            if (kills < 5) {
                // somewhere in the run, after the JVM has started: often while a result is stored and its trial still runs
                long at = 1500 + moments.nextInt(3000);
                if (!p.waitFor(at, TimeUnit.MILLISECONDS)) {
                    p.toHandle().destroyForcibly();
                    killed = true;
                    kills++;
                }
            }
            assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
            lastOut = seen.whole();
            if (id == null) {
                Matcher m = EXPERIMENT.matcher(lastOut);
                assertThat(m.find()).as(lastOut + Files.readString(tmp.resolve("stderr.txt"))).isTrue();
                id = m.group(1);
            }
            if (!killed) {
                assertThat(p.exitValue()).as(lastOut + Files.readString(tmp.resolve("stderr.txt"))).isZero();
                break;
            }
        }
        assertThat(kills).isPositive();
        Path db = tmp.resolve("experiments").resolve(id).resolve("experiment.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            assertThat(count(c, "SELECT count(*) FROM trials WHERE status = 'RUNNING'")).isZero();
            // a stored final result is never thrown away as LOST
            assertThat(count(c, "SELECT count(*) FROM trials WHERE status = 'LOST' AND final_metric IS NOT NULL")).isZero();
            // no parameters ran to a result twice, none was run again once its result was stored
            assertThat(count(c, "SELECT count(*) FROM trials WHERE final_metric IS NOT NULL")).isEqualTo(18);
            assertThat(count(c, "SELECT count(DISTINCT parameter_id) FROM trials WHERE final_metric IS NOT NULL")).isEqualTo(18);
            assertThat(count(c, "SELECT count(*) FROM trials WHERE status <> 'LOST'")).isEqualTo(18);
            assertThat(count(c, "SELECT count(DISTINCT parameter_id) FROM trials WHERE status <> 'LOST'")).isEqualTo(18);
            // the best line of the last run counts every trial of the experiment, also those before the resumes
            double best = c.createStatement().executeQuery("SELECT min(final_value) FROM trials").getDouble(1);
            Matcher last = Pattern.compile("best ([-0-9.eE]+) \\(").matcher(lastOut);
            String shown = null;
            while (last.find()) {
                shown = last.group(1);
            }
            assertThat(shown).as(lastOut).isNotNull();
            assertThat(Double.parseDouble(shown)).isCloseTo(best, org.assertj.core.data.Offset.offset(1e-5 * Math.max(1, Math.abs(best))));
        }
    }

    @Test
    void gpuTrialsGetTheGpusOfTheStandInNvidiaSmiAndTheResultsSayWhich() throws Exception {
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        org.tunekit.gpus.FakeNvidiaSmi.write(bin, org.tunekit.gpus.FakeNvidiaSmi.FOUR_GPUS, org.tunekit.gpus.FakeNvidiaSmi.FOUR_GPUS_PROCESSES);
        Path code = Files.createDirectories(tmp.resolve("code"));
        Files.writeString(code.resolve("t.sh"), fileTrial("printf '%s' \"${CUDA_VISIBLE_DEVICES-unset}\" > \"$NNI_OUTPUT_DIR/gpus.txt\"\nsleep 0.3\n", ""));
        Path config = code.resolve("config.yml");
        Files.writeString(config, """
                searchSpace: {x: {_type: uniform, _value: [0, 1]}}
                trial_command: sh t.sh
                trial_concurrency: 3
                max_trial_number: 6
                trial_gpu_number: 1
                tuner: {name: Random, classArgs: {seed: 2}}
                training_service: {platform: local, use_active_gpu: false}
                """);
        String path = bin + java.io.File.pathSeparator + System.getenv().getOrDefault("PATH", "");
        Run r = tunekit(List.of("run", config.toString()), Map.of("PATH", path));
        assertThat(r.status()).as(r.out() + r.err()).isZero();
        Path folder = tmp.resolve("experiments").resolve(experimentId(r.out()));
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + folder.resolve("experiment.db"));
             ResultSet rows = c.createStatement().executeQuery("SELECT job_id, gpus FROM trials")) {
            int n = 0;
            while (rows.next()) {
                n++;
                String gpus = rows.getString(2);
                // GPU 1 runs another program: the trials get 0, 2 and 3, and see what the store says
                assertThat(gpus).isIn("0", "2", "3");
                assertThat(Files.readString(folder.resolve("trials").resolve(rows.getString(1)).resolve("gpus.txt"))).isEqualTo(gpus);
            }
            assertThat(n).isEqualTo(6);
        }
        assertThat(Files.readString(folder.resolve("trials.csv")).lines().findFirst().orElseThrow()).contains(",gpus");

        // more GPUs than the machine has: refused before anything starts
        Files.writeString(config, Files.readString(config).replace("trial_gpu_number: 1", "trial_gpu_number: 8"));
        Run refused = tunekit(List.of("run", config.toString()), Map.of("PATH", path));
        assertThat(refused.status()).isEqualTo(2);
        assertThat(refused.err()).contains("trialGpuNumber 8").contains("4 GPUs");
    }

    @Test
    void aFailingTrialAndAHangingOneAreRecordedAndTheRunEnds() throws Exception {
        Path code = Files.createDirectories(tmp.resolve("code"));
        Files.writeString(code.resolve("t.sh"), """
                case "$NNI_TRIAL_SEQ_ID" in
                  0) echo "out of memory" >&2; exit 137 ;;
                  1) exec sleep 600 ;;
                esac
                p=$(cat "$NNI_SYS_DIR/parameter.cfg")
                id=$(printf '%s' "$p" | sed -n 's/.*"parameter_id": *\\([0-9]*\\).*/\\1/p')
                body="{\\"parameter_id\\": $id, \\"trial_job_id\\": \\"$NNI_TRIAL_JOB_ID\\", \\"type\\": \\"FINAL\\", \\"sequence\\": 0, \\"value\\": \\"1\\"}"
                mkdir -p "$NNI_SYS_DIR/.nni"
                n=$(printf '%s\\n' "$body" | wc -c)
                printf 'ME%06d%s\\n' "$n" "$body" >> "$NNI_SYS_DIR/.nni/metrics"
                """);
        Path config = code.resolve("config.yml");
        Files.writeString(config, """
                searchSpace: {x: {_type: uniform, _value: [0, 1]}}
                trialCommand: sh t.sh
                trialConcurrency: 2
                maxTrialNumber: 4
                maxTrialDuration: 2s
                tuner: {name: Random, classArgs: {seed: 1}}
                """);
        Run r = tunekit(List.of("run", config.toString(), "--stop-grace", "1s"), Map.of());
        assertThat(r.status()).as(r.out() + r.err()).isZero();
        assertThat(r.out()).containsPattern("trial 0 .* FAILED").contains("exited with status 137")
                .containsPattern("trial 1 .* USER_CANCELED").contains("ran longer than maxTrialDuration (2s)");
        Path db = tmp.resolve("experiments").resolve(experimentId(r.out())).resolve("experiment.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            assertThat(count(c, "SELECT count(*) FROM trials WHERE status = 'SUCCEEDED'")).isEqualTo(2);
        }
    }

    @Test
    void anInterruptedRunStopsItsTrialsAndResumesLater() throws Exception {
        Path code = Files.createDirectories(tmp.resolve("code"));
        Files.writeString(code.resolve("t.sh"), "exec sleep 600\n");
        Path config = code.resolve("config.yml");
        Files.writeString(config, """
                searchSpace: {x: {_type: uniform, _value: [0, 1]}}
                trialCommand: sh t.sh
                trialConcurrency: 2
                maxTrialNumber: 4
                maxTrialDuration: 3s
                tuner: {name: Random, classArgs: {seed: 1}}
                """);
        Process p = start(List.of("run", config.toString(), "--stop-grace", "1s"), Map.of());
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String id = experimentId(out.readLine());
        Thread.sleep(1500);
        new ProcessBuilder("kill", "-INT", Long.toString(p.pid())).start().waitFor();
        String rest = out.lines().collect(java.util.stream.Collectors.joining("\n"));
        assertThat(p.waitFor(1, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as(rest).isEqualTo(130);
        Path db = tmp.resolve("experiments").resolve(id).resolve("experiment.db");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            assertThat(c.createStatement().executeQuery("SELECT status FROM experiment").getString(1)).isEqualTo("STOPPED");
            assertThat(count(c, "SELECT count(*) FROM trials WHERE status = 'USER_CANCELED'")).isEqualTo(2);
        }
        Run resumed = tunekit(List.of("run", "--resume", id, "--stop-grace", "1s"), Map.of());
        assertThat(resumed.status()).as(resumed.out() + resumed.err()).isZero();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            assertThat(count(c, "SELECT count(*) FROM trials")).isEqualTo(4);
            assertThat(c.createStatement().executeQuery("SELECT status FROM experiment").getString(1)).isEqualTo("DONE");
        }
    }
}
