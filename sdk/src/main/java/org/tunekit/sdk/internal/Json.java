package org.tunekit.sdk.internal;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict JSON reader and writer for the trial channels and the study library, on plain Java values: {@code null},
 * {@code Boolean}, {@code Long}, {@code Double}, {@code String}, {@code List} and {@code Map} with
 * {@code String} keys.
 *
 * <p>Reading follows RFC 8259 with one extension, the one Python's {@code json} module has: the
 * tokens {@code NaN}, {@code Infinity} and {@code -Infinity} are numbers. An integer (no fraction, no
 * exponent) becomes a {@code Long}, or a {@code Double} when it does not fit; every other number
 * becomes a {@code Double}. Objects keep their key order; a repeated key keeps its last value, as
 * Python and JavaScript do. Errors are {@link IllegalArgumentException}s naming the character
 * position (from 0) and what was expected there.
 *
 * <p>Writing is compact (no spaces), writes non-finite doubles as {@code NaN}, {@code Infinity} and
 * {@code -Infinity} as Python's {@code json} does, and leaves non-ASCII characters as they are
 * except unpaired surrogates, which are escaped so that no text is lost in UTF-8.
 */
public final class Json {
    /** How deeply arrays and objects may nest, read or written. */
    static final int MAX_DEPTH = 512;

    private Json() {}

    /**
     * Reads one JSON value that makes up the whole text (whitespace around it allowed).
     *
     * @throws IllegalArgumentException naming the position when the text is not JSON
     */
    public static Object parse(String text) {
        Reader reader = new Reader(text);
        reader.skipWhitespace();
        Object value = reader.readValue(0);
        reader.skipWhitespace();
        if (reader.pos < text.length()) {
            throw reader.error("expected the end of the text");
        }
        return value;
    }

    /**
     * Writes a value as compact JSON text.
     *
     * @throws IllegalArgumentException when the value holds something that is not a JSON value
     */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out, 0);
        return out.toString();
    }

    /** Writes a string as a quoted JSON string. */
    public static String quote(String s) {
        StringBuilder out = new StringBuilder(s.length() + 2);
        writeString(s, out);
        return out.toString();
    }

    private static void write(Object value, StringBuilder out, int depth) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String s) {
            writeString(s, out);
        } else if (value instanceof Boolean b) {
            out.append(b.booleanValue());
        } else if (value instanceof Double || value instanceof Float) {
            out.append(number(((Number) value).doubleValue()));
        } else if (value instanceof Long || value instanceof Integer || value instanceof Short
                || value instanceof Byte || value instanceof BigInteger) {
            out.append(value);
        } else if (value instanceof Map<?, ?> map) {
            checkDepth(depth);
            out.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (!(e.getKey() instanceof String key)) {
                    throw new IllegalArgumentException("a JSON object key must be a string, got "
                            + (e.getKey() == null ? "null" : e.getKey().getClass().getName()));
                }
                if (!first) {
                    out.append(',');
                }
                first = false;
                writeString(key, out);
                out.append(':');
                write(e.getValue(), out, depth + 1);
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            checkDepth(depth);
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                if (i > 0) {
                    out.append(',');
                }
                write(list.get(i), out, depth + 1);
            }
            out.append(']');
        } else {
            throw new IllegalArgumentException("cannot write a " + value.getClass().getName() + " as JSON");
        }
    }

    private static void checkDepth(int depth) {
        if (depth >= MAX_DEPTH) {
            throw new IllegalArgumentException("value nests more than " + MAX_DEPTH + " levels deep (a cycle?)");
        }
    }

    /** A double as a JSON number, or as Python's tokens for the non-finite ones. */
    public static String number(double d) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        if (Double.isInfinite(d)) {
            return d > 0 ? "Infinity" : "-Infinity";
        }
        return Double.toString(d);
    }

    private static void writeString(String s, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        appendEscape(c, out);
                    } else if (Character.isHighSurrogate(c) && i + 1 < s.length()
                            && Character.isLowSurrogate(s.charAt(i + 1))) {
                        out.append(c).append(s.charAt(++i));
                    } else if (Character.isSurrogate(c)) {
                        appendEscape(c, out);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    private static void appendEscape(char c, StringBuilder out) {
        out.append("\\u");
        String hex = Integer.toHexString(c);
        for (int k = hex.length(); k < 4; k++) {
            out.append('0');
        }
        out.append(hex);
    }

    private static final class Reader {
        private final String text;
        private int pos;

        Reader(String text) {
            this.text = text;
        }

        Object readValue(int depth) {
            if (pos >= text.length()) {
                throw error("expected a value");
            }
            char c = text.charAt(pos);
            switch (c) {
                case '{':
                    return readObject(depth);
                case '[':
                    return readArray(depth);
                case '"':
                    return readString();
                case 't':
                    expectWord("true");
                    return Boolean.TRUE;
                case 'f':
                    expectWord("false");
                    return Boolean.FALSE;
                case 'n':
                    expectWord("null");
                    return null;
                case 'N':
                    expectWord("NaN");
                    return Double.NaN;
                case 'I':
                    expectWord("Infinity");
                    return Double.POSITIVE_INFINITY;
                default:
                    if (c == '-' || (c >= '0' && c <= '9')) {
                        return readNumber();
                    }
                    throw error("expected a value");
            }
        }

        private Map<String, Object> readObject(int depth) {
            enter(depth);
            pos++;
            Map<String, Object> map = new LinkedHashMap<>();
            skipWhitespace();
            if (peek() == '}') {
                pos++;
                return map;
            }
            while (true) {
                skipWhitespace();
                if (peek() != '"') {
                    throw error("expected a string key");
                }
                String key = readString();
                skipWhitespace();
                expect(':');
                skipWhitespace();
                map.put(key, readValue(depth + 1));
                skipWhitespace();
                char c = peek();
                if (c == ',') {
                    pos++;
                } else if (c == '}') {
                    pos++;
                    return map;
                } else {
                    throw error("expected ',' or '}'");
                }
            }
        }

        private List<Object> readArray(int depth) {
            enter(depth);
            pos++;
            List<Object> list = new ArrayList<>();
            skipWhitespace();
            if (peek() == ']') {
                pos++;
                return list;
            }
            while (true) {
                skipWhitespace();
                list.add(readValue(depth + 1));
                skipWhitespace();
                char c = peek();
                if (c == ',') {
                    pos++;
                } else if (c == ']') {
                    pos++;
                    return list;
                } else {
                    throw error("expected ',' or ']'");
                }
            }
        }

        private void enter(int depth) {
            if (depth >= MAX_DEPTH) {
                throw error("nesting deeper than " + MAX_DEPTH + " levels");
            }
        }

        private String readString() {
            pos++;
            StringBuilder sb = null;
            int start = pos;
            while (true) {
                if (pos >= text.length()) {
                    throw error("expected the closing '\"' of the string that starts at position " + (start - 1));
                }
                char c = text.charAt(pos);
                if (c == '"') {
                    String s = sb == null ? text.substring(start, pos) : sb.append(text, start, pos).toString();
                    pos++;
                    return s;
                }
                if (c < 0x20) {
                    throw error("a control character must be escaped in a string");
                }
                if (c != '\\') {
                    pos++;
                    continue;
                }
                if (sb == null) {
                    sb = new StringBuilder();
                }
                sb.append(text, start, pos);
                pos++;
                if (pos >= text.length()) {
                    throw error("expected an escape after '\\'");
                }
                char e = text.charAt(pos);
                switch (e) {
                    case '"', '\\', '/' -> sb.append(e);
                    case 'b' -> sb.append('\b');
                    case 'f' -> sb.append('\f');
                    case 'n' -> sb.append('\n');
                    case 'r' -> sb.append('\r');
                    case 't' -> sb.append('\t');
                    case 'u' -> {
                        int code = 0;
                        for (int k = 1; k <= 4; k++) {
                            int digit = pos + k < text.length() ? Character.digit(text.charAt(pos + k), 16) : -1;
                            if (digit < 0) {
                                pos += k;
                                throw error("expected 4 hexadecimal digits after '\\u'");
                            }
                            code = code * 16 + digit;
                        }
                        sb.append((char) code);
                        pos += 4;
                    }
                    default -> throw error("expected one of \" \\ / b f n r t u after '\\'");
                }
                pos++;
                start = pos;
            }
        }

        private Object readNumber() {
            int start = pos;
            if (peek() == '-') {
                pos++;
                if (peek() == 'I') {
                    expectWord("Infinity");
                    return Double.NEGATIVE_INFINITY;
                }
            }
            if (peek() == '0') {
                pos++;
            } else if (isDigit(peek())) {
                skipDigits();
            } else {
                throw error("expected a digit");
            }
            boolean integral = true;
            if (peek() == '.') {
                integral = false;
                pos++;
                if (!isDigit(peek())) {
                    throw error("expected a digit after '.'");
                }
                skipDigits();
            }
            if (peek() == 'e' || peek() == 'E') {
                integral = false;
                pos++;
                if (peek() == '+' || peek() == '-') {
                    pos++;
                }
                if (!isDigit(peek())) {
                    throw error("expected a digit in the exponent");
                }
                skipDigits();
            }
            String literal = text.substring(start, pos);
            if (integral) {
                try {
                    return Long.parseLong(literal);
                } catch (NumberFormatException tooLarge) {
                    return Double.parseDouble(literal);
                }
            }
            return Double.parseDouble(literal);
        }

        private void skipDigits() {
            while (isDigit(peek())) {
                pos++;
            }
        }

        private static boolean isDigit(char c) {
            return c >= '0' && c <= '9';
        }

        private void expectWord(String word) {
            for (int k = 0; k < word.length(); k++) {
                if (peek() != word.charAt(k)) {
                    throw error("expected '" + word + "'");
                }
                pos++;
            }
        }

        private void expect(char c) {
            if (peek() != c) {
                throw error("expected '" + c + "'");
            }
            pos++;
        }

        /** The character at the position, or {@code 0xFFFF} at the end (never valid JSON there). */
        private char peek() {
            return pos < text.length() ? text.charAt(pos) : '\uFFFF';
        }

        void skipWhitespace() {
            while (pos < text.length()) {
                char c = text.charAt(pos);
                if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                    return;
                }
                pos++;
            }
        }

        IllegalArgumentException error(String expected) {
            String found;
            if (pos >= text.length()) {
                found = "the end of the text";
            } else {
                char c = text.charAt(pos);
                found = c < 0x20 || Character.isSurrogate(c) || c == 0x7F
                        ? String.format("U+%04X", (int) c)
                        : "'" + c + "'";
            }
            return new IllegalArgumentException("invalid JSON at position " + pos + ": " + expected + ", found " + found);
        }
    }
}
