package org.tunekit.bench.quality;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.bench.testing.Commands;
import org.tunekit.bench.testing.SamplerPlugin;

class BenchCommandTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @TempDir
    static Path pluginDir;

    /** The test tuner {@code BenchSampler}, in a plugin jar of its own. */
    @BeforeAll
    static void packPlugin() throws Exception {
        SamplerPlugin.pack(pluginDir);
    }

    private int run(String... args) {
        args = concat(args, "--plugins", pluginDir.toString());
        return Commands.execute(new BenchCommand(), args, out, err);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void runsACatalogTunerEndToEndAndTheSameSeedsGiveTheSameCsv(@TempDir Path dir) throws Exception {
        String[] common = {"--tuners", "BenchSampler,other=bench_sampler", "--tuner-args", "other={\"offset\": 1000}",
            "--functions", "branin,mixed", "--seeds", "0..2", "--trials", "25"};
        assertThat(run(concat(common, "--out", dir.resolve("a").toString(), "--threads", "2"))).as(err()).isZero();
        assertThat(run(concat(common, "--out", dir.resolve("b").toString(), "--threads", "1"))).as(err()).isZero();
        List<String> a = Files.readAllLines(dir.resolve("a/regret.csv"));
        assertThat(a).hasSize(1 + 2 * 2 * 2 * 3 * 25).isEqualTo(Files.readAllLines(dir.resolve("b/regret.csv")));
        assertThat(a).anyMatch(l -> l.startsWith("other,mixed,batch,2,25,"));
        assertThat(err()).contains("bench: 24 runs").contains("bench: 24/24 runs (100.0%)");
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("24 runs, 0 failed; wrote:").contains("summary.md");
        assertThat(Files.readString(dir.resolve("a/summary.md"))).contains("| mixed | other | 3 |").contains("*NNI tpe*");
    }

    @Test
    void theSuiteOptionChoosesTheFunctionsAndFunctionsFromEitherSetAreAccepted(@TempDir Path dir) throws Exception {
        assertThat(run("--tuners", "BenchSampler", "--suite", "highdim", "--modes", "sequential", "--seeds", "0", "--trials", "3",
                "--out", dir.resolve("h").toString())).as(err()).isZero();
        assertThat(Files.readAllLines(dir.resolve("h/regret.csv")).stream().skip(1).map(l -> l.split(",")[1]).distinct())
                .containsExactly("rosenbrock8", "ackley10", "styblinski10", "rastrigin10", "schwefel10", "levy20");
        assertThat(run("--tuners", "BenchSampler", "--functions", "levy20,branin", "--modes", "sequential", "--seeds", "0",
                "--trials", "3", "--out", dir.resolve("f").toString())).as(err()).isZero();
        assertThat(Files.readAllLines(dir.resolve("f/regret.csv")).stream().skip(1).map(l -> l.split(",")[1]).distinct())
                .containsExactly("levy20", "branin");
    }

    @Test
    void aFinishedBenchmarkIsSummarisedAgainWithTheReferenceFigures(@TempDir Path dir) throws Exception {
        assertThat(run("--tuners", "BenchSampler", "--functions", "branin,levy20", "--seeds", "0..2", "--trials", "25", "--reference", "none", "--threads", "1",
                "--out", dir.toString())).as(err()).isZero();
        String before = Files.readString(dir.resolve("summary.md"));
        List<String> regret = Files.readAllLines(dir.resolve("regret.csv"));
        assertThat(before).doesNotContain("NNI");
        assertThat(run("--summarise", dir.toString())).as(err()).isZero();
        String after = Files.readString(dir.resolve("summary.md"));
        assertThat(after).contains("*NNI tpe*").contains("| levy20 | *NNI tpe* |").contains("| levy20 | *Optuna cmaes* |")
                .contains("1 run(s) at a time").doesNotContain("written again");
        // the Tunekit rows are those of the run: the same quartiles (the bold may move to a reference row, and
        // runs.csv keeps tuner seconds to the microsecond, so the last cell is left out)
        List<String> rows = before.lines().filter(l -> l.startsWith("| branin | BenchSampler") || l.startsWith("| levy20 | BenchSampler")).toList();
        assertThat(rows).hasSize(4);
        for (String line : rows) {
            String cells = line.replace("**", "").substring(0, line.replace("**", "").lastIndexOf(" | ", line.replace("**", "").length() - 3));
            assertThat(after.replace("**", "")).contains(cells);
        }
        assertThat(Files.readAllLines(dir.resolve("regret.csv"))).isEqualTo(regret);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("12 runs read; wrote:");
    }

    @Test
    void summarisingADirectoryWithoutResultsNamesTheFile(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("regret.csv"), "tuner,function,mode,seed,trial,best_so_far_regret\nA,branin,sequential,0,2,1.0\n");
        Files.writeString(dir.resolve("runs.csv"), "tuner,function,mode,seed,evaluated,tuner_seconds,failure\n");
        assertThat(run("--summarise", dir.toString())).isEqualTo(1);
        assertThat(err()).contains("regret.csv line 2 trial 2 does not follow trial 0");
        assertThat(run("--summarise", dir.resolve("nothing").toString())).isEqualTo(1);
        assertThat(err()).contains("nothing");
    }

    @Test
    void anUnknownTunerStopsBeforeAnyRun(@TempDir Path dir) {
        assertThat(run("--tuners", "NoSuchTuner", "--out", dir.toString())).isEqualTo(2);
        assertThat(err()).contains("unknown tuner 'NoSuchTuner'; available tuners: BenchSampler");
        assertThat(dir.resolve("regret.csv")).doesNotExist();
    }

    @Test
    void aTunerRejectingItsArgumentsStopsBeforeAnyRun(@TempDir Path dir) {
        assertThat(run("--tuners", "BenchSampler", "--tuner-args", "BenchSampler={\"seed\": null}", "--out", dir.toString()))
                .isEqualTo(2);
        assertThat(err()).contains("'seed' is required here");
    }

    @Test
    void badOptionsAreNamed(@TempDir Path dir) {
        assertThat(run("--tuners", "BenchSampler", "--functions", "rosenbrock", "--out", dir.toString())).isEqualTo(2);
        assertThat(err()).contains("unknown function 'rosenbrock'; available: branin, hartmann6, ackley5, mixed, nested, rosenbrock8, "
                + "ackley10, styblinski10, rastrigin10, schwefel10, levy20");
        assertThat(run("--tuners", "BenchSampler", "--suite", "huge", "--out", dir.toString())).isEqualTo(2);
        assertThat(err()).contains("unknown --suite 'huge'; available: classic, highdim, all");
        assertThat(run("--tuners", "BenchSampler", "--modes", "parallel", "--out", dir.toString())).isEqualTo(2);
        assertThat(err()).contains("unknown mode 'parallel'");
        assertThat(run("--tuners", "BenchSampler", "--tuner-args", "TPE={}", "--out", dir.toString())).isEqualTo(2);
        assertThat(err()).contains("--tuner-args names tuner 'TPE', which is not among the tuners [BenchSampler]");
    }

    @Test
    void seedListsAndTunerArguments() {
        assertThat(BenchCommand.parseSeeds("0..3,7, 9..10")).containsExactly(0L, 1L, 2L, 3L, 7L, 9L, 10L);
        assertThatThrownBy(() -> BenchCommand.parseSeeds("0..x")).hasMessageContaining("'0..x' is not a number or a range");
        assertThatThrownBy(() -> BenchCommand.parseSeeds("5..1")).hasMessageContaining("must go upwards");
        assertThat(BenchCommand.tunerArguments(List.of("TPE={\"n_startup_jobs\": 10}", "TPE={\"seed\": null}")))
                .containsExactly(Map.entry("TPE", new java.util.LinkedHashMap<>(java.util.Collections.<String, Object>emptyMap()) {
                    {
                        put("n_startup_jobs", 10L);
                        put("seed", null);
                    }
                }));
        assertThatThrownBy(() -> BenchCommand.tunerArguments(List.of("TPE=[1]"))).hasMessageContaining("must be a JSON object");
        assertThatThrownBy(() -> BenchCommand.tunerArguments(List.of("TPE={"))).hasMessageContaining("invalid JSON in --tuner-args of TPE");
    }

    private static String[] concat(String[] a, String... b) {
        String[] r = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }
}
