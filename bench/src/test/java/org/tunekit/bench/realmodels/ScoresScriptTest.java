package org.tunekit.bench.realmodels;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real-model suite's scoring script ({@code bench/realmodels/scores.py}) on regret files small
 * enough to score by hand: Bayesmark's score per run, and the paired comparison of two tuners,
 * matched seed by seed.
 */
class ScoresScriptTest {
    private static final Path SCRIPT = Path.of("realmodels", "scores.py");
    private static final Path PYTHON = Path.of("/usr/bin/python3");

    @TempDir
    Path tmp;

    /**
     * Two problems, two seeds, random search ending at 1.0 everywhere and the best value known 0.
     * On p-a-x tuner A scores 100 (seed 0) and 50 (seed 1), B 50 and 100, B's rows written seed 1
     * first; on p-b-x A scores 80 twice and B 100 twice.
     */
    private Path regret() throws IOException {
        List<String> rows = new ArrayList<>(List.of("tuner,function,mode,seed,trial,best_so_far_regret"));
        for (String problem : List.of("p-a-x", "p-b-x")) {
            for (int seed = 0; seed < 2; seed++) {
                rows.add("Random," + problem + ",batch," + seed + ",1,2.0");
                rows.add("Random," + problem + ",batch," + seed + ",2,1.0");
            }
        }
        rows.add("A,p-a-x,batch,0,1,0.0");
        rows.add("A,p-a-x,batch,1,1,0.5");
        rows.add("B,p-a-x,batch,1,1,0.0");
        rows.add("B,p-a-x,batch,0,1,0.5");
        rows.add("A,p-b-x,batch,0,1,0.2");
        rows.add("A,p-b-x,batch,1,1,0.2");
        rows.add("B,p-b-x,batch,0,1,0.0");
        rows.add("B,p-b-x,batch,1,1,0.0");
        Path file = tmp.resolve("regret.csv");
        Files.write(file, rows, UTF_8);
        return file;
    }

    private String run(String... args) throws Exception {
        assumeTrue(Files.isExecutable(PYTHON), "no " + PYTHON + " on this machine: the scoring script is not run");
        List<String> command = new ArrayList<>(List.of(PYTHON.toString(), SCRIPT.toString()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }

    @Test
    void theTableGivesEachTunersMeanScoreOverProblemsWithItsSpreadOverRuns() throws Exception {
        String table = run(regret().toString());
        // A: (75 + 80) / 2; runs 100, 50, 80, 80
        assertThat(table).contains("| A | 77.5 ± 10.3 | 77.5 ± 10.3 |");
        assertThat(table).contains("| B | 87.5 ± 12.5 | 87.5 ± 12.5 |");
    }

    @Test
    void pairedMatchesRunsBySeedAndGivesTheSpreadOverRunsAndOverProblems() throws Exception {
        // seed by seed: +50, -50 on p-a-x and -20, -20 on p-b-x (matched by position they would be 0, 0, -20, -20)
        assertThat(run("--paired", "A,B", regret().toString()).strip())
                .isEqualTo("batch: A - B: run by run -10.0 ± 21.2 (4 runs); problem by problem -10.0 ± 10.0 (2 problems, A ahead on 0)");
    }
}
