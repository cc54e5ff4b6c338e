package org.tunekit.tuners.pbt;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A compact JSON text for the values of a parameter set, for the tuner's checkpoint: it reads back
 * exactly what was written. Integers ({@code Long}) are written as plain digits and doubles with
 * {@link Double#toString(double)}, which always holds a {@code .}, an exponent, {@code NaN} or
 * {@code Infinity}, so the two stay apart ({@code 3} and {@code 3.0} are different values of a
 * parameter set). No spaces are written.
 */
final class ValueText {
    private final String text;
    private int pos;

    private ValueText(String text) {
        this.text = text;
    }

    /** Writes a JSON-like value ({@code null}, Boolean, Long, Double, String, List, Map). */
    static String write(Object value) {
        StringBuilder sb = new StringBuilder();
        append(sb, value);
        return sb.toString();
    }

    /**
     * Reads a value written by {@link #write}.
     *
     * @throws IllegalArgumentException naming the position of what cannot be read
     */
    static Object read(String text) {
        ValueText r = new ValueText(text);
        Object v = r.value();
        if (r.pos != text.length()) {
            throw r.error("unexpected text after the value");
        }
        return v;
    }

    private static void append(StringBuilder sb, Object v) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof Boolean b) {
            sb.append(b.booleanValue());
        } else if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            sb.append(((Number) v).longValue());
        } else if (v instanceof Number n) {
            sb.append(Double.toString(n.doubleValue()));
        } else if (v instanceof String s) {
            appendString(sb, s);
        } else if (v instanceof List<?> l) {
            sb.append('[');
            for (int i = 0; i < l.size(); i++) {
                if (i > 0) {
                    sb.append(',');
                }
                append(sb, l.get(i));
            }
            sb.append(']');
        } else if (v instanceof Map<?, ?> m) {
            sb.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                appendString(sb, String.valueOf(e.getKey()));
                sb.append(':');
                append(sb, e.getValue());
            }
            sb.append('}');
        } else {
            throw new IllegalArgumentException("not a JSON value: " + v.getClass().getName());
        }
    }

    private static void appendString(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }

    private Object value() {
        if (pos >= text.length()) {
            throw error("a value was expected");
        }
        char c = text.charAt(pos);
        if (c == '"') {
            return string();
        }
        if (c == '[') {
            pos++;
            List<Object> list = new ArrayList<>();
            if (peek(']')) {
                pos++;
                return Collections.unmodifiableList(list);
            }
            while (true) {
                list.add(value());
                if (peek(',')) {
                    pos++;
                } else {
                    expect(']');
                    return Collections.unmodifiableList(list);
                }
            }
        }
        if (c == '{') {
            pos++;
            Map<String, Object> map = new LinkedHashMap<>();
            if (peek('}')) {
                pos++;
                return Collections.unmodifiableMap(map);
            }
            while (true) {
                if (!peek('"')) {
                    throw error("an object key (a string) was expected");
                }
                String key = string();
                expect(':');
                map.put(key, value());
                if (peek(',')) {
                    pos++;
                } else {
                    expect('}');
                    return Collections.unmodifiableMap(map);
                }
            }
        }
        if (text.startsWith("null", pos)) {
            pos += 4;
            return null;
        }
        if (text.startsWith("true", pos)) {
            pos += 4;
            return Boolean.TRUE;
        }
        if (text.startsWith("false", pos)) {
            pos += 5;
            return Boolean.FALSE;
        }
        return number();
    }

    private Object number() {
        int start = pos;
        while (pos < text.length() && "+-0123456789.eEINaInfinity".indexOf(text.charAt(pos)) >= 0) {
            pos++;
        }
        String token = text.substring(start, pos);
        if (token.isEmpty()) {
            throw error("a value was expected");
        }
        try {
            boolean isDouble = token.chars().anyMatch(ch -> ch == '.' || ch == 'e' || ch == 'E' || ch == 'N' || ch == 'I');
            return isDouble ? (Object) Double.parseDouble(token) : (Object) Long.parseLong(token);
        } catch (NumberFormatException e) {
            pos = start;
            throw error("\"" + token + "\" is not a number");
        }
    }

    private String string() {
        expect('"');
        StringBuilder sb = new StringBuilder();
        while (true) {
            if (pos >= text.length()) {
                throw error("unterminated string");
            }
            char c = text.charAt(pos++);
            if (c == '"') {
                return sb.toString();
            }
            if (c != '\\') {
                sb.append(c);
                continue;
            }
            if (pos >= text.length()) {
                throw error("unterminated escape");
            }
            char e = text.charAt(pos++);
            switch (e) {
                case '"', '\\', '/' -> sb.append(e);
                case 'n' -> sb.append('\n');
                case 'r' -> sb.append('\r');
                case 't' -> sb.append('\t');
                case 'u' -> {
                    if (pos + 4 > text.length()) {
                        throw error("short \\u escape");
                    }
                    sb.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                    pos += 4;
                }
                default -> throw error("unknown escape \\" + e);
            }
        }
    }

    private boolean peek(char c) {
        return pos < text.length() && text.charAt(pos) == c;
    }

    private void expect(char c) {
        if (!peek(c)) {
            throw error("'" + c + "' was expected");
        }
        pos++;
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException(what + " at character " + pos + " of " + text);
    }
}
