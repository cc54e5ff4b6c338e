package org.tunekit.runner.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.tunekit.runner.results.Trials.T0;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.tunekit.runner.results.Importance.Dimension;
import org.tunekit.runner.results.Importance.Encoded;
import org.tunekit.runner.results.Importance.Leaf;
import org.tunekit.runner.results.Importance.Node;
import org.tunekit.runner.results.Importance.Split;
import org.tunekit.runner.results.Importance.Variances;
import org.tunekit.sdk.space.SearchSpace;

class ImportanceTest {
    private static Map<String, Object> param(String type, Object... values) {
        return Map.of("_type", type, "_value", List.of(values));
    }

    /** A search space of the given names and definitions, in order. */
    private static Map<String, Object> space(Object... nameThenDefinition) {
        Map<String, Object> space = new LinkedHashMap<>();
        for (int i = 0; i < nameThenDefinition.length; i += 2) {
            space.put((String) nameThenDefinition[i], nameThenDefinition[i + 1]);
        }
        return space;
    }

    private static Map<String, Object> unitCube() {
        return space("x", param("uniform", 0.0, 1.0), "y", param("uniform", 0.0, 1.0), "z", param("uniform", 0.0, 1.0));
    }

    /** Trials of f(x, y, z) = 4x + y at points drawn uniformly from the unit cube. */
    private record Sample(List<Map<String, Object>> parameters, double[] values) {
    }

    private static Sample linear(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        List<Map<String, Object>> ps = new ArrayList<>();
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            double x = r.nextDouble();
            double y = r.nextDouble();
            double z = r.nextDouble();
            ps.add(Map.of("x", x, "y", y, "z", z));
            v[i] = 4 * x + y;
        }
        return new Sample(ps, v);
    }

    @Test
    void aLinearFunctionsImportancesAreItsTermsSharesOfTheVariance() {
        // Var(4x) = 16/12 and Var(y) = 1/12: x explains 16/17, y 1/17, z nothing. Measured with 400 points over
        // 10 seeds: x 0.950 to 0.954, y 0.046 to 0.050 (a forest of few points favours the larger effect; at
        // 6,400 points x is 0.942), z below 1e-4.
        for (long seed = 1; seed <= 3; seed++) {
            Sample s = linear(400, seed);
            Map<String, Double> importance = Importance.of(s.parameters(), s.values(), unitCube(), seed);
            assertThat(importance).containsOnlyKeys("x", "y", "z");
            assertThat(importance.keySet()).containsExactly("x", "y", "z");
            assertThat(importance.get("x")).isCloseTo(16.0 / 17, within(0.03));
            assertThat(importance.get("y")).isCloseTo(1.0 / 17, within(0.03));
            assertThat(importance.get("z")).isBetween(0.0, 0.005);
            assertThat(importance.values().stream().mapToDouble(Double::doubleValue).sum()).isCloseTo(1.0, within(1e-12));
        }
    }

    @Test
    void withoutASearchSpaceTheBoundsAreTheValuesSeen() {
        Sample s = linear(400, 4);
        Map<String, Double> importance = Importance.of(s.parameters(), s.values(), null, 4);
        assertThat(importance.get("x")).isCloseTo(16.0 / 17, within(0.03));
        assertThat(importance.get("y")).isCloseTo(1.0 / 17, within(0.03));
        assertThat(importance.get("z")).isBetween(0.0, 0.005);
    }

    @Test
    void aCategoricalThatAloneDecidesTheValueHasAllTheImportance() {
        SplittableRandom r = new SplittableRandom(5);
        List<Map<String, Object>> ps = new ArrayList<>();
        double[] v = new double[200];
        for (int i = 0; i < v.length; i++) {
            String c = List.of("a", "b", "c").get(r.nextInt(3));
            ps.add(Map.of("c", c, "u", r.nextDouble()));
            v[i] = c.equals("c") ? 3 : 0;
        }
        Map<String, Object> space = space("u", param("uniform", 0.0, 1.0), "c", param("choice", "a", "b", "c"));
        for (Map<String, Object> s : java.util.Arrays.asList(space, null)) {
            Map<String, Double> importance = Importance.of(ps, v, s, 5);
            assertThat(importance.keySet()).containsExactly("c", "u");
            assertThat(importance.get("c")).isCloseTo(1.0, within(1e-9));
            assertThat(importance.get("u")).isCloseTo(0.0, within(1e-9));
        }
    }

    @Test
    void aCategoricalSplitSendsCategoriesOfLikeValuesTogetherWhateverTheirOrder() {
        // a and c give 0, b and d give 3: one split of the categories {a, c} | {b, d} fits them all
        List<Dimension> dims = List.of(Dimension.categorical(4));
        double[][] x = new double[40][];
        double[] y = new double[40];
        for (int i = 0; i < 40; i++) {
            x[i] = new double[] {i % 4};
            y[i] = i % 2 == 1 ? 3 : 0;
        }
        int[][] sorted = {java.util.stream.IntStream.range(0, 40).boxed()
                .sorted(java.util.Comparator.comparingDouble(i -> x[i][0])).mapToInt(Integer::intValue).toArray()};
        Node tree = Importance.fitTree(dims, x, y, sorted, new SplittableRandom(1));
        assertThat(tree).isInstanceOf(Split.class);
        Split root = (Split) tree;
        assertThat(root.left()).isInstanceOf(Leaf.class);
        assertThat(root.right()).isInstanceOf(Leaf.class);
        assertThat(root.categories().stream().boxed().toList()).isIn(List.of(0, 2), List.of(1, 3));
    }

    @Test
    void aLogUniformParameterIsRatedOnTheLogScale() {
        // f = (ln lr - ln 1e-5) / ln 1e4 + u / 2, lr log-uniform on [1e-5, 0.1]: on the log scale the first term is
        // uniform on [0, 1] (variance 1/12) and the second has variance 1/48, so lr explains 0.8. Rated on the value's
        // own scale lr would explain about 0.35 (measured), as most of [1e-5, 0.1] is where f hardly changes.
        SplittableRandom r = new SplittableRandom(6);
        double width = Math.log(1e4);
        List<Map<String, Object>> ps = new ArrayList<>();
        double[] v = new double[400];
        for (int i = 0; i < v.length; i++) {
            double lr = Math.exp(Math.log(1e-5) + width * r.nextDouble());
            double u = r.nextDouble();
            ps.add(Map.of("lr", lr, "u", u));
            v[i] = (Math.log(lr) - Math.log(1e-5)) / width + u / 2;
        }
        Map<String, Double> importance = Importance.of(ps, v,
                space("lr", param("loguniform", 1e-5, 0.1), "u", param("uniform", 0.0, 1.0)), 6);
        assertThat(importance.keySet()).containsExactly("lr", "u");
        assertThat(importance.get("lr")).isCloseTo(0.8, within(0.05));
    }

    @Test
    void theSameTrialsAndSeedGiveTheSameImportances() {
        Sample s = linear(300, 7);
        assertThat(Importance.of(s.parameters(), s.values(), unitCube(), 42))
                .isEqualTo(Importance.of(s.parameters(), s.values(), unitCube(), 42));
    }

    @Test
    void neitherTheTrialsOrderNorTheSeedMattersBeyondChance() {
        Sample s = linear(400, 8);
        Map<String, Double> first = Importance.of(s.parameters(), s.values(), unitCube(), 1);
        List<Integer> order = new ArrayList<>(java.util.stream.IntStream.range(0, 400).boxed().toList());
        Collections.shuffle(order, new Random(9));
        List<Map<String, Object>> ps = order.stream().map(s.parameters()::get).toList();
        double[] v = order.stream().mapToDouble(i -> s.values()[i]).toArray();
        for (long seed : new long[] {1, 2}) {
            Map<String, Double> other = Importance.of(ps, v, unitCube(), seed);
            assertThat(other).isNotEqualTo(first); // the bootstrap samples differ
            for (String name : List.of("x", "y", "z")) {
                assertThat(other.get(name)).isCloseTo(first.get(name), within(0.01));
            }
        }
    }

    @Test
    void withFewerThanTwoTrialsOrEqualValuesNothingCanBeTold() {
        assertThat(Importance.of(List.of(), new double[0], unitCube(), 1)).isEmpty();
        assertThat(Importance.of(List.of(Map.of("x", 0.5, "y", 0.5, "z", 0.5)), new double[] {1}, unitCube(), 1)).isEmpty();
        Sample s = linear(50, 10);
        assertThat(Importance.of(s.parameters(), new double[50], unitCube(), 1)).isEmpty();
        double[] onlyOneFinite = new double[50];
        java.util.Arrays.fill(onlyOneFinite, Double.NaN);
        onlyOneFinite[3] = 2;
        assertThat(Importance.of(s.parameters(), onlyOneFinite, unitCube(), 1)).isEmpty();
        // the value varies but no parameter does
        assertThat(Importance.of(List.of(Map.of("x", 0.5), Map.of("x", 0.5)), new double[] {1, 2}, null, 1)).isEmpty();
        // no parameter at all
        assertThat(Importance.of(List.of(Map.of(), Map.of()), new double[] {1, 2}, null, 1)).isEmpty();
    }

    @Test
    void trialsWithoutAFiniteValueAreLeftOut() {
        Sample s = linear(200, 11);
        List<Map<String, Object>> ps = new ArrayList<>(s.parameters());
        List<Double> v = new ArrayList<>(java.util.Arrays.stream(s.values()).boxed().toList());
        for (double bad : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            ps.add(50, Map.of("x", 1.0, "y", 1.0, "z", 1.0));
            v.add(50, bad);
        }
        assertThat(Importance.of(ps, v.stream().mapToDouble(Double::doubleValue).toArray(), unitCube(), 3))
                .isEqualTo(Importance.of(s.parameters(), s.values(), unitCube(), 3));
    }

    @Test
    void parametersAndValuesMustPair() {
        assertThatThrownBy(() -> Importance.of(List.of(Map.of("x", 1.0)), new double[] {1, 2}, null, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 parameter sets but 2 values");
    }

    @Test
    void theMarginalsOfAHandBuiltTreeAreItsCellsWeighedByVolume() {
        // x in [0, 4], c one of 3 categories; x <= 1 ? (c = 0 ? 6 : 0) : 3. Cells: {x <= 1, c = 0} value 6 volume
        // 1/12; {x <= 1, c in {1, 2}} value 0 volume 1/6; {x > 1} value 3 volume 3/4. Mean 11/4, variance
        // 1/12 (13/4)^2 + 1/6 (11/4)^2 + 3/4 (1/4)^2 = 35/16. The marginal of x is 2 on [0, 1] and 3 on [1, 4]:
        // variance 1/4 (3/4)^2 + 3/4 (1/4)^2 = 3/16. The marginal of c is 1/4 * 6 + 3/4 * 3 = 15/4 for c = 0 and
        // 9/4 for the others: variance (1 + 1/4 + 1/4) / 3 = 1/2.
        BitSet first = new BitSet();
        first.set(0);
        Node tree = new Split(0, 1.0, null, new Split(1, Double.NaN, first, new Leaf(6), new Leaf(0)), new Leaf(3));
        Variances v = Importance.variances(tree, List.of(Dimension.numeric(0, 4), Dimension.categorical(3)));
        assertThat(v.total()).isCloseTo(35.0 / 16, within(1e-12));
        assertThat(v.marginal()).containsExactly(new double[] {3.0 / 16, 0.5}, within(1e-12));
    }

    @Test
    void theMarginalOfADimensionSplitTwiceIsConstantBetweenAllItsCuts() {
        // x, y in [0, 1]; x <= 1/2 ? (y <= 1/2 ? 1 : 0) : (x <= 3/4 ? 2 : 4). Four cells of volume 1/4, mean 7/4,
        // variance (9/16 + 49/16 + 1/16 + 81/16) / 4 = 35/16. The marginal of x is 1/2, 2, 4 on intervals of
        // length 1/2, 1/4, 1/4: variance 1/2 (5/4)^2 + 1/4 (1/4)^2 + 1/4 (9/4)^2 = 33/16. The marginal of y is
        // 2 below 1/2 and 3/2 above: variance 1/16.
        Node tree = new Split(0, 0.5, null, new Split(1, 0.5, null, new Leaf(1), new Leaf(0)),
                new Split(0, 0.75, null, new Leaf(2), new Leaf(4)));
        Variances v = Importance.variances(tree, List.of(Dimension.numeric(0, 1), Dimension.numeric(0, 1)));
        assertThat(v.total()).isCloseTo(35.0 / 16, within(1e-12));
        assertThat(v.marginal()).containsExactly(new double[] {33.0 / 16, 1.0 / 16}, within(1e-12));
    }

    @Test
    void aSingleLeafHasNoVariance() {
        Variances v = Importance.variances(new Leaf(5), List.of(Dimension.numeric(0, 1), Dimension.categorical(2)));
        assertThat(v.total()).isZero();
        assertThat(v.marginal()).containsExactly(0, 0);
    }

    @Test
    void eachTypeIsEncodedOnTheScaleItsPriorIsUniformOn() {
        Map<String, Object> optimizer = param("choice", Map.of("_name", "sgd", "momentum", param("uniform", 0.0, 1.0)),
                Map.of("_name", "adam"));
        SearchSpace space = SearchSpace.parse(space("u", param("quniform", 0.0, 10.0, 2.0), "lr", param("loguniform", 1e-4, 1.0),
                "n", param("randint", 1, 5), "opt", optimizer, "g", param("normal", 0.0, 1.0),
                "b", param("choice", 16, 32, 64)));
        List<Map<String, Object>> trials = List.of(
                Map.of("u", 2.0, "lr", 0.01, "n", 3L, "opt", Map.of("_name", "adam"), "g", -0.5, "b", 32L, "extra", "p"),
                Map.of("u", 12.0, "lr", 1e-4, "n", 1L, "opt", Map.of("_name", "sgd", "momentum", 0.5), "g", 1.5, "b", 64.0,
                        "extra", "q"),
                Map.of("u", 4.0, "lr", 1.0, "n", 4L, "opt", Map.of("_name", "adam"), "g", 0.0, "b", 16L, "extra", "p"));
        Encoded e = Importance.encode(trials, space);
        assertThat(e.names()).containsExactly("u", "lr", "n", "opt", "g", "b", "extra");
        assertThat(e.dimensions()).containsExactly(
                Dimension.numeric(0, 12), // widened to the value 12 the space no longer holds
                Dimension.numeric(Math.log(1e-4), 0),
                Dimension.numeric(0.5, 4.5),
                Dimension.categorical(2),
                Dimension.numeric(-0.5, 1.5),
                Dimension.categorical(3),
                Dimension.categorical(2));
        assertThat(e.x()[0]).containsExactly(new double[] {2, Math.log(0.01), 3, 1, -0.5, 1, 0}, within(1e-12));
        assertThat(e.x()[1]).containsExactly(new double[] {12, Math.log(1e-4), 1, 0, 1.5, 2, 1}, within(1e-12));
    }

    @Test
    void valuesTheSpaceDoesNotDefineAreReadAsSeen() {
        // "k" and "b" have values their choices do not have, so their categories are the values seen; "m" is
        // missing from a trial, so it is not rated; "s" is not in the space
        SearchSpace space = SearchSpace.parse(space("k", param("choice", "a", "b"), "m", param("uniform", 0.0, 1.0),
                "b", param("choice", 16, 32)));
        List<Map<String, Object>> trials = List.of(Map.of("k", "z", "m", 0.5, "b", 64L, "s", Map.of("_name", 1L)),
                Map.of("k", "a", "b", 16L, "s", Map.of("_name", 1.0, "w", 2)),
                Map.of("k", "z", "b", 64.0, "s", Map.of("_name", 2L)));
        Encoded e = Importance.encode(trials, space);
        assertThat(e.names()).containsExactly("k", "b", "s");
        assertThat(e.dimensions()).containsOnly(Dimension.categorical(2));
        assertThat(e.x()).isDeepEqualTo(new double[][] {{0, 0, 0}, {1, 1, 0}, {0, 0, 1}});
    }

    @Test
    void anExperimentsSucceededTrialsWithAFiniteValueAreRated() {
        Sample s = linear(120, 12);
        List<TrialRecord> trials = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            trials.add(Trials.trial(i, s.values()[i], s.parameters().get(i)));
        }
        trials.add(Trials.trial(120, TrialStatus.FAILED, 100.0, Map.of("x", 1.0, "y", 1.0, "z", 1.0), List.of(), 1));
        trials.add(Trials.trial(121, TrialStatus.EARLY_STOPPED, -5.0, Map.of("x", 0.0, "y", 0.0, "z", 0.0), List.of(), 1));
        trials.add(Trials.trial(122, null, Map.of("x", 0.5, "y", 0.5, "z", 0.5)));
        trials.add(Trials.trial(123, Double.NaN, Map.of("x", 0.5, "y", 0.5, "z", 0.5)));
        ExperimentResults results = Trials.experiment(true, trials);
        assertThat(Importance.of(results, unitCube(), 13)).isEqualTo(Importance.of(s.parameters(), s.values(), unitCube(), 13));
    }

    @Test
    void withSeveralObjectivesTheFirstIsRated() {
        Sample s = linear(120, 14);
        List<TrialRecord> trials = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            Map<String, Object> p = s.parameters().get(i);
            Map<String, Object> metric = Map.of("acc", s.values()[i], "time", (Double) p.get("z"));
            trials.add(new TrialRecord(i, "T" + i, i, p, TrialStatus.SUCCEEDED, null, metric, List.of(), T0, T0, 0, null));
        }
        trials.add(new TrialRecord(120, "T120", 120, Map.of("x", 1.0, "y", 1.0, "z", 1.0), TrialStatus.SUCCEEDED, 3.0,
                Map.of("time", 1.0), List.of(), T0, T0, 0, null));
        ExperimentResults results = new ExperimentResults("e", null, true, T0, T0, "DONE", trials,
                List.of(Map.of("metric", "acc", "mode", "maximize"), Map.of("metric", "time", "mode", "minimize")));
        assertThat(Importance.of(results, null, 15)).isEqualTo(Importance.of(s.parameters(), s.values(), null, 15));
    }
}
