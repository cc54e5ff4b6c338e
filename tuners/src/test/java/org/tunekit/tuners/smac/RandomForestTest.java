package org.tunekit.tuners.smac;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class RandomForestTest {

    @Test
    void learnsAStepInANumericFeature() {
        int n = 200;
        double[][] x = new double[n][];
        double[] y = new double[n];
        SplittableRandom rng = new SplittableRandom(1);
        for (int i = 0; i < n; i++) {
            x[i] = new double[] {rng.nextDouble(), rng.nextDouble()};
            y[i] = x[i][0] < 0.4 ? 1 : 5;
        }
        RandomForest f = new RandomForest(new int[] {0, 0}, 10, 3, 1, 30, 1.0);
        f.fit(x, y, n, new SplittableRandom(2));
        double[] out = new double[2];
        f.predict(new double[] {0.1, 0.5}, out);
        assertThat(out[0]).isCloseTo(1, Offset.offset(0.1));
        f.predict(new double[] {0.9, 0.5}, out);
        assertThat(out[0]).isCloseTo(5, Offset.offset(0.1));
        assertThat(out[1]).isLessThan(0.2);
    }

    @Test
    void splitsCategoriesIntoSubsetsWhateverTheirOrder() {
        // categories 0 and 3 are good, 1 and 2 bad, 4 is "inactive": no threshold on the index separates them
        int n = 100;
        double[][] x = new double[n][];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            int c = i % 4;
            x[i] = new double[] {c};
            y[i] = (c == 0 || c == 3) ? 0 : 10;
        }
        RandomForest f = new RandomForest(new int[] {5}, 10, 3, 1, 30, 1.0);
        f.fit(x, y, n, new SplittableRandom(3));
        double[] out = new double[2];
        for (int c = 0; c < 4; c++) {
            f.predict(new double[] {c}, out);
            assertThat(out[0]).as("category %d", c).isCloseTo((c == 0 || c == 3) ? 0 : 10, Offset.offset(1.0));
        }
    }

    @Test
    void varianceIsLargerWhereTheDataDisagree() {
        int n = 300;
        double[][] x = new double[n][];
        double[] y = new double[n];
        SplittableRandom rng = new SplittableRandom(4);
        for (int i = 0; i < n; i++) {
            x[i] = new double[] {rng.nextDouble()};
            y[i] = x[i][0] < 0.5 ? 0 : 5 * rng.nextGaussian();
        }
        RandomForest f = new RandomForest(new int[] {0}, 10, 3, 5, 30, 1.0);
        f.fit(x, y, n, new SplittableRandom(5));
        double[] quiet = new double[2];
        double[] noisy = new double[2];
        f.predict(new double[] {0.2}, quiet);
        f.predict(new double[] {0.8}, noisy);
        assertThat(noisy[1]).isGreaterThan(10 * quiet[1] + 1);
    }

    @Test
    void addingAndTakingOutASampleRestoresThePrediction() {
        double[][] x = {{0.1}, {0.2}, {0.3}, {0.7}, {0.8}, {0.9}};
        double[] y = {1, 1.2, 0.9, 4, 4.1, 3.9};
        RandomForest f = new RandomForest(new int[] {0}, 5, 2, 1, 30, 1.0);
        f.fit(x, y, x.length, new SplittableRandom(6));
        double[] before = new double[2];
        f.predict(new double[] {0.75}, before);
        double[] one = {1, 1, 1, 1, 1};
        f.add(new double[] {0.75}, 100, one);
        double[] lied = new double[2];
        f.predict(new double[] {0.75}, lied);
        assertThat(lied[0]).isGreaterThan(before[0] + 10);
        f.add(new double[] {0.75}, 100, new double[] {-1, -1, -1, -1, -1});
        double[] after = new double[2];
        f.predict(new double[] {0.75}, after);
        assertThat(after[0]).isCloseTo(before[0], Offset.offset(1e-9));
        assertThat(after[1]).isCloseTo(before[1], Offset.offset(1e-9));
    }
}
