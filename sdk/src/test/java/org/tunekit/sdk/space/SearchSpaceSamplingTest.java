package org.tunekit.sdk.space;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.tunekit.sdk.space.SearchSpaceParseTest.spec;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.Parameters;

/** Sampling, {@code size()} and {@code violation}; the statistical checks use fixed seeds and wide tolerances. */
class SearchSpaceSamplingTest {
    private static final int N = 20_000;

    private static double[] draw(Parameter p, long seed) {
        SplittableRandom rng = new SplittableRandom(seed);
        double[] out = new double[N];
        for (int i = 0; i < N; i++) {
            out[i] = ((Number) p.sample(rng)).doubleValue();
        }
        return out;
    }

    private static double mean(double[] x) {
        double s = 0;
        for (double v : x) {
            s += v;
        }
        return s / x.length;
    }

    private static double sd(double[] x) {
        double m = mean(x);
        double s = 0;
        for (double v : x) {
            s += (v - m) * (v - m);
        }
        return Math.sqrt(s / (x.length - 1));
    }

    private static double fraction(double[] x, java.util.function.DoublePredicate p) {
        int n = 0;
        for (double v : x) {
            if (p.test(v)) {
                n++;
            }
        }
        return (double) n / x.length;
    }

    @Test
    void sampleIsReproducibleForASeedAndAlwaysInsideTheSpace() {
        SearchSpace s = SearchSpaceParseTest.nested();
        SplittableRandom a = new SplittableRandom(11);
        SplittableRandom b = new SplittableRandom(11);
        Set<String> models = new HashSet<>();
        for (int i = 0; i < 2_000; i++) {
            Parameters p = s.sample(a);
            assertThat(p).isEqualTo(s.sample(b));
            assertThat(s.violation(p)).isEmpty();
            Object m = p.get("model");
            models.add(m instanceof Map<?, ?> map ? (String) map.get("_name") : (String) m);
        }
        assertThat(models).containsExactlyInAnyOrder("tree", "linear", "none");
    }

    @Test
    void randintIsUniformOverLowToHighExcluded() {
        double[] x = draw(new RandInt("r", "r", -2, 3), 1);
        Map<Double, Integer> counts = new HashMap<>();
        for (double v : x) {
            counts.merge(v, 1, Integer::sum);
        }
        assertThat(counts.keySet()).containsExactlyInAnyOrder(-2.0, -1.0, 0.0, 1.0, 2.0);
        counts.values().forEach(c -> assertThat((double) c / N).isCloseTo(0.2, within(0.02)));
    }

    @Test
    void choiceIsUniformOverItsOptions() {
        Choice c = (Choice) SearchSpace.builder().choice("c", "a", "b", "c", "d").build().parameter("c");
        SplittableRandom rng = new SplittableRandom(2);
        Map<Object, Integer> counts = new HashMap<>();
        for (int i = 0; i < N; i++) {
            counts.merge(c.sample(rng), 1, Integer::sum);
        }
        assertThat(counts.keySet()).containsExactlyInAnyOrder("a", "b", "c", "d");
        counts.values().forEach(n -> assertThat((double) n / N).isCloseTo(0.25, within(0.02)));
    }

    @Test
    void uniformStaysInRangeWithTheRightMoments() {
        double[] x = draw(new Uniform("u", "u", 2, 6, 0), 3);
        assertThat(java.util.Arrays.stream(x).boxed().toList()).allSatisfy(v -> assertThat(v).isBetween(2.0, 6.0));
        assertThat(mean(x)).isCloseTo(4, within(0.05));
        assertThat(sd(x)).isCloseTo(4 / Math.sqrt(12), within(0.05));
        assertThat(fraction(x, v -> v < 3)).isCloseTo(0.25, within(0.02));
    }

    @Test
    void quniformIsOnTheGridAndClipped() {
        double[] x = draw(new Uniform("q", "q", 1, 10, 3), 4);
        assertThat(java.util.Arrays.stream(x).boxed().toList()).allSatisfy(v -> assertThat(v).isIn(1.0, 3.0, 6.0, 9.0));
        // 1 stands for [1, 1.5), 3 for [1.5, 4.5], 6 for (4.5, 7.5), 9 for [7.5, 10]
        assertThat(fraction(x, v -> v == 1)).isCloseTo(0.5 / 9, within(0.02));
        assertThat(fraction(x, v -> v == 9)).isCloseTo(2.5 / 9, within(0.02));
    }

    @Test
    void loguniformIsUniformInTheLogarithm() {
        double[] x = draw(new LogUniform("l", "l", 1e-4, 1, 0), 5);
        assertThat(java.util.Arrays.stream(x).boxed().toList()).allSatisfy(v -> assertThat(v).isBetween(1e-4, 1.0));
        // each decade gets a quarter of the draws
        assertThat(fraction(x, v -> v < 1e-3)).isCloseTo(0.25, within(0.02));
        assertThat(fraction(x, v -> v >= 1e-1)).isCloseTo(0.25, within(0.02));
    }

    @Test
    void qloguniformIsQuantisedAndClippedIntoRange() {
        double[] x = draw(new LogUniform("l", "l", 1, 1000, 10), 6);
        assertThat(java.util.Arrays.stream(x).boxed().toList()).allSatisfy(v -> {
            assertThat(v).isBetween(1.0, 1000.0);
            assertThat(v == 1 || v % 10 == 0).as("%s is 1 or a multiple of 10", v).isTrue();
        });
        assertThat(fraction(x, v -> v == 1)).isGreaterThan(0.2); // [1, 5) is a quarter of the log range
    }

    @Test
    void normalHasItsMeanAndDeviation() {
        double[] x = draw(new Normal("n", "n", 3, 2, 0), 7);
        assertThat(mean(x)).isCloseTo(3, within(0.08));
        assertThat(sd(x)).isCloseTo(2, within(0.08));
        assertThat(fraction(x, v -> Math.abs(v - 3) < 2)).isCloseTo(0.6827, within(0.02));
    }

    @Test
    void qnormalIsOnTheGrid() {
        double[] x = draw(new Normal("n", "n", 0, 1, 0.5), 8);
        assertThat(java.util.Arrays.stream(x).boxed().toList()).allSatisfy(v -> assertThat(v * 2).isEqualTo(Math.rint(v * 2)));
        assertThat(mean(x)).isCloseTo(0, within(0.05));
    }

    @Test
    void lognormalHasANormalLogarithm() {
        double[] x = draw(new LogNormal("l", "l", 1, 0.5, 0), 9);
        assertThat(java.util.Arrays.stream(x).boxed().toList()).allSatisfy(v -> assertThat(v).isPositive());
        double[] logs = java.util.Arrays.stream(x).map(Math::log).toArray();
        assertThat(mean(logs)).isCloseTo(1, within(0.03));
        assertThat(sd(logs)).isCloseTo(0.5, within(0.03));
    }

    @Test
    void qlognormalIsNonNegativeOnTheGrid() {
        double[] x = draw(new LogNormal("l", "l", 0, 1, 1), 10);
        assertThat(java.util.Arrays.stream(x).boxed().toList()).allSatisfy(v -> {
            assertThat(v).isGreaterThanOrEqualTo(0);
            assertThat(v).isEqualTo(Math.rint(v));
        });
        assertThat(fraction(x, v -> v == 1)).isCloseTo(0.4134, within(0.02)); // P(0.5 <= e^Z < 1.5) = Phi(ln 1.5) - Phi(ln 0.5)
    }

    @Test
    void sizeCountsFiniteSpaces() {
        assertThat(SearchSpace.builder().choice("c", 1, 2, 3).randint("r", 0, 4).build().size()).hasValue(12);
        assertThat(SearchSpace.builder().quniform("q", 0, 10, 2.5).build().size()).hasValue(5);
        SearchSpace finiteNested = SearchSpace.builder()
                .nestedChoice("model", Map.of("tree", SearchSpace.builder().randint("depth", 1, 5).build()))
                .randint("seed", 0, 3).build();
        assertThat(finiteNested.size()).hasValue(4 * 3);
        assertThat(SearchSpaceParseTest.nested().size()).isEmpty();
        assertThat(SearchSpace.builder().uniform("u", 0, 1).build().size()).isEmpty();
        assertThat(SearchSpace.builder().qnormal("n", 0, 1, 1).build().size()).isEmpty();
        assertThat(SearchSpace.builder().randint("a", 0, 1L << 40).randint("b", 0, 1L << 40).build().size()).isEmpty();
    }

    @Test
    void sizeCountsTheValuesAQuantisedParameterCanTake() {
        // quniform [1, 10, 3] takes 1 (clipped from 0), 3, 6 and 9
        assertThat(SearchSpace.builder().quniform("q", 1, 10, 3).build().size()).hasValue(4);
        // quniform [2, 10, 3] takes 3, 6 and 9: no draw rounds below 2
        assertThat(SearchSpace.builder().quniform("q", 2, 10, 3).build().size()).hasValue(3);
        // qloguniform [1, 1000, 10] takes 1 (clipped from 0), 10, 20, ..., 1000
        assertThat(SearchSpace.builder().qloguniform("q", 1, 1000, 10).build().size()).hasValue(101);
        // quniform [0, 1, 0.4] takes 0, 0.4 and 0.8 (1 / 0.4 = 2.5 rounds to even)
        assertThat(SearchSpace.builder().quniform("q", 0, 1, 0.4).build().size()).hasValue(3);
        for (double[] b : new double[][] {{1, 10, 3}, {2, 10, 3}, {0, 1, 0.4}, {0.5, 7.2, 1.5}, {1, 1000, 10}}) {
            Uniform u = new Uniform("q", "q", b[0], b[1], b[2]);
            Set<Double> seen = new HashSet<>();
            for (double v : draw(u, 12)) {
                seen.add(v);
            }
            assertThat(SearchSpace.builder().quniform("q", b[0], b[1], b[2]).build().size())
                    .as("size of quniform %s", java.util.Arrays.toString(b)).hasValue(seen.size());
        }
    }

    @Test
    void violationNamesTheProblem() {
        SearchSpace s = SearchSpace.builder().choice("c", "a", 2).randint("r", 0, 3).uniform("u", 0, 1)
                .loguniform("l", 0.1, 10).quniform("q", 0, 1, 0.25).lognormal("ln", 0, 1).build();
        Map<String, Object> ok = new LinkedHashMap<>(Map.of("c", 2.0, "r", 2L, "u", 1.0, "l", 0.1, "q", 0.75, "ln", 3.5));
        assertThat(s.violation(Parameters.of(ok))).isEmpty();

        assertThat(s.violation(with(ok, "c", "b"))).hasValue("parameter 'c' (choice): \"b\" is not a possible value (expected one of \"a\", 2)");
        assertThat(s.violation(with(ok, "r", 3L))).hasValue("parameter 'r' (randint): 3 is not a possible value (expected an integer in [0, 3))");
        assertThat(s.violation(with(ok, "r", 1.5))).hasValueSatisfying(m -> assertThat(m).contains("'r'"));
        assertThat(s.violation(with(ok, "u", 1.0000001))).hasValueSatisfying(m -> assertThat(m).contains("'u' (uniform)"));
        assertThat(s.violation(with(ok, "u", "0.5"))).hasValueSatisfying(m -> assertThat(m).contains("'u'"));
        assertThat(s.violation(with(ok, "l", 0.09))).hasValueSatisfying(m -> assertThat(m).contains("'l' (loguniform)"));
        assertThat(s.violation(with(ok, "l", 0.09))).hasValueSatisfying(m -> assertThat(m).contains("0.09", "[0.1, 10.0]"));
        assertThat(s.violation(with(ok, "q", 0.3))).hasValueSatisfying(m -> assertThat(m).contains("'q' (quniform)", "a multiple of 0.25"));
        assertThat(s.violation(with(ok, "ln", 0.0))).hasValueSatisfying(m -> assertThat(m).contains("'ln' (lognormal)"));
        assertThat(s.violation(with(ok, "u", Double.NaN))).isPresent();

        Map<String, Object> missing = new LinkedHashMap<>(ok);
        missing.remove("u");
        assertThat(s.violation(Parameters.of(missing))).hasValue("parameter 'u' is missing");
        assertThat(s.violation(with(ok, "extra", 1))).hasValue("'extra' is not a parameter of the space");
    }

    @Test
    void violationLooksInsideNestedChoices() {
        SearchSpace s = SearchSpaceParseTest.nested();
        Map<String, Object> tree = new LinkedHashMap<>(Map.of("_name", "tree", "depth", 2L, "split", "random"));
        Map<String, Object> ok = new LinkedHashMap<>(Map.of("model", tree, "seed", 0L));
        assertThat(s.violation(Parameters.of(ok))).isEmpty();
        assertThat(s.violation(with(ok, "model", "none"))).isEmpty();
        assertThat(s.violation(with(ok, "model", "tree"))).isPresent(); // a nested option needs its map
        assertThat(s.violation(with(ok, "model", with(tree, "depth", 9L).values())))
                .hasValueSatisfying(m -> assertThat(m).startsWith("parameter 'model/tree/depth' (randint): 9 is not a possible value (expected an integer in"));
        assertThat(s.violation(with(ok, "model", with(tree, "_name", "forest").values()))).isPresent();
        Map<String, Object> noDepth = new LinkedHashMap<>(tree);
        noDepth.remove("depth");
        assertThat(s.violation(with(ok, "model", noDepth))).hasValue("parameter 'model/tree/depth' is missing");
        assertThat(s.violation(with(ok, "model", with(tree, "extra", 1L).values())))
                .hasValue("parameter 'model' (choice), option \"tree\": 'extra' is not a parameter of the space");
        Map<String, Object> best = new LinkedHashMap<>(Map.of("_name", "best", "min", 1.5));
        assertThat(s.violation(with(ok, "model", with(tree, "split", best).values())))
                .hasValueSatisfying(m -> assertThat(m).startsWith("parameter 'model/tree/split/best/min' (uniform): 1.5 is not a possible value (expected a number in"));
    }

    @Test
    void qlognormalNeverAcceptsNegativeValues() {
        LogNormal q = new LogNormal("l", "l", 0, 1, 1);
        assertThat(q.accepts(0.0)).isTrue();
        assertThat(q.accepts(2.0)).isTrue();
        assertThat(q.accepts(-1.0)).isFalse();
    }

    private static Parameters with(Map<String, Object> base, String key, Object value) {
        Map<String, Object> m = new LinkedHashMap<>(base);
        m.put(key, value);
        return Parameters.of(m);
    }
}
