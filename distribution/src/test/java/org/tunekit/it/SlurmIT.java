package org.tunekit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.tunekit.it.Sql.count;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code platform: slurm} on a real one-node Slurm cluster ({@code slurm/slurm-lab.sh up}, which CI runs
 * and then sets {@code SLURM_LAB}): the real {@code tunekit run} submits every trial as a job, an
 * assessor's KI ends the job, and a runner killed with SIGKILL is resumed and takes its running jobs
 * back. Slurm's own ends of a job, as the cluster really reports them: the node set down under running
 * jobs (NODE_FAIL, the trials lost and their parameters run again; the node is resumed after), a job
 * cancelled with scancel and one past its time limit (CANCELLED, TIMEOUT: USER_CANCELED, not run again).
 * Every job a test submits is cancelled after it, every runner it starts killed.
 */
class SlurmIT {
    private static final Pattern EXPERIMENT = Pattern.compile("^Experiment ([a-z0-9]{8})", Pattern.MULTILINE);
    private static final Path NNI_V3 = Path.of(System.getenv().getOrDefault("NNI_TRIAL_SIDE",
            System.getProperty("user.home") + "/nni-trial-side"), "v3");

    @TempDir
    Path tmp;
    private final List<Process> runners = new ArrayList<>();
    /** Written by a {@link Background} run's output reader too. */
    private final List<String> experiments = new java.util.concurrent.CopyOnWriteArrayList<>();

    record Run(int status, String out, String err) {}

    @BeforeEach
    void lab() {
        Assumptions.assumeTrue(System.getenv("SLURM_LAB") != null,
                "no Slurm lab: run 'bash slurm/slurm-lab.sh up' as root and set SLURM_LAB=1 (CI's .ci/run does both)");
    }

    @AfterEach
    void cleanUp() throws Exception {
        for (Process p : runners) {
            p.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor(30, TimeUnit.SECONDS);
        }
        for (String id : experiments) {
            List<String> live = jobs(id).entrySet().stream().filter(e -> !isFinal(e.getValue().state())).map(e -> e.getValue().id()).toList();
            if (!live.isEmpty()) {
                List<String> cmd = new ArrayList<>(List.of("scancel"));
                cmd.addAll(live);
                new ProcessBuilder(cmd).inheritIO().start().waitFor(30, TimeUnit.SECONDS);
            }
        }
    }

    private Process start(List<String> args, Map<String, String> env) throws IOException {
        Process p = TunekitProcess.run(args, tmp.resolve("experiments"), tmp.resolve("stderr.txt"), env);
        runners.add(p);
        return p;
    }

    private Run tunekit(List<String> args, Map<String, String> env) throws Exception {
        Process p = start(args, env);
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(10, TimeUnit.MINUTES)).isTrue();
        Matcher m = EXPERIMENT.matcher(out);
        if (m.find()) {
            experiments.add(m.group(1));
        }
        return new Run(p.exitValue(), out, Files.readString(tmp.resolve("stderr.txt")));
    }

    /** A Slurm job as squeue shows it. */
    record Job(String id, String state) {}

    /** The experiment's jobs Slurm knows, by name ({@code tunekit-EXPID-JOBID}). */
    private static Map<String, Job> jobs(String experimentId) throws Exception {
        Process p = new ProcessBuilder("squeue", "--noheader", "--states=all", "--format=%i|%T|%j").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        Map<String, Job> jobs = new LinkedHashMap<>();
        for (String line : out.split("\n")) {
            String[] f = line.strip().split("\\|");
            if (f.length == 3 && f[2].startsWith("tunekit-" + experimentId + "-")) {
                assertThat(jobs.put(f[2], new Job(f[0], f[1]))).as("two jobs named " + f[2]).isNull();
            }
        }
        return jobs;
    }

    /**
     * A {@code tunekit run} going on while the test acts on the cluster: its output read as it comes (so
     * that it never waits on a full pipe), its experiment's id as soon as it is printed.
     */
    private final class Background {
        final Process process;
        final StringBuffer out = new StringBuffer();
        final CompletableFuture<String> id = new CompletableFuture<>();
        final Thread reader;

        Background(List<String> args, Map<String, String> env) throws IOException {
            process = start(args, env);
            reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = r.readLine()) != null) {
                        out.append(line).append('\n');
                        Matcher m = EXPERIMENT.matcher(line);
                        if (!id.isDone() && m.find()) {
                            experiments.add(m.group(1));
                            id.complete(m.group(1));
                        }
                    }
                } catch (IOException e) {
                    // killed by the clean-up
                } finally {
                    id.complete(null);
                }
            }, "tunekit-output");
            reader.setDaemon(true);
            reader.start();
        }

        String id() throws Exception {
            String experiment = id.get(2, TimeUnit.MINUTES);
            assertThat(experiment).as("tunekit printed no experiment id: " + out + Files.readString(tmp.resolve("stderr.txt"))).isNotNull();
            return experiment;
        }

        /** Waits until {@code condition} holds, failing (with the runner's output) if the runner ends first or it takes minutes. */
        void waitUntil(String what, Callable<Boolean> condition) throws Exception {
            long end = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
            while (!condition.call()) {
                if (!process.isAlive() || System.nanoTime() - end > 0) {
                    fail("waited in vain for " + what + " (runner " + (process.isAlive() ? "still running" : "ended") + "):\n" + out
                            + Files.readString(tmp.resolve("stderr.txt")));
                }
                Thread.sleep(200);
            }
        }

        Run end() throws Exception {
            assertThat(process.waitFor(10, TimeUnit.MINUTES)).isTrue();
            reader.join(TimeUnit.SECONDS.toMillis(30));
            return new Run(process.exitValue(), out.toString(), Files.readString(tmp.resolve("stderr.txt")));
        }
    }

    /** Runs a command of Slurm's (scontrol, scancel, sinfo) to its end. */
    private static Run command(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null"))).start();
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "";
            }
        });
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as(String.join(" ", command)).isTrue();
        return new Run(p.exitValue(), out, err.get());
    }

    /** The lab's one node, named after this machine as {@code slurm-lab.sh} names it. */
    private static String node() throws Exception {
        Run r = command("hostname", "-s");
        assertThat(r.status()).isZero();
        return r.out().strip();
    }

    /** Resumes the node (an error when it is already back is ignored) and waits until it takes jobs again. */
    private static void resume(String node) throws Exception {
        command("scontrol", "update", "nodename=" + node, "state=resume");
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        String state = "";
        while (System.nanoTime() - end < 0) {
            state = command("sinfo", "--noheader", "--nodes=" + node, "--format=%T").out().strip();
            if (List.of("idle", "mixed", "allocated").contains(state)) {
                return;
            }
            Thread.sleep(250);
        }
        fail("the lab's node " + node + " did not take jobs again after state=resume: it is '" + state + "'");
    }

    /**
     * A trial for the fault tests: {@code x} (a choice of GridSearch, so each value runs once) reports a
     * result a second; {@code x = LONG} runs long enough to be caught running (it writes {@code long} in
     * its folder once started), the others end after {@code SHORT} seconds with a final result.
     */
    private static final String FAULT_TRIAL = """
            p=$(cat "$NNI_SYS_DIR/parameter.cfg")
            x=$(printf '%s' "$p" | sed -n 's/.*"x": *\\([-0-9.eE+]*\\).*/\\1/p')
            frame() { n=$(printf '%s\\n' "$1" | wc -c); printf 'ME%06d%s\\n' "$n" "$1" >> "$NNI_SYS_DIR/.nni/metrics"; }
            seconds=SHORT
            if awk -v x="$x" 'BEGIN { exit !(x == LONG) }'; then seconds=240; touch "$NNI_SYS_DIR/long"; fi
            s=0
            while [ $s -lt $seconds ]; do frame "{\\"type\\": \\"PERIODICAL\\", \\"sequence\\": $s, \\"value\\": \\"$x\\"}"; sleep 1; s=$((s + 1)); done
            frame "{\\"type\\": \\"FINAL\\", \\"sequence\\": 0, \\"value\\": \\"$x\\"}"
            """;

    /** A GridSearch experiment over {@code x} in 1..{@code trials}, two at a time, of {@link #FAULT_TRIAL}. */
    private Path faultConfig(int trials, int shortSeconds, int longX, String trainingService) throws IOException {
        Path code = Files.createDirectories(tmp.resolve("code"));
        Files.writeString(code.resolve("t.sh"), FAULT_TRIAL.replace("SHORT", Integer.toString(shortSeconds)).replace("LONG", Integer.toString(longX)));
        List<String> values = new ArrayList<>();
        for (int x = 1; x <= trials; x++) {
            values.add(Integer.toString(x));
        }
        Path config = code.resolve("config.yml");
        Files.writeString(config, """
                searchSpace: {x: {_type: choice, _value: [VALUES]}}
                trialCommand: sh t.sh
                trialCodeDirectory: .
                trialConcurrency: 2
                maxTrialNumber: TRIALS
                tuner: {name: GridSearch, classArgs: {optimize_mode: minimize}}
                trainingService: SERVICE
                """.replace("VALUES", String.join(", ", values)).replace("TRIALS", Integer.toString(trials)).replace("SERVICE", trainingService));
        return config;
    }

    private static boolean isFinal(String state) {
        return !List.of("PENDING", "RUNNING", "CONFIGURING", "COMPLETING", "SUSPENDED").contains(state);
    }

    private Path slurmConfig(Path example, String replace, String with) throws IOException {
        String text = Files.readString(example.resolve("config.yml"))
                .replace("platform: local", "platform: slurm")
                .replace("trialCodeDirectory: .", "trialCodeDirectory: " + example)
                .replace(replace, with);
        if (text.contains("searchSpaceFile: search_space.json")) {
            text = text.replace("searchSpaceFile: search_space.json", "searchSpaceFile: " + example.resolve("search_space.json"));
        }
        Path config = Files.createDirectories(tmp.resolve("config")).resolve(example.getFileName() + ".yml");
        Files.writeString(config, text);
        return config;
    }

    private Connection db(String id) throws Exception {
        return DriverManager.getConnection("jdbc:sqlite:" + tmp.resolve("experiments").resolve(id).resolve("experiment.db"));
    }

    @Test
    void theShellExampleRunsToItsEndAsSlurmJobs() throws Exception {
        Path config = slurmConfig(TunekitProcess.HOME.resolve("examples/shell-trial"), "maxTrialNumber: 12", "maxTrialNumber: 6");
        Run r = tunekit(List.of("run", config.toString()), Map.of());
        assertThat(r.status()).as(r.out() + r.err()).isZero();
        String id = experiments.get(0);
        Map<String, Job> jobs = jobs(id);
        try (Connection c = db(id)) {
            assertThat(count(c, "SELECT count(*) FROM trials WHERE status = 'SUCCEEDED' AND final_value IS NOT NULL")).isEqualTo(6);
            // each trial one job, named after it, ended COMPLETED; every intermediate result read from the shared folder
            assertThat(jobs.keySet()).containsExactlyInAnyOrderElementsOf(
                    strings(c, "SELECT job_id FROM trials").stream().map(j -> "tunekit-" + id + "-" + j).toList());
            assertThat(jobs.values()).allMatch(j -> j.state().equals("COMPLETED"));
            assertThat(count(c, "SELECT count(*) FROM metrics WHERE type = 'PERIODICAL'")).isEqualTo(18);
        }
    }

    @Test
    void thePythonNniExampleRunsAsJobsWithNnisPackage() throws Exception {
        Assumptions.assumeTrue(Files.isDirectory(NNI_V3.resolve("nni")), "no NNI trial side at " + NNI_V3 + " (distribution/nni-trial-side.sh)");
        Path config = slurmConfig(TunekitProcess.HOME.resolve("examples/python-nni"), "maxTrialNumber: 20", "maxTrialNumber: 4");
        // the job gets the runner's environment (sbatch's --export=ALL): /usr/bin's python3 has typeguard, which NNI 3 imports
        Run r = tunekit(List.of("run", config.toString()), Map.of("PYTHONPATH", NNI_V3.toString(), "PATH", "/usr/bin:" + System.getenv("PATH")));
        assertThat(r.status()).as(r.out() + r.err()).isZero();
        String id = experiments.get(0);
        try (Connection c = db(id)) {
            assertThat(count(c, "SELECT count(*) FROM trials WHERE status IN ('SUCCEEDED', 'EARLY_STOPPED')")).isEqualTo(4);
            assertThat(count(c, "SELECT count(*) FROM trials WHERE final_value IS NOT NULL")).isGreaterThan(0);
        }
        assertThat(jobs(id)).hasSize(4);
    }

    @Test
    void nnisSklearnExampleRunsUnchangedAsJobs() throws Exception {
        NniExamples.assumeSklearnExample();
        Path code = NniExamples.copySklearn(tmp.resolve("code-sklearn"), false);
        Path config = code.resolve("config.yml");
        Files.writeString(config, NniExamples.sklearnConfig(code, "platform: slurm\n", 4));
        Run r = tunekit(List.of("run", config.toString()), Map.of("PYTHONPATH", NniExamples.NNI_V3.toString(), "PATH", "/usr/bin:" + System.getenv("PATH")));
        assertThat(r.status()).as(r.out() + r.err()).isZero();
        String id = experiments.get(0);
        try (Connection c = db(id)) {
            // an SVC's accuracy on the digits, each trial one job
            assertThat(count(c, "SELECT count(*) FROM trials WHERE status = 'SUCCEEDED' AND final_value > 0.5")).as(r.out()).isEqualTo(4);
        }
        assertThat(jobs(id)).hasSize(4);
    }

    @Test
    void anAssessorsKillCancelsTheJobAndTheTrialSeesSigint() throws Exception {
        Path code = Files.createDirectories(tmp.resolve("code"));
        // x above 0.5 is stopped by the assessor after its first result; otherwise it would run two minutes
        Files.writeString(code.resolve("t.sh"), """
                trap 'echo interrupted > "$NNI_SYS_DIR/sigint"; exit 130' INT
                p=$(cat "$NNI_SYS_DIR/parameter.cfg")
                x=$(printf '%s' "$p" | sed -n 's/.*"x": *\\([-0-9.eE+]*\\).*/\\1/p')
                frame() { n=$(printf '%s\\n' "$1" | wc -c); printf 'ME%06d%s\\n' "$n" "$1" >> "$NNI_SYS_DIR/.nni/metrics"; }
                frame "{\\"type\\": \\"PERIODICAL\\", \\"sequence\\": 0, \\"value\\": \\"$x\\"}"
                if awk -v x="$x" 'BEGIN { exit !(x > 0.5) }'; then
                  for i in $(seq 1 120); do sleep 1; done
                fi
                frame "{\\"type\\": \\"FINAL\\", \\"sequence\\": 0, \\"value\\": \\"$x\\"}"
                """);
        Path config = code.resolve("config.yml");
        Files.writeString(config, """
                searchSpace: {x: {_type: uniform, _value: [0.4, 1]}}
                trialCommand: sh t.sh
                trialCodeDirectory: .
                trialConcurrency: 2
                maxTrialNumber: 4
                tuner: {name: TPE, classArgs: {optimize_mode: minimize, seed: 3}}
                assessor: {name: Threshold, classArgs: {upper: 0.5}}
                trainingService: {platform: slurm}
                """);
        Run r = tunekit(List.of("run", config.toString(), "--stop-grace", "20s"), Map.of());
        assertThat(r.status()).as(r.out() + r.err()).isZero();
        String id = experiments.get(0);
        Map<String, Job> jobs = jobs(id);
        try (Connection c = db(id)) {
            List<String> stopped = strings(c, "SELECT job_id FROM trials WHERE status = 'EARLY_STOPPED'");
            assertThat(stopped).isNotEmpty();
            assertThat(count(c, "SELECT count(*) FROM trials WHERE status NOT IN ('EARLY_STOPPED', 'SUCCEEDED')")).isZero();
            for (String job : stopped) {
                assertThat(tmp.resolve("experiments").resolve(id).resolve("trials").resolve(job).resolve("sigint")).exists();
            }
        }
        assertThat(jobs).hasSize(4);
        assertThat(jobs.values()).allMatch(j -> isFinal(j.state()));
    }

    @Test
    void aRunnerKilledWithSigkillIsResumedAndTakesItsRunningJobsBack() throws Exception {
        Path code = Files.createDirectories(tmp.resolve("code"));
        Files.writeString(code.resolve("t.sh"), """
                p=$(cat "$NNI_SYS_DIR/parameter.cfg")
                x=$(printf '%s' "$p" | sed -n 's/.*"x": *\\([-0-9.eE+]*\\).*/\\1/p')
                frame() { n=$(printf '%s\\n' "$1" | wc -c); printf 'ME%06d%s\\n' "$n" "$1" >> "$NNI_SYS_DIR/.nni/metrics"; }
                for s in 0 1 2; do frame "{\\"type\\": \\"PERIODICAL\\", \\"sequence\\": $s, \\"value\\": \\"$x\\"}"; sleep 1; done
                frame "{\\"type\\": \\"FINAL\\", \\"sequence\\": 0, \\"value\\": \\"$x\\"}"
                """);
        Path config = code.resolve("config.yml");
        Files.writeString(config, """
                searchSpace: {x: {_type: uniform, _value: [0, 1]}}
                trialCommand: sh t.sh
                trialCodeDirectory: .
                trialConcurrency: 2
                maxTrialNumber: 6
                tuner: {name: TPE, classArgs: {optimize_mode: minimize, seed: 1}}
                trainingService: {platform: slurm}
                """);
        Process p = start(List.of("run", config.toString()), Map.of());
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String id = null;
        String line;
        while ((line = out.readLine()) != null) {
            Matcher m = EXPERIMENT.matcher(line);
            if (id == null && m.find()) {
                id = m.group(1);
                experiments.add(id);
            }
            if (line.startsWith("  trial ")) {
                break;
            }
        }
        assertThat(id).isNotNull();
        // one trial ended: its replacement is submitted, then the runner dies while two jobs run
        while (jobs(id).size() < 3) {
            Thread.sleep(100);
        }
        Thread.sleep(500);
        p.toHandle().destroyForcibly();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(jobs(id).values()).as("a runner killed with SIGKILL leaves its jobs running").anyMatch(j -> !isFinal(j.state()));

        String experiment = id;
        Run resumed = tunekit(List.of("run", "--resume", id), Map.of());
        assertThat(resumed.status()).as(resumed.out() + resumed.err()).isZero();
        Map<String, Job> jobs = jobs(id);
        try (Connection c = db(id)) {
            assertThat(count(c, "SELECT count(*) FROM trials WHERE status = 'SUCCEEDED'")).isEqualTo(6);
            assertThat(count(c, "SELECT count(DISTINCT parameter_id) FROM trials")).isEqualTo(6);
            assertThat(count(c, "SELECT count(*) FROM trials WHERE status <> 'SUCCEEDED'")).as("nothing lost, nothing run twice").isZero();
            assertThat(count(c, "SELECT count(*) FROM events WHERE kind = 'reattached'")).isGreaterThan(0);
            // every metric once: three intermediate results and a final one per trial
            assertThat(count(c, "SELECT count(*) FROM metrics WHERE type = 'PERIODICAL'")).isEqualTo(18);
            assertThat(count(c, "SELECT count(*) FROM (SELECT job_id, sequence FROM metrics GROUP BY job_id, type, sequence HAVING count(*) > 1)"))
                    .isZero();
            // no job started twice: one job per trial
            assertThat(jobs.keySet()).containsExactlyInAnyOrderElementsOf(
                    strings(c, "SELECT job_id FROM trials").stream().map(j -> "tunekit-" + experiment + "-" + j).toList());
        }
        assertThat(jobs.values()).allMatch(j -> j.state().equals("COMPLETED"));
    }

    @Test
    void theJobsOfANodeThatFailsEndLostAndTheirParametersRunAgain() throws Exception {
        String node = node();
        Background run = new Background(List.of("run", faultConfig(4, 8, 0, "{platform: slurm}").toString()), Map.of());
        String id = run.id();
        Path trials = tmp.resolve("experiments").resolve(id).resolve("trials");
        List<String> killed = new ArrayList<>();
        // the first two trials' jobs run, each has written a result: the node fails under them
        run.waitUntil("two jobs running their trials", () -> {
            killed.clear();
            jobs(id).forEach((name, job) -> {
                String trial = name.substring(("tunekit-" + id + "-").length());
                if (job.state().equals("RUNNING") && Files.exists(trials.resolve(trial).resolve(".nni/metrics"))) {
                    killed.add(trial);
                }
            });
            return killed.size() == 2;
        });
        Run down = command("scontrol", "update", "nodename=" + node, "state=down", "reason=tunekit-test");
        try {
            assertThat(down.status()).as(down.err()).isZero();
            run.waitUntil("Slurm ending the jobs of the failed node", () -> {
                Map<String, Job> jobs = jobs(id);
                return killed.stream().allMatch(t -> isFinal(jobs.get("tunekit-" + id + "-" + t).state()));
            });
        } finally {
            resume(node);
        }
        Run r = run.end();
        assertThat(r.status()).as(r.out() + r.err()).isZero();
        Map<String, Job> jobs = jobs(id);
        for (String trial : killed) {
            // Slurm ended them NODE_FAIL and did not run them again itself (sbatch --no-requeue)
            assertThat(jobs.get("tunekit-" + id + "-" + trial).state()).as(trial).isEqualTo("NODE_FAIL");
        }
        try (Connection c = db(id)) {
            assertThat(strings(c, "SELECT job_id FROM trials WHERE status = 'LOST'")).as(r.out()).containsExactlyInAnyOrderElementsOf(killed);
            assertThat(strings(c, "SELECT message FROM trials WHERE status = 'LOST'"))
                    .allMatch(m -> m.matches("Slurm job [0-9]+ ended NODE_FAIL; its parameters run again"));
            // what they reported before the node failed is kept
            for (String trial : killed) {
                assertThat(count(c, "SELECT count(*) FROM metrics WHERE type = 'PERIODICAL' AND job_id = '" + trial + "'")).as(trial).isPositive();
            }
            // each lost trial's parameters ran again as a new trial, and the experiment has its four results
            assertThat(count(c, "SELECT count(*) FROM trials l JOIN trials s ON s.parameter_id = l.parameter_id"
                    + " AND s.parameter_record = l.parameter_record AND s.job_id <> l.job_id WHERE l.status = 'LOST' AND s.status = 'SUCCEEDED'"))
                    .isEqualTo(2);
            assertThat(count(c, "SELECT count(*) FROM trials WHERE status = 'SUCCEEDED' AND final_value IS NOT NULL")).isEqualTo(4);
            assertThat(count(c, "SELECT count(DISTINCT parameter_id) FROM trials WHERE status = 'SUCCEEDED'")).isEqualTo(4);
            assertThat(count(c, "SELECT count(*) FROM trials")).isEqualTo(6);
            assertThat(jobs.keySet()).containsExactlyInAnyOrderElementsOf(
                    strings(c, "SELECT job_id FROM trials").stream().map(j -> "tunekit-" + id + "-" + j).toList());
        }
    }

    @Test
    void aJobCancelledOutsideTunekitEndsUserCanceledAndIsNotRunAgain() throws Exception {
        Background run = new Background(List.of("run", faultConfig(3, 2, 2, "{platform: slurm}").toString()), Map.of());
        String id = run.id();
        Path trials = tmp.resolve("experiments").resolve(id).resolve("trials");
        String[] cancelled = {null};
        run.waitUntil("the long trial running", () -> {
            try (java.util.stream.Stream<Path> all = Files.list(trials)) {
                all.filter(d -> Files.exists(d.resolve("long"))).findFirst().ifPresent(d -> cancelled[0] = d.getFileName().toString());
            } catch (java.nio.file.NoSuchFileException e) {
                return false;
            }
            return cancelled[0] != null;
        });
        // its Slurm job, by the handle the store keeps (SLURMID@FOLDER), cancelled as someone on the cluster would
        String handle;
        try (Connection c = db(id)) {
            handle = strings(c, "SELECT handle FROM trials WHERE job_id = '" + cancelled[0] + "'").get(0);
        }
        assertThat(handle).matches("[0-9]+@.*");
        String slurmId = handle.substring(0, handle.indexOf('@'));
        Run scancel = command("scancel", slurmId);
        assertThat(scancel.status()).as(scancel.err()).isZero();
        Run r = run.end();
        assertThat(r.status()).as(r.out() + r.err()).isZero();
        Map<String, Job> jobs = jobs(id);
        assertThat(jobs.get("tunekit-" + id + "-" + cancelled[0])).isEqualTo(new Job(slurmId, "CANCELLED"));
        try (Connection c = db(id)) {
            assertThat(strings(c, "SELECT status || ': ' || message FROM trials WHERE job_id = '" + cancelled[0] + "'"))
                    .containsExactly("USER_CANCELED: Slurm job " + slurmId + " was cancelled outside Tunekit (scancel)");
            // not run again: one trial per parameters, the two others succeeded
            assertThat(count(c, "SELECT count(*) FROM trials")).as(r.out()).isEqualTo(3);
            assertThat(count(c, "SELECT count(DISTINCT parameter_id) FROM trials")).isEqualTo(3);
            assertThat(count(c, "SELECT count(*) FROM trials WHERE status = 'SUCCEEDED' AND final_value IS NOT NULL")).isEqualTo(2);
        }
        assertThat(jobs).hasSize(3);
    }

    @Test
    void aJobPastSlurmsTimeLimitEndsUserCanceledAndIsNotRunAgain() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Boolean.getBoolean("slurm.timeout"), "the time-limit scenario waits a minute and a half"
                + " for Slurm's clock, beyond CI's budget: it runs with -Dslurm.timeout=true (the unit tests map TIMEOUT with a stand-in sacct)");
        // Slurm's limit is in minutes, checked every 30 s: the long trial's job ends TIMEOUT after 60 to 90 s
        // (through sbatchOptions, not maxTrialDuration, whose own limit the runner enforces first)
        Run r = tunekit(List.of("run", faultConfig(3, 2, 2, "{platform: slurm, sbatchOptions: [--time=1]}").toString()), Map.of());
        assertThat(r.status()).as(r.out() + r.err()).isZero();
        String id = experiments.get(0);
        Path trials = tmp.resolve("experiments").resolve(id).resolve("trials");
        Map<String, Job> jobs = jobs(id);
        try (Connection c = db(id)) {
            List<String> timedOut = strings(c, "SELECT job_id FROM trials WHERE status = 'USER_CANCELED'");
            assertThat(timedOut).as(r.out()).hasSize(1);
            String trial = timedOut.get(0);
            assertThat(trials.resolve(trial).resolve("long")).exists();
            Job job = jobs.get("tunekit-" + id + "-" + trial);
            assertThat(job.state()).isEqualTo("TIMEOUT");
            assertThat(strings(c, "SELECT message FROM trials WHERE job_id = '" + trial + "'")).containsExactly("Slurm job " + job.id()
                    + " reached its time limit (TIMEOUT)");
            assertThat(count(c, "SELECT count(*) FROM trials")).isEqualTo(3);
            assertThat(count(c, "SELECT count(DISTINCT parameter_id) FROM trials")).isEqualTo(3);
            assertThat(count(c, "SELECT count(*) FROM trials WHERE status = 'SUCCEEDED' AND final_value IS NOT NULL")).isEqualTo(2);
        }
        assertThat(jobs).hasSize(3);
    }
}
