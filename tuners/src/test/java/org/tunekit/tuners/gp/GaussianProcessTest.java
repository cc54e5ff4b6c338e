package org.tunekit.tuners.gp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class GaussianProcessTest {

    private static GaussianProcess sample(MaternKernel kernel, int n) {
        SplittableRandom rng = new SplittableRandom(3);
        double[][] x = new double[n][3];
        double[] y = new double[n];
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < 3; j++) {
                x[i][j] = rng.nextDouble();
            }
            y[i] = Math.sin(4 * x[i][0]) + 0.3 * x[i][1];
        }
        double mean = java.util.Arrays.stream(y).average().orElseThrow();
        for (int i = 0; i < n; i++) {
            y[i] -= mean;
        }
        // inputs 0 and 1 form group 0, input 2 is group 1
        return new GaussianProcess(x, y, new int[] {0, 0, 1}, 2, kernel, 1e-6);
    }

    @ParameterizedTest
    @EnumSource(MaternKernel.class)
    void theAnalyticGradientMatchesFiniteDifferences(MaternKernel kernel) {
        GaussianProcess gp = sample(kernel, 25);
        double[] theta = {0.2, Math.log(0.4), Math.log(0.7)};
        double[] gradient = new double[3];
        gp.objective(theta, gradient);
        for (int k = 0; k < 3; k++) {
            double h = 1e-5;
            double[] up = theta.clone();
            double[] down = theta.clone();
            up[k] += h;
            down[k] -= h;
            double numeric = (gp.objective(up, new double[3])[0] - gp.objective(down, new double[3])[0]) / (2 * h);
            assertThat(gradient[k]).as("component %d", k).isCloseTo(numeric, offset(1e-4 * Math.max(1, Math.abs(numeric))));
        }
    }

    @ParameterizedTest
    @EnumSource(MaternKernel.class)
    void fittingImprovesTheObjectiveAndThePosteriorInterpolates(MaternKernel kernel) {
        GaussianProcess gp = sample(kernel, 30);
        double[] start = GaussianProcess.defaultTheta(2);
        double[] fitted = gp.fit(List.of(start), 50);
        assertThat(gp.objective(fitted, new double[3])[0]).isGreaterThan(gp.objective(start, new double[3])[0]);
        GaussianProcess.Posterior posterior = gp.posterior(fitted);
        SplittableRandom rng = new SplittableRandom(3);
        double[] x0 = {rng.nextDouble(), rng.nextDouble(), rng.nextDouble()};
        double[] prediction = posterior.predict(x0, new int[] {0, 0, 1});
        double[] far = posterior.predict(new double[] {5, 5, 5}, new int[] {0, 0, 1});
        assertThat(prediction[1]).isLessThan(1e-3 * far[1]);
    }
}
