package org.tunekit.sdk.space;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.random.RandomGenerator;
import org.tunekit.sdk.Parameters;

/**
 * {@code choice}: one of a list of options. An option is a plain value (number, string, boolean,
 * list or object), or, in a nested space, an object with {@code "_name"} whose other keys are
 * parameters sampled only when that option is chosen; the value then is {@code {"_name": ..., sub-values...}}.
 *
 * @param name    the key
 * @param path    the path
 * @param options the options, at least one
 */
public record Choice(String name, String path, List<Option> options) implements Parameter {

    /** Copies the options. */
    public Choice {
        options = List.copyOf(options);
    }

    /**
     * One option of a choice.
     *
     * @param value    the value as given, or for a nested option its {@code _name}
     * @param subspace the nested option's parameters, or {@code null} for a plain value
     */
    public record Option(Object value, SearchSpace subspace) {
        /** True when this option has a nested sub-space. */
        public boolean nested() {
            return subspace != null;
        }
    }

    @Override public String nniType() { return "choice"; }

    /** How many options there are. */
    public int size() {
        return options.size();
    }

    /** True when any option has a nested sub-space. */
    public boolean nested() {
        return options.stream().anyMatch(Option::nested);
    }

    /** The value of option {@code index}, its nested parameters drawn from {@code rng}. */
    public Object valueOf(int index, RandomGenerator rng) {
        Option o = options.get(index);
        if (!o.nested()) {
            return o.value();
        }
        return nestedValue(o, o.subspace().sample(rng));
    }

    /** The value of a nested option with the given sub-values. */
    public static Map<String, Object> nestedValue(Option option, Parameters subValues) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("_name", option.value());
        m.putAll(subValues.values());
        return m;
    }

    /** The index of the option that {@code value} is (for a nested option, the one its {@code _name} names), or -1. */
    public int indexOf(Object value) {
        for (int i = 0; i < options.size(); i++) {
            Option o = options.get(i);
            if (o.nested()) {
                if (value instanceof Map<?, ?> m && Objects.equals(m.get("_name"), o.value())) {
                    return i;
                }
            } else if (sameValue(o.value(), value)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean sameValue(Object a, Object b) {
        if (a instanceof Number x && b instanceof Number y) {
            return x.doubleValue() == y.doubleValue();
        }
        return Objects.equals(a, b);
    }

    @Override
    public Object sample(RandomGenerator rng) {
        return valueOf(rng.nextInt(options.size()), rng);
    }

    @Override
    public boolean accepts(Object value) {
        int i = indexOf(value);
        if (i < 0) {
            return false;
        }
        Option o = options.get(i);
        if (!o.nested()) {
            return true;
        }
        Map<String, Object> sub = new LinkedHashMap<>();
        ((Map<?, ?>) value).forEach((k, v) -> {
            if (!"_name".equals(k)) {
                sub.put((String) k, v);
            }
        });
        return o.subspace().violation(Parameters.of(sub)).isEmpty();
    }

    /** The option at quantile {@code u}; for a nested option its sub-parameters take their median values. */
    @Override
    public Object fromUnit(double u) {
        int k = Math.max(0, Math.min(options.size() - 1, (int) Math.floor(u * options.size())));
        Option o = options.get(k);
        if (!o.nested()) {
            return o.value();
        }
        Map<String, Object> sub = new LinkedHashMap<>();
        for (Parameter p : o.subspace().parameters()) {
            sub.put(p.name(), p.fromUnit(0.5));
        }
        return nestedValue(o, Parameters.of(sub));
    }
}
