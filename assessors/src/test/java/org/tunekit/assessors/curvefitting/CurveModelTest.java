package org.tunekit.assessors.curvefitting;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class CurveModelTest {

    /** Gradients against central differences, at the model's own starting points, over several epochs. */
    @ParameterizedTest
    @EnumSource(CurveModel.class)
    void gradientMatchesFiniteDifferencesAndReturnsTheValue(CurveModel model) {
        for (int variant = 0; variant < 2; variant++) {
            double[] p = model.clamp(model.start(0.1, 1.2, 10, variant));
            double[] g = new double[p.length];
            for (double x : new double[] {1, 2.5, 7, 30}) {
                double value = model.gradient(x, p, g);
                assertThat(value).as("%s value at %s", model, x).isCloseTo(model.value(x, p), within(1e-12));
                for (int k = 0; k < p.length; k++) {
                    double h = 1e-6 * Math.max(1, Math.abs(p[k]));
                    double[] up = p.clone();
                    double[] down = p.clone();
                    up[k] += h;
                    down[k] -= h;
                    double numeric = (model.value(x, up) - model.value(x, down)) / (2 * h);
                    assertThat(g[k]).as("%s d/dp%s at %s", model, k, x).isCloseTo(numeric, within(1e-5 * Math.max(1, Math.abs(numeric))));
                }
            }
        }
    }

    /** Each starting point reproduces the first value at epoch 1 roughly and lies inside the bounds. */
    @ParameterizedTest
    @EnumSource(CurveModel.class)
    void startsInsideTheBounds(CurveModel model) {
        double[] p = model.start(0.1, 1.2, 10, 0);
        assertThat(model.clamp(p.clone())).containsExactly(p);
        assertThat(model.value(1, p)).isFinite();
    }
}
