package org.tunekit.sdk.testkit;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tunekit.sdk.space.SearchSpace;

/**
 * The search spaces the contract checks of {@link TunerTestKit} run on. Together they cover all ten
 * NNI parameter types, plain and nested choices (two levels deep, with plain options beside nested
 * ones) and finite spaces for the duplicate and exhaustion checks.
 */
public final class ContractSpaces {
    private ContractSpaces() {}

    /** One parameter of each of the ten NNI types; infinite. */
    public static SearchSpace allTypes() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("kind", spec("choice", "a", 2, 0.5, true));
        d.put("count", spec("randint", -3, 7));
        d.put("ratio", spec("uniform", -1.0, 2.0));
        d.put("step", spec("quniform", 0.0, 10.0, 2.5));
        d.put("lr", spec("loguniform", 1e-4, 1.0));
        d.put("width", spec("qloguniform", 1.0, 1000.0, 10.0));
        d.put("shift", spec("normal", 0.0, 1.0));
        d.put("offset", spec("qnormal", 5.0, 2.0, 0.5));
        d.put("scale", spec("lognormal", 0.0, 0.5));
        d.put("size", spec("qlognormal", 2.0, 0.5, 1.0));
        return SearchSpace.parse(d);
    }

    /**
     * A nested choice two levels deep beside a top-level parameter: {@code model} is {@code "tree"}
     * (with {@code depth} and {@code criterion}), {@code "linear"} (with {@code lr} and a nested
     * {@code penalty} that is {@code "l1"} with {@code alpha} or {@code "none"}) or the plain
     * {@code "constant"}.
     */
    public static SearchSpace nested() {
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("_name", "tree");
        tree.put("depth", spec("randint", 1, 8));
        tree.put("criterion", spec("choice", "gini", "entropy"));
        Map<String, Object> l1 = new LinkedHashMap<>();
        l1.put("_name", "l1");
        l1.put("alpha", spec("uniform", 0.0, 1.0));
        Map<String, Object> linear = new LinkedHashMap<>();
        linear.put("_name", "linear");
        linear.put("lr", spec("loguniform", 1e-3, 1.0));
        linear.put("penalty", spec("choice", l1, Map.of("_name", "none")));
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("model", spec("choice", tree, linear, "constant"));
        d.put("momentum", spec("uniform", 0.0, 0.99));
        return SearchSpace.parse(d);
    }

    /** A finite space of 24 parameter sets: a choice of 2, a randint of 4 and a quniform of 3 values. */
    public static SearchSpace finite() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("optimizer", spec("choice", "sgd", "adam"));
        d.put("layers", spec("randint", 1, 5));
        d.put("dropout", spec("quniform", 0.0, 0.5, 0.25));
        return SearchSpace.parse(d);
    }

    /** A finite space of 4 parameter sets: a choice of 2 and a randint of 2. */
    public static SearchSpace tinyFinite() {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("switch", spec("choice", "on", "off"));
        d.put("bit", spec("randint", 0, 2));
        return SearchSpace.parse(d);
    }

    /** Every contract space by name, in a fixed order. */
    public static Map<String, SearchSpace> all() {
        Map<String, SearchSpace> m = new LinkedHashMap<>();
        m.put("all-types", allTypes());
        m.put("nested", nested());
        m.put("finite", finite());
        m.put("tiny-finite", tinyFinite());
        return java.util.Collections.unmodifiableMap(m);
    }

    private static Map<String, Object> spec(String type, Object... values) {
        return Map.of("_type", type, "_value", List.of(values));
    }
}
