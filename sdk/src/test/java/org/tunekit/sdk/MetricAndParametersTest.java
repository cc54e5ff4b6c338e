package org.tunekit.sdk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MetricAndParametersTest {

    @Test
    void metricFromNumbersAndNumericStrings() {
        assertThat(Metric.fromReported(3L).value()).isEqualTo(3.0);
        assertThat(Metric.fromReported(0.25).value()).isEqualTo(0.25);
        assertThat(Metric.fromReported(7).reported()).isEqualTo(7L);
        assertThat(Metric.fromReported(" 1.5e-3 ").value()).isEqualTo(0.0015);
        assertThat(Metric.fromReported("-2").reported()).isEqualTo("-2");
        assertThat(Metric.of(0.5)).isEqualTo(new Metric(0.5, 0.5));
        assertThat(Metric.of(0.5).extras()).isEmpty();
    }

    @Test
    void metricFromAnObjectWithADefault() {
        Map<String, Object> reported = new LinkedHashMap<>();
        reported.put("default", 0.9);
        reported.put("loss", 0.1);
        reported.put("epoch", 3);
        Metric m = Metric.fromReported(reported);
        assertThat(m.value()).isEqualTo(0.9);
        assertThat(m.extras()).containsExactly(Map.entry("loss", 0.1), Map.entry("epoch", 3L));
        assertThat(Metric.fromReported(Map.of("default", "0.75")).value()).isEqualTo(0.75);
        reported.put("default", 0.1);
        assertThat(m.value()).isEqualTo(0.9);
        assertThat(((Map<?, ?>) m.reported()).get("default")).isEqualTo(0.9);
    }

    @Test
    void badMetricsAreNamed() {
        assertThatThrownBy(() -> Metric.fromReported("high")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("metric is a string that is not a number: \"high\"");
        assertThatThrownBy(() -> Metric.fromReported(Map.of("loss", 1))).hasMessageContaining("has no \"default\" key");
        assertThatThrownBy(() -> Metric.fromReported(Map.of("default", Map.of("x", 1))))
                .hasMessageContaining("\"default\" must be a number, got an object");
        assertThatThrownBy(() -> Metric.fromReported(Map.of("default", "abc"))).hasMessageContaining("\"abc\"");
        for (String javaOnly : new String[] {"1.5f", "2d", "0x1p3", "1,5", "", "1e", "Inf"}) {
            assertThatThrownBy(() -> Metric.fromReported(javaOnly)).as(javaOnly).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("metric is a string that is not a number");
        }
        assertThat(Metric.fromReported("NaN").value()).isNaN();
        assertThat(Metric.fromReported("-Infinity").value()).isEqualTo(Double.NEGATIVE_INFINITY);
        assertThat(Metric.fromReported("+.5E2").value()).isEqualTo(50.0);
        assertThat(Metric.fromReported("7.").value()).isEqualTo(7.0);
        assertThatThrownBy(() -> Metric.fromReported(null)).hasMessageContaining("got null");
        assertThatThrownBy(() -> Metric.fromReported(true)).hasMessageContaining("got true");
        assertThatThrownBy(() -> Metric.fromReported(List.of(1))).hasMessageContaining("must be a number or an object");
    }

    @Test
    void parametersAreADeepImmutableCopy() {
        Map<String, Object> inner = new HashMap<>();
        inner.put("_name", "tree");
        inner.put("depth", 3);
        List<Object> list = new ArrayList<>(List.of(1, 2));
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("model", inner);
        values.put("layers", list);
        values.put("x", 1.5f);
        Parameters p = Parameters.of(values);

        inner.put("depth", 4);
        list.add(3);
        values.put("y", 1);
        assertThat(p.values()).containsOnlyKeys("model", "layers", "x");
        assertThat(((Map<?, ?>) p.get("model")).get("depth")).isEqualTo(3L);
        assertThat(p.get("layers")).isEqualTo(List.of(1L, 2L));
        assertThat(p.get("x")).isEqualTo(1.5);

        assertThatThrownBy(() -> p.values().put("z", 1)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ((Map<String, Object>) p.get("model")).put("z", 1)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ((List<Object>) p.get("layers")).add(9)).isInstanceOf(UnsupportedOperationException.class);
        assertThat(p).isEqualTo(Parameters.of(Map.of("model", Map.of("_name", "tree", "depth", 3L), "layers", List.of(1L, 2L), "x", 1.5)));
    }

    @Test
    void parameterAccessorsNameTheParameter() {
        Parameters p = Parameters.of(Map.of("n", 3L, "d", 4.0, "s", "a", "f", 2.5));
        assertThat(p.getLong("n")).isEqualTo(3);
        assertThat(p.getLong("d")).isEqualTo(4);
        assertThat(p.getDouble("n")).isEqualTo(3.0);
        assertThat(p.getString("s")).isEqualTo("a");
        assertThatThrownBy(() -> p.getLong("f")).hasMessage("parameter 'f' is not an integer: 2.5");
        assertThatThrownBy(() -> p.getDouble("s")).hasMessage("parameter 's' is not a number: \"a\"");
        assertThatThrownBy(() -> p.getString("n")).hasMessage("parameter 'n' is not a string: 3");
        assertThatThrownBy(() -> p.getDouble("missing")).hasMessageStartingWith("no parameter 'missing' in ");
        assertThatThrownBy(() -> Parameters.of(Map.of("o", new Object()))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a JSON value");
    }
}
