package org.tunekit.dispatcher.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonCodecTest {

    @Test
    void parsesToPlainJavaValues() throws ProtocolException {
        Object v = JsonCodec.parse("{\"b\": [1, 2.5, -3e2, true, null, \"s\"], \"a\": {\"x\": 9007199254740993}}", "test");
        assertThat(v).isInstanceOf(LinkedHashMap.class);
        Map<?, ?> m = (Map<?, ?>) v;
        assertThat(List.copyOf(m.keySet())).isEqualTo(List.of("b", "a"));
        assertThat(m.get("b")).isEqualTo(Arrays.asList(1L, 2.5, -300.0, true, null, "s"));
        assertThat(((Map<?, ?>) m.get("a")).get("x")).isEqualTo(9007199254740993L);
        assertThat(JsonCodec.parse("12345678901234567890", "t")).isEqualTo(1.2345678901234567e19);
        assertThat(JsonCodec.parse("-9223372036854775808", "t")).isEqualTo(Long.MIN_VALUE);
        assertThat(JsonCodec.parse("\"\\u00e9\\n\"", "t")).isEqualTo("é\n");
    }

    @Test
    void parseErrorsNameTheText() {
        assertThatThrownBy(() -> JsonCodec.parse("", "IN payload")).isInstanceOf(ProtocolException.class)
                .hasMessage("invalid JSON in IN payload: it is empty");
        assertThatThrownBy(() -> JsonCodec.parse("{\"a\": 1} x", "IN payload")).isInstanceOf(ProtocolException.class)
                .hasMessageStartingWith("invalid JSON in IN payload: ");
        assertThatThrownBy(() -> JsonCodec.parse("{\"a\": ", "ME payload")).isInstanceOf(ProtocolException.class)
                .hasMessage("invalid JSON in ME payload: the text ends in the middle of a value");
        assertThatThrownBy(() -> JsonCodec.parse("{'a': 1}", "FD payload")).isInstanceOf(ProtocolException.class)
                .hasMessageStartingWith("invalid JSON in FD payload: ");
        assertThatThrownBy(() -> JsonCodec.parse("[1, 2,]", "AD payload")).isInstanceOf(ProtocolException.class)
                .hasMessageStartingWith("invalid JSON in AD payload: ");
        assertThatThrownBy(() -> JsonCodec.parse("NaN", "ME value")).isInstanceOf(ProtocolException.class)
                .hasMessageStartingWith("invalid JSON in ME value: ");
        for (String bad : List.of("{\"a\": 1} x", "{'a': 1}", "[1, 2,]", "NaN", "{a: 1}", "01")) {
            assertThatThrownBy(() -> JsonCodec.parse(bad, "X payload")).as(bad)
                    .isInstanceOf(ProtocolException.class)
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("https://"));
        }
    }

    @Test
    void writesAsPythonJsonDumpsDoes() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("a", 1L);
        m.put("b", Arrays.asList(0.5, "é\"\\\n\t", true, null));
        m.put("c", Map.of());
        assertThat(JsonCodec.write(m)).isEqualTo("{\"a\": 1, \"b\": [0.5, \"\\u00e9\\\"\\\\\\n\\t\", true, null], \"c\": {}}");
        assertThat(JsonCodec.write("\u0001\u007f")).isEqualTo("\"\\u0001\\u007f\"");
        assertThat(JsonCodec.write(1e-7)).isEqualTo("1.0E-7");
        assertThat(JsonCodec.write(List.of(3, 4.0f))).isEqualTo("[3, 4.0]");
    }

    @Test
    void refusesWhatTheManagerCannotRead() {
        assertThatThrownBy(() -> JsonCodec.write(Double.NaN)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NaN");
        assertThatThrownBy(() -> JsonCodec.write(List.of(Double.POSITIVE_INFINITY))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> JsonCodec.write(new Object())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("java.lang.Object");
    }

    @Test
    void writeThenParseRoundTrips() throws ProtocolException {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("unicode", "ünïcödé ✓ 𝄞");
        m.put("numbers", List.of(-1L, 0.1, 1.0E300, Long.MAX_VALUE));
        m.put("nested", Map.of("k", List.of(Map.of("x", false))));
        assertThat(JsonCodec.parse(JsonCodec.write(m), "t")).isEqualTo(m);
    }

    @Test
    void nestingIsBoundedAt255LevelsWithAShortMessage() throws ProtocolException {
        assertThat(JsonCodec.parse("[".repeat(255) + "]".repeat(255), "x")).isInstanceOf(List.class);
        assertThatThrownBy(() -> JsonCodec.parse("[".repeat(10_000) + "]".repeat(10_000), "ME payload"))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("invalid JSON in ME payload: Nesting limit 255 reached at line 1 column 257");
    }
}
