package org.tunekit.sdk.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {

    @Test
    void readsEveryKindOfValue() {
        Object v = Json.parse(" {\"a\": 1, \"b\": [true, false, null], \"c\": {\"d\": \"e\"}, \"f\": -2.5e1} ");
        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("a", 1L);
        expected.put("b", Arrays.asList(true, false, null));
        expected.put("c", Map.of("d", "e"));
        expected.put("f", -25.0);
        assertThat(v).isEqualTo(expected);
        assertThat(List.copyOf(((Map<?, ?>) v).keySet())).isEqualTo(List.of("a", "b", "c", "f"));
        assertThat(Json.parse("[]")).isEqualTo(List.of());
        assertThat(Json.parse("{}")).isEqualTo(Map.of());
        assertThat(Json.parse("\t\r\n\"x\"\n")).isEqualTo("x");
    }

    @Test
    void integersAreLongsAndEverythingElseDoubles() {
        assertThat(Json.parse("0")).isEqualTo(0L);
        assertThat(Json.parse("-0")).isEqualTo(0L);
        assertThat(Json.parse("9223372036854775807")).isEqualTo(Long.MAX_VALUE);
        assertThat(Json.parse("-9223372036854775808")).isEqualTo(Long.MIN_VALUE);
        assertThat(Json.parse("9223372036854775808")).isEqualTo(9.223372036854775808e18);
        assertThat(Json.parse("1.0")).isEqualTo(1.0);
        assertThat(Json.parse("1e2")).isEqualTo(100.0);
        assertThat(Json.parse("1E+2")).isEqualTo(100.0);
        assertThat(Json.parse("-0.0")).isEqualTo(-0.0);
        assertThat(Json.parse("2.5E-3")).isEqualTo(0.0025);
    }

    @Test
    void nonFiniteNumbersAsPythonWritesThem() {
        assertThat((Double) Json.parse("NaN")).isNaN();
        assertThat(Json.parse("Infinity")).isEqualTo(Double.POSITIVE_INFINITY);
        assertThat(Json.parse("-Infinity")).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(Json.write(Double.NaN)).isEqualTo("NaN");
        assertThat(Json.write(Double.POSITIVE_INFINITY)).isEqualTo("Infinity");
        assertThat(Json.write(Float.NEGATIVE_INFINITY)).isEqualTo("-Infinity");
        assertThat(Json.write(List.of(Double.NaN, 1.5))).isEqualTo("[NaN,1.5]");
    }

    @Test
    void writesCompactlyInKeyOrder() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("z", 1);
        m.put("a", Arrays.asList(null, true, 2.5, (short) 3, (byte) 4, 5L, new BigInteger("123456789012345678901234567890")));
        m.put("m", Map.of());
        assertThat(Json.write(m)).isEqualTo("{\"z\":1,\"a\":[null,true,2.5,3,4,5,123456789012345678901234567890],\"m\":{}}");
        assertThat(Json.write(0.5)).isEqualTo("0.5");
        assertThat(Json.write(3.0)).isEqualTo("3.0");
        assertThat(Json.write(1e-5)).isEqualTo("1.0E-5");
        assertThat(Json.parse(Json.write(1e-5))).isEqualTo(1e-5);
    }

    @Test
    void stringEscapesBothWays() {
        String all = "q\" b\\ s/ \b\f\n\r\t \u0001\u001f é 中 \uD83D\uDE00";
        String written = Json.write(all);
        assertThat(written).isEqualTo("\"q\\\" b\\\\ s/ \\b\\f\\n\\r\\t \\u0001\\u001f é 中 \uD83D\uDE00\"");
        assertThat(Json.parse(written)).isEqualTo(all);
        assertThat(Json.parse("\"\\/\\u00e9\\u4E2D\\ud83d\\ude00\\\"\"")).isEqualTo("/é中\uD83D\uDE00\"");
        assertThat(Json.parse("\"a\\nb\"")).isEqualTo("a\nb");
        // A lone surrogate survives a round trip, escaped so that its UTF-8 form loses nothing.
        assertThat(Json.write("x\uD800y")).isEqualTo("\"x\\ud800y\"");
        assertThat(Json.parse(Json.write("x\uD800y\uDC00"))).isEqualTo("x\uD800y\uDC00");
    }

    @Test
    void roundTripsNestedValues() {
        Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("_name", "conv");
        inner.put("k", List.of(1L, 2L, 3L));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("lr", 0.001);
        m.put("layers", 4L);
        m.put("act", "relu");
        m.put("on", false);
        m.put("none", null);
        m.put("net", inner);
        m.put("ünï", "çödé \"q\"");
        assertThat(Json.parse(Json.write(m))).isEqualTo(m);
        for (double d : new double[] {0.1, 1.0 / 3, Double.MIN_VALUE, Double.MAX_VALUE, -1e300, 123456789.0}) {
            assertThat(Json.parse(Json.write(d))).as("%s", d).isEqualTo(d);
        }
        String doubleEncoded = Json.write(Map.of("value", Json.write(Map.of("default", 0.5))));
        assertThat(doubleEncoded).isEqualTo("{\"value\":\"{\\\"default\\\":0.5}\"}");
        assertThat(Json.parse((String) ((Map<?, ?>) Json.parse(doubleEncoded)).get("value"))).isEqualTo(Map.of("default", 0.5));
    }

    @Test
    void repeatedKeyKeepsTheLastValue() {
        assertThat(Json.parse("{\"a\":1,\"a\":2}")).isEqualTo(Map.of("a", 2L));
    }

    @Test
    void errorsNameThePositionAndWhatWasExpected() {
        assertError("", "invalid JSON at position 0: expected a value, found the end of the text");
        assertError("{\"a\" 1}", "invalid JSON at position 5: expected ':', found '1'");
        assertError("{\"a\":1 \"b\":2}", "invalid JSON at position 7: expected ',' or '}', found '\"'");
        assertError("[1,]", "invalid JSON at position 3: expected a value, found ']'");
        assertError("[1 2]", "invalid JSON at position 3: expected ',' or ']', found '2'");
        assertError("{a:1}", "invalid JSON at position 1: expected a string key, found 'a'");
        assertError("{\"a\":1,}", "invalid JSON at position 7: expected a string key, found '}'");
        assertError("01", "invalid JSON at position 1: expected the end of the text, found '1'");
        assertError("1.", "invalid JSON at position 2: expected a digit after '.', found the end of the text");
        assertError(".5", "invalid JSON at position 0: expected a value, found '.'");
        assertError("-", "invalid JSON at position 1: expected a digit, found the end of the text");
        assertError("+1", "invalid JSON at position 0: expected a value, found '+'");
        assertError("1e", "invalid JSON at position 2: expected a digit in the exponent, found the end of the text");
        assertError("tru", "invalid JSON at position 3: expected 'true', found the end of the text");
        assertError("nan", "invalid JSON at position 1: expected 'null', found 'a'");
        assertError("-Inf", "invalid JSON at position 4: expected 'Infinity', found the end of the text");
        assertError("\"abc", "invalid JSON at position 4: expected the closing '\"' of the string that starts at position 0, found the end of the text");
        assertError("\"a\nb\"", "invalid JSON at position 2: a control character must be escaped in a string, found U+000A");
        assertError("\"\\x\"", "invalid JSON at position 2: expected one of \" \\ / b f n r t u after '\\', found 'x'");
        assertError("\"\\u12g4\"", "invalid JSON at position 5: expected 4 hexadecimal digits after '\\u', found 'g'");
        assertError("\"\\u12", "invalid JSON at position 5: expected 4 hexadecimal digits after '\\u', found the end of the text");
        assertError("{} {}", "invalid JSON at position 3: expected the end of the text, found '{'");
        assertError("[1]\u0000", "invalid JSON at position 3: expected the end of the text, found U+0000");
    }

    @Test
    void nestingIsBounded() {
        String deep = "[".repeat(Json.MAX_DEPTH + 1) + "]".repeat(Json.MAX_DEPTH + 1);
        assertThatThrownBy(() -> Json.parse(deep)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("invalid JSON at position " + Json.MAX_DEPTH + ": nesting deeper than " + Json.MAX_DEPTH + " levels, found '['");
        String ok = "[".repeat(Json.MAX_DEPTH) + "]".repeat(Json.MAX_DEPTH);
        assertThat(Json.write(Json.parse(ok))).isEqualTo(ok);

        List<Object> cycle = new ArrayList<>();
        cycle.add(cycle);
        assertThatThrownBy(() -> Json.write(cycle)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("more than " + Json.MAX_DEPTH + " levels");
    }

    @Test
    void writingSomethingThatIsNotJsonIsNamed() {
        assertThatThrownBy(() -> Json.write(List.of(new Object()))).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("cannot write a java.lang.Object as JSON");
        Map<Object, Object> intKey = new LinkedHashMap<>();
        intKey.put(1, 2);
        assertThatThrownBy(() -> Json.write(intKey)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a JSON object key must be a string, got java.lang.Integer");
    }

    private static void assertError(String text, String message) {
        assertThatThrownBy(() -> Json.parse(text)).as(text).isInstanceOf(IllegalArgumentException.class).hasMessage(message);
    }
}
