package org.tunekit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tunekit.it.Sql.count;
import static org.tunekit.it.Sql.strings;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code tunekit update}, {@code enqueue} and {@code stop}, each a real process, steer a real {@code tunekit run} while its trials run. */
class SteeringIT {
    private static final Pattern EXPERIMENT = Pattern.compile("(?m)^Experiment ([a-z0-9]{8})");

    @TempDir
    Path tmp;

    /** What a steering command printed and its status. */
    record Said(int status, String out, String err) {}

    private Said tunekit(String... args) throws Exception {
        Path err = tmp.resolve("steer-stderr.txt");
        Process p = TunekitProcess.run(List.of(args), tmp.resolve("experiments"), err, Map.of());
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(2, TimeUnit.MINUTES)).isTrue();
        return new Said(p.exitValue(), out.strip(), Files.readString(err).strip());
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        for (int i = 0; i < 1200 && !condition.getAsBoolean(); i++) {
            Thread.sleep(50);
        }
        assertThat(condition.getAsBoolean()).as(what).isTrue();
    }

    private static long query(Path db, String sql) {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            return count(c, sql);
        } catch (Exception e) {
            return -1;
        }
    }

    @Test
    void aRunningExperimentIsSteeredFromTheCommandLine() throws Exception {
        Path code = Files.createDirectories(tmp.resolve("code"));
        // each trial waits for the file 'go' (two minutes at most), then reports its x, on NNI 2.x's file channel
        Files.writeString(code.resolve("trial.sh"), """
                p=$(cat "$NNI_SYS_DIR/parameter.cfg")
                x=$(printf '%s' "$p" | sed -n 's/.*"x": *\\([-0-9.eE+]*\\).*/\\1/p')
                id=$(printf '%s' "$p" | sed -n 's/.*"parameter_id": *\\([0-9]*\\).*/\\1/p')
                n=0
                while [ ! -e go ]; do sleep 0.1; n=$((n + 1)); [ $n -lt 1200 ] || exit 3; done
                body="{\\"parameter_id\\": $id, \\"trial_job_id\\": \\"$NNI_TRIAL_JOB_ID\\", \\"type\\": \\"FINAL\\", \\"sequence\\": 0, \\"value\\": \\"$x\\"}"
                mkdir -p "$NNI_SYS_DIR/.nni"
                printf 'ME%06d%s\\n' "$(printf '%s\\n' "$body" | wc -c)" "$body" >> "$NNI_SYS_DIR/.nni/metrics"
                """);
        Path config = Files.writeString(code.resolve("config.yml"), """
                searchSpace:
                  x: {_type: uniform, _value: [0, 1]}
                trialCommand: sh trial.sh
                trialCodeDirectory: .
                trialConcurrency: 1
                maxTrialNumber: 3
                tuner: {name: Random, classArgs: {seed: 5}}
                trainingService: {platform: local}
                """);
        Process run = TunekitProcess.run(List.of("run", config.toString()), tmp.resolve("experiments"), tmp.resolve("run-stderr.txt"), Map.of());
        ProcessOutput seen = new ProcessOutput(run);
        try {
            String[] id = new String[1];
            await("the run names its experiment", () -> {
                Matcher m = EXPERIMENT.matcher(seen.text());
                return m.find() && (id[0] = m.group(1)) != null;
            });
            Path db = tmp.resolve("experiments").resolve(id[0]).resolve("experiment.db");
            await("a trial runs", () -> query(db, "SELECT count(*) FROM trials WHERE status = 'RUNNING'") == 1);

            Said more = tunekit("update", id[0], "--trial-concurrency", "2", "--max-trial-number", "4");
            assertThat(more.status()).as(more.err()).isZero();
            assertThat(more.out()).isEqualTo("trialConcurrency 1 -> 2, maxTrialNumber 3 -> 4");
            await("two trials run", () -> query(db, "SELECT count(*) FROM trials WHERE status = 'RUNNING'") == 2);

            Files.writeString(tmp.resolve("params.json"), "[{\"x\": 0.125}, {\"x\": 2}]");
            Said outside = tunekit("enqueue", id[0], tmp.resolve("params.json").toString());
            assertThat(outside.status()).isEqualTo(2);
            assertThat(outside.err()).contains("params.json [1]: the parameters do not fit the search space: parameter 'x'");
            Files.writeString(tmp.resolve("params.json"), "{\"x\": 0.125}");
            Said added = tunekit("enqueue", id[0], tmp.resolve("params.json").toString());
            assertThat(added.status()).as(added.err()).isZero();
            assertThat(added.out()).matches("parameters \\d+ added: they run next");

            String first;
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
                first = strings(c, "SELECT job_id FROM trials ORDER BY sequence").get(0);
            }
            Said stopped = tunekit("stop", id[0], "--trial", first);
            assertThat(stopped.status()).as(stopped.err()).isZero();
            assertThat(stopped.out()).isEqualTo("trial " + first + " is stopping");
            await("the added trial runs in the freed slot",
                    () -> query(db, "SELECT count(*) FROM trials WHERE parameter_record LIKE '%\"customized\"%' AND status = 'RUNNING'") == 1);

            Files.writeString(code.resolve("go"), "");
            assertThat(run.waitFor(2, TimeUnit.MINUTES)).isTrue();
            assertThat(run.exitValue()).as(Files.readString(tmp.resolve("run-stderr.txt"))).isZero();
            try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
                assertThat(strings(c, "SELECT status FROM trials ORDER BY sequence")).containsExactly("USER_CANCELED", "SUCCEEDED", "SUCCEEDED",
                        "SUCCEEDED");
                assertThat(strings(c, "SELECT final_metric FROM trials WHERE parameter_record LIKE '%\"customized\"%'")).containsExactly("0.125");
                assertThat(strings(c, "SELECT state FROM requests ORDER BY id")).containsExactly("DONE", "DONE", "DONE");
            }
        } finally {
            Files.writeString(code.resolve("go"), "");
            run.destroy();
            run.waitFor(30, TimeUnit.SECONDS);
        }
    }
}
