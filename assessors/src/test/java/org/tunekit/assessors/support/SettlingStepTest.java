package org.tunekit.assessors.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.stats.RankCorrelation;

class SettlingStepTest {

    @Test
    void curvesInTheirFinalOrderFromTheStartSettleAtStepOne() {
        List<double[]> curves = List.of(new double[] {0.9, 0.5, 0.3}, new double[] {0.8, 0.4, 0.2}, new double[] {0.7, 0.3, 0.1});
        assertThat(SettlingStep.settle(curves)).isEqualTo(1);
    }

    @Test
    void oneLuckyStepIsNotEnough() {
        // step 2 is in the final order, step 3 is not, from step 4 on the order holds
        List<double[]> curves = List.of(
                new double[] {3, 1, 3, 1, 1, 1, 1},
                new double[] {2, 2, 1, 2, 2, 2, 2},
                new double[] {1, 3, 2, 3, 3, 3, 3});
        assertThat(RankCorrelation.atStep(curves, 2)).isCloseTo(1, within(1e-12));
        assertThat(RankCorrelation.atStep(curves, 3)).isLessThan(RankCorrelation.PREDICTIVE);
        assertThat(SettlingStep.settle(curves)).isEqualTo(4);
    }

    @Test
    void onlyCurvesLongerThanTheStepCount() {
        List<double[]> curves = List.of(new double[] {1, 2}, new double[] {2, 3}, new double[] {3, 4, 5, 6});
        assertThat(RankCorrelation.atStep(curves, 1)).isCloseTo(1, within(1e-12));
        assertThat(RankCorrelation.atStep(curves, 2)).as("one curve is longer than 2").isNaN();
    }

    @Test
    void flatStepsPredictNothing() {
        List<double[]> curves = List.of(new double[] {0.5, 0.1}, new double[] {0.5, 0.2}, new double[] {0.5, 0.3});
        assertThat(RankCorrelation.atStep(curves, 1)).isZero();
        assertThat(SettlingStep.settle(curves)).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void theStepIsComputedOnceFromTheFirstSuccessfulTrials() {
        SettlingStep s = new SettlingStep(3);
        s.observe("a", Histories.of(1, 1));
        s.observe("b", Histories.of(2, 2));
        s.observe("x", Histories.of(9, 9));
        assertThat(s.trialEnd("x", false)).isFalse();
        assertThat(s.trialEnd("a", true)).isFalse();
        assertThat(s.trialEnd("b", true)).isFalse();
        assertThat(s.trialEnd("never-seen", true)).isFalse();
        s.observe("c", Histories.of(3, 3));
        assertThat(s.trialEnd("c", true)).isTrue();
        assertThat(s.step()).hasValue(1);
        assertThat(s.completedCurves()).hasSize(3);
        s.observe("d", Histories.of(0, 0));
        assertThat(s.trialEnd("d", true)).as("already settled").isFalse();
        assertThat(s.completedCurves()).hasSize(3);
        assertThatThrownBy(() -> new SettlingStep(2)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 3");
    }
}
