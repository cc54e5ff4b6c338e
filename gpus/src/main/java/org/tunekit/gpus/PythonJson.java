package org.tunekit.gpus;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * Writes JSON as Python's {@code json.dumps} does with its defaults: {@code ", "} between items,
 * {@code ": "} after keys, characters outside printable ASCII as six-character Unicode escapes. Values are {@link Map}s (in their
 * iteration order), {@link List}s, {@link String}s, {@link Long}/{@link Integer}s, {@link Boolean}s
 * and {@link Fraction}s.
 */
final class PythonJson {
    /** A percentage {@code percent / 100} written as Python writes that float ({@code 0.35}, {@code 0.0}, {@code 1.0}). */
    record Fraction(int percent) {
    }

    private PythonJson() {
    }

    static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private static void write(Object value, StringBuilder out) {
        if (value instanceof Map<?, ?> map) {
            out.append('{');
            String separator = "";
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                out.append(separator);
                string((String) entry.getKey(), out);
                out.append(": ");
                write(entry.getValue(), out);
                separator = ", ";
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            String separator = "";
            for (Object item : list) {
                out.append(separator);
                write(item, out);
                separator = ", ";
            }
            out.append(']');
        } else if (value instanceof String text) {
            string(text, out);
        } else if (value instanceof Long || value instanceof Integer) {
            out.append(value);
        } else if (value instanceof Boolean flag) {
            out.append(flag ? "true" : "false");
        } else if (value instanceof Fraction fraction) {
            // k / 100 as a double is the double nearest the decimal k/100, and Python's repr is the shortest
            // decimal that reads back as that double: the decimal itself, with at least one digit after the point.
            BigDecimal decimal = BigDecimal.valueOf(fraction.percent()).movePointLeft(2).stripTrailingZeros();
            out.append(decimal.scale() <= 0 ? decimal.setScale(1).toPlainString() : decimal.toPlainString());
        } else {
            throw new IllegalArgumentException("no JSON form for " + (value == null ? "null" : value.getClass().getName()));
        }
    }

    private static void string(String text, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20 || c > 0x7e) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
