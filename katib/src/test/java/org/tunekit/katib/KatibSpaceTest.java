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
    void numbersAreReadOnlyInPlainDecimalNotation() {
        var s = KatibSpace.of(List.of(Katib.doubles("lr", "-1", "1"), Katib.ints("n", "-5", "5")));
        for (String same : List.of("0.5", "0.50", "+0.5", "5e-1", "5E-1", ".5", "5.e-1", "0.5000000000000000000001")) {
            assertThat(s.key(Katib.assign("lr", same, "n", "3"))).as(same).isEqualTo(s.key(Katib.assign("lr", "0.5", "n", "3")));
            assertThat(s.toTunekit(Katib.assign("lr", same, "n", "3")).values()).as(same).containsEntry("lr", 0.5);
        }
        for (String same : List.of("3", "+3", "03", "3.0", "3e0", "0.3E1")) {
            assertThat(s.key(Katib.assign("lr", "0", "n", same))).as(same).isEqualTo(s.key(Katib.assign("lr", "0", "n", "3")));
            assertThat(s.toTunekit(Katib.assign("lr", "0", "n", same)).values()).as(same).containsEntry("n", 3L);
        }
        assertThat(s.key(Katib.assign("lr", "-0.0", "n", "0"))).isEqualTo(s.key(Katib.assign("lr", "0", "n", "-0")));
        for (String bad : List.of("NaN", "Infinity", "-Infinity", "0x1p-1", "0.5d", "0.5f", "1e", "e1", ".", "-", "", "1e400", "0.5 0.5", "٣")) {
            assertThat(s.key(Katib.assign("lr", bad, "n", "3"))).as("lr " + bad).isNull();
        }
        for (String bad : List.of("3.5", "x", "0x3", "3L", "99999999999999999999")) {
            assertThat(s.toTunekit(Katib.assign("lr", "0", "n", bad))).as("n " + bad).isNull();
        }
        assertThat(s.toTunekit(Katib.assign("lr", "1.0000001", "n", "3"))).as("above max").isNull();
        assertThat(s.toTunekit(Katib.assign("lr", "0", "n", "6"))).as("above max").isNull();
        assertThat(s.key(Katib.assign("lr", "0", "n", "3", "lr", "0"))).as("given twice").isNull();
        assertThat(s.read(Katib.assign("lr", "2", "n", "3")).key()).as("outside but readable").isNotNull();
        assertThat(s.read(Katib.assign("lr", "2", "n", "3")).parameters()).isNull();
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
