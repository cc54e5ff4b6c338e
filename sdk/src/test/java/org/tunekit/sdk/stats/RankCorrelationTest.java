package org.tunekit.sdk.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class RankCorrelationTest {

    @Test
    void sameOrderReverseOrderAndMonotoneTransforms() {
        double[] x = {0.1, 0.5, 0.3, 0.9};
        assertThat(RankCorrelation.spearman(x, new double[] {1, 5, 3, 9})).isCloseTo(1, within(1e-12));
        assertThat(RankCorrelation.spearman(x, new double[] {Math.exp(0.1), Math.exp(0.5), Math.exp(0.3), Math.exp(0.9)}))
                .isCloseTo(1, within(1e-12));
        assertThat(RankCorrelation.spearman(x, new double[] {-1, -5, -3, -9})).isCloseTo(-1, within(1e-12));
    }

    @Test
    void aKnownValueWithTies() {
        // ranks (0, 1.5, 1.5, 3) and (0, 2, 1, 3): covariance 4.5, variances 4.5 and 5
        assertThat(RankCorrelation.spearman(new double[] {1, 2, 2, 3}, new double[] {1, 3, 2, 4})).isCloseTo(4.5 / Math.sqrt(4.5 * 5),
                within(1e-12));
        assertThat(RankCorrelation.ranks(new double[] {0.3, 0.85, 0.1, 0.85, Double.NaN})).containsExactly(1, 2.5, 0, 2.5, 4);
    }

    @Test
    void aConstantSeriesOrdersNothing() {
        assertThat(RankCorrelation.spearman(new double[] {2, 2, 2}, new double[] {1, 2, 3})).isZero();
    }

    @Test
    void lengthsMustMatch() {
        assertThatThrownBy(() -> RankCorrelation.spearman(new double[] {1, 2}, new double[] {1}))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("same length");
        assertThatThrownBy(() -> RankCorrelation.spearman(new double[] {1}, new double[] {1})).isInstanceOf(IllegalArgumentException.class);
    }
}
