package org.tunekit.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.tunekit.dispatcher.protocol.JsonCodec;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.space.SearchSpace;

class TestFunctionsTest {

    private static Parameters p(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return Parameters.of(m);
    }

    @Test
    void theDemoHasItsFiveFunctionsInOrder() {
        assertThat(TestFunctions.all().keySet()).containsExactly("branin", "hartmann6", "ackley5", "mixed", "nested");
    }

    @Test
    void braninReachesItsOptimumAtAllThreeMinimisers() {
        TestFunction b = TestFunctions.branin();
        assertThat(b.optimum()).isEqualTo(0.397887357729738);
        // at the minimisers the quadratic term vanishes and f = s t = 10 / (8 pi)
        assertThat(10 / (8 * Math.PI)).isCloseTo(b.optimum(), within(1e-15));
        assertThat(b.evaluate(p("x1", -Math.PI, "x2", 12.275))).isCloseTo(b.optimum(), within(1e-12));
        assertThat(b.evaluate(p("x1", Math.PI, "x2", 2.275))).isCloseTo(b.optimum(), within(1e-12));
        assertThat(b.evaluate(p("x1", 3 * Math.PI, "x2", 2.475))).isCloseTo(b.optimum(), within(1e-12));
        // and a known other value: f(0, 0) = (-6)^2 + 10 (1 - t) + 10
        assertThat(b.evaluate(p("x1", 0.0, "x2", 0.0))).isCloseTo(36 + 10 * (1 - 1 / (8 * Math.PI)) + 10, within(1e-12));
    }

    @Test
    void hartmann6ReachesItsOptimumAtTheKnownMinimiser() {
        TestFunction h = TestFunctions.hartmann6();
        assertThat(h.optimum()).isEqualTo(-3.32236801141551);
        double[] x = {0.20168952, 0.15001069, 0.47687398, 0.27533243, 0.31165162, 0.65730054};
        assertThat(h.evaluate(hx(x))).isCloseTo(h.optimum(), within(1e-9));
        // nothing close by is lower
        SplittableRandom rng = new SplittableRandom(1);
        for (int i = 0; i < 2000; i++) {
            double[] y = x.clone();
            for (int j = 0; j < 6; j++) {
                y[j] += rng.nextDouble(-1e-3, 1e-3);
            }
            assertThat(h.evaluate(hx(y))).isGreaterThan(h.optimum() - 1e-9);
        }
    }

    private static Parameters hx(double[] x) {
        return p("x1", x[0], "x2", x[1], "x3", x[2], "x4", x[3], "x5", x[4], "x6", x[5]);
    }

    @Test
    void ackley5IsZeroAtTheOriginAndPositiveElsewhere() {
        TestFunction a = TestFunctions.ackley5();
        assertThat(a.optimum()).isZero();
        assertThat(a.evaluate(p("x1", 0.0, "x2", 0.0, "x3", 0.0, "x4", 0.0, "x5", 0.0))).isCloseTo(0, within(1e-14));
        // at (1, 0, 0, 0, 0): -20 exp(-0.2 sqrt(1/5)) - exp((cos(2 pi) + 4) / 5) + 20 + e
        double expected = -20 * Math.exp(-0.2 * Math.sqrt(0.2)) - Math.exp(1) + 20 + Math.E;
        assertThat(a.evaluate(p("x1", 1.0, "x2", 0.0, "x3", 0.0, "x4", 0.0, "x5", 0.0))).isCloseTo(expected, within(1e-12));
    }

    @Test
    void mixedIsZeroAtAdamWithItsBestSettings() {
        TestFunction m = TestFunctions.mixed();
        assertThat(m.optimum()).isZero();
        assertThat(m.evaluate(p("lr", 1e-3, "batch_size", 64L, "layers", 5L, "optimizer", "adam", "dropout", 0.25))).isCloseTo(0, within(1e-15));
        // sgd at its own best lr still pays its penalty: u = log10(0.1) - (-1) = 0, p = 0.3
        assertThat(m.evaluate(p("lr", 0.1, "batch_size", 64L, "layers", 5L, "optimizer", "sgd", "dropout", 0.25))).isCloseTo(0.3, within(1e-12));
        // batch 256: lb = 2, u = -3 + 3 + 0.5 = 0.5, f = 0.25 + 0.4 + 0.05 * 4 (layers 3) + 4 * 0.0025 (dropout 0.3)
        assertThat(m.evaluate(p("lr", 1e-3, "batch_size", 256L, "layers", 3L, "optimizer", "adam", "dropout", 0.3)))
                .isCloseTo(0.25 + 0.4 + 0.2 + 0.01, within(1e-12));
    }

    @Test
    void nestedIsZeroAtTheNetWithItsBestSettingsAndEachModelHasItsFloor() {
        TestFunction n = TestFunctions.nested();
        assertThat(n.optimum()).isZero();
        assertThat(n.evaluate(p("model", Map.of("_name", "net", "width", 256L, "lr", Math.pow(10, -3.5))))).isCloseTo(0, within(1e-15));
        assertThat(n.evaluate(p("model", Map.of("_name", "tree", "depth", 9L, "min_leaf", 10.0)))).isCloseTo(0.3, within(1e-15));
        assertThat(n.evaluate(p("model", Map.of("_name", "linear", "alpha", 0.1)))).isCloseTo(0.6, within(1e-15));
    }

    @Test
    void theSpacesAreThoseOfTheBenchmarkSuite() throws Exception {
        String mixed = """
                {"lr": {"_type": "loguniform", "_value": [1e-5, 1]},
                 "batch_size": {"_type": "choice", "_value": [16, 32, 64, 128, 256]},
                 "layers": {"_type": "randint", "_value": [1, 9]},
                 "optimizer": {"_type": "choice", "_value": ["sgd", "adam", "rmsprop"]},
                 "dropout": {"_type": "quniform", "_value": [0, 0.8, 0.05]}}""";
        String nested = """
                {"model": {"_type": "choice", "_value": [
                  {"_name": "linear", "alpha": {"_type": "loguniform", "_value": [1e-4, 10]}},
                  {"_name": "tree", "depth": {"_type": "randint", "_value": [1, 16]},
                                    "min_leaf": {"_type": "qloguniform", "_value": [1, 100, 1]}},
                  {"_name": "net", "width": {"_type": "choice", "_value": [32, 64, 128, 256, 512]},
                                   "lr": {"_type": "loguniform", "_value": [1e-5, 1e-1]}}]}}""";
        String branin = """
                {"x1": {"_type": "uniform", "_value": [-5, 10]}, "x2": {"_type": "uniform", "_value": [0, 15]}}""";
        StringBuilder hartmann = new StringBuilder("{");
        StringBuilder ackley = new StringBuilder("{");
        for (int j = 1; j <= 6; j++) {
            hartmann.append(j > 1 ? ", " : "").append("\"x").append(j).append("\": {\"_type\": \"uniform\", \"_value\": [0, 1]}");
            if (j <= 5) {
                ackley.append(j > 1 ? ", " : "").append("\"x").append(j).append("\": {\"_type\": \"uniform\", \"_value\": [-32.768, 32.768]}");
            }
        }
        Map<String, String> expected = Map.of("branin", branin, "hartmann6", hartmann + "}", "ackley5", ackley + "}", "mixed", mixed,
                "nested", nested);
        for (TestFunction o : TestFunctions.all().values()) {
            Object json = JsonCodec.parse(expected.get(o.name()), o.name());
            assertThat(numbersAsDoubles(o.space())).as(o.name()).isEqualTo(numbersAsDoubles(json));
        }
        // randint excludes its upper bound, as NNI's does
        SearchSpace space = SearchSpace.parse(TestFunctions.mixed().space());
        SplittableRandom rng = new SplittableRandom(3);
        long maxLayers = 0;
        for (int i = 0; i < 2000; i++) {
            maxLayers = Math.max(maxLayers, space.sample(rng).getLong("layers"));
        }
        assertThat(maxLayers).isEqualTo(8);
    }

    private static Object numbersAsDoubles(Object v) {
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        if (v instanceof Map<?, ?> m) {
            Map<Object, Object> out = new LinkedHashMap<>();
            m.forEach((k, x) -> out.put(k, numbersAsDoubles(x)));
            return out;
        }
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>();
            l.forEach(x -> out.add(numbersAsDoubles(x)));
            return out;
        }
        return v;
    }
}
