package org.tunekit.tuners.common;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ValueTextTest {

    @Test
    void readsBackExactlyWhatItWrote() {
        Map<String, Object> v = new LinkedHashMap<>();
        v.put("i", 3L);
        v.put("d", 3.0);
        v.put("tiny", 1e-300);
        v.put("nan", Double.NaN);
        v.put("inf", Double.NEGATIVE_INFINITY);
        v.put("s", "a \"quoted\" \\ line\nnext\u0001 + ; {}");
        v.put("b", true);
        v.put("n", null);
        v.put("l", List.of(1L, 2.5, "x", List.of()));
        v.put("m", Map.of("_name", "tree", "depth", 4L));
        String text = ValueText.write(v);
        assertThat(text).doesNotContainAnyWhitespaces();
        Object back = ValueText.read(text);
        assertThat(back).isEqualTo(v);
        assertThat(((Map<?, ?>) back).get("i")).isInstanceOf(Long.class);
        assertThat(((Map<?, ?>) back).get("d")).isInstanceOf(Double.class);
    }

    @Test
    void malformedTokensAreErrorsNamingThePlace() {
        assertThatThrownBy(() -> ValueText.read("{s" + "a;l1;")).hasMessageContaining("unclosed list or object");
        assertThatThrownBy(() -> ValueText.read("l12")).hasMessageContaining("missing ';'");
        assertThatThrownBy(() -> ValueText.read("x")).hasMessageContaining("unexpected 'x' at 0");
    }
}
