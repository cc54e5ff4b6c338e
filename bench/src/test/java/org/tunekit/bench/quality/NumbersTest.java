package org.tunekit.bench.quality;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class NumbersTest {

    @Test
    void threeSignificantDigitsAsTheReferenceTablesPrintThem() {
        assertThat(Numbers.sig3(0.05129)).isEqualTo("0.0513");
        assertThat(Numbers.sig3(2.0)).isEqualTo("2");
        assertThat(Numbers.sig3(17.149)).isEqualTo("17.1");
        assertThat(Numbers.sig3(0.25)).isEqualTo("0.25");
        assertThat(Numbers.sig3(1.4213e-3)).isEqualTo("1.42e-03");
        assertThat(Numbers.sig3(7.0349e-6)).isEqualTo("7.03e-06");
        assertThat(Numbers.sig3(181.4)).isEqualTo("181");
        assertThat(Numbers.sig3(0)).isEqualTo("0");
        assertThat(Numbers.sig3(Double.POSITIVE_INFINITY)).isEqualTo("inf");
    }

    @Test
    void quartilesCellAndSeedLists() {
        assertThat(Numbers.quartiles(new Quantiles(0.0513, 0.128, 0.25, 30))).isEqualTo("0.128 [0.0513, 0.25]");
        assertThat(Numbers.quartiles(new Quantiles(9.15, 9.15, 9.15, 1))).isEqualTo("9.15 (1 seed)");
        assertThat(Numbers.seeds(List.of(0L, 1L, 2L, 3L))).isEqualTo("0..3");
        assertThat(Numbers.seeds(List.of(0L, 5L, 7L))).isEqualTo("0,5,7");
    }
}
