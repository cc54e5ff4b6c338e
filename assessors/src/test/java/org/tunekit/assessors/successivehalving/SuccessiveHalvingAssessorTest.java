package org.tunekit.assessors.successivehalving;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tunekit.assessors.support.Histories.of;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.sdk.AssessResult;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.InvalidClassArgumentException;

class SuccessiveHalvingAssessorTest {
    private static final AssessResult GOOD = AssessResult.GOOD;
    private static final AssessResult BAD = AssessResult.BAD;

    private static SuccessiveHalvingAssessor create(Map<String, Object> args) {
        return (SuccessiveHalvingAssessor) new SuccessiveHalvingAssessorProvider().create(ClassArguments.of(args));
    }

    @Test
    void rungsLieAtMinResourceTimesPowersOfEta() {
        SuccessiveHalvingAssessor a = create(Map.of("min_resource", 2, "reduction_factor", 3, "min_early_stopping_rate", 1));
        assertThat(a.rungStep(0)).isEqualTo(6);
        assertThat(a.rungStep(1)).isEqualTo(18);
        assertThat(a.rungStep(2)).isEqualTo(54);
        assertThat(create(Map.of("min_resource", 1)).rungStep(40)).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void onlyTheTopThirdOfARungGoesOnWhenMaximizing() {
        SuccessiveHalvingAssessor a = create(Map.of("min_resource", 1));
        // rung 0 is step 1: the first value
        assertThat(a.assessTrial("a", of(0.5))).isEqualTo(GOOD);  // [0.5]: top 1
        assertThat(a.assessTrial("b", of(0.4))).isEqualTo(BAD);   // [0.5, 0.4]: top 1 is 0.5
        assertThat(a.assessTrial("c", of(0.6))).isEqualTo(GOOD);  // best so far
        assertThat(a.assessTrial("d", of(0.55))).isEqualTo(BAD);  // 4 values: top 1 is 0.6
        assertThat(a.assessTrial("e", of(0.3))).isEqualTo(BAD);
        assertThat(a.assessTrial("f", of(0.58))).isEqualTo(GOOD); // 6 values: top 2 are 0.6, 0.58
        assertThat(a.rungValues(0)).hasSize(6);
        // between rungs there is no judgement, and no new record
        assertThat(a.assessTrial("a", of(0.5, 0.0))).isEqualTo(GOOD);
        assertThat(a.rungValues(0)).hasSize(6);
        // rung 1 is step 3
        assertThat(a.assessTrial("a", of(0.5, 0.0, 0.7))).isEqualTo(GOOD);
        assertThat(a.assessTrial("c", of(0.6, 0.6, 0.65))).isEqualTo(BAD);
        assertThat(a.rungValues(1)).hasSize(2);
    }

    @Test
    void minimizingAndTies() {
        SuccessiveHalvingAssessor a = create(Map.of("min_resource", 1, "reduction_factor", 2, "optimize_mode", "minimize"));
        assertThat(a.assessTrial("a", of(1.0))).isEqualTo(GOOD);
        assertThat(a.assessTrial("b", of(2.0))).isEqualTo(BAD);  // [1, 2]: top 1 is 1
        assertThat(a.assessTrial("c", of(1.0))).isEqualTo(GOOD); // [1, 2, 1]: top 1, a tie counts in its favour
        assertThat(a.assessTrial("d", of(1.5))).isEqualTo(BAD);  // [1, 2, 1, 1.5]: top 2 are 1, 1
        assertThat(a.assessTrial("e", of(0.5))).isEqualTo(GOOD);
    }

    @Test
    void aHistoryThatJumpsPastSeveralRungsIsJudgedAtEach() {
        SuccessiveHalvingAssessor a = create(Map.of("min_resource", 1, "reduction_factor", 2));
        a.assessTrial("a", of(0.9, 0.9));
        // b arrives with four values at once: rung 0 (step 1, 0.1) fails against a's 0.9
        assertThat(a.assessTrial("b", of(0.1, 0.95, 0.95, 0.95))).isEqualTo(BAD);
        assertThat(a.rungValues(1)).containsExactly(-0.9);
        // NaN at a rung is BAD and not recorded
        assertThat(a.assessTrial("c", of(Double.NaN))).isEqualTo(BAD);
        assertThat(a.rungValues(0)).containsExactly(-0.9, -0.1);
    }

    @Test
    void minEarlyStoppingRateSkipsTheFirstRungs() {
        SuccessiveHalvingAssessor a = create(Map.of("min_resource", 1, "min_early_stopping_rate", 1));
        a.assessTrial("a", of(0.9, 0.9, 0.9));
        assertThat(a.assessTrial("b", of(0.1))).isEqualTo(GOOD);
        assertThat(a.assessTrial("b", of(0.1, 0.1, 0.1))).isEqualTo(BAD);
    }

    @Test
    void argumentErrorsNameTheArgument() {
        assertThatThrownBy(() -> create(Map.of("min_resource", 0))).isInstanceOf(InvalidClassArgumentException.class)
                .hasMessageContaining("'min_resource'");
        assertThatThrownBy(() -> create(Map.of("reduction_factor", 1))).hasMessageContaining("'reduction_factor'");
        assertThatThrownBy(() -> create(Map.of("min_early_stopping_rate", -1))).hasMessageContaining("'min_early_stopping_rate'");
        assertThatThrownBy(() -> create(Map.of("eta", 3))).hasMessageContaining("'eta'");
    }

    @Test
    void checkpointRestoresRungsAndProgress(@TempDir Path dir) throws Exception {
        SuccessiveHalvingAssessor a = create(Map.of("min_resource", 1));
        a.assessTrial("a", of(0.5));
        a.assessTrial("b", of(0.9));
        a.saveCheckpoint(dir);

        SuccessiveHalvingAssessor b = create(Map.of("min_resource", 1));
        b.loadCheckpoint(dir);
        assertThat(b.rungValues(0)).containsExactly(-0.9, -0.5);
        // "a" is past rung 0 already: its next judgement is at rung 1 (step 3)
        assertThat(b.assessTrial("a", of(0.5, 0.5))).isEqualTo(GOOD);
        assertThat(b.rungValues(0)).hasSize(2);
        assertThat(b.assessTrial("c", of(0.7))).isEqualTo(BAD);
    }

    @Test
    void autoJudgesNothingUntilTheStartupTrialsCompleteThenStartsWhereTheirRankingSettles() {
        SuccessiveHalvingAssessor a = create(Map.of("n_startup_trials", 4, "optimize_mode", "minimize"));
        assertThat(a.minResource()).isEmpty();
        // four curves that cross until step 3 and keep their order from step 4 on (final order: d < c < b < a)
        double[][] curves = {
                {0.1, 0.2, 0.3, 0.8, 0.8, 0.8},
                {0.2, 0.3, 0.3, 0.6, 0.6, 0.6},
                {0.9, 0.1, 0.9, 0.4, 0.4, 0.4},
                {0.8, 0.9, 0.1, 0.2, 0.2, 0.2}};
        for (int t = 0; t < curves.length; t++) {
            for (int n = 1; n <= curves[t].length; n++) {
                assertThat(a.assessTrial("t" + t, of(java.util.Arrays.copyOf(curves[t], n)))).isEqualTo(GOOD);
            }
        }
        for (int t = 0; t < 3; t++) {
            a.trialEnd("t" + t, true);
            assertThat(a.minResource()).isEmpty();
        }
        a.trialEnd("t3", true);
        assertThat(a.minResource()).hasValue(4);
        // the startup curves filled rung 0 (step 4) as if judged there, in completion order: 0.8, 0.6, 0.4, 0.2
        assertThat(a.rungValues(0)).containsExactly(0.2, 0.4, 0.6, 0.8);
        assertThat(a.assessTrial("late", of(0.1, 0.1, 0.1))).as("before the first rung").isEqualTo(GOOD);
        assertThat(a.assessTrial("late", of(0.1, 0.1, 0.1, 0.5))).as("not in the top third of five").isEqualTo(BAD);
        assertThat(a.assessTrial("later", of(0.9, 0.9, 0.9, 0.15))).isEqualTo(GOOD);
    }

    @Test
    void autoIgnoresFailedTrialsAndNeverJudgesCurvesThatDoNotSettle(@TempDir Path dir) throws Exception {
        SuccessiveHalvingAssessor a = create(Map.of("n_startup_trials", 3));
        a.assessTrial("failed", of(0.5, 0.5));
        a.trialEnd("failed", false);
        // the order at every step is the reverse of the final one
        double[][] curves = {{0.1, 0.1, 0.9}, {0.2, 0.2, 0.5}, {0.3, 0.3, 0.1}};
        for (int t = 0; t < 3; t++) {
            a.assessTrial("t" + t, of(curves[t]));
        }
        a.trialEnd("t0", true);
        a.trialEnd("t1", true);
        a.saveCheckpoint(dir);
        SuccessiveHalvingAssessor resumed = create(Map.of("n_startup_trials", 3));
        resumed.loadCheckpoint(dir);
        assertThat(resumed.minResource()).isEmpty();
        resumed.assessTrial("t2", of(curves[2]));
        resumed.trialEnd("t2", true);
        assertThat(resumed.minResource()).hasValue(Integer.MAX_VALUE);
        assertThat(resumed.assessTrial("x", of(0.0, 0.0, 0.0, 0.0, 0.0))).isEqualTo(GOOD);
        assertThat(resumed.rungValues(0)).isEmpty();
    }

    @Test
    void autoCheckpointsKeepTheSettledStepAndFixedOnesAreNotMixedUp(@TempDir Path dir) throws Exception {
        SuccessiveHalvingAssessor a = create(Map.of("n_startup_trials", 3));
        double[][] curves = {{0.1, 0.1, 0.1}, {0.2, 0.2, 0.2}, {0.3, 0.3, 0.3}};
        for (int t = 0; t < 3; t++) {
            a.assessTrial("t" + t, of(curves[t]));
            a.trialEnd("t" + t, true);
        }
        assertThat(a.minResource()).hasValue(1);
        a.saveCheckpoint(dir);
        SuccessiveHalvingAssessor resumed = create(Map.of("n_startup_trials", 3));
        resumed.loadCheckpoint(dir);
        assertThat(resumed.minResource()).hasValue(1);
        assertThat(resumed.rungValues(0)).isEqualTo(a.rungValues(0));
        assertThatThrownBy(() -> create(Map.of("min_resource", 1)).loadCheckpoint(dir)).isInstanceOf(java.io.IOException.class)
                .hasMessageContaining("min_resource \"auto\"");
        create(Map.of("min_resource", 1)).saveCheckpoint(dir);
        assertThatThrownBy(() -> create(Map.of()).loadCheckpoint(dir)).isInstanceOf(java.io.IOException.class)
                .hasMessageContaining("no settling record");
        assertThatThrownBy(() -> create(Map.of("min_resource", 2, "n_startup_trials", 5)))
                .isInstanceOf(InvalidClassArgumentException.class).hasMessageContaining("'n_startup_trials' applies only with min_resource");
        assertThatThrownBy(() -> create(Map.of("n_startup_trials", 2))).hasMessageContaining("'n_startup_trials'");
    }
}
