package org.tunekit.katib;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.tunekit.katib.api.Distribution;
import org.tunekit.katib.api.ParameterAssignment;
import org.tunekit.katib.api.ParameterSpec;
import org.tunekit.katib.api.ParameterType;
import org.tunekit.sdk.Parameters;

/** Katib's parameters in Tunekit's search space, and the values both ways. */
class KatibSpaceTest {

    private static String one(ParameterSpec p, Object tunekitValue) {
        KatibSpace s = KatibSpace.of(List.of(p));
        return s.toKatib(Parameters.of(Map.of(p.getName(), tunekitValue))).get(0).getValue();
    }

    @Test
    void eachKindBecomesTheMatchingTunekitParameter() {
        var s = KatibSpace.of(List.of(
                Katib.ints("n", "1", "8"),
                Katib.doubles("lr", "0.01", "0.05"),
                Katib.range("d", ParameterType.DOUBLE, "0.1", "0.5", "0.05", Distribution.UNIFORM),
                Katib.range("w", ParameterType.DOUBLE, "0.001", "1", null, Distribution.LOG_UNIFORM),
                Katib.range("b", ParameterType.INT, "32", "512", null, Distribution.LOG_UNIFORM),
                Katib.range("m", ParameterType.DOUBLE, "0.5", "0.9", null, Distribution.NORMAL),
                Katib.range("l", ParameterType.DOUBLE, "0.01", "100", null, Distribution.LOG_NORMAL),
                Katib.list("h", ParameterType.DISCRETE, "1", "2.5"),
                Katib.list("o", ParameterType.CATEGORICAL, "sgd", "adam")));
        assertThat(s.space().definition()).containsEntry("n", Map.of("_type", "randint", "_value", List.of(1L, 9L)))
                .containsEntry("lr", Map.of("_type", "uniform", "_value", List.of(0.01, 0.05)))
                .containsEntry("d", Map.of("_type", "randint", "_value", List.of(0L, 9L)))
                .containsEntry("w", Map.of("_type", "loguniform", "_value", List.of(0.001, 1.0)))
                .containsEntry("b", Map.of("_type", "qloguniform", "_value", List.of(32.0, 512.0, 1.0)))
                .containsEntry("h", Map.of("_type", "choice", "_value", List.of(1.0, 2.5)))
                .containsEntry("o", Map.of("_type", "choice", "_value", List.of("sgd", "adam")));
        @SuppressWarnings("unchecked")
        List<Double> normal = (List<Double>) ((Map<String, Object>) s.space().definition().get("m")).get("_value");
        assertThat(normal.get(0)).isCloseTo(0.7, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(normal.get(1)).isCloseTo(0.4 / 6, org.assertj.core.data.Offset.offset(1e-12));
        @SuppressWarnings("unchecked")
        List<Double> lognormal = (List<Double>) ((Map<String, Object>) s.space().definition().get("l")).get("_value");
        assertThat(lognormal.get(0)).isCloseTo((Math.log(0.01) + Math.log(100)) / 2, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(s.finite()).isFalse();
    }

    @Test
    void steppedValuesAreExactDecimalsOnTheGrid() {
        ParameterSpec d = Katib.range("d", ParameterType.DOUBLE, "0.01", "0.05", "0.005", Distribution.UNIFORM);
        assertThat(one(d, 1L)).isEqualTo("0.015");
        assertThat(one(d, 8L)).isEqualTo("0.05");
        ParameterSpec n = Katib.range("n", ParameterType.INT, "16", "250", "16", Distribution.UNIFORM);
        assertThat(one(n, 14L)).isEqualTo("240");
        // a stepped normal is put on the step's grid and clipped into [min, max]
        ParameterSpec q = Katib.range("q", ParameterType.DOUBLE, "0.01", "0.05", "0.01", Distribution.NORMAL);
        assertThat(one(q, 0.0349)).isEqualTo("0.03");
        assertThat(one(q, 7.0)).isEqualTo("0.05");
        assertThat(one(q, -7.0)).isEqualTo("0.01");
    }

    @Test
    void unboundedDistributionsAreClippedAndIntegersRounded() {
        ParameterSpec m = Katib.range("m", ParameterType.DOUBLE, "0.5", "0.9", null, Distribution.NORMAL);
        assertThat(one(m, 1.7)).isEqualTo("0.9");
        assertThat(one(m, 0.61)).isEqualTo("0.61");
        ParameterSpec e = Katib.range("e", ParameterType.INT, "1", "20", null, Distribution.NORMAL);
        assertThat(one(e, 25.0)).isEqualTo("20");
        assertThat(one(e, 7.0)).isEqualTo("7");
        assertThat(one(Katib.doubles("x", "0", "1"), 1e-7)).isEqualTo("0.0000001");
    }

    @Test
    void listsAnswerTheirOwnStrings() {
        assertThat(one(Katib.list("h", ParameterType.DISCRETE, "1", "4.0"), 4.0)).isEqualTo("4.0");
        assertThat(one(Katib.list("o", ParameterType.CATEGORICAL, "sgd", "adam"), "adam")).isEqualTo("adam");
        assertThat(one(Katib.doubles("fixed", "0.3", "0.3"), 0.3)).isEqualTo("0.3");
    }

    @Test
    void trialsAreReadBackAndNumbersComparedByValue() {
        var s = KatibSpace.of(List.of(Katib.doubles("lr", "0.01", "0.05"), Katib.list("h", ParameterType.DISCRETE, "1", "2"),
                Katib.range("d", ParameterType.DOUBLE, "0.1", "0.5", "0.05", Distribution.UNIFORM)));
        List<ParameterAssignment> a = Katib.assign("lr", "0.020", "h", "2.0", "d", "0.15");
        assertThat(s.toTunekit(a).values()).containsEntry("lr", 0.02).containsEntry("h", 2.0).containsEntry("d", 1L);
        assertThat(s.key(a)).isEqualTo(s.key(Katib.assign("d", "0.150", "h", "2", "lr", "0.02")));
        assertThat(s.key(a)).isNotEqualTo(s.key(Katib.assign("lr", "0.021", "h", "2", "d", "0.15")));
        assertThat(s.toTunekit(Katib.assign("lr", "0.5", "h", "2", "d", "0.15"))).as("out of bounds").isNull();
        assertThat(s.toTunekit(Katib.assign("lr", "0.02", "h", "3", "d", "0.15"))).as("not in the list").isNull();
        assertThat(s.toTunekit(Katib.assign("lr", "0.02", "h", "2", "d", "0.17"))).as("off the grid").isNull();
        assertThat(s.toTunekit(Katib.assign("lr", "x", "h", "2", "d", "0.15"))).as("not a number").isNull();
        assertThat(s.toTunekit(Katib.assign("lr", "0.02", "h", "2"))).as("a parameter missing").isNull();
        assertThat(s.key(Katib.assign("lr", "x", "h", "2", "d", "0.15"))).isNull();
    }

    @Test
    void sampledValuesRoundTrip() {
        var params = SuggestionServiceTest.ALL_KINDS;
        var s = KatibSpace.of(params);
        SplittableRandom rng = new SplittableRandom(11);
        ControllerLoop check = new ControllerLoop(Katib.experiment("random", params), 1);
        for (int i = 0; i < 500; i++) {
            Parameters p = s.space().sample(rng);
            List<ParameterAssignment> a = s.toKatib(p);
            check.check(a);
            Parameters back = s.toTunekit(a);
            assertThat(back).as("read back %s", a).isNotNull();
            assertThat(s.toKatib(back)).isEqualTo(a);
        }
    }
}
