package org.tunekit.bench.curves;

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
            return new CurveExperimentTest.KillAtFirstEpoch();
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
                .contains("KillAll: 3 run(s) completed no full-length trial")
                .contains("How early the suite's ranking settles").contains("| rank correlation |");
        List<String> runs = Files.readAllLines(dir.resolve("runs.csv"));
        assertThat(runs).hasSize(7).first().isEqualTo(CurveOutputs.RUNS_HEADER);
        assertThat(runs.get(1)).startsWith("none,0,6,6,0,300,");
        assertThat(runs.get(4)).startsWith("KillAll,0,6,0,6,6,,");
        assertThat(Files.readAllLines(dir.resolve("trials.csv"))).hasSize(1 + 36);
        DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(dir.resolve("regret-vs-epochs.svg").toFile());
    }

    @Test
    void thePresetsJudgingFromEpochTenKeepTheirAlgorithmsName() {
        CurveSetup medianstop = CurveSetup.preset("medianstop@10");
        assertThat(medianstop.algorithm()).isEqualTo("Medianstop");
        assertThat(medianstop.arguments()).containsEntry("start_step", 10);
        assertThat(CurveSetup.preset("Hyperband@10").arguments()).containsEntry("min_budget", 10).containsEntry("R", 50);
        assertThat(CurveSetup.preset("SuccessiveHalving@10").arguments()).containsEntry("min_resource", 10);
        assertThat(CurveSetup.preset("none").algorithm()).isNull();
        assertThat(CurveSetup.preset("Percentile@auto").arguments()).containsEntry("n_warmup_steps", "auto");
        assertThat(CurveSetup.preset("BOHB@auto").arguments()).containsEntry("min_budget", "auto").containsEntry("max_budget", 50);
        assertThat(CurveSetup.preset("Hyperband@auto").arguments()).containsEntry("min_budget", "auto");
        assertThat(CurveSetup.preset("SuccessiveHalving@auto").arguments()).isEqualTo(CurveSetup.preset("SuccessiveHalving").arguments());
        assertThat(CurveSetup.preset("BOHB@1").arguments()).as("BOHB's own setting").isEqualTo(CurveSetup.preset("BOHB").arguments());
        assertThat(CurveSetup.preset("Medianstop").judgingFrom("auto")).hasValueSatisfying(
                m -> assertThat(m.arguments()).containsEntry("start_step", "auto"));
        assertThat(CurveSetup.preset("Curvefitting").judgingFrom("auto")).isEmpty();
        assertThat(CurveSetup.preset("Patience").judgingFrom("10")).isEmpty();
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

    @Test
    void epochsToReachFollowTheTrialThatWouldBeChosenAtEachEnd() {
        org.tunekit.sdk.Parameters poor = org.tunekit.sdk.Parameters.of(Map.of("lr", 1e-4, "batch_size", 16, "width", 0.1, "schedule", "constant"));
        org.tunekit.sdk.Parameters best = org.tunekit.sdk.Parameters.of(Map.of("lr", Math.pow(10, -1.5), "batch_size", 64, "width", 0.7,
                "schedule", "warmup"));
        int e = CurveSuite.EPOCHS;
        List<CurveExperiment.TrialRecord> trials = List.of(
                new CurveExperiment.TrialRecord(0, "T0000", 0, poor, e, e, "SUCCEEDED", 0.5, e),
                new CurveExperiment.TrialRecord(1, "T0001", 1, best, e, 3, "USER_CANCELED", 0.9, e + 3),
                new CurveExperiment.TrialRecord(2, "T0002", 2, best, e, e, "SUCCEEDED", 0.6, 2 * e + 3),
                new CurveExperiment.TrialRecord(3, "T0003", 3, best, e, e, "SUCCEEDED", 0.1, 3 * e + 3));
        CurveRun run = new CurveRun(CurveSetup.preset("none"), 0, new CurveExperiment.RunTrace(trials, 3 * e + 3, false), null);
        assertThat(run.epochsToReach(1.0)).isEqualTo(e);
        assertThat(run.epochsToReach(0.0)).isEqualTo(3 * e + 3);
        assertThat(run.epochsToReach(-1)).isInfinite();
        assertThat(run.regret()).isZero();
        assertThat(run.completed()).isEqualTo(3);
        assertThat(run.killed()).isEqualTo(1);
    }

    /** A run that chose one full-length trial with these parameters. */
    private static CurveRun runChoosing(CurveSetup setup, long seed, org.tunekit.sdk.Parameters p) {
        int e = CurveSuite.EPOCHS;
        return new CurveRun(setup, seed, new CurveExperiment.RunTrace(
                List.of(new CurveExperiment.TrialRecord(0, "T0000", 0, p, e, e, "SUCCEEDED", 0.5, e)), e, false), null);
    }

    @Test
    void theRegretRatioIntervalResamplesSeedsInPairs() {
        org.tunekit.sdk.Parameters good = org.tunekit.sdk.Parameters.of(Map.of("lr", Math.pow(10, -1.5), "batch_size", 64, "width", 0.5,
                "schedule", "warmup"));
        org.tunekit.sdk.Parameters poor = org.tunekit.sdk.Parameters.of(Map.of("lr", Math.pow(10, -1.5), "batch_size", 64, "width", 0.3,
                "schedule", "warmup"));
        double rGood = CurveSuite.regret(good);
        double rPoor = CurveSuite.regret(poor);
        CurveSetup none = CurveSetup.preset("none");
        CurveSetup other = CurveSetup.preset("Medianstop");
        List<CurveRun> runs = new java.util.ArrayList<>();
        for (long seed = 0; seed < 20; seed++) {
            runs.add(runChoosing(none, seed, poor));
            runs.add(runChoosing(other, seed, good));
        }
        assertThat(CurveOutputs.regretRatioInterval(other, runs)).hasValueSatisfying(iv -> {
            assertThat(iv[0]).isCloseTo(rGood / rPoor, org.assertj.core.api.Assertions.within(1e-12));
            assertThat(iv[1]).isCloseTo(rGood / rPoor, org.assertj.core.api.Assertions.within(1e-12));
        });

        List<CurveRun> mixed = new java.util.ArrayList<>();
        for (long seed = 0; seed < 40; seed++) {
            mixed.add(runChoosing(none, seed, seed % 2 == 0 ? good : poor));
            mixed.add(runChoosing(other, seed, seed % 2 == 0 ? poor : good));
        }
        double[] iv = CurveOutputs.regretRatioInterval(other, mixed).orElseThrow();
        assertThat(iv[0]).as("the seeds' noise shows").isLessThan(1).isGreaterThanOrEqualTo(rGood / rPoor);
        assertThat(iv[1]).isGreaterThan(1).isLessThanOrEqualTo(rPoor / rGood);
        assertThat(CurveOutputs.regretRatioInterval(other, mixed).orElseThrow()).as("seeded").containsExactly(iv);
        assertThat(CurveOutputs.regretRatioInterval(other, List.of(runChoosing(none, 0, poor), runChoosing(other, 0, good))))
                .as("one shared seed").isEmpty();
    }
}
