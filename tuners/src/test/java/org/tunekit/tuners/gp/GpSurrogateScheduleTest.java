package org.tunekit.tuners.gp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.space.EncodedSpace;
import org.tunekit.sdk.space.SearchSpace;

/** The surrogate's hyper-parameters are a function of the observations, not of when it was asked. */
class GpSurrogateScheduleTest {
    private static final int N = 70;
    private final FeatureMap features = new FeatureMap(EncodedSpace.of(
            SearchSpace.builder().uniform("x", 0, 1).uniform("y", 0, 1).build()));
    private final double[][] x = new double[N][];
    private final double[] y = new double[N];

    GpSurrogateScheduleTest() {
        SplittableRandom rng = new SplittableRandom(4);
        for (int i = 0; i < N; i++) {
            double[] u = {rng.nextDouble(), rng.nextDouble()};
            x[i] = features.features(u);
            y[i] = Math.sin(6 * u[0]) + u[1] * u[1];
        }
    }

    private GpSurrogate.FitData first(int count) {
        return new GpSurrogate.FitData(java.util.Arrays.copyOf(x, count), java.util.Arrays.copyOf(y, count));
    }

    private GpSurrogate surrogate() {
        return new GpSurrogate(features, MaternKernel.FIVE_HALVES, 1e-6);
    }

    @Test
    void askingAtEveryCountOrOnceAtTheEndGivesTheSameFit() {
        GpSurrogate everyCount = surrogate();
        GpSurrogate now = surrogate();
        GpSurrogate once = surrogate();
        for (int count = 0; count <= N; count++) {
            everyCount.fitThrough(count, this::first, s -> new SplittableRandom(s));
            if (count % 9 == 0) {
                now.fitThrough(count, this::first, s -> new SplittableRandom(s));
            }
        }
        now.fitThrough(N, this::first, s -> new SplittableRandom(s));
        once.fitThrough(N, this::first, s -> new SplittableRandom(s));
        assertThat(once.theta()).isNotNull().containsExactly(everyCount.theta()).containsExactly(now.theta());
    }
}
