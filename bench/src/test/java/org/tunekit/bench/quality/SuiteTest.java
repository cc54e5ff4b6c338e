package org.tunekit.bench.quality;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.tunekit.demo.TestFunction;
import org.tunekit.demo.TestFunctions;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.space.SearchSpace;

class SuiteTest {

    @Test
    void theClassicFiveAreTheDemosFunctionsAndComeFirst() {
        assertThat(Suite.classic().keySet()).containsExactlyElementsOf(TestFunctions.all().keySet());
        assertThat(List.copyOf(Suite.everything().keySet()).subList(0, 5)).containsExactlyElementsOf(TestFunctions.all().keySet());
    }

    @Test
    void theHighDimensionalSetHasItsSixFunctionsInOrder() {
        assertThat(Suite.highDimensional().keySet())
                .containsExactly("rosenbrock8", "ackley10", "styblinski10", "rastrigin10", "schwefel10", "levy20");
        assertThat(Suite.everything()).hasSize(11);
        Map<String, double[]> boxes = Map.of("rosenbrock8", new double[] {8, -5, 10}, "ackley10", new double[] {10, -32.768, 32.768},
                "styblinski10", new double[] {10, -5, 5}, "rastrigin10", new double[] {10, -5.12, 5.12},
                "schwefel10", new double[] {10, -500, 500}, "levy20", new double[] {20, -10, 10});
        for (TestFunction o : Suite.highDimensional().values()) {
            double[] b = boxes.get(o.name());
            assertThat(o.space()).as(o.name()).hasSize((int) b[0]);
            for (int j = 1; j <= b[0]; j++) {
                assertThat(o.space().get("x" + j)).as(o.name() + " x" + j)
                        .isEqualTo(Map.of("_type", "uniform", "_value", List.of(b[1], b[2])));
            }
        }
    }

    private static Parameters all(int d, double v) {
        double[] x = new double[d];
        java.util.Arrays.fill(x, v);
        return vector(x);
    }

    private static Parameters vector(double[] x) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int j = 0; j < x.length; j++) {
            m.put("x" + (j + 1), x[j]);
        }
        return Parameters.of(m);
    }

    @Test
    void theHighDimensionalFunctionsReachTheirOptimaAtTheKnownMinimisers() {
        assertThat(Suite.rosenbrock(8).evaluate(all(8, 1))).isZero();
        // f(0) = (d - 1) * 1 for Rosenbrock: only the (x_i - 1)^2 terms are left
        assertThat(Suite.rosenbrock(8).evaluate(all(8, 0))).isEqualTo(7.0);
        assertThat(TestFunctions.ackley(10).evaluate(all(10, 0))).isCloseTo(0, within(1e-14));
        assertThat(Suite.rastrigin(10).evaluate(all(10, 0))).isZero();
        assertThat(Suite.rastrigin(10).evaluate(all(10, 1))).isCloseTo(10, within(1e-9));
        assertThat(Suite.levy(20).evaluate(all(20, 1))).isCloseTo(0, within(1e-28));
        TestFunction st = Suite.styblinskiTang(10);
        assertThat(st.optimum()).isCloseTo(-391.6616570377141, within(1e-9));
        assertThat(st.evaluate(all(10, Suite.STYBLINSKI_TANG_X))).isCloseTo(st.optimum(), within(1e-10));
        TestFunction sw = Suite.schwefel(10);
        assertThat(sw.evaluate(all(10, Suite.SCHWEFEL_X))).isCloseTo(0, within(1e-9));
        // the minimisers are minima: small moves along one coordinate never go lower
        SplittableRandom rng = new SplittableRandom(5);
        for (int i = 0; i < 500; i++) {
            int j = rng.nextInt(10);
            double[] x = new double[10];
            java.util.Arrays.fill(x, Suite.STYBLINSKI_TANG_X);
            x[j] += rng.nextDouble(-1e-3, 1e-3);
            assertThat(st.evaluate(vector(x))).isGreaterThanOrEqualTo(st.optimum() - 1e-10);
            java.util.Arrays.fill(x, Suite.SCHWEFEL_X);
            x[j] += rng.nextDouble(-1e-2, 1e-2);
            assertThat(sw.evaluate(vector(x))).isGreaterThanOrEqualTo(0);
        }
    }

    @Test
    void noPointOfAnySpaceOfTheSuiteIsBelowItsOptimum() {
        SplittableRandom rng = new SplittableRandom(42);
        for (TestFunction o : Suite.everything().values()) {
            SearchSpace space = SearchSpace.parse(o.space());
            double min = Double.POSITIVE_INFINITY;
            for (int i = 0; i < 10_000; i++) {
                Parameters x = space.sample(rng);
                assertThat(space.violation(x)).isEmpty();
                min = Math.min(min, o.evaluate(x));
            }
            assertThat(min).as(o.name()).isGreaterThanOrEqualTo(o.optimum() - 1e-12);
        }
    }
}
