package org.tunekit.assessors.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SortedDoublesTest {

    private static SortedDoubles of(double... values) {
        SortedDoubles s = new SortedDoubles();
        for (double v : values) {
            s.add(v);
        }
        return s;
    }

    @Test
    void keepsValuesInOrderThroughGrowth() {
        SortedDoubles s = new SortedDoubles();
        for (int i = 0; i < 100; i++) {
            s.add((i * 37) % 100);
        }
        assertThat(s.size()).isEqualTo(100);
        for (int i = 0; i < 100; i++) {
            assertThat(s.get(i)).isEqualTo(i);
        }
        assertThatThrownBy(() -> s.get(100)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> s.add(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void countBelowIsStrict() {
        SortedDoubles s = of(1, 2, 2, 3);
        assertThat(s.countBelow(2)).isEqualTo(1);
        assertThat(s.countBelow(2.5)).isEqualTo(3);
        assertThat(s.countBelow(0)).isZero();
        assertThat(s.countBelow(9)).isEqualTo(4);
    }

    @Test
    void percentileInterpolatesLinearly() {
        SortedDoubles s = of(4, 1, 3, 2);
        assertThat(s.percentile(50)).isEqualTo(2.5);
        assertThat(s.percentile(100)).isEqualTo(4);
        assertThat(s.percentile(0)).isEqualTo(1);
        assertThat(of(7).percentile(30)).isEqualTo(7);
        assertThat(s.toArray()).containsExactly(1, 2, 3, 4);
        assertThatThrownBy(() -> new SortedDoubles().percentile(50)).isInstanceOf(IllegalStateException.class);
    }
}
