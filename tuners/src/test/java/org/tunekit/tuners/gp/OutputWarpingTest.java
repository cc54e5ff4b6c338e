package org.tunekit.tuners.gp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class OutputWarpingTest {

    @Test
    void aHeavyTailIsPulledInKeepingTheOrderAndTheResultIsStandardised() {
        double[] y = {1e6, 3, 2, 10, 2.5, 1e4};
        double[] w = OutputWarping.leastSkewed(y);
        for (int i = 0; i < y.length; i++) {
            for (int j = 0; j < y.length; j++) {
                assertThat(Double.compare(w[i], w[j])).isEqualTo(Double.compare(y[i], y[j]));
            }
        }
        double mean = 0;
        double ss = 0;
        for (double v : w) {
            mean += v / w.length;
        }
        for (double v : w) {
            ss += (v - mean) * (v - mean) / w.length;
        }
        assertThat(mean).isCloseTo(0, within(1e-12));
        assertThat(ss).isCloseTo(1, within(1e-12));
        // the huge value no longer dwarfs the rest: the gap between the best two, as a share of the range,
        // is over a thousand times what it was
        assertThat((w[4] - w[2]) / (w[0] - w[2])).isGreaterThan(1000 * (y[4] - y[2]) / (y[0] - y[2]));
        assertThat(OutputWarping.leastSkewed(new double[] {4, 4, 4})).containsExactly(0.0, 0.0, 0.0);
    }

    @Test
    void symmetricTargetsAreOnlyStandardised() {
        double[] y = {-2, -1, 0, 1, 2, 3, 4, 5, 6, 7};
        double[] w = OutputWarping.leastSkewed(y);
        double sd = Math.sqrt(8.25);
        for (int i = 0; i < y.length; i++) {
            assertThat(w[i]).isCloseTo((y[i] - 2.5) / sd, within(1e-12));
        }
    }
}
