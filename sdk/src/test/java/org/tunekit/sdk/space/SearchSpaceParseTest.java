package org.tunekit.sdk.space;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SearchSpaceParseTest {

    static Map<String, Object> spec(String type, Object... values) {
        return Map.of("_type", type, "_value", List.of(values));
    }

    static SearchSpace one(String name, Map<String, Object> spec) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put(name, spec);
        return SearchSpace.parse(d);
    }

    static void assertInvalid(Map<String, ?> definition, String path, String... fragments) {
        var thrown = assertThatThrownBy(() -> SearchSpace.parse(definition))
                .isInstanceOf(InvalidSearchSpaceException.class)
                .satisfies(e -> assertThat(((InvalidSearchSpaceException) e).path()).isEqualTo(path));
        if (!path.isEmpty()) {
            thrown.hasMessageContaining("parameter '" + path + "'");
        }
        for (String f : fragments) {
            thrown.hasMessageContaining(f);
        }
    }

    @Test
    void parsesEveryTypeIntoItsParameterKind() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("c", spec("choice", "a", 1, 2.5, true));
        d.put("r", spec("randint", 2, 9));
        d.put("u", spec("uniform", -1, 1));
        d.put("qu", spec("quniform", 0, 10, 2));
        d.put("lu", spec("loguniform", 0.001, 1));
        d.put("qlu", spec("qloguniform", 1, 100, 5));
        d.put("n", spec("normal", 0, 2));
        d.put("qn", spec("qnormal", 1, 3, 0.5));
        d.put("ln", spec("lognormal", 0, 1));
        d.put("qln", spec("qlognormal", 2, 0.5, 1));
        SearchSpace s = SearchSpace.parse(d);

        assertThat(s.parameters()).extracting(Parameter::name).containsExactly("c", "r", "u", "qu", "lu", "qlu", "n", "qn", "ln", "qln");
        assertThat(s.parameters()).extracting(Parameter::nniType)
                .containsExactly("choice", "randint", "uniform", "quniform", "loguniform", "qloguniform", "normal", "qnormal", "lognormal", "qlognormal");
        assertThat(s.parameter("c")).isInstanceOfSatisfying(Choice.class, c -> {
            assertThat(c.options()).extracting(Choice.Option::value).containsExactly("a", 1L, 2.5, true);
            assertThat(c.nested()).isFalse();
        });
        assertThat(s.parameter("r")).isEqualTo(new RandInt("r", "r", 2, 9));
        assertThat(s.parameter("u")).isEqualTo(new Uniform("u", "u", -1, 1, 0));
        assertThat(s.parameter("qu")).isEqualTo(new Uniform("qu", "qu", 0, 10, 2));
        assertThat(s.parameter("lu")).isEqualTo(new LogUniform("lu", "lu", 0.001, 1, 0));
        assertThat(s.parameter("qlu")).isEqualTo(new LogUniform("qlu", "qlu", 1, 100, 5));
        assertThat(s.parameter("n")).isEqualTo(new Normal("n", "n", 0, 2, 0));
        assertThat(s.parameter("qn")).isEqualTo(new Normal("qn", "qn", 1, 3, 0.5));
        assertThat(s.parameter("ln")).isEqualTo(new LogNormal("ln", "ln", 0, 1, 0));
        assertThat(s.parameter("qln")).isEqualTo(new LogNormal("qln", "qln", 2, 0.5, 1));
        assertThat(s.definition()).isEqualTo(org.tunekit.sdk.JsonValues.immutableCopy(d));
    }

    @Test
    void builderProducesTheSameSpaceAsParse() {
        SearchSpace built = SearchSpace.builder().choice("c", "x", "y").randint("r", 0, 3).uniform("u", 0, 1).build();
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("c", spec("choice", "x", "y"));
        d.put("r", spec("randint", 0, 3));
        d.put("u", spec("uniform", 0.0, 1.0));
        assertThat(built).isEqualTo(SearchSpace.parse(d));
    }

    @Test
    void nestedChoicesGetPathsThroughTheirOptionNames() {
        SearchSpace s = nested();
        assertThat(s.allParameters()).extracting(Parameter::path)
                .containsExactly("model", "model/tree/depth", "model/tree/split", "model/tree/split/best/min", "model/linear/lr", "seed");
        Choice model = (Choice) s.parameter("model");
        assertThat(model.nested()).isTrue();
        assertThat(model.options().get(2).nested()).isFalse();
        assertThat(model.options().get(0).subspace().parameter("depth")).isEqualTo(new RandInt("depth", "model/tree/depth", 1, 5));
    }

    static SearchSpace nested() {
        Map<String, Object> best = new LinkedHashMap<>();
        best.put("_name", "best");
        best.put("min", spec("uniform", 0, 1));
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("_name", "tree");
        tree.put("depth", spec("randint", 1, 5));
        tree.put("split", spec("choice", best, "random"));
        Map<String, Object> linear = new LinkedHashMap<>();
        linear.put("_name", "linear");
        linear.put("lr", spec("loguniform", 0.01, 1));
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("model", spec("choice", tree, linear, "none"));
        d.put("seed", spec("randint", 0, 3));
        return SearchSpace.parse(d);
    }

    @Test
    void errorsInsideNestedChoicesNameTheFullPath() {
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("_name", "tree");
        tree.put("depth", spec("randint", 5, 1));
        assertInvalid(Map.of("model", spec("choice", tree)), "model/tree/depth", "randint needs low < high");

        Map<String, Object> inner = new LinkedHashMap<>();
        inner.put("_name", "l1");
        inner.put("alpha", spec("loguniform", 0, 1));
        Map<String, Object> outer = new LinkedHashMap<>();
        outer.put("_name", "linear");
        outer.put("penalty", spec("choice", inner));
        assertInvalid(Map.of("model", spec("choice", outer)), "model/linear/penalty/l1/alpha", "needs low > 0");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "randint     | 1           | randint takes 2 values [low, high], got 1",
        "randint     | 1, 2, 3     | randint takes 2 values [low, high], got 3",
        "uniform     | 1           | uniform takes 2 values [low, high], got 1",
        "quniform    | 0, 1        | quniform takes 3 values [low, high, q], got 2",
        "loguniform  | 1, 2, 3     | loguniform takes 2 values [low, high], got 3",
        "qloguniform | 1, 2        | qloguniform takes 3 values [low, high, q], got 2",
        "normal      | 0           | normal takes 2 values [mu, sigma], got 1",
        "qnormal     | 0, 1        | qnormal takes 3 values [mu, sigma, q], got 2",
        "lognormal   | 0, 1, 1, 1  | lognormal takes 2 values [mu, sigma], got 4",
        "qlognormal  | 0           | qlognormal takes 3 values [mu, sigma, q], got 1",
    })
    void wrongArityIsNamed(String type, String values, String message) {
        Object[] v = java.util.Arrays.stream(values.split(",")).map(String::trim).map(Double::valueOf).toArray();
        assertInvalid(Map.of("p", spec(type, v)), "p", message);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "randint     | 3, 3      | randint needs low < high",
        "randint     | 4, 2      | randint needs low < high",
        "uniform     | 1, 1      | uniform needs low < high",
        "uniform     | 2, 1      | uniform needs low < high",
        "quniform    | 2, 1, 1   | quniform needs low < high",
        "loguniform  | 2, 1      | loguniform needs low < high",
        "qloguniform | 5, 5, 1   | qloguniform needs low < high",
        "loguniform  | 0, 1      | loguniform needs low > 0",
        "loguniform  | -1, 1     | loguniform needs low > 0",
        "qloguniform | 0, 10, 1  | qloguniform needs low > 0",
        "normal      | 0, 0      | normal needs sigma > 0",
        "qnormal     | 0, -1, 1  | qnormal needs sigma > 0",
        "lognormal   | 0, 0      | lognormal needs sigma > 0",
        "qlognormal  | 1, -2, 1  | qlognormal needs sigma > 0",
        "quniform    | 0, 1, 0   | quniform needs q > 0",
        "qloguniform | 1, 9, -1  | qloguniform needs q > 0",
        "qnormal     | 0, 1, 0   | qnormal needs q > 0",
        "qlognormal  | 0, 1, -3  | qlognormal needs q > 0",
        "randint     | 0.5, 3    | randint bounds must be integers",
    })
    void badBoundsAreNamed(String type, String values, String message) {
        Object[] v = java.util.Arrays.stream(values.split(",")).map(String::trim).map(Double::valueOf).toArray();
        assertInvalid(Map.of("p", spec(type, v)), "p", message);
    }

    @Test
    void malformedSpecsAreNamed() {
        assertInvalid(Map.of("p", spec("gaussian", 0, 1)), "p", "unknown type \"gaussian\"", "known types: choice");
        assertInvalid(Map.of("p", 3), "p", "expected an object {\"_type\": ..., \"_value\": [...]}, got 3");
        assertInvalid(Map.of("p", "uniform"), "p", "got \"uniform\"");
        assertInvalid(Map.of("p", List.of(1, 2)), "p", "expected an object");
        assertInvalid(Map.of("p", Map.of("_value", List.of(1))), "p", "missing \"_type\"");
        assertInvalid(Map.of("p", Map.of("_type", 5, "_value", List.of(1))), "p", "\"_type\" must be a string, got 5");
        assertInvalid(Map.of("p", Map.of("_type", "choice")), "p", "missing \"_value\"");
        assertInvalid(Map.of("p", Map.of("_type", "choice", "_value", "abc")), "p", "\"_value\" must be a list, got \"abc\"");
        assertInvalid(Map.of("p", Map.of("_type", "choice", "_value", List.of(1), "extra", 1)), "p", "unexpected key \"extra\"");
        assertInvalid(Map.of("p", spec("choice")), "p", "choice needs at least one option");
        assertInvalid(Map.of("p", spec("uniform", "a", 1)), "p", "uniform values must be finite numbers", "got \"a\" at position 0");
        assertInvalid(Map.of("p", spec("normal", 0, Double.NaN)), "p", "at position 1");
        assertInvalid(Map.of("p", spec("uniform", 0, Double.POSITIVE_INFINITY)), "p", "finite numbers");
        assertInvalid(Map.of("", spec("uniform", 0, 1)), "", "parameter names must not be empty");
        assertThatThrownBy(() -> SearchSpace.parse(null)).isInstanceOf(InvalidSearchSpaceException.class)
                .hasMessageContaining("must be a JSON object");
    }

    @Test
    void duplicateOptionNamesAreRefused() {
        List<Object> options = List.of(Map.of("_name", "a", "x", spec("uniform", 0, 1)), Map.of("_name", "a"));
        assertInvalid(Map.of("model", Map.of("_type", "choice", "_value", options)), "model",
                "option 1: \"_name\" \"a\" is used by two options");
        List<Object> badName = List.of(Map.of("_name", List.of(1)));
        assertInvalid(Map.of("model", Map.of("_type", "choice", "_value", badName)), "model",
                "option 0: \"_name\" must be a string, number or boolean");
    }

    @Test
    void spacesAreImmutable() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("x", spec("uniform", 0, 1));
        SearchSpace s = SearchSpace.parse(d);
        d.put("y", spec("uniform", 0, 1));
        assertThat(s.parameters()).hasSize(1);
        assertThatThrownBy(() -> s.definition().put("z", 1)).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> s.parameters().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThat(SearchSpace.empty().isEmpty()).isTrue();
        assertThat(SearchSpace.empty().size()).hasValue(1);
    }
}
