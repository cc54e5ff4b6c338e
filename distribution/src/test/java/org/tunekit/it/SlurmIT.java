package org.tunekit.it;

import static org.assertj.core.api.Assertions.assertThat;
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
 * back. Every job a test submits is cancelled after it, every runner it starts killed.
 */
class SlurmIT {
    private static final Pattern EXPERIMENT = Pattern.compile("^Experiment ([a-z0-9]{8})", Pattern.MULTILINE);
    private static final Path NNI_V3 = Path.of(System.getenv().getOrDefault("NNI_TRIAL_SIDE",
            System.getProperty("user.home") + "/nni-trial-side"), "v3");

    @TempDir
    Path tmp;
    private final List<Process> runners = new ArrayList<>();
    private final List<String> experiments = new ArrayList<>();

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
}
