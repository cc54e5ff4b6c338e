package org.tunekit.runner.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.tunekit.runner.results.Trials.T0;
import static org.tunekit.runner.results.Trials.experiment;
import static org.tunekit.runner.results.Trials.trial;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.tunekit.sdk.space.SearchSpace;

class ReportTest {
    private static final Clock CLOCK = Clock.fixed(T0.plusSeconds(86_400), ZoneOffset.UTC);
    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    private static final Pattern IMG = Pattern.compile(
            "<figure id=\"([^\"]+)\">\\s*<img src=\"([^\"]+)\" width=\"(\\d+)\" height=\"(\\d+)\"");

    @TempDir
    Path dir;

    private String write(ExperimentResults r) throws IOException {
        Path file = ResultsOutput.writeReport(r, dir.resolve("out"), CLOCK);
        assertThat(file).isEqualTo(dir.resolve("out/report.html"));
        try (Stream<Path> files = Files.list(file.getParent())) {
            assertThat(files).containsExactly(file);
        }
        String html = Files.readString(file);
        assertThat(html).startsWith("<!DOCTYPE html>").endsWith("</html>\n");
        return html;
    }

    /** The figures' ids, having checked that each embeds a PNG that reads at the size the page gives. */
    private static List<String> checkedFigures(String html) throws IOException {
        List<String> ids = new ArrayList<>();
        Matcher m = IMG.matcher(html);
        while (m.find()) {
            ids.add(m.group(1));
            assertThat(m.group(2)).startsWith("data:image/png;base64,");
            byte[] png = Base64.getDecoder().decode(m.group(2).substring("data:image/png;base64,".length()));
            assertThat(Arrays.copyOf(png, 8)).containsExactly(PNG_SIGNATURE);
            BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
            assertThat(image).as(m.group(1)).isNotNull();
            assertThat(image.getWidth()).isPositive().isEqualTo(Integer.parseInt(m.group(3)));
            assertThat(image.getHeight()).isPositive().isEqualTo(Integer.parseInt(m.group(4)));
        }
        assertThat(html.split("<img ", -1)).hasSize(ids.size() + 1);
        return ids;
    }

    @Test
    void aSampleExperimentHasEveryPartAndPlotsThatReadAsPngs() throws IOException {
        ExperimentResults r = SampleExperiment.create(60, 7);
        String html = write(r);
        assertThat(checkedFigures(html)).containsExactly("final-values", "intermediate", "parameter-activation",
                "parameter-batch_size", "parameter-dropout", "parameter-learning_rate", "parameter-optimizer",
                "parameter-optimizer.beta1", "parameter-optimizer.momentum");
        assertThat(html).contains("<h1>cifar10 &lt;small&gt; net &amp; friends</h1>", "Experiment k3xq7w9a",
                "<td>STOPPED</td>", "maximize (higher is better)", "60 trials: 29 succeeded, 28 early stopped, 2 failed,"
                + " 1 running", "<td>" + ResultsOutput.summaryLine(r, CLOCK).replaceAll(".*elapsed ", "") + "</td>",
                "<h2>Best parameters</h2>", "<h2>Best trials</h2>", "All trials (60)",
                "RuntimeError: CUDA out of memory");
        TrialRecord best = Values.ranking(r).get(0);
        assertThat(html).contains(Values.number(best.finalValue()) + " (trial " + best.trialJobId());
    }

    @Test
    void escapesEveryTextFromTheResults() throws IOException {
        TrialRecord t = new TrialRecord(0, "<b>id</b>", 0, Map.of("<img src=x>", "\"'&", "opt",
                Map.of("_name", "<i>", "k", "</td>")), TrialStatus.FAILED, 1.0, null, List.of(0.5, 1.0), T0, T0,
                1, "<script>alert(1)</script>");
        String html = write(new ExperimentResults("<id>", "<script>alert('x')</script>", false, T0, null, "ERROR",
                List.of(t)));
        assertThat(html).doesNotContain("<script", "<b>", "<i>", "<img src=x", "</td>\"")
                .contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;", "&lt;b&gt;id&lt;/b&gt;",
                        "&lt;img src=x&gt;", "&quot;&#39;&amp;", "&lt;i&gt;(k=&lt;/td&gt;)");
        checkedFigures(html);
    }

    @Test
    void noTrialsStillMakeAPage() throws IOException {
        String html = write(new ExperimentResults("e0", null, true, T0, null, "RUNNING", List.of()));
        assertThat(checkedFigures(html)).isEmpty();
        assertThat(html).contains("<h1>e0</h1>", "no trials", "Nothing to plot yet", "All trials (0)");
    }

    @Test
    void trialsWithoutFinalValuesStillPlotTheirCurves() throws IOException {
        ExperimentResults r = experiment(true, List.of(
                trial(0, TrialStatus.RUNNING, null, Map.of("x", 1L), List.of(0.1, Double.NaN, 0.3), 0),
                trial(1, TrialStatus.EARLY_STOPPED, Double.NaN, Map.of("x", 2L), List.of(0.2), 0),
                trial(2, TrialStatus.FAILED, Double.POSITIVE_INFINITY, Map.of("x", 3L), List.of(), 0)));
        String html = write(r);
        assertThat(checkedFigures(html)).containsExactly("intermediate");
    }

    @Test
    void oneTrialPlotsEverything() throws IOException {
        String html = write(experiment(false, List.of(trial(0, TrialStatus.SUCCEEDED, 0.5,
                Map.of("lr", 0.1, "kind", "a"), List.of(0.9), 1))));
        assertThat(checkedFigures(html)).containsExactly("final-values", "intermediate", "parameter-kind",
                "parameter-lr");
    }

    @Test
    void manyTrialsAndAwkwardParameters() throws IOException {
        List<TrialRecord> trials = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            List<Double> curve = new ArrayList<>();
            for (int e = 0; e < 1 + i % 30; e++) {
                curve.add(Math.exp(-e / 5.0) * (1 + i % 7));
            }
            Map<String, Object> p = Map.of(
                    "scale", Math.pow(10, -6 + i % 9),          // log axis
                    "constant", 4L,                              // one value
                    "mixed", i % 3 == 0 ? "auto" : (Object) (long) (i % 5), // categories from mixed types
                    "choice", "a rather long category name number " + i % 12, // long labels, cut alike
                    "flag", i % 2 == 0,
                    "empty", i % 4 == 0 ? "" : " ");
            TrialStatus s = i % 3 == 0 ? TrialStatus.EARLY_STOPPED : TrialStatus.SUCCEEDED;
            Double value = i % 10 == 9 ? Double.valueOf(Double.NaN)
                    : s == TrialStatus.SUCCEEDED ? Double.valueOf(1e-3 * (1 + i)) : null;
            trials.add(trial(i, s, value, p, curve, 10));
        }
        String html = write(experiment(false, trials));
        assertThat(checkedFigures(html)).containsExactly("final-values", "intermediate", "parameter-choice",
                "parameter-constant", "parameter-empty", "parameter-flag", "parameter-mixed", "parameter-scale");
        assertThat(html).contains("The 20 best of 300 trials with a final value.");
    }

    @Test
    void aLostTrialIsNotAmongTheBestTrialsNorTheBestValue() throws IOException {
        ExperimentResults r = experiment(true, List.of(
                trial(0, TrialStatus.SUCCEEDED, 0.5, Map.of("lr", 0.1), List.of(0.4), 30),
                trial(1, TrialStatus.LOST, 0.99, Map.of("lr", 0.2), List.of(0.9), 30),
                trial(2, TrialStatus.SUCCEEDED, 0.7, Map.of("lr", 0.2), List.of(0.6), 30)));
        String html = write(r);
        String best = html.substring(html.indexOf("<h2>Best trials</h2>"), html.indexOf("<h2>Plots</h2>"));
        assertThat(best).contains("T0002", "T0000").doesNotContain("T0001", "0.99");
        assertThat(html).contains("0.7 (trial T0002").doesNotContain("0.99 (trial T0001");
        assertThat(checkedFigures(html)).containsExactly("final-values", "intermediate", "parameter-lr");
        // with only a LOST trial's value there is no best, and the plots still draw
        String lostOnly = write(experiment(true, List.of(trial(0, TrialStatus.LOST, 0.99, Map.of("lr", 0.2), List.of(0.9), 30))));
        assertThat(lostOnly).contains("<h2>Best trials</h2>\n<p class=\"empty\">No trial has a final value.</p>");
        assertThat(checkedFigures(lostOnly)).containsExactly("final-values", "intermediate", "parameter-lr");
    }

    @Test
    void aChoiceIsDrawnAsItsOptionsInTheSearchSpacesOrderNumbersToo() {
        Map<String, Object> space = Map.of(
                "batch_size", Map.of("_type", "choice", "_value", List.of(16L, 32L, 64L, 128L)),
                "activation", Map.of("_type", "choice", "_value", List.of("tanh", "relu", "gelu")),
                "lr", Map.of("_type", "loguniform", "_value", List.of(1e-4, 1e-1)),
                "optimizer", Map.of("_type", "choice", "_value", List.of(
                        Map.of("_name", "sgd", "momentum", Map.of("_type", "uniform", "_value", List.of(0.5, 0.99))),
                        Map.of("_name", "adam", "beta1", Map.of("_type", "choice", "_value", List.of(0.9, 0.99))))));
        List<TrialRecord> trials = List.of(
                trial(0, 0.61, Map.of("batch_size", 128L, "activation", "relu", "lr", 0.01,
                        "optimizer", Map.of("_name", "adam", "beta1", 0.99))),
                trial(1, 0.72, Map.of("batch_size", 16L, "activation", "gelu", "lr", 0.001,
                        "optimizer", Map.of("_name", "sgd", "momentum", 0.7))),
                trial(2, 0.55, Map.of("batch_size", 64L, "activation", "relu", "lr", 0.05,
                        "optimizer", Map.of("_name", "adam", "beta1", 0.9))));
        ExperimentResults r = new ExperimentResults("e", null, true, T0, null, "DONE", trials, List.of(), space);
        SearchSpace parsed = SearchSpace.parse(space);

        // numbers of a choice: one category per option, 32 too though no trial took it, each trial at its option's place
        assertThat(Plots.choiceOptions(parsed, List.of("batch_size"))).containsExactly(16L, 32L, 64L, 128L);
        Plots.ParameterAxis batch = Plots.parameterAxis(List.of(128L, 16L, 64L), new int[] {0, 1, 2},
                Plots.choiceOptions(parsed, List.of("batch_size")));
        assertThat(batch.categories()).containsExactly("16", "32", "64", "128");
        assertThat(batch.xs()).hasSize(3);
        assertThat(batch.xs()[0]).isCloseTo(3, org.assertj.core.data.Offset.offset(0.25));
        assertThat(batch.xs()[1]).isCloseTo(0, org.assertj.core.data.Offset.offset(0.25));
        assertThat(batch.xs()[2]).isCloseTo(2, org.assertj.core.data.Offset.offset(0.25));
        // the tick labels the chart gets: the options at the whole positions, nothing between them
        XYChart chart = new XYChartBuilder().build();
        Plots.CategoryLayout.of(batch.categories(), Plots.SMALL_WIDTH).apply(chart);
        Function<Double, String> ticks = chart.getStyler().getxAxisTickLabelsFormattingFunction();
        assertThat(List.of(0.0, 1.0, 2.0, 3.0)).extracting(ticks::apply).containsExactly("16", "32", "64", "128");
        assertThat(ticks.apply(1.5)).isBlank();
        assertThat(chart.getStyler().getXAxisMin()).isEqualTo(-0.5);
        assertThat(chart.getStyler().getXAxisMax()).isEqualTo(3.5);

        // strings in the space's order, not sorted; a nested choice's name and a choice under it likewise
        assertThat(Plots.parameterAxis(List.of("relu", "gelu"), new int[] {0, 1},
                Plots.choiceOptions(parsed, List.of("activation"))).categories()).containsExactly("tanh", "relu", "gelu");
        assertThat(Plots.choiceOptions(parsed, List.of("optimizer"))).containsExactly("sgd", "adam");
        assertThat(Plots.choiceOptions(parsed, List.of("optimizer", "beta1"))).containsExactly(0.9, 0.99);
        // what is not a choice stays an axis of numbers
        assertThat(Plots.choiceOptions(parsed, List.of("optimizer", "momentum"))).isNull();
        assertThat(Plots.choiceOptions(parsed, List.of("lr"))).isNull();
        Plots.ParameterAxis lr = Plots.parameterAxis(List.of(0.01, 0.001), new int[] {0, 1}, null);
        assertThat(lr.categories()).isNull();
        assertThat(lr.xs()).containsExactly(0.01, 0.001);
        // without the search space numbers read as numbers, as before
        assertThat(Plots.choiceOptions(null, List.of("batch_size"))).isNull();

        // and the report's plots are drawn so
        Map<String, String> captions = new java.util.HashMap<>();
        Plots.parameters(r).forEach(p -> captions.put(p.id(), p.caption()));
        assertThat(captions).containsEntry("parameter-batch_size", "choice of 4 options, points spread sideways to be seen")
                .containsEntry("parameter-activation", "choice of 3 options, points spread sideways to be seen")
                .containsEntry("parameter-optimizer.beta1", "choice of 2 options, points spread sideways to be seen")
                .containsEntry("parameter-optimizer.momentum", "");
        Plots.parameters(new ExperimentResults("e", null, true, T0, null, "DONE", trials))
                .forEach(p -> captions.put(p.id(), p.caption()));
        assertThat(captions).containsEntry("parameter-batch_size", "");
    }

    @Test
    void logAxesOnlyForPositiveValuesOverTwoDecadesCrowdingTheLowEnd() {
        assertThat(Plots.logWide(new double[] {1e-5, 3e-4, 1e-3, 2e-3, 1e-1})).isTrue();
        assertThat(Plots.logWide(new double[] {0.004, 0.1, 0.25, 0.3, 0.5})).isFalse();
        assertThat(Plots.logWide(new double[] {0.01, 0.02, 0.9})).isFalse();
        assertThat(Plots.logWide(new double[] {0, 1e-5, 1e-3, 1})).isFalse();
        assertThat(Plots.logWide(new double[] {})).isFalse();
    }

    @Test
    void categoryLabelsAreShortDistinctAndNeverBlank() {
        assertThat(Plots.categoryLabels(List.of("", " ", "resnet_block_v2_50", "resnet_block_v2_101", "a rather long"
                + " name that ends alike", "a rather long name that, too, ends alike", "x"))).containsExactly("\"\"",
                "\" \"", "resnet…k_v2_50", "resnet…_v2_101", "a rath…s alike", "a rat…alike~2", "x");
    }

    @Test
    void tickLabelsDifferSoTheAxisAlwaysGetsTicks() {
        for (int n = 1; n <= 60; n++) {
            int count = n;
            Function<Double, String> f = Plots.integerTicks(p -> p >= 0 && p < count ? "c" + p : null);
            assertThat(f.apply(-0.5)).as("ends of %d categories", n).isNotEqualTo(f.apply(n - 0.5));
            for (double step : new double[] {1, 2, 5, 10, 20, 50}) {
                // XChart's ticks: from one step below the low end to under two steps past the high end.
                Set<String> labels = new HashSet<>();
                int ticks = 0;
                for (double x = -step; x < n - 0.5 + 2 * step; x += step) {
                    labels.add(f.apply(x));
                    ticks++;
                }
                assertThat(labels).as("%d categories, step %s", n, step).hasSize(ticks);
            }
        }
    }

    @Test
    void ranksTheParametersByImportanceOnceEnoughTrialsSucceeded() throws IOException {
        List<TrialRecord> few = new ArrayList<>();
        List<TrialRecord> many = new ArrayList<>();
        java.util.Random random = new java.util.Random(4);
        for (int i = 0; i < 60; i++) {
            double x = random.nextDouble();
            double y = random.nextDouble();
            TrialRecord t = trial(i, 10 * x + 0.1 * y, Map.of("x", x, "y", y));
            many.add(t);
            if (i < 5) {
                few.add(t);
            }
        }
        assertThat(write(experiment(false, few))).contains("<h2>Hyperparameter importance</h2>").contains("Needs at least 8 succeeded trials");
        String html = write(experiment(false, many));
        int x = html.indexOf("<tr><th>x</th>");
        int y = html.indexOf("<tr><th>y</th>");
        assertThat(x).isPositive();
        assertThat(y).isGreaterThan(x);
        Matcher share = Pattern.compile("<tr><th>x</th><td class=\"num\">([0-9.]+)</td>").matcher(html);
        assertThat(share.find()).isTrue();
        assertThat(Double.parseDouble(share.group(1))).isGreaterThan(0.95);
    }
}
