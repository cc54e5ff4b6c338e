package org.tunekit.dispatcher.curves;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.dispatcher.plugin.AlgorithmKind;
import org.tunekit.sdk.Advisor;
import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.Tuner;

class CurveBenchmarkTest {

    /** The test tuner as "Sample", the kill-at-first-epoch assessor as "KillAll", and no advisor. */
    static final CurveBenchmark.Plugins PLUGINS = new CurveBenchmark.Plugins() {
        @Override
        public Tuner tuner(String name, Map<String, Object> arguments) {
            return new SampleTuner(((Number) arguments.get("seed")).longValue());
        }

        @Override
        public Assessor assessor(String name, Map<String, Object> arguments) {
            return new CurveManagerTest.KillAtFirstEpoch();
        }

        @Override
        public Advisor advisor(String name, Map<String, Object> arguments) {
            throw new AssertionError("no advisor here");
        }

        @Override
        public boolean has(AlgorithmKind kind, String name) {
            return kind == AlgorithmKind.TUNER && name.equals("Sample") || kind == AlgorithmKind.ASSESSOR && name.equals("KillAll");
        }
    };

    @Test
    void writesTheOutputsAndSaysWhichAdvisorsAreMissing(@TempDir Path dir) throws Exception {
        List<CurveSetup> setups = List.of(CurveSetup.preset("none"), new CurveSetup("KillAll", "KillAll", null, Map.of()),
                CurveSetup.preset("hyperband"));
        CurveBenchmark.Config config = new CurveBenchmark.Config(setups, "Sample", List.of(0L, 1L, 2L), 6, 2, 0.5, 2, dir);
        StringWriter progress = new StringWriter();
        CurveBenchmark.Outcome outcome = CurveBenchmark.run(config, PLUGINS, new PrintWriter(progress));

        assertThat(outcome.runs()).isEqualTo(6);
        assertThat(outcome.failed()).isZero();
        assertThat(outcome.skipped()).singleElement().asString().contains("advisor 'Hyperband' is not present");
        assertThat(progress.toString()).contains("Hyperband skipped");
        assertThat(outcome.summary())
                .contains("| none | 300 [300, 300] | 100 [100, 100] |")
                .contains("| KillAll | 6 [6, 6] | 2 [2, 2] | n/a |")
                .contains("KillAll: 3 run(s) completed no full-length trial");
        List<String> runs = Files.readAllLines(dir.resolve("runs.csv"));
        assertThat(runs).hasSize(7).first().isEqualTo(CurveOutputs.RUNS_HEADER);
        assertThat(runs.get(1)).startsWith("none,0,6,6,0,300,");
        assertThat(runs.get(4)).startsWith("KillAll,0,6,0,6,6,,");
        assertThat(Files.readAllLines(dir.resolve("trials.csv"))).hasSize(1 + 36);
        DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(dir.resolve("regret-vs-epochs.svg").toFile());
    }

    @Test
    void resultsDoNotDependOnTheNumberOfThreads(@TempDir Path dir) throws Exception {
        List<CurveSetup> setups = List.of(CurveSetup.preset("none"), new CurveSetup("KillAll", "KillAll", null, Map.of()));
        String one = CurveOutputs.runsCsv(CurveBenchmark.runAll(
                new CurveBenchmark.Config(setups, "Sample", List.of(0L, 1L, 2L), 5, 3, 0.5, 1, dir), setups, PLUGINS,
                new PrintWriter(new StringWriter())));
        String three = CurveOutputs.runsCsv(CurveBenchmark.runAll(
                new CurveBenchmark.Config(setups, "Sample", List.of(0L, 1L, 2L), 5, 3, 0.5, 3, dir), setups, PLUGINS,
                new PrintWriter(new StringWriter())));
        assertThat(three).isEqualTo(one);
    }
}
