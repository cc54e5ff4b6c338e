package org.tunekit.tuners.gp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.space.EncodedSpace;
import org.tunekit.sdk.space.SearchSpace;

class FeatureMapTest {

    private static double distance(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += (a[i] - b[i]) * (a[i] - b[i]);
        }
        return Math.sqrt(s);
    }

    @Test
    void choicesAreOneHotAtDistanceOneWhateverTheirOrder() {
        SearchSpace space = SearchSpace.builder().choice("c", "a", "b", "c", "d").uniform("u", 0, 1).build();
        EncodedSpace es = EncodedSpace.of(space);
        FeatureMap f = new FeatureMap(es);
        assertThat(f.size()).isEqualTo(5);
        assertThat(f.groups()).isEqualTo(2);
        assertThat(f.groupOf()).containsExactly(0, 0, 0, 0, 1);
        double[] first = f.features(new double[] {0.1, 0.5});
        double[] second = f.features(new double[] {0.3, 0.5});
        double[] last = f.features(new double[] {0.9, 0.5});
        assertThat(distance(first, second)).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(distance(first, last)).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-12));
    }

    @Test
    void inactiveNestedCoordinatesTakeFixedValues() {
        SearchSpace space = SearchSpace.builder().nestedChoice("m", Map.of(
                "tree", SearchSpace.builder().uniform("depth", 0, 1).choice("kind", "x", "y").build())).build();
        FeatureMap f = new FeatureMap(EncodedSpace.of(space));
        double[] inactive = f.features(new double[] {0.5, Double.NaN, Double.NaN});
        // m (one option, one input), depth, kind (two inputs)
        assertThat(inactive).containsExactly(Math.sqrt(0.5), 0.5, 0.0, 0.0);
    }
}
