package org.tunekit.sdk;

import java.util.Map;

/**
 * One parameter set: parameter name to value, in search-space order. Values are {@code Long}
 * (randint, integer choices), {@code Double} (continuous types, which stay doubles even when
 * quantised), the option as given for {@code choice}, or, for a nested choice, a {@code Map} holding
 * {@code "_name"} and the chosen option's sub-parameters. Immutable.
 *
 * @param values the values; copied deeply into an immutable map
 */
public record Parameters(Map<String, Object> values) {

    /** Copies and checks the values. */
    @SuppressWarnings("unchecked")
    public Parameters {
        values = (Map<String, Object>) JsonValues.immutableCopy(values);
    }

    /** Creates a parameter set from a map of JSON-like values. */
    public static Parameters of(Map<String, ?> values) {
        @SuppressWarnings("unchecked")
        Map<String, Object> m = (Map<String, Object>) values;
        return new Parameters(m);
    }

    /** The value of a top-level parameter, or {@code null} when absent. */
    public Object get(String name) {
        return values.get(name);
    }

    /** The numeric value of a parameter. */
    public double getDouble(String name) {
        Object v = require(name);
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        throw new IllegalArgumentException("parameter '" + name + "' is not a number: " + JsonValues.describe(v));
    }

    /** The integral value of a parameter. */
    public long getLong(String name) {
        Object v = require(name);
        if (v instanceof Long l) {
            return l;
        }
        if (v instanceof Double d && d == Math.rint(d) && !Double.isInfinite(d)) {
            return d.longValue();
        }
        throw new IllegalArgumentException("parameter '" + name + "' is not an integer: " + JsonValues.describe(v));
    }

    /** The string value of a parameter. */
    public String getString(String name) {
        Object v = require(name);
        if (v instanceof String s) {
            return s;
        }
        throw new IllegalArgumentException("parameter '" + name + "' is not a string: " + JsonValues.describe(v));
    }

    private Object require(String name) {
        if (!values.containsKey(name)) {
            throw new IllegalArgumentException("no parameter '" + name + "' in " + values.keySet());
        }
        return values.get(name);
    }
}
