package org.tunekit.bench.quality;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class QuantilesTest {

    @Test
    void thirtyValuesGiveNumpysDefaultQuartiles() {
        // numpy.percentile(range(1, 31), [25, 50, 75]) == [8.25, 15.5, 22.75]
        double[] v = new double[30];
        for (int i = 0; i < 30; i++) {
            v[i] = 30 - i;
        }
        Quantiles q = Quantiles.of(v);
        assertThat(q.q1()).isEqualTo(8.25);
        assertThat(q.median()).isEqualTo(15.5);
        assertThat(q.q3()).isEqualTo(22.75);
        assertThat(q.n()).isEqualTo(30);
    }

    @Test
    void unevenValuesInterpolateBetweenOrderStatistics() {
        // sorted: 1 1 2 3 4 5 6 9; Q1 at h = 1.75, median at 3.5, Q3 at 5.25
        double[] v = {3, 1, 4, 1, 5, 9, 2, 6};
        Quantiles q = Quantiles.of(v);
        assertThat(q.q1()).isCloseTo(1.75, within(1e-15));
        assertThat(q.median()).isCloseTo(3.5, within(1e-15));
        assertThat(q.q3()).isCloseTo(5.25, within(1e-15));
        assertThat(v).containsExactly(3, 1, 4, 1, 5, 9, 2, 6);
    }

    @Test
    void oddCountHasTheMiddleValueAsMedian() {
        Quantiles q = Quantiles.of(new double[] {10, 0.5, 7, 2, 100});
        assertThat(q.median()).isEqualTo(7);
        assertThat(q.q1()).isEqualTo(2);
        assertThat(q.q3()).isEqualTo(10);
    }

    @Test
    void oneValueIsEveryQuantileAndInfinitiesDoNotTurnIntoNaN() {
        assertThat(Quantiles.of(new double[] {4})).isEqualTo(new Quantiles(4, 4, 4, 1));
        double inf = Double.POSITIVE_INFINITY;
        assertThat(Quantiles.of(new double[] {1, inf, inf, inf}).q3()).isEqualTo(inf);
    }

    @Test
    void refusesNoValuesAndLevelsOutsideTheUnitInterval() {
        assertThatThrownBy(() -> Quantiles.of(new double[0])).hasMessageContaining("no values");
        assertThatThrownBy(() -> Quantiles.quantile(new double[] {1}, 1.5)).hasMessageContaining("[0, 1], got 1.5");
    }
}
