package org.tunekit.sdk;

import java.util.Map;

/**
 * A trial's metric: the number a tuner optimises, and the value as the trial reported it (a number,
 * or an object whose {@code "default"} key holds the number, other keys being extra metrics).
 *
 * @param value    the number to optimise
 * @param reported the metric as reported: a {@code Long}, {@code Double}, {@code String} or {@code Map}
 */
public record Metric(double value, Object reported) {
    private static final java.util.regex.Pattern DECIMAL =
            java.util.regex.Pattern.compile("[+-]?(NaN|Infinity|(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?)");

    /** Checks and copies the reported value. */
    public Metric {
        reported = JsonValues.immutableCopy(reported);
    }

    /** A metric that is just a number. */
    public static Metric of(double value) {
        return new Metric(value, value);
    }

    /**
     * Reads a metric as a trial reported it: a number, a numeric string, or an object whose
     * {@code "default"} key holds one of those.
     *
     * @throws IllegalArgumentException naming what is wrong when no number can be found
     */
    public static Metric fromReported(Object reported) {
        return new Metric(scalarOf(reported), reported);
    }

    /** The extra metrics of an object metric (every key but {@code "default"}); empty for a number. */
    public Map<String, Object> extras() {
        if (reported instanceof Map<?, ?> m) {
            java.util.LinkedHashMap<String, Object> copy = new java.util.LinkedHashMap<>();
            m.forEach((k, v) -> {
                if (!"default".equals(k)) {
                    copy.put((String) k, v);
                }
            });
            return java.util.Collections.unmodifiableMap(copy);
        }
        return Map.of();
    }

    private static double scalarOf(Object reported) {
        if (reported instanceof Number n) {
            return n.doubleValue();
        }
        if (reported instanceof String s) {
            // decimal text only: Double.parseDouble alone would also take Java's "1.5f", "2d" and hex floats
            String t = s.trim();
            if (!DECIMAL.matcher(t).matches()) {
                throw new IllegalArgumentException("metric is a string that is not a number: " + JsonValues.describe(s));
            }
            return Double.parseDouble(t);
        }
        if (reported instanceof Map<?, ?> m) {
            if (!m.containsKey("default")) {
                throw new IllegalArgumentException("metric object has no \"default\" key: " + m);
            }
            Object d = m.get("default");
            if (d instanceof Map) {
                throw new IllegalArgumentException("metric \"default\" must be a number, got an object: " + d);
            }
            return scalarOf(d);
        }
        throw new IllegalArgumentException("metric must be a number or an object with a \"default\" number, got "
                + JsonValues.describe(reported));
    }
}
