package org.tunekit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code tunekit katib serve} against Katib's controller behaviour: the katib-lab driver
 * ({@code katib-drive.js}, see {@code ../shared/katib-lab}) plays Katib's controller over Katib's own
 * {@code .proto} files with each of Katib's example experiments, starts the real {@code ./tunekit},
 * and {@code kill -9}s it every 5 finished trials; every experiment must run to its end with no
 * duplicate (but for grid) and no broken answer, and medianstop and Tunekit's Medianstop (the
 * early-stopping service, from the same process) must stop trials.
 *
 * <p>Needs the lab, named by {@code $KATIB_LAB} (as {@code build.sh} makes it, e.g.
 * {@code KATIB_LAB=~/katib-lab}), and {@code node}; without them every case is skipped saying so
 * (as in CI, which has no Katib source).
 */
class KatibLabIT {
    private static final String LAB_VARIABLE = System.getenv("KATIB_LAB");
    private static final Path LAB = LAB_VARIABLE == null ? null : Path.of(LAB_VARIABLE);
    private static final Path DRIVER = LAB == null ? null : LAB.resolve("katib-drive.js");
    private static final Path EXAMPLES = LAB == null ? null : LAB.resolve("katib-src/examples/v1beta1");

    @TempDir
    Path tmp;

    @BeforeEach
    void needsTheLab() {
        assumeTrue(LAB != null, "KATIB_LAB is not set: set it to the folder ../shared/katib-lab/build.sh makes "
                + "(from a fetch of github:kubeflow/katib), e.g. ~/katib-lab");
        assumeTrue(Files.isRegularFile(DRIVER), "the katib-lab driver is missing: no " + DRIVER + " (run build.sh, or set KATIB_LAB)");
        assumeTrue(Files.isDirectory(EXAMPLES), "Katib's example experiments are missing: no " + EXAMPLES);
        assumeTrue(onPath("node"), "node is not on the PATH: the katib-lab driver is a node script");
    }

    private static boolean onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }

    /** What one driver run ended with. */
    record Drive(int exit, String stdout, String stderr) {
        JsonObject summary() {
            String[] lines = stdout.strip().split("\n");
            return JsonParser.parseString(lines[lines.length - 1]).getAsJsonObject();
        }

        String describe() {
            return "exit " + exit + "\nstdout:\n" + stdout + "\nstderr (end):\n" + stderr.substring(Math.max(0, stderr.length() - 4000));
        }
    }

    private Drive drive(Path experiment, String... extra) throws Exception {
        int port = freePort();
        int esPort = freePort();
        int dbPort = freePort();
        String server = "TUNEKIT_NO_BUILD=1 exec " + TunekitProcess.HOME.resolve("tunekit") + " katib serve --host 127.0.0.1 --port " + port
                + " --early-stopping-port " + esPort + " 2>>" + tmp.resolve("server.log");
        List<String> cmd = new ArrayList<>(List.of("node", DRIVER.toString(), "--quiet", "--endpoint", "127.0.0.1:" + port,
                "--es-endpoint", "127.0.0.1:" + esPort, "--db-port", Integer.toString(dbPort),
                "--server-cmd", server, "--kill-after", "5"));
        cmd.addAll(List.of(extra));
        cmd.add(experiment.toString());
        Path out = tmp.resolve("drive.out");
        Path err = tmp.resolve("drive.err");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(5, TimeUnit.MINUTES)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            throw new AssertionError("the driver did not finish within 5 minutes on " + experiment);
        }
        return new Drive(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"random", "tpe", "multivariate-tpe", "cma-es", "grid", "sobol", "bayesian-optimization",
            "hyperopt-distribution", "optuna-distribution"})
    void katibsExampleRunsToItsEndThroughRestarts(String name) throws Exception {
        Drive d = drive(EXAMPLES.resolve("hp-tuning/" + name + ".yaml"));
        assertThat(d.exit()).as(d.describe()).isZero();
        JsonObject s = d.summary();
        assertThat(s.get("trials").getAsInt()).as(d.describe()).isEqualTo(12);
        assertThat(s.get("succeeded").getAsInt()).as(d.describe()).isEqualTo(12);
        assertThat(s.get("getSuggestionsErrors").getAsInt()).as(d.describe()).isZero();
        assertThat(s.get("restarts").getAsInt()).as(d.describe()).isGreaterThanOrEqualTo(2);
        if (!name.equals("grid")) {
            assertThat(s.get("duplicates").getAsInt()).as(d.describe()).isZero();
        }
    }

    @Test
    void medianStopStopsTrialsThroughRestarts() throws Exception {
        Drive d = drive(EXAMPLES.resolve("early-stopping/median-stop.yaml"));
        assertThat(d.exit()).as(d.describe()).isZero();
        JsonObject s = d.summary();
        assertThat(s.get("earlyStopped").getAsInt()).as(d.describe()).isPositive();
        assertThat(s.get("stepsRun").getAsInt()).as(d.describe()).isLessThan(s.get("stepsFull").getAsInt());
        assertThat(s.get("duplicates").getAsInt()).as(d.describe()).isZero();
        assertThat(s.get("restarts").getAsInt()).as(d.describe()).isPositive();
    }

    /** Katib's median-stop example with its earlyStopping turned into Tunekit's {@code algorithmName} and NNI class arguments. */
    private Path earlyStoppingExample(String algorithm, String settings) throws IOException {
        String yaml = Files.readString(EXAMPLES.resolve("early-stopping/median-stop.yaml"));
        String katibs = """
                    algorithmName: medianstop
                    algorithmSettings:
                      - name: min_trials_required
                        value: "1"
                      - name: start_step
                        value: "2"
                """;
        assertThat(yaml).as("Katib's median-stop.yaml has changed").contains(katibs);
        Path out = tmp.resolve(algorithm + ".yaml");
        Files.writeString(out, yaml.replace(katibs, "    algorithmName: " + algorithm + "\n    algorithmSettings:\n" + settings));
        return out;
    }

    @Test
    void tunekitsMedianstopAssessorStopsTrialsThroughRestarts() throws Exception {
        Drive d = drive(earlyStoppingExample("Medianstop", """
                      - name: start_step
                        value: "2"
                      - name: optimize_mode
                        value: "minimize"
                """));
        assertThat(d.exit()).as(d.describe()).isZero();
        JsonObject s = d.summary();
        assertThat(s.get("earlyStopped").getAsInt()).as(d.describe()).isPositive();
        assertThat(s.get("stepsRun").getAsInt()).as(d.describe()).isLessThan(s.get("stepsFull").getAsInt());
        assertThat(s.get("restarts").getAsInt()).as(d.describe()).isPositive();
    }

    @Test
    void anAssessorNoRuleCanCarryFailsTheExperimentWithTheReason() throws Exception {
        Drive d = drive(earlyStoppingExample("Curvefitting", """
                      - name: epoch_num
                        value: "10"
                """));
        assertThat(d.exit()).as(d.describe()).isEqualTo(3);
        assertThat(d.stderr()).contains("Curvefitting cannot be served as a Katib rule", "served: medianstop (Katib's), Medianstop");
    }

    @Test
    void failingTrialsAndAMaximisedObjectiveRunToTheEnd() throws Exception {
        Path yaml = tmp.resolve("maximize.yaml");
        Files.writeString(yaml, Files.readString(EXAMPLES.resolve("hp-tuning/tpe.yaml")).replace("type: minimize", "type: maximize"));
        Drive d = drive(yaml, "--fail-every", "4", "--max-trials", "20", "--objective", "branin");
        assertThat(d.exit()).as(d.describe()).isZero();
        assertThat(d.summary().get("failed").getAsInt()).as(d.describe()).isEqualTo(5);
        assertThat(d.summary().get("duplicates").getAsInt()).as(d.describe()).isZero();
    }

    @Test
    void badSettingsFailTheExperimentWithAMessage() throws Exception {
        Path yaml = tmp.resolve("bad.yaml");
        Files.writeString(yaml, Files.readString(EXAMPLES.resolve("hp-tuning/cma-es.yaml")).replace("value: \"ipop\"", "value: \"sometimes\""));
        Drive d = drive(yaml);
        assertThat(d.exit()).as(d.describe()).isEqualTo(3);
        assertThat(d.stderr()).contains("restart_strategy \"sometimes\"");
    }

    /**
     * Katib's hyperband example, beyond its own 2 trials (so that the service is killed mid-bracket):
     * every call answers as many assignments as asked (Katib's own service, on this run, answers
     * fewer once and errors while a rung runs). The example's resource space, num-epochs in [1, 1],
     * cannot hold its second budget, so the second variant gives it room (num-epochs up to 8, r_l 8),
     * where trials are run again at larger budgets (which rungs, and which trials, is
     * {@code KatibHyperbandTest}'s in {@code katib/}).
     */
    @ParameterizedTest(name = "r_l {0}")
    @ValueSource(strings = {"2", "8"})
    void hyperbandRunsToItsEndThroughRestarts(String rl) throws Exception {
        Path yaml = EXAMPLES.resolve("hp-tuning/hyperband.yaml");
        if (rl.equals("2")) {
            Drive asGiven = drive(yaml);
            assertThat(asGiven.exit()).as(asGiven.describe()).isZero();
            assertThat(asGiven.summary().get("trials").getAsInt()).as(asGiven.describe()).isEqualTo(2);
        } else {
            Path wide = tmp.resolve("hyperband-wide.yaml");
            String text = Files.readString(yaml);
            String widened = text.replaceFirst("(name: \"r_l\"\\s+value: )\"2\"", "$1\"" + rl + "\"")
                    .replaceFirst("(- name: num-epochs[\\s\\S]*?max: )\"1\"", "$1\"" + rl + "\"");
            assertThat(widened).as("the example's r_l and num-epochs' max are where this test expects them").isNotEqualTo(text);
            Files.writeString(wide, widened);
            yaml = wide;
        }
        Drive d = drive(yaml, "--max-trials", "30", "--parallel", "3", "--fail-every", "7");
        assertThat(d.exit()).as(d.describe()).isZero();
        JsonObject s = d.summary();
        assertThat(s.get("trials").getAsInt()).as(d.describe()).isEqualTo(30);
        assertThat(s.get("failed").getAsInt()).as(d.describe()).isEqualTo(4);
        assertThat(s.get("getSuggestionsErrors").getAsInt()).as(d.describe()).isZero();
        assertThat(s.get("duplicates").getAsInt()).as(d.describe()).isZero();
        assertThat(s.get("restarts").getAsInt()).as(d.describe()).isGreaterThanOrEqualTo(4);
    }
}
