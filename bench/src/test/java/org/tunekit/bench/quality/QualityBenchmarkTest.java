package org.tunekit.bench.quality;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.demo.TestFunctions;

class QualityBenchmarkTest {
    private static final QualityBenchmark.TunerFactory SAMPLER = (setup, seed) ->
            new SamplingTestTuner(seed + ((Number) setup.classArguments(seed).getOrDefault("offset", 0L)).longValue(), Long.MAX_VALUE);

    private static QualityBenchmark.Config config(Path out, int threads) {
        return new QualityBenchmark.Config(List.of(TunerSetup.parse("random"), new TunerSetup("shifted", "random", Map.of("offset", 100L))),
                List.of(TestFunctions.branin(), TestFunctions.nested()), List.of(Mode.SEQUENTIAL, Mode.BATCH), List.of(0L, 1L, 2L), 25, threads,
                out, QualityBenchmark.BUILT_IN_REFERENCE);
    }

    @Test
    void writesEveryOutputAndTheSameSeedsGiveTheSameRowsWhateverTheThreads(@TempDir Path dir) throws Exception {
        StringWriter progress = new StringWriter();
        QualityBenchmark.Outcome one = QualityBenchmark.run(config(dir.resolve("one"), 1), SAMPLER, new PrintWriter(progress));
        QualityBenchmark.Outcome two = QualityBenchmark.run(config(dir.resolve("two"), 2), SAMPLER, new PrintWriter(new StringWriter()));
        assertThat(one.runs()).isEqualTo(2 * 2 * 2 * 3);
        assertThat(one.failed()).isZero();
        assertThat(one.files()).extracting(p -> p.getFileName().toString())
                .containsExactly("regret.csv", "runs.csv", "convergence-branin.svg", "convergence-nested.svg", "summary.md");
        List<String> rows = Files.readAllLines(dir.resolve("one/regret.csv"));
        assertThat(rows).hasSize(1 + 24 * 25).isEqualTo(Files.readAllLines(dir.resolve("two/regret.csv")));
        assertThat(rows.get(1)).startsWith("random,branin,sequential,0,1,");
        assertThat(rows.get(rows.size() - 1)).startsWith("shifted,nested,batch,2,25,");
        // the shifted tuner draws other points: its rows differ from the first tuner's
        assertThat(rows.get(1).substring("random".length())).isNotEqualTo(rows.get(1 + 12 * 25).substring("shifted".length()));
        assertThat(Files.readAllLines(dir.resolve("one/runs.csv"))).hasSize(1 + 24);
        String summary = Files.readString(dir.resolve("one/summary.md"));
        assertThat(summary).contains("## Sequential mode").contains("## Batch mode").contains("| branin | random | 3 |")
                .contains("| branin | *NNI tpe* |").contains("after 25");
        assertThat(progress.toString()).contains("bench: 24 runs (2 tuner(s) x 2 function(s) x 2 mode(s) x 3 seed(s)), 25 trials each, 1 at a time")
                .contains("bench: 24/24 runs (100.0%)");
        for (String f : List.of("convergence-branin.svg", "convergence-nested.svg")) {
            var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(dir.resolve("one").resolve(f).toFile());
            assertThat(doc.getDocumentElement().getTagName()).isEqualTo("svg");
            assertThat(doc.getElementsByTagName("polyline").getLength()).isEqualTo(2 * 2);
        }
    }

    @Test
    void aTunerRejectingOneSpaceFailsThoseRunsOnlyAndSaysSoOncePerGroup(@TempDir Path dir) throws Exception {
        QualityBenchmark.TunerFactory noNesting = (setup, seed) -> new SamplingTestTuner(seed, Long.MAX_VALUE) {
            @Override
            public void updateSearchSpace(org.tunekit.sdk.space.SearchSpace space) {
                if (space.definition().containsKey("model")) {
                    throw new IllegalArgumentException("nested choices are not supported");
                }
                super.updateSearchSpace(space);
            }
        };
        StringWriter progress = new StringWriter();
        QualityBenchmark.Config c = new QualityBenchmark.Config(List.of(TunerSetup.parse("flat")),
                List.of(TestFunctions.branin(), TestFunctions.nested()), List.of(Mode.SEQUENTIAL), List.of(0L, 1L), 10, 1, dir,
                QualityBenchmark.NO_REFERENCE);
        QualityBenchmark.Outcome o = QualityBenchmark.run(c, noNesting, new PrintWriter(progress));
        assertThat(o.runs()).isEqualTo(4);
        assertThat(o.failed()).isEqualTo(2);
        assertThat(progress.toString()).contains("bench: 4/4 runs (100.0%), ").contains(", 2 failed")
                .contains("bench: flat on nested (sequential): 2 of 2 runs failed: java.lang.IllegalArgumentException: nested choices are not supported")
                .doesNotContain("flat on branin");
        assertThat(Files.readAllLines(dir.resolve("regret.csv"))).hasSize(1 + 2 * 10).noneMatch(l -> l.contains("nested"));
        assertThat(Files.readAllLines(dir.resolve("runs.csv"))).contains("flat,nested,sequential,1,0,0.000000,"
                + "java.lang.IllegalArgumentException: nested choices are not supported");
        assertThat(Files.readString(dir.resolve("summary.md")))
                .contains("| nested | flat | 0 | failed: java.lang.IllegalArgumentException: nested choices are not supported |  |\n");
    }

    @Test
    void checksTheTunersBeforeItStarts(@TempDir Path dir) {
        QualityBenchmark.TunerFactory picky = (setup, seed) -> {
            if (!setup.name().equals("random")) {
                throw new IllegalArgumentException("unknown tuner '" + setup.name() + "'; available tuners: random");
            }
            return new SamplingTestTuner(seed, 1);
        };
        QualityBenchmark.Config c = new QualityBenchmark.Config(List.of(TunerSetup.parse("nope")), List.of(TestFunctions.branin()),
                List.of(Mode.SEQUENTIAL), List.of(0L), 5, 1, dir, QualityBenchmark.NO_REFERENCE);
        assertThatThrownBy(() -> QualityBenchmark.checkTuners(c, picky)).hasMessage("unknown tuner 'nope'; available tuners: random");
    }

    @Test
    void refusesDuplicateLabelsSeedsAndEmptyBudgets(@TempDir Path dir) {
        assertThatThrownBy(() -> new QualityBenchmark.Config(List.of(TunerSetup.parse("TPE"), TunerSetup.parse("TPE")),
                List.of(TestFunctions.branin()), List.of(Mode.SEQUENTIAL), List.of(0L), 5, 1, dir, "none"))
                .hasMessageContaining("tuner label 'TPE' is given twice");
        assertThatThrownBy(() -> new QualityBenchmark.Config(List.of(TunerSetup.parse("TPE")),
                List.of(TestFunctions.branin()), List.of(Mode.SEQUENTIAL), List.of(0L, 0L), 5, 1, dir, "none"))
                .hasMessageContaining("a seed is given twice");
        assertThatThrownBy(() -> new QualityBenchmark.Config(List.of(TunerSetup.parse("TPE")),
                List.of(TestFunctions.branin()), List.of(Mode.SEQUENTIAL), List.of(0L), 0, 1, dir, "none"))
                .hasMessageContaining("trials must be at least 1, got 0");
    }

    @Test
    void classArgumentsAreMinimiseAndTheSeedUnderTheTunersOwn() {
        TunerSetup plain = TunerSetup.parse("TPE");
        assertThat(plain.classArguments(7)).containsExactly(Map.entry("optimize_mode", "minimize"), Map.entry("seed", 7L));
        java.util.Map<String, Object> extra = new java.util.LinkedHashMap<>();
        extra.put("seed", null);
        extra.put("constant_liar_type", "worst");
        TunerSetup tuned = TunerSetup.parse("worst=TPE").withArguments(extra);
        assertThat(tuned.label()).isEqualTo("worst");
        assertThat(tuned.name()).isEqualTo("TPE");
        assertThat(tuned.classArguments(7)).containsExactly(Map.entry("optimize_mode", "minimize"), Map.entry("constant_liar_type", "worst"));
    }
}
