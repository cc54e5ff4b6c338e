package org.tunekit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tunekit.it.Sql.count;
import static org.tunekit.it.Sql.longs;
import static org.tunekit.it.Sql.strings;

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
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * platform: remote end to end: the real {@code tunekit run} against two real OpenSSH servers on this
 * machine (127.0.0.1:2221 and :2222, user tunekit-ssh), started by {@code remote/ssh-lab.sh up}, which
 * prints the lab folder to put in {@code SSH_LAB}. Without it these tests skip.
 */
class RemoteIT {
    private static final Pattern EXPERIMENT = Pattern.compile("^Experiment ([a-z0-9]{8})");
    private static final String LAB = System.getenv("SSH_LAB");
    /** The lab's two machines as a remote trainingService entry, Debian's python3 first on the trials' PATH. */
    private static final String TWO_MACHINES = LAB == null ? "" : """
            platform: remote
            machineList:
              - {host: 127.0.0.1, port: 2221, user: tunekit-ssh, sshKeyFile: KEY, pythonPath: /usr/bin}
              - {host: 127.0.0.1, port: 2222, user: tunekit-ssh, sshKeyFile: KEY, pythonPath: /usr/bin}
            """.replace("KEY", Path.of(LAB, "id_rsa").toString());
    private static final Path TRIALS_HOME = Path.of("/home/tunekit-ssh/tunekit-experiments");

    /**
     * A trial on NNI's file channel: notes that it started, sleeps {@code SLEEP}, reports x as its final
     * result. (examples/shell-trial speaks the HTTP channel, which a remote trial has not: nothing there
     * connects back.)
     */
    private static final String TRIAL = """
            echo started >> "$NNI_SYS_DIR/starts"
            p=$(cat "$NNI_SYS_DIR/parameter.cfg")
            x=$(printf '%s' "$p" | sed -n 's/.*"x": *\\([-0-9.eE+]*\\).*/\\1/p')
            sleep SLEEP
            body="{\\"type\\": \\"FINAL\\", \\"sequence\\": 0, \\"value\\": \\"$x\\"}"
            n=$(printf '%s\\n' "$body" | wc -c)
            printf 'ME%06d%s\\n' "$n" "$body" >> "$NNI_SYS_DIR/.nni/metrics"
            echo "x=$x on $(hostname)"
            """;

    @TempDir
    Path tmp;
    private Path home;
    private final List<String> experiments = new ArrayList<>();

    /** The experiments' folders on the machines (the lab user's home) go with the test. */
    @org.junit.jupiter.api.AfterEach
    void removeRemoteFolders() throws IOException {
        for (String id : experiments) {
            Path dir = TRIALS_HOME.resolve(id);
            if (Files.isDirectory(dir)) {
                try (Stream<Path> all = Files.walk(dir)) {
                    for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                        Files.deleteIfExists(p);
                    }
                }
            }
        }
    }

    @BeforeEach
    void lab() throws IOException {
        Assumptions.assumeTrue(LAB != null && Files.isRegularFile(Path.of(LAB, "known_hosts")),
                "no SSH lab: run 'bash remote/ssh-lab.sh up' as root and set SSH_LAB to the folder it prints");
        // the runner's ~/.ssh/known_hosts holds the lab's two host keys
        home = Files.createDirectories(tmp.resolve("home"));
        Files.createDirectories(home.resolve(".ssh"));
        Files.copy(Path.of(LAB, "known_hosts"), home.resolve(".ssh/known_hosts"));
    }

    private Path config(String sleep, int concurrency, int trials) throws IOException {
        Path code = Files.createDirectories(tmp.resolve("code"));
        Files.writeString(code.resolve("t.sh"), TRIAL.replace("SLEEP", sleep));
        Path config = code.resolve("config.yml");
        Files.writeString(config, """
                searchSpace: {x: {_type: uniform, _value: [0, 1]}}
                trialCommand: sh t.sh
                trialConcurrency: CONCURRENCY
                maxTrialNumber: TRIALS
                tuner: {name: Random, classArgs: {seed: 3, optimize_mode: minimize}}
                trainingService:
                  platform: remote
                  machineList:
                    - {host: 127.0.0.1, port: 2221, user: tunekit-ssh, sshKeyFile: KEY}
                    - {host: 127.0.0.1, port: 2222, user: tunekit-ssh, sshKeyFile: KEY}
                """.replace("CONCURRENCY", Integer.toString(concurrency)).replace("TRIALS", Integer.toString(trials))
                .replace("KEY", Path.of(LAB, "id_rsa").toString()));
        return config;
    }

    private Process start(List<String> args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(TunekitProcess.HOME.resolve("tunekit").toString());
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(TunekitProcess.HOME.toFile());
        pb.environment().put("TUNEKIT_NO_BUILD", "1");
        pb.environment().put("TUNEKIT_EXPERIMENTS_DIR", tmp.resolve("experiments").toString());
        pb.environment().put("HOME", home.toString());
        pb.redirectError(tmp.resolve("stderr.txt").toFile());
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        return pb.start();
    }

    /** Runs tunekit to its end, or until {@code stopWhen} says so after a line; returns the experiment's id. */
    private String run(List<String> args, java.util.function.Predicate<String> stopWhen, java.util.function.Consumer<Process> atStop, String[] id) throws Exception {
        Process p = start(args);
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        String line;
        boolean stopped = false;
        try {
            while (true) {
                try {
                    line = out.readLine();
                } catch (IOException e) {
                    // killed by atStop: its output is closed
                    break;
                }
                if (line == null) {
                    break;
                }
                seen.append(line).append('\n');
                Matcher m = EXPERIMENT.matcher(line);
                if (id[0] == null && m.find()) {
                    id[0] = m.group(1);
                    experiments.add(id[0]);
                }
                if (!stopped && stopWhen.test(line)) {
                    stopped = true;
                    atStop.accept(p);
                    if (!p.isAlive()) {
                        break;
                    }
                }
            }
            assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
        } finally {
            p.destroyForcibly();
        }
        return seen + "\nstatus " + p.exitValue() + "\n" + Files.readString(tmp.resolve("stderr.txt"));
    }

    private Connection db(String id) throws Exception {
        return DriverManager.getConnection("jdbc:sqlite:" + tmp.resolve("experiments").resolve(id).resolve("experiment.db"));
    }

    @Test
    void anExperimentRunsToItsEndOnTwoMachines() throws Exception {
        String[] id = {null};
        String seen = run(List.of("run", config("0.3", 4, 8).toString()), line -> false, p -> {}, id);
        assertThat(seen).contains("status 0");
        try (Connection c = db(id[0])) {
            assertThat(count(c, "SELECT count(*) FROM trials WHERE status = 'SUCCEEDED' AND final_value IS NOT NULL")).as(seen).isEqualTo(8);
            assertThat(strings(c, "SELECT DISTINCT machine FROM trials")).containsExactlyInAnyOrder("tunekit-ssh@127.0.0.1:2221",
                    "tunekit-ssh@127.0.0.1:2222");
            for (String job : strings(c, "SELECT job_id FROM trials")) {
                assertThat(Files.readString(tmp.resolve("experiments").resolve(id[0]).resolve("trials").resolve(job).resolve("trial.stdout")))
                        .startsWith("x=");
            }
        }
    }

    @Test
    void thePythonExampleWrittenForNniRunsOnTwoMachinesWithNni3sOwnTrialCode() throws Exception {
        Assumptions.assumeTrue(Files.isDirectory(NniExamples.NNI_V3.resolve("nni")), "no NNI 3 trial code in " + NniExamples.NNI_V3
                + " (run distribution/nni-trial-side.sh)");
        // NNI's packages go with the code (the remote user cannot read this user's home): the trial's folder is on its sys.path
        Path code = Files.createDirectories(tmp.resolve("code-py"));
        for (String f : List.of("train.py", "search_space.json")) {
            Files.copy(TunekitProcess.HOME.resolve("examples/python-nni").resolve(f), code.resolve(f));
        }
        NniExamples.copyNni(code);
        Path config = code.resolve("config.yml");
        Files.writeString(config, """
                searchSpaceFile: search_space.json
                trialCommand: python3 train.py
                trialConcurrency: 2
                maxTrialNumber: 4
                tuner: {name: TPE, classArgs: {optimize_mode: maximize, seed: 2}}
                trainingService:
                """ + TWO_MACHINES.indent(2));
        String[] id = {null};
        String seen = run(List.of("run", config.toString()), line -> false, p -> {}, id);
        assertThat(seen).contains("status 0").contains("Best parameters");
        try (Connection c = db(id[0])) {
            assertThat(count(c, "SELECT count(*) FROM trials WHERE status = 'SUCCEEDED' AND final_value IS NOT NULL")).as(seen).isEqualTo(4);
            assertThat(count(c, "SELECT count(*) FROM metrics WHERE type = 'PERIODICAL'")).isPositive();
            assertThat(count(c, "SELECT count(DISTINCT machine) FROM trials")).isEqualTo(2);
        }
    }

    @Test
    void nnisSklearnExampleRunsUnchangedOnTwoMachines() throws Exception {
        NniExamples.assumeSklearnExample();
        // NNI's packages go with the code, as above; scikit-learn is the machines' own (Debian's python3-sklearn)
        Path code = NniExamples.copySklearn(tmp.resolve("code-sklearn"), true);
        Path config = code.resolve("config.yml");
        Files.writeString(config, NniExamples.sklearnConfig(code, TWO_MACHINES, 4).replace("trialConcurrency: 1", "trialConcurrency: 2"));
        String[] id = {null};
        String seen = run(List.of("run", config.toString()), line -> false, p -> {}, id);
        assertThat(seen).contains("status 0").contains("Best parameters");
        try (Connection c = db(id[0])) {
            assertThat(count(c, "SELECT count(*) FROM trials WHERE status = 'SUCCEEDED' AND final_value > 0.5")).as(seen).isEqualTo(4);
            assertThat(count(c, "SELECT count(DISTINCT machine) FROM trials")).isEqualTo(2);
        }
    }

    @Test
    void theTrialsOfAMachineThatDropsRunAgainOnTheOther() throws Exception {
        String[] id = {null};
        long sshd = Long.parseLong(Files.readString(Path.of(LAB, "sshd-2222", "sshd.pid")).strip());
        // the trials on 2222 take longer, so that some surely run there when it drops after the first trial ended,
        // whatever order the two machines' answers come in
        Path config = config("3", 4, 8);
        Path trial = config.resolveSibling("t.sh");
        Files.writeString(trial, Files.readString(trial).replace("sleep 3", "case \"$SSH_CONNECTION\" in *' 2222') sleep 20;; *) sleep 3;; esac"));
        String seen;
        try {
            // the machine on 2222 drops once a trial ended: its sshd and the sessions it serves are killed
            seen = run(List.of("run", config.toString()), line -> line.startsWith("  trial "), p -> {
                ProcessHandle.of(sshd).ifPresent(h -> {
                    h.descendants().forEach(ProcessHandle::destroyForcibly);
                    h.destroyForcibly();
                });
            }, id);
        } finally {
            new ProcessBuilder("bash", TunekitProcess.HOME.resolve("remote/ssh-lab.sh").toString(), "up").inheritIO().start().waitFor();
        }
        assertThat(seen).contains("status 0");
        try (Connection c = db(id[0])) {
            List<Long> lost = longs(c, "SELECT parameter_id FROM trials WHERE status = 'LOST'");
            assertThat(lost).as(seen).isNotEmpty();
            assertThat(strings(c, "SELECT DISTINCT machine FROM trials WHERE status = 'LOST'")).containsExactly("tunekit-ssh@127.0.0.1:2222");
            assertThat(strings(c, "SELECT message FROM trials WHERE status = 'LOST'")).allMatch(m -> m.contains("did not answer"));
            assertThat(count(c, "SELECT count(DISTINCT parameter_id) FROM trials WHERE status = 'SUCCEEDED'")).isEqualTo(8);
            assertThat(longs(c, "SELECT parameter_id FROM trials WHERE status = 'SUCCEEDED' AND machine = 'tunekit-ssh@127.0.0.1:2221'"))
                    .containsAll(lost);
        }
    }

    @Test
    void aRunnerKilledWithSigkillResumesReattachingItsTrialsAndRunsNothingTwice() throws Exception {
        String[] id = {null};
        Path config = config("1.5", 4, 10);
        int[] ended = {0};
        String first = run(List.of("run", config.toString()), line -> line.startsWith("  trial ") && ++ended[0] == 3,
                Process::destroyForcibly, id);
        // killed with kill -9 after 3 trials ended, while others ran
        assertThat(first).contains("status 137");
        String second = run(List.of("run", "--resume", id[0]), line -> false, p -> {}, new String[] {id[0]});
        assertThat(second).contains("status 0");
        try (Connection c = db(id[0])) {
            assertThat(count(c, "SELECT count(*) FROM trials WHERE status = 'RUNNING'")).isZero();
            assertThat(count(c, "SELECT count(*) FROM trials WHERE status = 'SUCCEEDED' AND final_value IS NOT NULL")).isEqualTo(10);
            assertThat(count(c, "SELECT count(DISTINCT parameter_id) FROM trials WHERE status = 'SUCCEEDED'")).isEqualTo(10);
            assertThat(count(c, "SELECT count(*) FROM events WHERE kind = 'reattached'")).as(second).isPositive();
            // each trial started once on its machine: a reattached one was not started again
            for (String job : strings(c, "SELECT job_id FROM trials")) {
                Path starts = TRIALS_HOME.resolve(id[0]).resolve("trials").resolve(job).resolve("starts");
                assertThat(Files.readAllLines(starts)).as(job).containsExactly("started");
            }
            // and each final result was recorded once
            assertThat(count(c, "SELECT count(*) FROM metrics WHERE type = 'FINAL'")).isEqualTo(10);
        }
        try (Stream<Path> left = Files.list(TRIALS_HOME.resolve(id[0]).resolve("trials"))) {
            assertThat(left.filter(d -> !Files.exists(d.resolve(".nni/exit"))).toList()).isEmpty();
        }
    }
}
