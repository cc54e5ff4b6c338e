package org.tunekit.assessors.percentile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tunekit.assessors.support.Histories.of;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.sdk.AssessResult;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.InvalidClassArgumentException;

class PercentileAssessorTest {
    private static final AssessResult GOOD = AssessResult.GOOD;
    private static final AssessResult BAD = AssessResult.BAD;

    private static PercentileAssessor create(Map<String, Object> args) {
        return (PercentileAssessor) new PercentileAssessorProvider().create(ClassArguments.of(args));
    }

    /**
     * Five completed trials; their values at step 0 are 0.1..0.5, at step 1 0.2..0.6, at step 2
     * 0.3..0.6 (the fifth has no step 2).
     */
    private static PercentileAssessor withCompleted(Map<String, Object> args) {
        PercentileAssessor a = create(args);
        double[][] completed = {{0.1, 0.2, 0.3}, {0.2, 0.3, 0.4}, {0.3, 0.4, 0.5}, {0.4, 0.5, 0.6}, {0.5, 0.6}};
        for (int i = 0; i < completed.length; i++) {
            a.assessTrial("c" + i, of(completed[i]));
            a.trialEnd("c" + i, true);
        }
        return a;
    }

    @Test
    void medianWhenMaximizing() {
        PercentileAssessor a = withCompleted(Map.of());
        // step 0: median of 0.1..0.5 is 0.3
        assertThat(a.assessTrial("x", of(0.25))).isEqualTo(BAD);
        assertThat(a.assessTrial("y", of(0.3))).isEqualTo(GOOD);
        // step 2: median of 0.3, 0.4, 0.5, 0.6 is 0.45; the best value so far counts
        assertThat(a.assessTrial("z", of(0.5, 0.1, 0.44))).isEqualTo(GOOD);
        assertThat(a.assessTrial("w", of(0.1, 0.2, 0.44))).isEqualTo(BAD);
    }

    @Test
    void aLowPercentileIsAHighBarWhenMaximizing() {
        // the 25th percentile of the best trials: the 75th percentile of the values, at step 0 0.4
        PercentileAssessor a = withCompleted(Map.of("percentile", 25));
        assertThat(a.assessTrial("x", of(0.35))).isEqualTo(BAD);
        assertThat(a.assessTrial("y", of(0.4))).isEqualTo(GOOD);
    }

    @Test
    void minimizing() {
        PercentileAssessor a = withCompleted(Map.of("percentile", 25, "optimize_mode", "minimize"));
        // step 0: 25th percentile of 0.1..0.5 is 0.2
        assertThat(a.assessTrial("x", of(0.25))).isEqualTo(BAD);
        assertThat(a.assessTrial("y", of(0.2))).isEqualTo(GOOD);
        // step 1: 25th percentile of 0.2..0.6 is 0.3; the smallest value so far counts
        assertThat(a.assessTrial("z", of(0.3, 0.15))).isEqualTo(GOOD);
        assertThat(a.assessTrial("w", of(0.35, 0.31))).isEqualTo(BAD);
    }

    @Test
    void noJudgementBeforeEnoughTrialsHaveCompleted() {
        PercentileAssessor a = create(Map.of("n_startup_trials", 2));
        a.assessTrial("c0", of(1.0));
        a.trialEnd("c0", true);
        a.assessTrial("failed", of(5.0));
        a.trialEnd("failed", false);
        assertThat(a.completedTrials()).isEqualTo(1);
        assertThat(a.assessTrial("x", of(0.0))).isEqualTo(GOOD);
        a.assessTrial("c1", of(2.0));
        a.trialEnd("c1", true);
        // median of 1.0 and 2.0 is 1.5 (the failed trial's 5.0 does not count)
        assertThat(a.assessTrial("x", of(1.4))).isEqualTo(BAD);
        assertThat(a.assessTrial("y", of(1.6))).isEqualTo(GOOD);
    }

    @Test
    void warmUpAndInterval() {
        Map<String, Object> args = new HashMap<>();
        args.put("n_warmup_steps", 1);
        args.put("interval_steps", 2);
        PercentileAssessor a = withCompleted(args);
        assertThat(a.assessTrial("x", of(0.0))).isEqualTo(GOOD);                 // step 0: warm-up
        assertThat(a.assessTrial("x", of(0.0, 0.0))).isEqualTo(BAD);             // step 1: judged
        assertThat(a.assessTrial("x", of(0.0, 0.0, 0.0))).isEqualTo(GOOD);      // step 2: between intervals
        assertThat(a.assessTrial("x", of(0.0, 0.0, 0.0, 0.0))).isEqualTo(GOOD); // step 3: nobody has a step 3
    }

    @Test
    void allNaNIsBad() {
        PercentileAssessor a = withCompleted(Map.of());
        assertThat(a.assessTrial("x", of(Double.NaN))).isEqualTo(BAD);
        assertThat(a.assessTrial("y", of(Double.NaN, 0.9))).isEqualTo(GOOD);
    }

    @Test
    void argumentErrorsNameTheArgument() {
        assertThatThrownBy(() -> create(Map.of("percentile", 101))).isInstanceOf(InvalidClassArgumentException.class)
                .hasMessageContaining("'percentile'");
        assertThatThrownBy(() -> create(Map.of("n_startup_trials", -1))).hasMessageContaining("'n_startup_trials'");
        assertThatThrownBy(() -> create(Map.of("n_warmup_steps", "x"))).hasMessageContaining("'n_warmup_steps'");
        assertThatThrownBy(() -> create(Map.of("interval_steps", 0))).hasMessageContaining("'interval_steps'");
        assertThatThrownBy(() -> create(Map.of("optimize_mode", "best"))).hasMessageContaining("'optimize_mode'");
        assertThatThrownBy(() -> create(Map.of("percentil", 3))).hasMessageContaining("'percentil'");
    }

    @Test
    void checkpointRestoresCompletedAndRunningTrials(@TempDir Path dir) throws Exception {
        PercentileAssessor a = withCompleted(Map.of("n_startup_trials", 6));
        a.assessTrial("running", of(0.9));
        a.saveCheckpoint(dir);

        PercentileAssessor b = create(Map.of("n_startup_trials", 6));
        b.loadCheckpoint(dir);
        assertThat(b.completedTrials()).isEqualTo(5);
        assertThat(b.assessTrial("x", of(0.0))).isEqualTo(GOOD);
        b.trialEnd("running", true);
        // six completed now: at step 0, median of 0.1, 0.2, 0.3, 0.4, 0.5, 0.9 is 0.35
        assertThat(b.assessTrial("x", of(0.34))).isEqualTo(BAD);
        assertThat(b.assessTrial("y", of(0.36))).isEqualTo(GOOD);
    }

    @Test
    void autoWarmUpLastsUntilTheFirstCompletedTrialsRankingSettles(@TempDir Path dir) throws Exception {
        PercentileAssessor a = create(Map.of("n_warmup_steps", "auto", "optimize_mode", "minimize"));
        assertThat(a.warmupSteps()).isEmpty();
        // ten curves whose order at the first two steps is the reverse of the final one, and right from the third
        for (int t = 0; t < 10; t++) {
            double[] curve = {0.1 + 0.01 * t, 0.2 + 0.01 * t, 0.5 - 0.01 * t, 0.4 - 0.01 * t, 0.3 - 0.01 * t};
            for (int n = 1; n <= curve.length; n++) {
                assertThat(a.assessTrial("t" + t, of(java.util.Arrays.copyOf(curve, n)))).isEqualTo(AssessResult.GOOD);
            }
            if (t == 8) {
                a.saveCheckpoint(dir);
                a = create(Map.of("n_warmup_steps", "auto", "optimize_mode", "minimize"));
                a.loadCheckpoint(dir);
                a.assessTrial("t8", of(curve));
            }
            a.trialEnd("t" + t, true);
        }
        assertThat(a.warmupSteps()).as("history length 3 is step 2").hasValue(2);
        assertThat(a.assessTrial("x", of(0.9, 0.9))).as("warm-up").isEqualTo(AssessResult.GOOD);
        assertThat(a.assessTrial("x", of(0.9, 0.9, 0.9))).isEqualTo(AssessResult.BAD);
        assertThatThrownBy(() -> create(Map.of()).loadCheckpoint(dir)).isInstanceOf(java.io.IOException.class)
                .hasMessageContaining("n_warmup_steps \"auto\"");
    }
}
