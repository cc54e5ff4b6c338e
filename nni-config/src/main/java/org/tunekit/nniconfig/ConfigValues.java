package org.tunekit.nniconfig;

import java.math.BigInteger;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Small functions of a config's values and paths that the reading, checking and writing share. */
final class ConfigValues {
    private ConfigValues() {
    }

    /** NNI's {@code parse_time}: an integer is seconds; a string is a number and a unit among d, h, m, s. */
    static double parseTime(Object v) {
        if (!(v instanceof String text)) {
            return ((Number) v).doubleValue();
        }
        String s = text.toLowerCase(Locale.ROOT);
        for (Map.Entry<String, Long> unit : List.of(Map.entry("d", 86400L), Map.entry("h", 3600L), Map.entry("m", 60L), Map.entry("s", 1L))) {
            if (s.endsWith(unit.getKey())) {
                String number = s.substring(0, s.length() - 1).strip();
                try {
                    return Math.ceil(Double.parseDouble(number) * unit.getValue());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("'" + text + "' is not a duration such as 30s, 10m, 1h, 2d");
                }
            }
        }
        throw new IllegalArgumentException("bad unit in '" + text + "': write a number and a unit among d, h, m, s (such as 1h)");
    }

    /** Whether {@code v} is an integer as YAML reads one (any size). */
    static boolean isInteger(Object v) {
        return v instanceof Integer || v instanceof Long || v instanceof BigInteger || v instanceof Short || v instanceof Byte;
    }

    /** The value of {@code key} in {@code m} in any spelling NNI accepts for it, or {@code null}. */
    static Object valueOf(Map<?, ?> m, String key) {
        for (Map.Entry<?, ?> e : m.entrySet()) {
            if (e.getKey() instanceof String k && ConfigSchema.normalize(k).equals(ConfigSchema.normalize(key))) {
                return e.getValue();
            }
        }
        return null;
    }

    /** {@code path.key}, or {@code key} at the top level. */
    static String join(String path, String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    /** A value as a message names it, with its YAML type. */
    static String describe(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof String s) {
            return "'" + s + "' (a string)";
        }
        if (v instanceof Boolean) {
            return v + " (a boolean)";
        }
        if (v instanceof Double) {
            return v + " (a number with a fraction)";
        }
        if (v instanceof Number) {
            return v + " (an integer)";
        }
        if (v instanceof Map) {
            return "a mapping";
        }
        if (v instanceof List) {
            return "a list";
        }
        return v.toString();
    }
}
