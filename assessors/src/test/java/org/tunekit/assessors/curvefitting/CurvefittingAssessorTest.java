package org.tunekit.assessors.curvefitting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.IntToDoubleFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.sdk.AssessResult;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.Metric;

class CurvefittingAssessorTest {

    private static CurvefittingAssessor create(Map<String, Object> args) {
        return (CurvefittingAssessor) new CurvefittingAssessorProvider().create(ClassArguments.of(args));
    }

    /** Epochs 1..n of {@code curve}, plus Gaussian noise of {@code noise} from a fixed seed. */
    private static List<Metric> history(int n, IntToDoubleFunction curve, double noise, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Metric> h = new ArrayList<>();
        for (int x = 1; x <= n; x++) {
            h.add(Metric.of(curve.applyAsDouble(x) + noise * gaussian(random)));
        }
        return h;
    }

    private static double gaussian(SplittableRandom random) {
        return Math.sqrt(-2 * Math.log(1 - random.nextDouble())) * Math.cos(2 * Math.PI * random.nextDouble());
    }

    /** Makes {@code value} the best final value by ending a one-value trial successfully. */
    private static void complete(CurvefittingAssessor assessor, String id, double value) {
        assessor.assessTrial(id, List.of(Metric.of(value)));
        assessor.trialEnd(id, true);
    }

    @Test
    void predictsAKnownPow3CurveClosely() {
        CurvefittingAssessor assessor = create(Map.of("epoch_num", 100));
        IntToDoubleFunction pow3 = x -> 0.9 - 0.5 * Math.pow(x, -0.7);
        CurveEnsemble.Prediction p = assessor.predict("t", history(20, pow3, 0, 1));
        assertThat(p).isNotNull();
        assertThat(p.mean()).isCloseTo(pow3.applyAsDouble(100), within(0.01));
        assertThat(p.sd()).isLessThan(0.02);

        CurveEnsemble.Prediction noisy = assessor.predict("u", history(30, pow3, 0.002, 7));
        assertThat(noisy.mean()).isCloseTo(pow3.applyAsDouble(100), within(0.02));
    }

    @Test
    void predictsADecreasingLossCurveWhenMinimizing() {
        CurvefittingAssessor assessor = create(Map.of("epoch_num", 60, "optimize_mode", "minimize"));
        IntToDoubleFunction loss = x -> 0.2 + 1.5 * Math.pow(x, -0.8);
        CurveEnsemble.Prediction p = assessor.predict("t", history(25, loss, 0, 1));
        // the prediction is a gain: the negated loss
        assertThat(-p.mean()).isCloseTo(loss.applyAsDouble(60), within(0.02));
    }

    @Test
    void stopsAnObviouslyPoorCurveAndKeepsAGoodOne() {
        CurvefittingAssessor assessor = create(Map.of("epoch_num", 50));
        complete(assessor, "done", 0.9);
        // saturates near 0.5, far below 0.95 × 0.9
        List<Metric> poor = history(12, x -> 0.5 - 0.3 * Math.pow(x, -0.5), 0.003, 3);
        assertThat(assessor.assessTrial("poor", poor)).isEqualTo(AssessResult.BAD);
        // still rising towards 1.0; at epoch 50 it is expected near 0.92
        List<Metric> good = history(12, x -> 1.0 - 0.6 * Math.pow(x, -0.5), 0.003, 4);
        assertThat(assessor.assessTrial("good", good)).isEqualTo(AssessResult.GOOD);
    }

    @Test
    void stopsAPoorLossCurveWhenMinimizing() {
        CurvefittingAssessor assessor = create(Map.of("epoch_num", 50, "optimize_mode", "minimize"));
        complete(assessor, "done", 0.3);
        List<Metric> poor = history(12, x -> 1.2 + 0.8 * Math.pow(x, -0.7), 0.003, 5);
        assertThat(assessor.assessTrial("poor", poor)).isEqualTo(AssessResult.BAD);
        List<Metric> good = history(12, x -> 0.1 + 1.5 * Math.pow(x, -0.7), 0.003, 6);
        assertThat(assessor.assessTrial("good", good)).isEqualTo(AssessResult.GOOD);
    }

    @Test
    void judgesOnlyFromStartStepEveryGapPointsAndWithACompletedTrial() {
        CurvefittingAssessor assessor = create(Map.of("epoch_num", 50, "start_step", 8, "gap", 3));
        List<Metric> poor = history(20, x -> 0.2, 0.001, 8);
        // no completed trial yet: no judgement
        assertThat(assessor.assessTrial("poor", poor.subList(0, 8))).isEqualTo(AssessResult.GOOD);
        complete(assessor, "done", 0.9);
        assertThat(assessor.assessTrial("poor", poor.subList(0, 7))).isEqualTo(AssessResult.GOOD);
        assertThat(assessor.assessTrial("poor", poor.subList(0, 8))).isEqualTo(AssessResult.BAD);
        assertThat(assessor.assessTrial("poor", poor.subList(0, 9))).isEqualTo(AssessResult.GOOD);
        assertThat(assessor.assessTrial("poor", poor.subList(0, 10))).isEqualTo(AssessResult.GOOD);
        assertThat(assessor.assessTrial("poor", poor.subList(0, 11))).isEqualTo(AssessResult.BAD);
    }

    @Test
    void theBestFinalValueIsTheLastValueOfASuccessfulTrial() {
        CurvefittingAssessor assessor = create(Map.of("epoch_num", 10, "optimize_mode", "minimize"));
        assessor.assessTrial("a", List.of(Metric.of(5), Metric.of(3)));
        assessor.assessTrial("b", List.of(Metric.of(1)));
        assessor.assessTrial("c", List.of(Metric.of(2)));
        assessor.trialEnd("b", false);
        assertThat(assessor.bestFinalValue()).isNaN();
        assessor.trialEnd("a", true);
        assertThat(assessor.bestFinalValue()).isEqualTo(3);
        assessor.trialEnd("c", true);
        assertThat(assessor.bestFinalValue()).isEqualTo(2);
    }

    @Test
    void oddHistoriesNeverFailTheAssessor() {
        SplittableRandom random = new SplittableRandom(99);
        double[] odd = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, 1e300, -1e300, 0, 1e-300, -5};
        for (String mode : new String[] {"maximize", "minimize"}) {
            CurvefittingAssessor assessor = create(Map.of("epoch_num", 40, "start_step", 3, "optimize_mode", mode));
            complete(assessor, "done", 0.5);
            for (int trial = 0; trial < 12; trial++) {
                List<Metric> h = new ArrayList<>();
                double scale = Math.pow(10, random.nextInt(-8, 9));
                for (int x = 1; x < 20; x++) {
                    double v = random.nextInt(10) == 0 ? odd[random.nextInt(odd.length)] : scale * random.nextDouble();
                    h.add(Metric.of(v));
                    assertThat(assessor.assessTrial("t" + trial, h)).isNotNull();
                }
                assessor.trialEnd("t" + trial, random.nextBoolean());
            }
        }
    }

    @Test
    void argumentErrorsNameTheArgument() {
        assertThatThrownBy(() -> create(Map.of())).isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("'epoch_num'");
        assertThatThrownBy(() -> create(Map.of("epoch_num", 10, "gap", 0))).hasMessageContaining("'gap'");
        assertThatThrownBy(() -> create(Map.of("epoch_num", 10, "threshold", -1))).hasMessageContaining("'threshold'");
        assertThatThrownBy(() -> create(Map.of("epoch_num", 10, "start_stp", 3))).hasMessageContaining("'start_stp'");
        assertThatThrownBy(() -> create(Map.of("epoch_num", 10, "optimize_mode", "up"))).hasMessageContaining("'optimize_mode'");
    }

    @Test
    void checkpointKeepsTheBestAndTheRunningTrials(@TempDir Path dir) throws IOException {
        CurvefittingAssessor assessor = create(Map.of("epoch_num", 50));
        complete(assessor, "done", 0.9);
        assessor.assessTrial("running id/with spaces", List.of(Metric.of(0.95)));
        assessor.saveCheckpoint(dir);
        assertThat(Files.readAllLines(dir.resolve(CurvefittingAssessor.STATE_FILE)).get(0))
                .isEqualTo("tunekit-assessor-state Curvefitting 1");

        CurvefittingAssessor restored = create(Map.of("epoch_num", 50));
        restored.loadCheckpoint(dir);
        assertThat(restored.bestFinalValue()).isEqualTo(0.9);
        restored.trialEnd("running id/with spaces", true);
        assertThat(restored.bestFinalValue()).isEqualTo(0.95);
    }
}
