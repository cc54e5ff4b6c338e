package org.tunekit.sdk;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks and copies the plain-Java form of JSON values that crosses the plugin API: {@code null},
 * {@code Boolean}, {@code Long}, {@code Double}, {@code String}, {@code List} and {@code Map} with
 * {@code String} keys. Other integral numbers become {@code Long}, {@code Float} becomes {@code Double}.
 */
public final class JsonValues {
    private JsonValues() {}

    /**
     * Returns a deeply immutable copy of a JSON-like value, normalising numbers.
     *
     * @throws IllegalArgumentException if the value holds something that is not a JSON value
     */
    public static Object immutableCopy(Object value) {
        if (value == null || value instanceof String || value instanceof Boolean
                || value instanceof Long || value instanceof Double) {
            return value;
        }
        if (value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return ((Number) value).longValue();
        }
        if (value instanceof Float f) {
            return f.doubleValue();
        }
        if (value instanceof java.math.BigInteger b && b.bitLength() < 64) {
            return b.longValue();
        }
        if (value instanceof Number n) {
            return n.doubleValue();
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>(Math.max(4, map.size() * 2));
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (!(e.getKey() instanceof String key)) {
                    throw new IllegalArgumentException("JSON object keys must be strings, got " + e.getKey());
                }
                copy.put(key, immutableCopy(e.getValue()));
            }
            return Collections.unmodifiableMap(copy);
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>(list.size());
            for (Object o : list) {
                copy.add(immutableCopy(o));
            }
            return Collections.unmodifiableList(copy);
        }
        throw new IllegalArgumentException("not a JSON value: " + value.getClass().getName());
    }

    /** Returns true when {@code value} is a JSON number (a {@code Long} or {@code Double} after normalising). */
    public static boolean isNumber(Object value) {
        return value instanceof Number;
    }

    /** Returns a short, JSON-like rendering of a value for error messages. */
    public static String describe(Object value) {
        if (value instanceof String s) {
            return '"' + s + '"';
        }
        return String.valueOf(value);
    }
}
