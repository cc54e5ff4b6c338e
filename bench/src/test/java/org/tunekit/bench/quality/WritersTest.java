package org.tunekit.bench.quality;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;

class WritersTest {

    private static RunResult run(String tuner, String function, Mode mode, long seed, double... regret) {
        return new RunResult(new RunKey(tuner, function, mode, seed), regret, regret.length, 1_500_000L * (seed + 1), null);
    }

    private static Results results() {
        return new Results(List.of("A", "B,2"), List.of("branin"), List.of(Mode.SEQUENTIAL), 3, List.of(
                run("B,2", "branin", Mode.SEQUENTIAL, 0, 9, 8, 7),
                run("A", "branin", Mode.SEQUENTIAL, 1, 4, 2, 0.5),
                run("A", "branin", Mode.SEQUENTIAL, 0, 3, 3, 0.004),
                RunResult.failed(new RunKey("A", "branin", Mode.SEQUENTIAL, 2), "boom, \"quoted\"", 0)));
    }

    @Test
    void regretCsvHasOneRowPerSuccessfulRunAndTrialInTunerThenSeedOrder() throws Exception {
        StringBuilder sb = new StringBuilder();
        CsvWriters.writeRegret(results(), sb);
        assertThat(sb.toString()).isEqualTo("""
                tuner,function,mode,seed,trial,best_so_far_regret
                A,branin,sequential,0,1,3.0
                A,branin,sequential,0,2,3.0
                A,branin,sequential,0,3,0.004
                A,branin,sequential,1,1,4.0
                A,branin,sequential,1,2,2.0
                A,branin,sequential,1,3,0.5
                "B,2",branin,sequential,0,1,9.0
                "B,2",branin,sequential,0,2,8.0
                "B,2",branin,sequential,0,3,7.0
                """);
    }

    @Test
    void runsCsvListsFailedRunsAndTunerTime() throws Exception {
        StringBuilder sb = new StringBuilder();
        CsvWriters.writeRuns(results(), sb);
        assertThat(sb.toString()).isEqualTo("""
                tuner,function,mode,seed,evaluated,tuner_seconds,failure
                A,branin,sequential,0,3,0.001500,
                A,branin,sequential,1,3,0.003000,
                A,branin,sequential,2,0,0.000000,"boom, ""quoted""\"
                "B,2",branin,sequential,0,3,0.001500,
                """);
    }

    @Test
    void summaryPutsNniRowsBesideTunekitsAndBoldsTheBestMedian() throws Exception {
        NniReference ref = NniReference.parse(new StringReader("""
                # a note about the source
                tuner,mode,function,seeds,trials,median,q1,q3,note
                a,sequential,branin,30,3,0.75,0.5,1,
                gp,sequential,branin,,3,,,,unsupported
                a,batch,branin,30,3,0.1,0.05,0.2,
                """), "anchors", new StringReader("""
                tuner,mode,function,seconds
                a,sequential,branin,0.0799
                """), "times");
        String md = SummaryMarkdown.render(results(), ref, new SummaryMarkdown.RunInfo(List.of(0L, 1L, 2L), 2, 1.25, "`anchors`",
                List.of("convergence-branin.svg"), "Java 17, 2 processor(s)"));
        assertThat(md).contains("## Sequential mode (one parameter set per request)")
                .contains("| function | tuner | seeds | after 3 | tuner s/run |")
                // A: regrets after 3 trials are 0.004 and 0.5 -> median 0.252, Q1 0.128, Q3 0.376
                .contains("| branin | A | 2 (1 failed: boom, \"quoted\") | **0.252 [0.128, 0.376]** | 0.00225 |")
                .contains("| branin | B,2 | 1 | 7 (1 seed) | 0.0015 |")
                .contains("| branin | *NNI a* | *30* | *0.75 [0.5, 1]* | *0.0799* |")
                .contains("| branin | *NNI gp* |  | *unsupported* |  |")
                .contains("> a note about the source")
                .contains("seeds 0..2")
                .contains("Machine: Java 17, 2 processor(s).")
                .contains("Hyndman and Fan type 7")
                .contains("![convergence-branin.svg](convergence-branin.svg)")
                .doesNotContain("Batch mode")
                .doesNotContain("0.1 [0.05, 0.2]");
    }

    @Test
    void theBestOfEachLibraryIsSetSideBySideWithTheRatioToNnisBest() throws Exception {
        NniReference ref = NniReference.parse(new StringReader("""
                tuner,mode,function,seeds,trials,median,q1,q3,note
                a,sequential,branin,30,3,0.75,0.5,1,
                b,sequential,branin,30,3,0.5,0.4,1,
                gp,sequential,branin,,3,,,,unsupported
                optuna-tpe,sequential,branin,30,3,0.2,0.1,0.3,
                optuna-cmaes,sequential,branin,30,3,0.3,0.1,0.3,
                """), "anchors", null, null);
        String md = SummaryMarkdown.render(results(), ref, new SummaryMarkdown.RunInfo(List.of(0L, 1L, 2L), 2, 1.25, "`anchors`",
                List.of(), ""));
        // A's median 0.252 is the best of Tunekit's; NNI's best is b (0.5), Optuna's tpe (0.2)
        assertThat(md).contains("## Best of each library").contains("### Sequential mode, after 3 trials")
                .contains("| branin | A | 0.252 | NNI b | 0.5 | Optuna tpe | 0.2 | 0.504 |")
                .contains("| branin | *Optuna cmaes* | *30* |");
        Results solved = new Results(List.of("S"), List.of("branin"), List.of(Mode.SEQUENTIAL), 1,
                List.of(new RunResult(new RunKey("S", "branin", Mode.SEQUENTIAL, 0), new double[] {1e-6}, 1, 1, null)));
        NniReference tiny = NniReference.parse(new StringReader("""
                tuner,mode,function,seeds,trials,median,q1,q3,note
                a,sequential,branin,30,1,5e-5,1e-5,1e-4,
                """), "anchors", null, null);
        assertThat(SummaryMarkdown.render(solved, tiny, new SummaryMarkdown.RunInfo(List.of(0L), 1, 1, "`a`", List.of(), "")))
                .contains("| branin | S | 1.00e-06 | NNI a | 5.00e-05 |  |  | both solved |");
        assertThat(SummaryMarkdown.render(results(), NniReference.none(), new SummaryMarkdown.RunInfo(List.of(0L), 1, 1, null, List.of(), "")))
                .doesNotContain("Best of each library");
    }

    @Test
    void theSummaryNamesEachSuiteFunctionsParametersAndOptimum() {
        assertThat(SummaryMarkdown.functions(List.of("levy20", "branin", "made-up")))
                .isEqualTo("Functions: levy20 (20 parameter(s), uniform on [-10, 10]^20, f* = 0.0); "
                        + "branin (2 parameter(s), f* = 0.397887357729738).\n");
        assertThat(SummaryMarkdown.functions(List.of("made-up"))).isEmpty();
    }

    @Test
    void aTunerWhoseRunsAllFailedSaysWhy() {
        Results r = new Results(List.of("X"), List.of("mixed"), List.of(Mode.BATCH), 100, List.of(
                RunResult.failed(new RunKey("X", "mixed", Mode.BATCH, 0), "unsupported parameter type", 0)));
        String md = SummaryMarkdown.render(r, NniReference.none(), new SummaryMarkdown.RunInfo(List.of(0L), 1, 1, null, List.of(), ""));
        assertThat(md).contains("| function | tuner | seeds | after 25 | after 50 | after 100 | tuner s/run |")
                .contains("| mixed | X | 0 | failed: unsupported parameter type |  |  |  |")
                .doesNotContain("NNI");
    }
}
