package org.tunekit.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.runner.results.ExperimentResults;
import org.tunekit.runner.results.ResultsOutput;
import org.tunekit.runner.results.TrialRecord;
import org.tunekit.runner.results.TrialStatus;

/** A real experiment whose shell trials report metric objects, and the Pareto front its results show. */
class MultiObjectiveRunTest {
    @TempDir
    Path tmp;

    private static final String TRIAL = RunnerFixture.FILE_TRIAL_HELPERS + """
            latency=$(awk "BEGIN { d = $x - 0.3; if (d < 0) d = -d; print d + 0.1 }")
            val='{\\"default\\": '"$x"', \\"accuracy\\": '"$x"', \\"latency\\": '"$latency"'}'
            frame "{\\"parameter_id\\": $id, \\"trial_job_id\\": \\"$NNI_TRIAL_JOB_ID\\", \\"type\\": \\"FINAL\\", \\"sequence\\": 0, \\"value\\": \\"$val\\"}"
            """;

    private static String config(String classArgs, String tuner) {
        return """
                searchSpace:
                  x: {_type: uniform, _value: [0, 1]}
                trialCommand: sh t.sh
                trialConcurrency: 2
                maxTrialNumber: 12
                tuner:
                  name: %s
                  classArgs: %s
                """.formatted(tuner, classArgs);
    }

    private static double number(Object metric, String key) {
        return ((Number) ((Map<?, ?>) metric).get(key)).doubleValue();
    }

    @Test
    void theParetoFrontOfDictMetricsIsShownWrittenAndMeasured() throws Exception {
        RunnerFixture f = new RunnerFixture(tmp).trial("t.sh", TRIAL);
        String args = "{seed: 5, objectives: [{metric: accuracy, mode: maximize, reference: 0}, {metric: latency, mode: minimize, reference: 1}]}";
        assertThat(f.run(config(args, "Random"))).isEqualTo(LocalRunner.Outcome.DONE);
        ExperimentResults r = f.results();
        assertThat(r.trials()).hasSize(12).allSatisfy(t -> assertThat(t.status()).as(String.valueOf(t.message())).isEqualTo(TrialStatus.SUCCEEDED));
        assertThat(r.objectives()).hasSize(2);

        // the front by the definition: no other trial at least as good in both and better in one
        List<TrialRecord> expected = new ArrayList<>();
        for (TrialRecord t : r.trials()) {
            boolean dominated = false;
            for (TrialRecord o : r.trials()) {
                double ta = number(t.finalMetric(), "accuracy");
                double tl = number(t.finalMetric(), "latency");
                double oa = number(o.finalMetric(), "accuracy");
                double ol = number(o.finalMetric(), "latency");
                dominated |= oa >= ta && ol <= tl && (oa > ta || ol < tl);
            }
            if (!dominated) {
                expected.add(t);
            }
        }
        expected.sort(Comparator.comparingDouble((TrialRecord t) -> -number(t.finalMetric(), "accuracy")));
        assertThat(expected.size()).isBetween(2, 11);
        // its hypervolume against (accuracy 0, latency 1): a rectangle per trial, by decreasing accuracy
        double hv = 0;
        double floor = 1;
        for (TrialRecord t : expected) {
            double a = number(t.finalMetric(), "accuracy");
            double l = number(t.finalMetric(), "latency");
            hv += a * (floor - l);
            floor = l;
        }

        String table = ResultsOutput.paretoTable(r, 200).orElseThrow();
        assertThat(table).startsWith("Pareto front (maximize accuracy, minimize latency): " + expected.size() + " of 12 trials");
        for (TrialRecord t : expected) {
            assertThat(table).contains(t.trialJobId());
        }
        assertThat(table).contains("reference point accuracy=0 (config), latency=1 (config)");
        assertThat(ResultsOutput.summaryLine(r, java.time.Clock.systemUTC())).contains("Pareto front " + expected.size() + " trials, hypervolume ");
        String hvText = table.lines().filter(l -> l.startsWith("Hypervolume ")).findFirst().orElseThrow();
        assertThat(Double.parseDouble(hvText.substring("Hypervolume ".length(), hvText.indexOf(',')))).isCloseTo(hv, within(1e-5));

        // tunekit results prints it, and writes pareto.csv, experiment.json with the hypervolume, and a report with the plot
        StringWriter printed = new StringWriter();
        Path out = tmp.resolve("out");
        try (PrintWriter w = new PrintWriter(printed)) {
            ResultsCommand.print(r, 5, w);
            ResultsCommand.writeOutputs(r, out, w);
        }
        assertThat(printed.toString()).contains("Pareto front (maximize accuracy").contains("pareto.csv");
        List<String> csv = Files.readAllLines(out.resolve("pareto.csv"));
        assertThat(csv.get(0)).isEqualTo("sequence,trial_job_id,parameter_id,accuracy,latency,x");
        assertThat(csv).hasSize(expected.size() + 1);
        assertThat(csv.get(1)).contains(expected.get(0).trialJobId());
        String json = Files.readString(out.resolve("experiment.json"));
        assertThat(json).contains("\"pareto\"").contains("\"hypervolume\": " + Double.toString(hv).substring(0, 8)).contains("\"referenceFrom\"");
        String html = Files.readString(out.resolve("report.html"));
        assertThat(html).contains("<h2>Pareto front</h2>").contains("red diamonds are the trials no other trial dominates");
        assertThat(html).contains("reference point accuracy=0 (config), latency=1 (config)");
    }

    @Test
    void withoutReferencesThePointIsTheFrontsWorstPlusATenthOfItsRange() throws Exception {
        RunnerFixture f = new RunnerFixture(tmp).trial("t.sh", TRIAL);
        String args = "{seed: 9, objectives: [{metric: accuracy, mode: maximize}, {metric: latency, mode: minimize}]}";
        assertThat(f.run(config(args, "Sobol"))).isEqualTo(LocalRunner.Outcome.DONE);
        ExperimentResults r = f.results();
        String table = ResultsOutput.paretoTable(r, 200).orElseThrow();
        assertThat(table).contains("accuracy=").contains("(front's worst + 10% of its range)");
        // no objective on the default key: the ranking follows the first objective, accuracy, maximised
        assertThat(r.maximize()).isTrue();
    }

    @Test
    void theDefaultKeysObjectiveGivesTheDirectionOfTheRanking() throws Exception {
        RunnerFixture f = new RunnerFixture(tmp).trial("t.sh", TRIAL);
        String args = "{seed: 4, objectives: [{metric: default, mode: minimize}, {metric: latency, mode: minimize}]}";
        assertThat(f.run(config(args, "Random"))).isEqualTo(LocalRunner.Outcome.DONE);
        ExperimentResults r = f.results();
        assertThat(r.maximize()).isFalse();
        assertThat(r.best().orElseThrow().finalValue()).isEqualTo(r.trials().stream().mapToDouble(TrialRecord::finalValue).min().orElseThrow());
        assertThat(ResultsOutput.paretoTable(r, 200).orElseThrow()).contains("minimize default, minimize latency");
    }

    @Test
    void aSingleObjectiveExperimentShowsNoFront() throws Exception {
        RunnerFixture f = new RunnerFixture(tmp).trial("t.sh", TRIAL);
        assertThat(f.run(config("{seed: 5, optimize_mode: maximize}", "Random"))).isEqualTo(LocalRunner.Outcome.DONE);
        ExperimentResults r = f.results();
        assertThat(r.objectives()).isEmpty();
        assertThat(ResultsOutput.paretoTable(r, 200)).isEmpty();
        assertThat(ResultsOutput.summaryLine(r, java.time.Clock.systemUTC())).doesNotContain("Pareto");
        // the dict metric's default key is the value, as before
        assertThat(r.best().orElseThrow().finalValue()).isEqualTo(r.trials().stream().mapToDouble(TrialRecord::finalValue).max().orElseThrow());
    }
}
