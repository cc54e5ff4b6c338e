package org.tunekit.bench.quality;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

class NniReferenceTest {
    private static final List<String> FUNCTIONS = List.of("branin", "hartmann6", "ackley5", "mixed", "nested");

    @Test
    void theBuiltInCopyHoldsEveryTunerOfBothModes() throws IOException {
        NniReference ref = NniReference.builtIn();
        assertThat(ref.tuners(Mode.SEQUENTIAL)).containsExactly("tpe", "random", "evolution", "anneal", "hyperopt_tpe", "gp",
                "optuna-cmaes", "optuna-tpe");
        assertThat(ref.tuners(Mode.BATCH)).containsExactly("tpe", "tpe_noliar", "tpe_worst", "random", "evolution", "anneal", "hyperopt_tpe",
                "optuna-cmaes", "optuna-tpe");
        assertThat(ref.anchors().stream().filter(a -> FUNCTIONS.contains(a.function()))).hasSize((6 + 7) * 5 * 3);
        NniReference.Anchor tpe = ref.anchor("tpe", Mode.SEQUENTIAL, "branin", 100).orElseThrow();
        assertThat(tpe).isEqualTo(new NniReference.Anchor("tpe", Mode.SEQUENTIAL, "branin", "30", 100, 0.128, 0.0513, 0.25, ""));
        assertThat(ref.anchor("gp", Mode.SEQUENTIAL, "mixed", 50).orElseThrow().note()).isEqualTo("unsupported");
        assertThat(ref.tunerSeconds("random", Mode.BATCH, "nested")).contains(0.0285);
        assertThat(ref.notes()).anyMatch(n -> n.contains("767ed7f2"));
    }

    @Test
    void theHighDimensionalFiguresOfNniAndOptunaArePackagedToo() throws IOException {
        assertThat(NniReference.builtInExtras()).containsExactly("nni-highdim", "optuna-highdim");
        NniReference ref = NniReference.builtIn();
        for (String f : List.of("rosenbrock8", "ackley10", "styblinski10", "rastrigin10", "schwefel10", "levy20")) {
            for (Mode mode : Mode.values()) {
                for (String tuner : List.of("tpe", "random", "evolution", "optuna-cmaes")) {
                    for (int trials : new int[] {25, 50, 100}) {
                        NniReference.Anchor a = ref.anchor(tuner, mode, f, trials).orElseThrow(() -> new AssertionError(tuner + " " + mode + " " + f));
                        assertThat(a.seeds()).isEqualTo("30");
                        assertThat(a.q1()).isLessThanOrEqualTo(a.median());
                        assertThat(a.median()).isLessThanOrEqualTo(a.q3());
                    }
                }
                assertThat(ref.tunerSeconds("tpe", mode, f)).isPresent();
            }
            // regret only falls with more trials
            double m25 = ref.anchor("random", Mode.SEQUENTIAL, f, 25).orElseThrow().median();
            double m100 = ref.anchor("random", Mode.SEQUENTIAL, f, 100).orElseThrow().median();
            assertThat(m100).isLessThanOrEqualTo(m25);
        }
        assertThat(ref.notes()).anyMatch(n -> n.contains("Optuna 3.1.0")).anyMatch(n -> n.contains("nni_highdim.py"));
    }

    @Test
    void optunasSamplersAreNamedAsSuch() {
        assertThat(NniReference.display("optuna-cmaes")).isEqualTo("Optuna cmaes");
        assertThat(NniReference.display("tpe")).isEqualTo("NNI tpe");
    }

    @Test
    void malformedLinesAreNamedByFileAndLine() {
        assertThatThrownBy(() -> NniReference.parse(new StringReader("tuner,mode,function,seeds,trials,median,q1,q3,note\n"
                + "tpe,sequential,branin,30,25,x,0.1,0.2,\n"), "a.csv", null, null))
                .hasMessageContaining("a.csv line 2 field 'median' is not a number: 'x'");
        assertThatThrownBy(() -> NniReference.parse(new StringReader("tuner,mode\n"), "a.csv", null, null))
                .hasMessageContaining("a.csv line 1: expected the header");
        assertThatThrownBy(() -> NniReference.parse(new StringReader("tuner,mode,function,seeds,trials,median,q1,q3,note\n"
                + "tpe,parallel,branin,30,25,1,0.1,0.2,\n"), "a.csv", null, null))
                .hasMessageContaining("a.csv line 2 unknown mode 'parallel'");
    }

    /**
     * The committed CSV against the published tables, when the shared reference folder is beside
     * the checkout: every cell of the sequential and batch tables and of the tuner-time table.
     */
    @Test
    void theBuiltInCopyMatchesThePublishedTables() throws IOException {
        Path md = findShared();
        Assumptions.assumeTrue(md != null, "shared/benchmarks/nni-anchors.md is not beside this checkout");
        NniReference ref = NniReference.builtIn();
        Mode mode = null;
        boolean times = false;
        int checked = 0;
        Pattern quartiles = Pattern.compile("(\\S+) \\[(\\S+), (\\S+)\\]");
        Pattern single = Pattern.compile("(\\S+) \\(1 seed\\)");
        for (String line : Files.readAllLines(md)) {
            if (line.startsWith("## ")) {
                mode = line.startsWith("## Sequential") ? Mode.SEQUENTIAL : line.startsWith("## Batch") ? Mode.BATCH : null;
                times = line.startsWith("## Tuner time");
                continue;
            }
            if (!line.startsWith("| ") || line.startsWith("| tuner") || line.startsWith("|---")) {
                continue;
            }
            List<String> cells = new ArrayList<>();
            for (String c : line.substring(1, line.length() - 1).split("\\|")) {
                cells.add(c.trim());
            }
            if (mode != null) {
                for (int f = 0; f < 5; f++) {
                    for (int t = 0; t < 3; t++) {
                        String cell = cells.get(2 + 3 * f + t);
                        NniReference.Anchor a = ref.anchor(cells.get(0), mode, FUNCTIONS.get(f), new int[] {25, 50, 100}[t]).orElseThrow();
                        Matcher q = quartiles.matcher(cell);
                        Matcher s = single.matcher(cell);
                        if (q.matches()) {
                            assertThat(List.of(a.median(), a.q1(), a.q3())).as(line + " / " + cell)
                                    .containsExactly(Double.parseDouble(q.group(1)), Double.parseDouble(q.group(2)), Double.parseDouble(q.group(3)));
                        } else if (s.matches()) {
                            assertThat(a.median()).isEqualTo(Double.parseDouble(s.group(1)));
                            assertThat(a.q1()).isNull();
                        } else {
                            assertThat(cell).isEqualTo("unsupported");
                            assertThat(a.note()).isEqualTo("unsupported");
                        }
                        checked++;
                    }
                }
            } else if (times) {
                Mode m = Mode.parse(cells.get(1));
                for (int f = 0; f < 5; f++) {
                    String cell = cells.get(2 + f);
                    if (!cell.equals("unsupported")) {
                        assertThat(ref.tunerSeconds(cells.get(0), m, FUNCTIONS.get(f))).as(line).contains(Double.parseDouble(cell));
                        checked++;
                    }
                }
            }
        }
        // the high-dimensional figures come from bench/reference's own scripts, not from the published tables
        long classicAnchors = ref.anchors().stream().filter(a -> FUNCTIONS.contains(a.function())).count();
        long classicTimes = ref.tunerTimes().stream().filter(t -> FUNCTIONS.contains(t.function())).count();
        assertThat(checked).isEqualTo(classicAnchors + classicTimes);
    }

    private static Path findShared() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path md = dir.resolve("shared/benchmarks/nni-anchors.md");
            if (Files.isRegularFile(md)) {
                return md;
            }
        }
        return null;
    }
}
