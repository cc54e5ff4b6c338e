package org.tunekit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.google.gson.Gson;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * NNI's Python {@code Experiment} API has no option or config field for the manager's interpreter:
 * its launcher reads {@code sys.executable} when the experiment starts. Setting it to tunekit for the
 * duration of {@code run()} (the snippet of docs/nni.md, verbatim) makes NNI's manager run Tunekit as the
 * tuner. Runs NNI 3's own Python package against its own manager built from source.
 *
 * <p>Needs the manager build of {@link NniLauncherIT}, and a {@code /usr/bin/python3} that imports
 * NNI 3's {@code nni.experiment} from {@code $NNI_PYTHONPATH} (default: {@code $NNI_TRIAL_SIDE/v3},
 * else {@code ~/nni-trial-side/v3}, as {@code distribution/nni-trial-side.sh} prepares it) with
 * typeguard 3 or later (NNI 3's config classes need it); skipped otherwise.
 */
class NniPythonApiIT {
    private static final String PYTHON = "/usr/bin/python3";
    private static final Path LAB = System.getenv("NNI_LAB") == null ? null : Path.of(System.getenv("NNI_LAB"));
    private static final Path DIST = LAB == null ? null : LAB.resolve("nni-src/ts/nni_manager/dist");
    private static final String PYTHONPATH = System.getenv().getOrDefault("NNI_PYTHONPATH",
            System.getenv().getOrDefault("NNI_TRIAL_SIDE", System.getProperty("user.home") + "/nni-trial-side") + "/v3");

    /** The snippet of docs/nni.md. */
    private static final String SCRIPT = """
            import sys
            from unittest import mock
            from nni.experiment import Experiment, ExperimentConfig

            TUNEKIT = sys.argv[2]   # the path of tunekit (no spaces)

            experiment = Experiment(ExperimentConfig.load(sys.argv[1]))
            with mock.patch.object(sys, 'executable', TUNEKIT):
                done = experiment.run(int(sys.argv[3]))

            trials = experiment.list_trial_jobs()
            print('RESULT', done, experiment.id, len(trials), sorted({t.status for t in trials}))
            experiment.stop()
            """;

    @TempDir
    Path tmp;

    private String python(List<String> args, Map<String, String> env) throws Exception {
        // to a file: the manager that NNI's API starts in the background inherits Python's output
        Path log = Files.createTempFile(tmp, "python", ".log");
        ProcessBuilder pb = new ProcessBuilder(args).directory(tmp.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
        pb.environment().putAll(env);
        Process p = pb.start();
        if (!p.waitFor(3, TimeUnit.MINUTES)) {
            p.destroyForcibly();
        }
        return (p.isAlive() ? "timeout" : String.valueOf(p.exitValue())) + "\n" + Files.readString(log, StandardCharsets.UTF_8);
    }

    @Test
    void theExperimentApiRunsTunekitWhenSysExecutableSaysSo() throws Exception {
        assumeTrue(DIST != null, "NNI_LAB is not set: set it to a build of NNI 3's manager (../shared/nni-lab/build.sh makes one in ~/nni-lab)");
        assumeTrue(Files.isRegularFile(DIST.resolve("main.js")), "NNI's manager is not built at " + DIST + " (see NniLauncherIT)");
        assumeTrue(Files.isExecutable(Path.of(PYTHON)), PYTHON + " is missing");
        Path site = Files.createDirectories(tmp.resolve("site"));
        NniLauncherIT.nniNodePackage(site);
        Files.createDirectories(site.resolve("nni_assets"));
        Files.writeString(site.resolve("nni_assets/__init__.py"), "");
        Path home = Files.createDirectories(tmp.resolve("home"));
        Map<String, String> env = Map.of("PYTHONPATH", site + File.pathSeparator + PYTHONPATH, "HOME", home.toString(),
                "TUNEKIT_NO_BUILD", "1");
        String probe = python(List.of(PYTHON, "-c", "import typeguard; typeguard.TypeCheckError; import nni.experiment"), env);
        assumeTrue(probe.startsWith("0\n"), "NNI 3's Python API cannot be imported with PYTHONPATH=" + PYTHONPATH + " (set NNI_PYTHONPATH "
                + "to NNI's nni/ tree and typeguard >= 3):\n" + probe);

        Path exp = Files.createDirectories(tmp.resolve("exp"));
        Files.copy(TunekitProcess.HOME.resolve("examples/shell-trial/trial.sh"), exp.resolve("trial.sh"));
        Files.writeString(exp.resolve("config.yml"), """
                searchSpace:
                  x: {_type: uniform, _value: [-5, 5]}
                  y: {_type: uniform, _value: [-5, 5]}
                trialCommand: sh trial.sh
                trialCodeDirectory: .
                trialConcurrency: 2
                maxTrialNumber: 4
                tuner: {name: TPE, classArgs: {optimize_mode: minimize, seed: 7}}
                trainingService: {platform: local}
                """);
        Files.writeString(tmp.resolve("run.py"), SCRIPT);
        int port;
        try (var s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Long pid = null;
        try {
            String out = python(List.of(PYTHON, "run.py", exp.resolve("config.yml").toString(), TunekitProcess.HOME.resolve("tunekit").toString(),
                    String.valueOf(port)), env);
            Matcher m = Pattern.compile("RESULT True ([a-z0-9]{8}) 4 \\['SUCCEEDED'\\]").matcher(out);
            assertThat(m.find()).as(out).isTrue();
            String id = m.group(1);
            Map<?, ?> all = new Gson().fromJson(Files.readString(home.resolve("nni-experiments/.experiment")), Map.class);
            Map<?, ?> entry = (Map<?, ?>) all.get(id);
            pid = ((Number) entry.get("pid")).longValue();
            Path logDir = home.resolve("nni-experiments").resolve(id).resolve("log");
            assertThat(Files.readString(logDir.resolve("nnimanager.log"))).as("Tunekit answered as the dispatcher")
                    .contains("received command from dispatcher: ID");
            assertThat(Files.readString(logDir.resolve("dispatcher.log"))).as("Tunekit's log, not NNI's dispatcher's")
                    .contains("DispatchCommand - command channel: ws://localhost:" + port + "/tuner");
            assertThat(out).as(out).startsWith("0\n");
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).as("stop() ended the manager").isFalse();
            pid = null;
        } finally {
            if (pid != null) {
                ProcessHandle.of(pid).ifPresent(p -> {
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly();
                });
            }
        }
    }
}
