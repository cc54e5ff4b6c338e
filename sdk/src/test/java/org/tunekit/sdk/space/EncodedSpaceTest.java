package org.tunekit.sdk.space;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.testkit.ContractSpaces;

class EncodedSpaceTest {

    @Test
    void dimensionsFollowTheSpaceDepthFirst() {
        EncodedSpace e = EncodedSpace.of(SearchSpaceParseTest.nested());
        assertThat(e.dimensions()).extracting(d -> d.parameter().path())
                .containsExactly("model", "model/tree/depth", "model/tree/split", "model/tree/split/best/min", "model/linear/lr", "seed");
        assertThat(e.dimensions()).extracting(EncodedSpace.Dimension::kind).containsExactly(
                EncodedSpace.Kind.CATEGORICAL, EncodedSpace.Kind.INTEGER, EncodedSpace.Kind.CATEGORICAL,
                EncodedSpace.Kind.REAL, EncodedSpace.Kind.REAL, EncodedSpace.Kind.INTEGER);
        assertThat(e.dimensions()).extracting(EncodedSpace.Dimension::parent).containsExactly(-1, 0, 0, 2, 0, -1);
        assertThat(e.dimensions()).extracting(EncodedSpace.Dimension::parentOption).containsExactly(-1, 0, 0, 0, 1, -1);
        assertThat(e.dimensions().get(0).cardinality()).isEqualTo(3);
        assertThat(e.dimensions().get(1).cardinality()).isEqualTo(4);
        EncodedSpace.Dimension lr = e.dimensions().get(4);
        assertThat(lr.low()).isCloseTo(Math.log(0.01), within(1e-12));
        assertThat(lr.high()).isCloseTo(0, within(1e-12));
        assertThat(lr.cardinality()).isZero();
    }

    @Test
    void encodeDecodeRoundTripsSamplesOfEveryType() {
        for (SearchSpace s : ContractSpaces.all().values()) {
            EncodedSpace e = EncodedSpace.of(s);
            SplittableRandom rng = new SplittableRandom(5);
            for (int i = 0; i < 500; i++) {
                Parameters p = s.sample(rng);
                double[] x = e.encode(p);
                Parameters back = e.decode(x);
                assertClose(back, p);
                assertThat(e.encode(back)).containsExactly(x, within(1e-12));
            }
        }
    }

    @Test
    void inactiveCoordinatesAreNaNAndIgnoredByDecode() {
        SearchSpace s = SearchSpaceParseTest.nested();
        EncodedSpace e = EncodedSpace.of(s);
        Map<String, Object> linear = new LinkedHashMap<>(Map.of("_name", "linear", "lr", 0.1));
        Parameters p = Parameters.of(Map.of("model", linear, "seed", 2L));
        double[] x = e.encode(p);
        assertThat(x[0]).isEqualTo(1);
        assertThat(x[1]).isNaN();
        assertThat(x[2]).isNaN();
        assertThat(x[3]).isNaN();
        assertThat(x[4]).isCloseTo(Math.log(0.1), within(1e-12));
        assertThat(x[5]).isEqualTo(2);
        for (EncodedSpace.Dimension d : e.dimensions()) {
            assertThat(e.isActive(d, x)).as(d.parameter().path()).isEqualTo(!Double.isNaN(x[d.index()]));
        }
        // values in inactive coordinates do not leak into the decoded parameters
        x[1] = 3;
        x[3] = 0.7;
        assertClose(e.decode(x), p);
        assertThat(e.isActive(e.dimensions().get(1), x)).isFalse();

        Parameters none = Parameters.of(Map.of("model", "none", "seed", 0L));
        assertThat(e.decode(e.encode(none))).isEqualTo(none);
    }

    @Test
    void decodeRoundsClipsAndQuantises() {
        SearchSpace s = SearchSpace.builder().choice("c", "a", "b").randint("r", 0, 5).quniform("q", 0, 1, 0.25)
                .loguniform("l", 1, 100).build();
        EncodedSpace e = EncodedSpace.of(s);
        Parameters p = e.decode(new double[] {7.2, -3.4, 0.61, Math.log(1000)});
        assertThat(p.values()).containsExactly(Map.entry("c", "b"), Map.entry("r", 0L), Map.entry("q", 0.5), Map.entry("l", 100.0));
        assertThat(s.violation(p)).isEmpty();
        assertThatThrownBy(() -> e.decode(new double[2])).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected 4 coordinates, got 2");
    }

    @Test
    void encodeNamesTheParameterItCannotEncode() {
        EncodedSpace e = EncodedSpace.of(SearchSpace.builder().choice("c", "a", "b").uniform("u", 0, 1).build());
        assertThatThrownBy(() -> e.encode(Parameters.of(Map.of("c", "z", "u", 0.5))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("parameter 'c'");
        assertThatThrownBy(() -> e.encode(Parameters.of(Map.of("c", "a", "u", "x"))))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("parameter 'u': expected a number");
    }

    @Test
    void unitViewMapsIntoTheCubeAndBack() {
        for (SearchSpace s : ContractSpaces.all().values()) {
            EncodedSpace e = EncodedSpace.of(s);
            SplittableRandom rng = new SplittableRandom(6);
            for (int i = 0; i < 300; i++) {
                Parameters p = s.sample(rng);
                double[] x = e.encode(p);
                double[] u = e.toUnit(x);
                for (int k = 0; k < u.length; k++) {
                    if (Double.isNaN(x[k])) {
                        assertThat(u[k]).isNaN();
                    } else {
                        assertThat(u[k]).isBetween(0.0, 1.0);
                    }
                }
                double[] back = e.fromUnit(u);
                for (int k = 0; k < x.length; k++) {
                    if (Double.isNaN(x[k])) {
                        assertThat(back[k]).isNaN();
                    } else {
                        assertThat(back[k]).as("coordinate %s of %s", k, p.values())
                                .isCloseTo(x[k], within(1e-6 * Math.max(1, Math.abs(x[k]))));
                    }
                }
                assertClose(e.decode(back), p);
            }
        }
    }

    @Test
    void unitViewFollowsThePrior() {
        EncodedSpace e = EncodedSpace.of(SearchSpace.builder().normal("n", 10, 2).lognormal("l", 0, 1)
                .uniform("u", -4, 4).randint("r", 0, 4).build());
        double[] u = e.toUnit(new double[] {10, 0, 0, 1});
        assertThat(u[0]).isCloseTo(0.5, within(1e-9));
        assertThat(u[1]).isCloseTo(0.5, within(1e-9));   // encoded log of the median, e^0
        assertThat(u[2]).isCloseTo(0.5, within(1e-12));
        assertThat(u[3]).isCloseTo(0.375, within(1e-12)); // the middle of the second of four cells
        double[] x = e.fromUnit(new double[] {0.8413447460685429, 0.5, 1.5, -1});
        assertThat(x[0]).isCloseTo(12, within(1e-6));
        assertThat(x[2]).isEqualTo(4);                     // clamped to 1
        assertThat(x[3]).isEqualTo(0);                     // clamped to 0
    }

    /** Same keys, same non-numbers, numbers of the same type equal to 12 significant digits. */
    static void assertClose(Parameters actual, Parameters expected) {
        assertCloseValue(actual.values(), expected.values(), "");
    }

    private static void assertCloseValue(Object a, Object e, String where) {
        if (e instanceof Map<?, ?> em) {
            assertThat(a).as(where).isInstanceOf(Map.class);
            Map<?, ?> am = (Map<?, ?>) a;
            assertThat(new java.util.HashSet<Object>(am.keySet())).as(where).isEqualTo(new java.util.HashSet<Object>(em.keySet()));
            em.forEach((k, v) -> assertCloseValue(am.get(k), v, where + "/" + k));
        } else if (e instanceof Double d) {
            assertThat(a).as(where).isInstanceOf(Double.class);
            assertThat((Double) a).as(where).isCloseTo(d, within(1e-12 * Math.max(1, Math.abs(d))));
        } else {
            assertThat(a).as(where).isEqualTo(e);
        }
    }
}
