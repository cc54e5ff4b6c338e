package org.tunekit.tuners.common;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a JSON-like value (what {@link org.tunekit.sdk.Parameters} holds) as one token without
 * whitespace, and reads it back exactly, so that checkpoint lines can carry parameter sets: doubles
 * keep their bits, longs stay longs, strings are URL-encoded. Grammar: {@code n}, {@code t},
 * {@code f}, {@code l<decimal>;}, {@code d<hex bits>;}, {@code s<url-encoded>;}, {@code [items]},
 * <code>{key value ...}</code> with string keys.
 */
public final class ValueText {
    private ValueText() {}

    /** The value as one whitespace-free token. */
    public static String write(Object value) {
        StringBuilder sb = new StringBuilder();
        write(value, sb);
        return sb.toString();
    }

    private static void write(Object v, StringBuilder sb) {
        if (v == null) {
            sb.append('n');
        } else if (v instanceof Boolean b) {
            sb.append(b ? 't' : 'f');
        } else if (v instanceof Long l) {
            sb.append('l').append(l).append(';');
        } else if (v instanceof Double d) {
            sb.append('d').append(Long.toHexString(Double.doubleToRawLongBits(d))).append(';');
        } else if (v instanceof String s) {
            sb.append('s').append(URLEncoder.encode(s, StandardCharsets.UTF_8)).append(';');
        } else if (v instanceof List<?> list) {
            sb.append('[');
            list.forEach(o -> write(o, sb));
            sb.append(']');
        } else if (v instanceof Map<?, ?> map) {
            sb.append('{');
            map.forEach((k, o) -> {
                write(k, sb);
                write(o, sb);
            });
            sb.append('}');
        } else {
            throw new IllegalArgumentException("not a JSON-like value: " + v.getClass().getName());
        }
    }

    /**
     * Reads a token written by {@link #write}.
     *
     * @throws IllegalArgumentException naming the position of a malformed token
     */
    public static Object read(String text) {
        int[] pos = {0};
        Object v = read(text, pos);
        if (pos[0] != text.length()) {
            throw new IllegalArgumentException("unexpected character at " + pos[0] + " of \"" + text + "\"");
        }
        return v;
    }

    private static Object read(String t, int[] pos) {
        if (pos[0] >= t.length()) {
            throw new IllegalArgumentException("value ends early in \"" + t + "\"");
        }
        char c = t.charAt(pos[0]++);
        switch (c) {
            case 'n':
                return null;
            case 't':
                return Boolean.TRUE;
            case 'f':
                return Boolean.FALSE;
            case 'l':
                return Long.parseLong(until(t, pos));
            case 'd':
                return Double.longBitsToDouble(Long.parseUnsignedLong(until(t, pos), 16));
            case 's':
                return URLDecoder.decode(until(t, pos), StandardCharsets.UTF_8);
            case '[': {
                List<Object> list = new ArrayList<>();
                while (peek(t, pos) != ']') {
                    list.add(read(t, pos));
                }
                pos[0]++;
                return list;
            }
            case '{': {
                Map<String, Object> map = new LinkedHashMap<>();
                while (peek(t, pos) != '}') {
                    Object key = read(t, pos);
                    if (!(key instanceof String k)) {
                        throw new IllegalArgumentException("object key is not a string at " + pos[0] + " of \"" + t + "\"");
                    }
                    map.put(k, read(t, pos));
                }
                pos[0]++;
                return map;
            }
            default:
                throw new IllegalArgumentException("unexpected '" + c + "' at " + (pos[0] - 1) + " of \"" + t + "\"");
        }
    }

    private static char peek(String t, int[] pos) {
        if (pos[0] >= t.length()) {
            throw new IllegalArgumentException("unclosed list or object in \"" + t + "\"");
        }
        return t.charAt(pos[0]);
    }

    private static String until(String t, int[] pos) {
        int end = t.indexOf(';', pos[0]);
        if (end < 0) {
            throw new IllegalArgumentException("missing ';' after position " + pos[0] + " of \"" + t + "\"");
        }
        String s = t.substring(pos[0], end);
        pos[0] = end + 1;
        return s;
    }
}
