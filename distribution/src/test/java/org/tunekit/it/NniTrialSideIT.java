package org.tunekit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The Python example written for NNI ({@code import nni}) runs unchanged through {@code tunekit run}
 * with NNI's own trial-side code of both generations: NNI 3's (over HTTP by default, over files when
 * asked) and NNI 2.x's (files only). The trees come from {@code distribution/nni-trial-side.sh}
 * ({@code $NNI_TRIAL_SIDE}, default {@code ~/nni-trial-side}); without them the test is skipped.
 */
class NniTrialSideIT {
    private static final Path TREES = Path.of(System.getenv().getOrDefault("NNI_TRIAL_SIDE",
            System.getProperty("user.home") + "/nni-trial-side"));
    private static final String PYTHON = "/usr/bin/python3";

    @TempDir
    Path tmp;

    @ParameterizedTest(name = "NNI {0}, --trial-channel {1}")
    @CsvSource({"v3, both, request_parameter", "v3, file, parameter.cfg", "v2, both, parameter.cfg"})
    void theNniExampleRunsUnchanged(String version, String channel, String expectedChannel) throws Exception {
        Path tree = TREES.resolve(version);
        assumeTrue(Files.isDirectory(tree.resolve("nni")), "NNI's " + version + " trial side is not prepared at " + tree
                + " (run distribution/nni-trial-side.sh with a fetch of github:microsoft/nni, or set NNI_TRIAL_SIDE)");
        assumeTrue(Files.isExecutable(Path.of(PYTHON)), PYTHON + " is missing");
        List<String> cmd = new ArrayList<>(List.of(TunekitProcess.HOME.resolve("tunekit").toString(), "run",
                "examples/python-nni/config.yml", "--trial-channel", channel));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(TunekitProcess.HOME.toFile());
        pb.environment().put("TUNEKIT_NO_BUILD", "1");
        pb.environment().put("TUNEKIT_EXPERIMENTS_DIR", tmp.toString());
        pb.environment().put("PYTHONPATH", tree.toString());
        pb.environment().put("PATH", "/usr/bin:" + System.getenv("PATH"));
        pb.redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).contains("Best parameters");
        Matcher m = Pattern.compile("Experiment ([a-z0-9]{8})").matcher(out);
        assertThat(m.find()).isTrue();
        Path folder = tmp.resolve(m.group(1));
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + folder.resolve("experiment.db"))) {
            assertThat(scalar(c, "SELECT count(*) FROM trials")).isEqualTo(20);
            assertThat(scalar(c, "SELECT count(*) FROM trials WHERE status NOT IN ('SUCCEEDED', 'EARLY_STOPPED')")).as(out).isZero();
            assertThat(scalar(c, "SELECT count(*) FROM trials WHERE status = 'SUCCEEDED' AND final_value BETWEEN 0 AND 1")).isPositive();
            assertThat(scalar(c, "SELECT count(*) FROM metrics WHERE type = 'PERIODICAL'")).isGreaterThanOrEqualTo(20 * 3);
        }
        // which channel the trials used: NNI's file channel leaves .nni/metrics behind, the HTTP one does not
        try (var trials = Files.list(folder.resolve("trials"))) {
            for (Path t : trials.toList()) {
                boolean usedFiles = Files.exists(t.resolve(".nni").resolve("metrics")) && Files.size(t.resolve(".nni").resolve("metrics")) > 0;
                assertThat(usedFiles).as(t.toString()).isEqualTo(expectedChannel.equals("parameter.cfg"));
            }
        }
    }

    @org.junit.jupiter.api.Test
    void nnisSklearnExampleRunsUnchangedOnThisMachine() throws Exception {
        NniExamples.assumeSklearnExample();
        Path code = NniExamples.copySklearn(tmp.resolve("code-sklearn"), false);
        Path config = code.resolve("config.yml");
        Files.writeString(config, NniExamples.sklearnConfig(code, "platform: local\n", 6));
        ProcessBuilder pb = new ProcessBuilder(TunekitProcess.HOME.resolve("tunekit").toString(), "run", config.toString())
                .directory(TunekitProcess.HOME.toFile()).redirectErrorStream(true);
        pb.environment().put("TUNEKIT_NO_BUILD", "1");
        pb.environment().put("TUNEKIT_EXPERIMENTS_DIR", tmp.toString());
        pb.environment().put("PYTHONPATH", NniExamples.NNI_V3.toString());
        pb.environment().put("PATH", "/usr/bin:" + System.getenv("PATH"));
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(5, TimeUnit.MINUTES)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        Matcher m = Pattern.compile("Experiment ([a-z0-9]{8})").matcher(out);
        assertThat(m.find()).isTrue();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + tmp.resolve(m.group(1)).resolve("experiment.db"))) {
            // an SVC's accuracy on the digits
            assertThat(scalar(c, "SELECT count(*) FROM trials WHERE status = 'SUCCEEDED' AND final_value > 0.5")).as(out).isEqualTo(6);
        }
    }

    private static long scalar(Connection c, String sql) throws Exception {
        try (ResultSet r = c.createStatement().executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }
}
