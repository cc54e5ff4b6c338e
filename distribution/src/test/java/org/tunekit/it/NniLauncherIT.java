package org.tunekit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.gson.Gson;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tunekit nni create} with NNI 3's real experiment manager: the manager runs the real
 * {@code tunekit} as its tuner and the shell example's trials on the local training service; the
 * experiment ends DONE with every trial SUCCEEDED, shows in the experiment list where nnictl and the
 * web UI look, is viewed and resumed, and {@code tunekit nni stop} leaves nothing running.
 *
 * <p>It needs NNI's manager built from source ({@code ts/nni_manager} of NNI's repository, {@code npm
 * install && npx tsc}) in {@code $NNI_LAB/nni-src} (a variable that must be set: the suite takes minutes, and CI sets none), and {@code node} on the
 * PATH; without them it is skipped. {@code HOME} is a temporary folder, so the user's
 * {@code ~/nni-experiments} is not touched.
 */
class NniLauncherIT {
    private static final Path LAB = System.getenv("NNI_LAB") == null ? null : Path.of(System.getenv("NNI_LAB"));
    private static final Path DIST = LAB == null ? null : LAB.resolve("nni-src/ts/nni_manager/dist");
    private static final Pattern ID = Pattern.compile("Experiment ID: ([a-z0-9]{8})");
    private static final Gson GSON = new Gson();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @TempDir
    Path tmp;
    Path home;
    int port;

    record Run(int status, String out) {}

    @BeforeEach
    void manager() throws IOException {
        assumeTrue(DIST != null, "NNI_LAB is not set: set it to a build of NNI 3's manager (../shared/nni-lab/build.sh makes one in ~/nni-lab)");
        assumeTrue(Files.isRegularFile(DIST.resolve("main.js")), "NNI's manager is not built at " + DIST + ": build ts/nni_manager of "
                + "NNI's repository (npm install && npx tsc) into $NNI_LAB/nni-src (default ~/nni-lab), or set NNI_LAB");
        assumeTrue(onPath("node"), "node is not on the PATH (NNI's manager runs on Node.js)");
        home = Files.createDirectories(tmp.resolve("home"));
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
    }

    private static boolean onPath(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, name))) {
                return true;
            }
        }
        return false;
    }

    private Run tunekit(String... args) throws Exception {
        return tunekitWithPath(null, args);
    }

    /** Runs tunekit with {@code bin} first on its PATH (and on that of the manager it starts), when not null. */
    private Run tunekitWithPath(Path bin, String... args) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(TunekitProcess.HOME.resolve("tunekit").toString());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(tmp.toFile()).redirectErrorStream(true);
        pb.environment().put("HOME", home.toString());
        pb.environment().put("TUNEKIT_NO_BUILD", "1");
        pb.environment().remove("TUNEKIT_NNI_NODE");
        if (bin != null) {
            pb.environment().put("PATH", bin + File.pathSeparator + System.getenv().getOrDefault("PATH", ""));
        }
        pb.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(3, TimeUnit.MINUTES)).as(out).isTrue();
        return new Run(p.exitValue(), out);
    }

    private Path experiment(String tuner) throws IOException {
        Path exp = Files.createDirectories(tmp.resolve("exp"));
        Files.copy(TunekitProcess.HOME.resolve("examples/shell-trial/trial.sh"), exp.resolve("trial.sh"));
        Files.writeString(exp.resolve("search_space.json"),
                "{\"x\": {\"_type\": \"uniform\", \"_value\": [-5, 5]}, \"y\": {\"_type\": \"uniform\", \"_value\": [-5, 5]}}");
        Files.writeString(exp.resolve("config.yml"), """
                experimentName: nni-manager-it
                searchSpaceFile: search_space.json
                trialCommand: sh trial.sh
                trialCodeDirectory: .
                trialConcurrency: 2
                maxTrialNumber: 4
                %s
                trainingService:
                  platform: local
                """.formatted(tuner));
        return exp.resolve("config.yml");
    }

    private Map<?, ?> get(String api) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/api/v1/nni" + api))
                .timeout(Duration.ofSeconds(20)).build(), HttpResponse.BodyHandlers.ofString());
        Object o = GSON.fromJson(r.body(), Object.class);
        return o instanceof Map<?, ?> m ? m : Map.of("list", o);
    }

    private String waitForStatus(List<String> wanted, Duration limit) throws Exception {
        long deadline = System.nanoTime() + limit.toNanos();
        String status = null;
        while (System.nanoTime() < deadline) {
            status = String.valueOf(get("/check-status").get("status"));
            if (wanted.contains(status)) {
                return status;
            }
            Thread.sleep(500);
        }
        return status;
    }

    private Map<?, ?> registryEntry(String id) throws IOException {
        Path file = home.resolve("nni-experiments/.experiment");
        Map<?, ?> all = GSON.fromJson(Files.readString(file), Map.class);
        return (Map<?, ?>) all.get(id);
    }

    /** Stops a manager left running by a failed test, and whatever it started. */
    private void cleanUp(Long pid) {
        if (pid == null) {
            return;
        }
        ProcessHandle.of(pid).ifPresent(p -> {
            List<ProcessHandle> children = p.descendants().toList();
            try {
                HTTP.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/api/v1/nni/experiment")).DELETE()
                        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.discarding());
                p.onExit().get(60, TimeUnit.SECONDS);
            } catch (Exception e) {
                p.destroyForcibly();
            }
            children.forEach(ProcessHandle::destroyForcibly);
        });
    }

    @Test
    void anExperimentRunsToTheEndUnderNnisManagerAndIsViewedResumedAndStopped() throws Exception {
        Path config = experiment("tuner: {name: TPE, classArgs: {optimize_mode: minimize, seed: 7}}");
        Long pid = null;
        try {
            Run created = tunekit("nni", "create", "--config", config.toString(), "--port", String.valueOf(port), "--nni-node", DIST.toString());
            assertThat(created.status()).as(created.out()).isZero();
            assertThat(created.out()).contains("Web portal URLs:").contains(":" + port);
            Matcher m = ID.matcher(created.out());
            assertThat(m.find()).as(created.out()).isTrue();
            String id = m.group(1);
            Map<?, ?> entry = registryEntry(id);
            assertThat(entry).as("in ~/nni-experiments/.experiment").isNotNull();
            pid = ((Number) entry.get("pid")).longValue();
            assertThat(entry.get("port")).isEqualTo((double) port);
            assertThat(entry.get("platform")).isEqualTo("local");
            assertThat(entry.get("experimentName")).isEqualTo("nni-manager-it");
            assertThat(entry.get("logDir")).isEqualTo(home.resolve("nni-experiments").toString());
            // the manager runs tunekit as its "Python"
            String commandLine = ProcessHandle.of(pid).flatMap(p -> p.info().commandLine()).orElse("");
            assertThat(commandLine).contains("--python-interpreter " + TunekitProcess.HOME.resolve("tunekit"));

            assertThat(waitForStatus(List.of("DONE", "ERROR"), Duration.ofMinutes(2))).as(get("/check-status").toString()).isEqualTo("DONE");
            List<?> trials = (List<?>) get("/trial-jobs").get("list");
            assertThat(trials).hasSize(4);
            for (Object t : trials) {
                Map<?, ?> trial = (Map<?, ?>) t;
                assertThat(trial.get("status")).as(trial.toString()).isEqualTo("SUCCEEDED");
                assertThat((List<?>) trial.get("finalMetricData")).as(trial.toString()).hasSize(1);
            }
            assertThat(registryEntry(id).get("status")).as("the manager keeps its entry up to date").isEqualTo("DONE");
            Path logDir = home.resolve("nni-experiments").resolve(id).resolve("log");
            assertThat(logDir.resolve("nnictl_stdout.log")).exists();
            assertThat(Files.readString(logDir.resolve("dispatcher.log"))).contains("command channel: ws://localhost:" + port + "/tuner");

            Run stopped = tunekit("nni", "stop", id);
            assertThat(stopped.status()).as(stopped.out()).isZero();
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("the manager is gone").isFalse();
            assertThat(registryEntry(id).get("status")).isEqualTo("STOPPED");

            Run viewed = tunekit("nni", "view", id, "--port", String.valueOf(port), "--nni-node", DIST.toString());
            assertThat(viewed.status()).as(viewed.out()).isZero();
            pid = ((Number) registryEntry(id).get("pid")).longValue();
            assertThat(get("/check-status").get("status")).isEqualTo("VIEWED");
            assertThat((List<?>) get("/trial-jobs").get("list")).hasSize(4);
            assertThat(tunekit("nni", "stop", "--port", String.valueOf(port)).status()).isZero();

            Run resumed = tunekit("nni", "resume", id, "--port", String.valueOf(port), "--nni-node", DIST.toString());
            assertThat(resumed.status()).as(resumed.out()).isZero();
            pid = ((Number) registryEntry(id).get("pid")).longValue();
            assertThat(waitForStatus(List.of("DONE", "ERROR"), Duration.ofMinutes(1))).as("its budget is spent").isEqualTo("DONE");
            assertThat(Files.readString(logDir.resolve("dispatcher.log"))).as("the tuner is rebuilt from the trials NNI's manager replays")
                    .contains("the tuner keeps no checkpoint").containsPattern("[1-9]\\d* imported results given to the tuner");
            assertThat(tunekit("nni", "stop", "--all").status()).isZero();
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
            pid = null;
        } finally {
            cleanUp(pid);
        }
    }

    @Test
    void nnisManagerSchedulesGpuTrialsOntoTheGpusTunekitReports() throws Exception {
        // a stand-in nvidia-smi: four GPUs, GPU 1 running another program; the manager asks tunekit for them
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        org.tunekit.gpus.FakeNvidiaSmi.write(bin, org.tunekit.gpus.FakeNvidiaSmi.FOUR_GPUS, org.tunekit.gpus.FakeNvidiaSmi.FOUR_GPUS_PROCESSES);
        Path exp = Files.createDirectories(tmp.resolve("gpu-exp"));
        Files.copy(TunekitProcess.HOME.resolve("examples/shell-trial/trial.sh"), exp.resolve("trial.sh"));
        Path seen = Files.createDirectories(exp.resolve("seen"));
        Files.writeString(exp.resolve("gpu-trial.sh"), "printf '%s' \"${CUDA_VISIBLE_DEVICES-unset}\" > \"" + seen + "/$NNI_TRIAL_JOB_ID\"\n"
                + "exec sh trial.sh\n");
        Files.writeString(exp.resolve("config.yml"), """
                searchSpace: {x: {_type: uniform, _value: [-5, 5]}, y: {_type: uniform, _value: [-5, 5]}}
                trialCommand: sh gpu-trial.sh
                trialCodeDirectory: .
                trialConcurrency: 2
                maxTrialNumber: 4
                trialGpuNumber: 1
                tuner: {name: Random, classArgs: {seed: 3}}
                trainingService: {platform: local, useActiveGpu: false}
                """);
        Long pid = null;
        try {
            Run created = tunekitWithPath(bin, "nni", "create", "--config", exp.resolve("config.yml").toString(), "--port", String.valueOf(port),
                    "--nni-node", DIST.toString());
            assertThat(created.status()).as(created.out()).isZero();
            Matcher m = ID.matcher(created.out());
            assertThat(m.find()).as(created.out()).isTrue();
            pid = ((Number) registryEntry(m.group(1)).get("pid")).longValue();
            assertThat(waitForStatus(List.of("DONE", "ERROR"), Duration.ofMinutes(3))).as(get("/check-status").toString()).isEqualTo("DONE");
            List<?> trials = (List<?>) get("/trial-jobs").get("list");
            assertThat(trials).hasSize(4).allSatisfy(t -> assertThat(((Map<?, ?>) t).get("status")).isEqualTo("SUCCEEDED"));
            List<String> gpus = new ArrayList<>();
            try (var files = Files.list(seen)) {
                for (Path f : files.toList()) {
                    gpus.add(Files.readString(f));
                }
            }
            // NNI's own scheduler placed each trial on one idle GPU: never GPU 1, which another program uses
            assertThat(gpus).hasSize(4).allMatch(g -> g.equals("0") || g.equals("2") || g.equals("3"));
            assertThat(tunekit("nni", "stop").status()).isZero();
            pid = null;
        } finally {
            cleanUp(pid);
        }
    }

    @Test
    void anAdvisorRunsAsNni3PassesIt() throws Exception {
        Path config = experiment("advisor: {name: Hyperband, classArgs: {optimize_mode: minimize, R: 3, eta: 3, seed: 1}}");
        Long pid = null;
        try {
            Run created = tunekit("nni", "create", "--config", config.toString(), "--port", String.valueOf(port), "--nni-node", DIST.toString());
            assertThat(created.status()).as(created.out()).isZero();
            Matcher m = ID.matcher(created.out());
            assertThat(m.find()).isTrue();
            pid = ((Number) registryEntry(m.group(1)).get("pid")).longValue();
            assertThat(waitForStatus(List.of("DONE", "ERROR"), Duration.ofMinutes(2))).as(get("/check-status").toString()).isEqualTo("DONE");
            for (Object t : (List<?>) get("/trial-jobs").get("list")) {
                Map<?, ?> trial = (Map<?, ?>) t;
                assertThat(trial.get("status")).isEqualTo("SUCCEEDED");
                assertThat(String.valueOf(trial.get("hyperParameters"))).contains("TRIAL_BUDGET");
            }
            assertThat(tunekit("nni", "stop").status()).isZero();
            pid = null;
        } finally {
            cleanUp(pid);
        }
    }

    /**
     * An {@code nni_node} package laid out as NNI's development install makes it ({@code setup.py
     * develop} links the manager's build into it): {@code __init__.py}, the build's files, its
     * {@code package.json} and {@code node_modules}, and a {@code node}.
     */
    static Path nniNodePackage(Path into) throws IOException {
        Path pkg = Files.createDirectories(into.resolve("nni_node"));
        Files.writeString(pkg.resolve("__init__.py"), "");
        try (var files = Files.list(DIST)) {
            for (Path f : files.toList()) {
                Files.createSymbolicLink(pkg.resolve(f.getFileName().toString()), f);
            }
        }
        Files.createSymbolicLink(pkg.resolve("package.json"), DIST.resolveSibling("package.json"));
        Files.createSymbolicLink(pkg.resolve("node_modules"), DIST.resolveSibling("node_modules"));
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path node = Path.of(dir, "node");
            if (!dir.isEmpty() && Files.isExecutable(node)) {
                Files.createSymbolicLink(pkg.resolve("node"), node.toRealPath());
                break;
            }
        }
        return pkg;
    }

    @Test
    void theManagerIsFoundThroughTheNniNodePackageOfPython() throws Exception {
        assumeTrue(onPath("python3"), "python3 is not on the PATH");
        Path site = Files.createDirectories(tmp.resolve("site-packages"));
        nniNodePackage(site);
        Path config = experiment("tuner: {name: Random, classArgs: {seed: 3}}");
        Long pid = null;
        try {
            ProcessBuilder pb = new ProcessBuilder(TunekitProcess.HOME.resolve("tunekit").toString(), "nni", "create", "--config",
                    config.toString(), "--port", String.valueOf(port)).directory(tmp.toFile()).redirectErrorStream(true);
            pb.environment().put("HOME", home.toString());
            pb.environment().put("TUNEKIT_NO_BUILD", "1");
            pb.environment().put("PYTHONPATH", site.toString());
            pb.environment().remove("TUNEKIT_NNI_NODE");
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(3, TimeUnit.MINUTES)).isTrue();
            assertThat(p.exitValue()).as(out).isZero();
            Matcher m = ID.matcher(out);
            assertThat(m.find()).as(out).isTrue();
            pid = ((Number) registryEntry(m.group(1)).get("pid")).longValue();
            String commandLine = ProcessHandle.of(pid).flatMap(h -> h.info().commandLine()).orElse("");
            assertThat(commandLine).as("the manager of the nni_node package, run by its own node").contains(site.resolve("nni_node/main.js").toString());
            assertThat(waitForStatus(List.of("DONE", "ERROR"), Duration.ofMinutes(2))).isEqualTo("DONE");
            assertThat(tunekit("nni", "stop").status()).isZero();
            pid = null;
        } finally {
            cleanUp(pid);
        }
    }

    @Test
    void aTunerThatCannotStartIsReportedAndNothingIsLeftRunning() throws Exception {
        Path config = experiment("tuner: {name: NoSuchTuner}");
        Run created = tunekit("nni", "create", "--config", config.toString(), "--port", String.valueOf(port), "--nni-node", DIST.toString());
        assertThat(created.status()).isEqualTo(1);
        assertThat(created.out()).contains("the experiment failed as it started").contains("unknown tuner 'NoSuchTuner'")
                .contains("The manager was stopped");
        Matcher m = ID.matcher(created.out());
        assertThat(m.find()).isTrue();
        Map<?, ?> entry = registryEntry(m.group(1));
        long pid = ((Number) entry.get("pid")).longValue();
        try {
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
            assertThat(registryEntry(m.group(1)).get("status")).isEqualTo("STOPPED");
        } finally {
            cleanUp(pid);
        }
    }
}
