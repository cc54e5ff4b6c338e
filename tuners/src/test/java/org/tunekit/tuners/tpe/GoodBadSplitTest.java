package org.tunekit.tuners.tpe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.tunekit.tuners.tpe.TpeSettings.ConstantLiar;

class GoodBadSplitTest {

    /** Completed slots with the given losses, then {@code pending} pending slots. */
    private static History history(int pending, double... losses) {
        History h = new History(1);
        for (int i = 0; i < losses.length; i++) {
            h.add(new double[] {i}, History.DONE, losses[i]);
        }
        for (int i = 0; i < pending; i++) {
            h.add(new double[] {losses.length + i}, History.PENDING, Double.NaN);
        }
        return h;
    }

    private static List<Integer> goodSlots(boolean[] good, History h) {
        List<Integer> out = new ArrayList<>();
        for (int s = 0; s < h.slots; s++) {
            if (good[s]) {
                out.add(s);
            }
        }
        return out;
    }

    @Test
    void theGoodCountGrowsAsNToThePowerPoint8() {
        assertThat(GoodBadSplit.goodCount(25, 0.25)).isEqualTo(4);
        assertThat(GoodBadSplit.goodCount(50, 0.25)).isEqualTo(6);
        assertThat(GoodBadSplit.goodCount(100, 0.25)).isEqualTo(10);
        assertThat(GoodBadSplit.goodCount(1, 1)).isEqualTo(1);
        assertThat(GoodBadSplit.goodCount(0, 0.25)).isZero();
    }

    @Test
    void byLossPendingTrialsTakeTheLiarsLossAndTiesGoToTheOlderSlot() {
        History h = history(2, 3, 1, 2, 5); // slots 0-3 done, 4 and 5 pending; 3 of 6 are good at gamma 0.5
        GoodBadSplit split = new GoodBadSplit();
        // best: the lie is 1, which ties slot 1 (older, so first), then beats 2 and 3
        assertThat(goodSlots(split.byLoss(h, ConstantLiar.BEST, 0.5), h)).containsExactly(1, 4, 5);
        // worst: the lie is 5, so the three best results are good
        assertThat(goodSlots(split.byLoss(h, ConstantLiar.WORST, 0.5), h)).containsExactly(0, 1, 2);
        // mean: the lie is 2.75, between the second and third best results
        assertThat(goodSlots(split.byLoss(h, ConstantLiar.MEAN, 0.5), h)).containsExactly(1, 2, 4);
        // none: pending trials are left out, 2 of the 4 results are good
        assertThat(goodSlots(split.byLoss(h, ConstantLiar.NONE, 0.5), h)).containsExactly(1, 2);
    }

    @Test
    void byParetoTakesTheFirstFrontAndThinsItByHypervolume() {
        History h = history(1, 0, 0, 0, 0);
        double[][] vectors = {{1, 4}, {2, 2}, {5, 1}, {3, 3}, null};
        GoodBadSplit split = new GoodBadSplit();
        // 2 of 4 are good; the first front {0, 1, 2} is one too many: slot 0 adds the least hypervolume
        // (reference (5.4, 4.3): slot 0 adds 1 x 0.3, slot 2 adds 0.4 x 1)
        assertThat(goodSlots(split.byPareto(h, vectors, ConstantLiar.WORST, 0.5), h)).containsExactly(1, 2);
        assertThat(goodSlots(split.byPareto(h, vectors, ConstantLiar.BEST, 0.5), h)).containsExactly(1, 2, 4);
    }

    @Test
    void olderObservationsWeighLessUnderLinearForgetting() {
        // 30 observations, the newest 25 at full weight, the oldest 5 on a ramp from 1/30 up to 1
        assertThat(ParzenCoordinate.forgettingWeight(0, 30, 25)).isCloseTo(1.0 / 30, offset(1e-12));
        assertThat(ParzenCoordinate.forgettingWeight(2, 30, 25)).isCloseTo(1.0 / 30 + (29.0 / 30) / 2, offset(1e-12));
        assertThat(ParzenCoordinate.forgettingWeight(4, 30, 25)).isCloseTo(1, offset(1e-12));
        assertThat(ParzenCoordinate.forgettingWeight(5, 30, 25)).isEqualTo(1);
        assertThat(ParzenCoordinate.forgettingWeight(0, 25, 25)).isEqualTo(1);
    }
}
