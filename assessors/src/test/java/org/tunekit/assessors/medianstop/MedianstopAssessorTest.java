package org.tunekit.assessors.medianstop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tunekit.sdk.AssessResult.BAD;
import static org.tunekit.sdk.AssessResult.GOOD;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.sdk.AssessResult;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.spi.AssessorProvider;

class MedianstopAssessorTest {

    private static MedianstopAssessor assessor(Map<String, ?> args) {
        return new MedianstopAssessor(ClassArguments.of(args));
    }

    private static List<Metric> history(double... values) {
        return Arrays.stream(values).mapToObj(Metric::of).toList();
    }

    /** Feeds a trial result by result, as the dispatcher does, and returns the verdicts. */
    private static List<AssessResult> run(MedianstopAssessor a, String id, double... values) {
        List<AssessResult> verdicts = new ArrayList<>();
        for (int i = 1; i <= values.length; i++) {
            verdicts.add(a.assessTrial(id, history(Arrays.copyOf(values, i))));
        }
        return verdicts;
    }

    private static void complete(MedianstopAssessor a, String id, double... values) {
        run(a, id, values);
        a.trialEnd(id, true);
    }

    @Test
    void theRecordedNniScenario() {
        MedianstopAssessor a = assessor(Map.of("optimize_mode", "maximize", "start_step", 0));
        complete(a, "Job0", 1, 2, 3); // running averages 1, 1.5, 2
        assertThat(run(a, "Job1", 5, 6)).containsExactly(GOOD, GOOD);
        assertThat(a.assessTrial("Job2", history(1))).isEqualTo(GOOD); // 1 is not below the median 1
        assertThat(a.assessTrial("Job2", List.of(Metric.of(1), Metric.fromReported(Map.of("default", 0.5, "loss", 9)))))
                .isEqualTo(BAD); // best 1 < 1.5
        assertThat(a.assessTrial("Job1", history(5, 6, 0.2))).isEqualTo(GOOD);
        assertThat(a.assessTrial("Job1", history(5, 6, 0.2, 0.1))).as("no completed trial reached step 4").isEqualTo(GOOD);
    }

    @Test
    void maximizeUsesTheLowerMedianOfAnEvenCount() {
        MedianstopAssessor a = assessor(Map.of());
        complete(a, "a", 1);
        complete(a, "b", 3);
        complete(a, "c", 5);
        complete(a, "d", 7);
        // sorted 1 3 5 7: lower median 3
        assertThat(a.assessTrial("x", history(2.9))).isEqualTo(BAD);
        assertThat(a.assessTrial("y", history(3))).isEqualTo(GOOD);
        complete(a, "e", 9); // 1 3 5 7 9: median 5
        assertThat(a.assessTrial("z", history(4.9))).isEqualTo(BAD);
        assertThat(a.assessTrial("w", history(5))).isEqualTo(GOOD);
    }

    @Test
    void minimizeUsesTheUpperMedianAndTheSmallestValueSoFar() {
        MedianstopAssessor a = assessor(Map.of("optimize_mode", "minimize"));
        complete(a, "a", 1, 1);   // averages 1, 1
        complete(a, "b", 3, 5);   // 3, 4
        complete(a, "c", 5, 5);   // 5, 5
        complete(a, "d", 7, 9);   // 7, 8
        // step 1: sorted 1 3 5 7, upper median 5
        assertThat(a.assessTrial("x", history(5.1))).isEqualTo(BAD);
        assertThat(a.assessTrial("y", history(5))).isEqualTo(GOOD);
        // step 2: sorted 1 4 5 8, upper median 5; the best so far of (5, 9) is 5, not above it
        assertThat(a.assessTrial("y", history(5, 9))).isEqualTo(GOOD);
        assertThat(a.assessTrial("v", history(6))).isEqualTo(BAD);
    }

    @Test
    void onlySuccessfulTrialsCount() {
        MedianstopAssessor a = assessor(Map.of());
        run(a, "failed", 100, 100);
        a.trialEnd("failed", false);
        assertThat(a.completedAt(1)).isZero();
        assertThat(a.assessTrial("x", history(0))).isEqualTo(GOOD);
        complete(a, "ok", 10, 10);
        assertThat(a.completedAt(2)).isEqualTo(1);
        assertThat(a.assessTrial("x", history(0, 1))).isEqualTo(BAD);
        a.trialEnd("never-assessed", true); // unknown trials are ignored
        assertThat(a.completedAt(1)).isEqualTo(1);
    }

    @Test
    void startStepDelaysJudgement() {
        MedianstopAssessor a = assessor(Map.of("start_step", 3));
        complete(a, "good", 10, 10, 10, 10);
        assertThat(run(a, "bad", 0, 0, 0, 0)).containsExactly(GOOD, GOOD, BAD, BAD);
    }

    @Test
    void completedTrialsWithFewerStepsDoNotCountLater() {
        MedianstopAssessor a = assessor(Map.of());
        complete(a, "short", 10);
        complete(a, "long", 0, 0, 0);
        // step 1: median of {10, 0} (lower) is 0: 1 passes; step 2: only "long" counts (average 0)
        assertThat(run(a, "x", 1, 1)).containsExactly(GOOD, GOOD);
        complete(a, "short2", 10, 10);
        // step 2 now: averages {0, 10}: lower median 0
        assertThat(a.assessTrial("y", history(-1, -1))).isEqualTo(BAD);
    }

    @Test
    void agreesWithABruteForceRescanOnRandomHistories() {
        SplittableRandom rng = new SplittableRandom(11);
        for (String mode : List.of("maximize", "minimize")) {
            MedianstopAssessor a = assessor(Map.of("optimize_mode", mode, "start_step", 2));
            List<double[]> completed = new ArrayList<>();
            for (int trial = 0; trial < 60; trial++) {
                int steps = 1 + rng.nextInt(8);
                double[] values = new double[steps];
                for (int s = 0; s < steps; s++) {
                    values[s] = Math.rint(rng.nextDouble() * 20) / 2;
                    AssessResult got = a.assessTrial("t" + trial, history(Arrays.copyOf(values, s + 1)));
                    assertThat(got).as("%s trial %d step %d", mode, trial, s + 1)
                            .isEqualTo(bruteForce(mode.equals("maximize"), 2, completed, Arrays.copyOf(values, s + 1)));
                }
                boolean success = rng.nextInt(4) != 0;
                a.trialEnd("t" + trial, success);
                if (success && steps >= 2) {
                    completed.add(values);
                }
            }
        }
    }

    private static AssessResult bruteForce(boolean maximize, int startStep, List<double[]> completed, double[] history) {
        int step = history.length;
        if (step < startStep) {
            return GOOD;
        }
        List<Double> averages = new ArrayList<>();
        for (double[] c : completed) {
            if (c.length >= step) {
                double sum = 0;
                for (int i = 0; i < step; i++) {
                    sum += c[i];
                }
                averages.add(sum / step);
            }
        }
        if (averages.isEmpty()) {
            return GOOD;
        }
        averages.sort(null);
        double best = maximize ? Arrays.stream(history).max().getAsDouble() : Arrays.stream(history).min().getAsDouble();
        if (maximize) {
            return best < averages.get((averages.size() - 1) / 2) ? BAD : GOOD;
        }
        return best > averages.get(averages.size() / 2) ? BAD : GOOD;
    }

    @Test
    void checkpointRestoresCompletedAndRunningTrials(@TempDir Path dir) throws Exception {
        MedianstopAssessor a = assessor(Map.of());
        complete(a, "a", 4, 4);
        complete(a, "b", 6, 6);
        run(a, "r", 1);
        a.saveCheckpoint(dir);
        MedianstopAssessor b = assessor(Map.of());
        b.loadCheckpoint(dir);
        assertThat(b.completedAt(2)).isEqualTo(2);
        assertThat(b.assessTrial("x", history(4))).isEqualTo(GOOD);
        assertThat(b.assessTrial("y", history(3.9))).isEqualTo(BAD);
        // the running trial's first result survived: completing it adds a third trial at step 1
        b.assessTrial("r", history(1, 9));
        b.trialEnd("r", true);
        assertThat(b.completedAt(1)).isEqualTo(3);
        assertThat(b.completedAt(2)).isEqualTo(3);
    }

    @Test
    void autoStartStepIsFoundFromTheFirstTenCompletedTrials(@TempDir Path dir) throws Exception {
        MedianstopAssessor a = assessor(Map.of("start_step", "auto", "optimize_mode", "minimize"));
        // ten curves in the reverse of their final order for two steps, in it from the third
        for (int t = 0; t < 10; t++) {
            double[] curve = {0.1 + 0.01 * t, 0.2 + 0.01 * t, 0.5 - 0.01 * t, 0.4 - 0.01 * t, 0.3 - 0.01 * t};
            assertThat(run(a, "t" + t, curve)).containsOnly(GOOD);
            if (t == 8) {
                a.saveCheckpoint(dir);
                a = assessor(Map.of("start_step", "auto", "optimize_mode", "minimize"));
                a.loadCheckpoint(dir);
                a.assessTrial("t8", history(curve));
            }
            a.trialEnd("t" + t, true);
        }
        assertThat(a.startStep()).hasValue(3);
        assertThat(a.completedAt(5)).as("the startup trials count as completed").isEqualTo(10);
        assertThat(a.assessTrial("x", history(0.9, 0.9))).as("before the start").isEqualTo(GOOD);
        assertThat(a.assessTrial("x", history(0.9, 0.9, 0.9))).isEqualTo(BAD);
        a.saveCheckpoint(dir);
        MedianstopAssessor resumed = assessor(Map.of("start_step", "auto", "optimize_mode", "minimize"));
        resumed.loadCheckpoint(dir);
        assertThat(resumed.startStep()).hasValue(3);
        assertThatThrownBy(() -> assessor(Map.of()).loadCheckpoint(dir)).isInstanceOf(java.io.IOException.class)
                .hasMessageContaining("written with start_step \"auto\"");
    }

    @Test
    void versionOneCheckpointsAreStillRead(@TempDir Path dir) throws Exception {
        try (java.io.DataOutputStream out = new java.io.DataOutputStream(java.nio.file.Files.newOutputStream(
                dir.resolve(MedianstopAssessor.CHECKPOINT_FILE)))) {
            out.writeInt(0x544b4d53);
            out.writeInt(1);
            out.writeInt(1); // one step with one completed average
            out.writeInt(1);
            out.writeDouble(0.5);
            out.writeInt(0); // no running trials
        }
        MedianstopAssessor a = assessor(Map.of());
        a.loadCheckpoint(dir);
        assertThat(a.completedAt(1)).isEqualTo(1);
        assertThatThrownBy(() -> assessor(Map.of("start_step", "auto")).loadCheckpoint(dir)).isInstanceOf(java.io.IOException.class)
                .hasMessageContaining("written with start_step a number");
    }

    @Test
    void classArgumentsAreChecked() {
        assertThatThrownBy(() -> assessor(Map.of("start_stp", 1)))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("'start_stp'");
        assertThatThrownBy(() -> assessor(Map.of("start_step", -1)))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("start_step");
        assertThatThrownBy(() -> assessor(Map.of("optimize_mode", "max")))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("optimize_mode");
    }

    @Test
    void registeredAsMedianstop() {
        var names = ServiceLoader.load(AssessorProvider.class).stream().map(p -> p.get().name()).toList();
        assertThat(names).contains("Medianstop");
    }
}
