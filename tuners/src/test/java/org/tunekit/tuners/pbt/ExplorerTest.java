package org.tunekit.tuners.pbt;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.space.Parameter;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.sdk.testkit.ContractSpaces;

class ExplorerTest {
    private static final Explorer PERTURB_ONLY = new Explorer(0.2, 0);

    /** Every value exploring {@code value} of the space's only parameter gives over many draws. */
    private static Set<Object> outcomes(Explorer e, SearchSpace space, Object value) {
        Parameter p = space.parameters().get(0);
        Set<Object> out = new HashSet<>();
        SplittableRandom rng = new SplittableRandom(1);
        for (int i = 0; i < 200; i++) {
            out.add(e.exploreValue(p, value, rng));
        }
        return out;
    }

    @Test
    void numbersAreMultipliedByOneMinusOrOnePlusTheFactor() {
        assertThat(outcomes(PERTURB_ONLY, SearchSpace.builder().uniform("x", 0, 100).build(), 10.0)).containsExactlyInAnyOrder(8.0, 12.0);
        assertThat(outcomes(PERTURB_ONLY, SearchSpace.builder().normal("x", 0, 1).build(), -5.0)).containsExactlyInAnyOrder(-4.0, -6.0);
        assertThat(outcomes(PERTURB_ONLY, SearchSpace.builder().loguniform("x", 1e-3, 1).build(), 0.5))
                .containsExactlyInAnyOrder(0.4, 0.6);
        assertThat(outcomes(PERTURB_ONLY, SearchSpace.builder().lognormal("x", 0, 1).build(), 2.5)).containsExactlyInAnyOrder(2.0, 3.0);
    }

    @Test
    void valuesAreClippedIntoTheirRange() {
        assertThat(outcomes(PERTURB_ONLY, SearchSpace.builder().uniform("x", 0, 100).build(), 90.0)).containsExactlyInAnyOrder(72.0, 100.0);
        assertThat(outcomes(PERTURB_ONLY, SearchSpace.builder().loguniform("x", 0.1, 1).build(), 0.11))
                .allSatisfy(v -> assertThat((Double) v).isBetween(0.1, 1.0)).contains(0.1);
        assertThat(outcomes(PERTURB_ONLY, SearchSpace.builder().randint("n", 0, 10).build(), 9L)).containsExactlyInAnyOrder(7L, 9L);
    }

    @Test
    void quantisedValuesMoveAtLeastOneStep() {
        // 10 * 0.8 and 10 * 1.2 both quantise back to 10: the value moves by q instead
        assertThat(outcomes(PERTURB_ONLY, SearchSpace.builder().quniform("x", 0, 100, 5).build(), 10.0)).containsExactlyInAnyOrder(5.0, 15.0);
        assertThat(outcomes(PERTURB_ONLY, SearchSpace.builder().quniform("x", 0, 100, 5).build(), 50.0)).containsExactlyInAnyOrder(40.0, 60.0);
        assertThat(outcomes(PERTURB_ONLY, SearchSpace.builder().randint("n", -5, 10).build(), 1L)).containsExactlyInAnyOrder(0L, 2L);
        assertThat(outcomes(PERTURB_ONLY, SearchSpace.builder().randint("n", -5, 10).build(), 0L)).containsExactlyInAnyOrder(-1L, 1L);
        assertThat(outcomes(PERTURB_ONLY, SearchSpace.builder().randint("n", 0, 10).build(), 0L)).containsExactlyInAnyOrder(0L, 1L);
        assertThat(outcomes(PERTURB_ONLY, SearchSpace.builder().qnormal("x", 0, 1, 0.5).build(), 0.0)).containsExactlyInAnyOrder(-0.5, 0.5);
        assertThat(outcomes(PERTURB_ONLY, SearchSpace.builder().qlognormal("x", 0, 1, 1).build(), 0.0)).containsExactlyInAnyOrder(0.0, 1.0);
        assertThat(outcomes(PERTURB_ONLY, SearchSpace.builder().qloguniform("x", 1, 1000, 10).build(), 1.0)).containsExactlyInAnyOrder(1.0, 10.0);
    }

    @Test
    void categoricalsStayUnlessResampled() {
        SearchSpace s = SearchSpace.builder().choice("c", "a", "b", "c", "d").build();
        assertThat(outcomes(PERTURB_ONLY, s, "b")).containsExactly("b");
        assertThat(outcomes(new Explorer(0.2, 0.5), s, "b")).containsExactlyInAnyOrder("a", "b", "c", "d");
    }

    @Test
    void resamplingDrawsFromThePrior() {
        Set<Object> got = outcomes(new Explorer(0.2, 1), SearchSpace.builder().uniform("x", 0, 100).build(), 10.0);
        assertThat(got).hasSizeGreaterThan(150).doesNotContain(8.0, 12.0);
    }

    @Test
    void aValueTheParameterCannotTakeIsDrawnAfresh() {
        assertThat(outcomes(PERTURB_ONLY, SearchSpace.builder().choice("c", "a", "b").build(), "zzz")).containsExactlyInAnyOrder("a", "b");
        assertThat(outcomes(PERTURB_ONLY, SearchSpace.builder().uniform("x", 0, 1).build(), 7.0))
                .allSatisfy(v -> assertThat((Double) v).isBetween(0.0, 1.0));
    }

    @Test
    void aKeptNestedOptionHasItsSubParametersExplored() {
        SearchSpace nested = ContractSpaces.nested();
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("_name", "tree");
        tree.put("depth", 4L);
        tree.put("criterion", "gini");
        Set<Object> got = outcomes(PERTURB_ONLY, nested, tree);
        assertThat(got).containsExactlyInAnyOrder(Map.of("_name", "tree", "depth", 3L, "criterion", "gini"),
                Map.of("_name", "tree", "depth", 5L, "criterion", "gini"));
        // resampled, the option's sub-space is drawn from the prior
        Set<Object> resampled = outcomes(new Explorer(0.2, 1), nested, tree);
        assertThat(resampled).anySatisfy(v -> assertThat(v).isInstanceOf(Map.class).extracting(m -> ((Map<?, ?>) m).get("_name")).isEqualTo("linear"));
        assertThat(resampled).contains("constant");
    }

    @Test
    void exploredSetsStayInsideEverySpace() {
        SplittableRandom rng = new SplittableRandom(3);
        for (SearchSpace space : ContractSpaces.all().values()) {
            for (double resample : new double[] {0, 0.25, 1}) {
                Explorer e = new Explorer(0.2, resample);
                Parameters p = space.sample(rng);
                for (int i = 0; i < 300; i++) {
                    p = e.explore(space, p, rng);
                    assertThat(space.violation(p)).as("%s", p.values()).isEmpty();
                }
            }
        }
    }

    @Test
    void theSameGeneratorStateGivesTheSameExploration() {
        SearchSpace space = ContractSpaces.allTypes();
        Parameters start = space.sample(new SplittableRandom(9));
        Explorer e = new Explorer(0.2, 0.25);
        assertThat(e.explore(space, start, new SplittableRandom(4))).isEqualTo(e.explore(space, start, new SplittableRandom(4)));
    }
}
