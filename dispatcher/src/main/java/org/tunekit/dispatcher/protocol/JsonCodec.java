package org.tunekit.dispatcher.protocol;

import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import com.google.gson.stream.JsonToken;
import com.google.gson.stream.MalformedJsonException;
import java.io.IOException;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON text to plain Java values and back: objects become {@code LinkedHashMap}s (key order kept),
 * arrays {@code ArrayList}s, integers {@code Long}, other numbers {@code Double}. Parsing is strict
 * (Gson's strict reader, nothing after the value). Writing follows Python's {@code json.dumps}
 * defaults ({@code ", "} and {@code ": "} separators, non-ASCII as {@code \\uXXXX}), as NNI does, and
 * refuses NaN and infinities, which the manager cannot read.
 */
public final class JsonCodec {
    private JsonCodec() {}

    /**
     * Parses JSON text.
     *
     * @param what names the text in errors, such as {@code "ME payload"}
     * @throws ProtocolException saying where the text is malformed
     */
    public static Object parse(String text, String what) throws ProtocolException {
        // Gson's reader reports an empty document as an end of input in the middle of a value
        if (text.isBlank()) {
            throw new ProtocolException("invalid JSON in " + what + ": it is empty");
        }
        JsonReader reader = new JsonReader(new StringReader(text));
        reader.setStrictness(Strictness.STRICT);
        try {
            Object value = read(reader);
            if (reader.peek() != JsonToken.END_DOCUMENT) {
                throw new ProtocolException("invalid JSON in " + what + ": unexpected text after the value at " + location(reader));
            }
            return value;
        } catch (MalformedJsonException | IllegalStateException | NumberFormatException e) {
            throw new ProtocolException("invalid JSON in " + what + ": " + cleanMessage(e.getMessage()), e);
        } catch (java.io.EOFException e) {
            throw new ProtocolException("invalid JSON in " + what + ": the text ends in the middle of a value", e);
        } catch (ProtocolException e) {
            throw e;
        } catch (IOException e) {
            throw new ProtocolException("invalid JSON in " + what + ": " + cleanMessage(e.getMessage()), e);
        }
    }

    private static String location(JsonReader reader) {
        String s = reader.toString();
        int i = s.indexOf(" at ");
        return i >= 0 ? s.substring(i + 4) : s;
    }

    private static final String GSON_LENIENCY_HINT = "Use JsonReader.setStrictness(Strictness.LENIENT) to accept malformed JSON";

    /** The parser's message without its advice to the programmer, which means nothing to a manager. */
    private static String cleanMessage(String m) {
        if (m == null) {
            return "malformed";
        }
        int i = m.indexOf("\nSee https://");
        String s = i >= 0 ? m.substring(0, i) : m;
        int path = s.indexOf(" path $");
        if (path >= 0 && s.length() - path > 60) {
            // a deep document's path would repeat every level: the line and column say where
            s = s.substring(0, path);
        }
        return s.startsWith(GSON_LENIENCY_HINT) ? "not a JSON value" + s.substring(GSON_LENIENCY_HINT.length()) : s;
    }

    private static Object read(JsonReader r) throws IOException {
        switch (r.peek()) {
            case BEGIN_OBJECT: {
                Map<String, Object> m = new LinkedHashMap<>();
                r.beginObject();
                while (r.hasNext()) {
                    String k = r.nextName();
                    m.put(k, read(r));
                }
                r.endObject();
                return m;
            }
            case BEGIN_ARRAY: {
                List<Object> l = new ArrayList<>();
                r.beginArray();
                while (r.hasNext()) {
                    l.add(read(r));
                }
                r.endArray();
                return l;
            }
            case STRING:
                return r.nextString();
            case NUMBER:
                return number(r.nextString());
            case BOOLEAN:
                return r.nextBoolean();
            case NULL:
                r.nextNull();
                return null;
            default:
                throw new MalformedJsonException("unexpected " + r.peek() + " at " + location(r));
        }
    }

    /** A JSON number's text as a {@code Long} (integers that fit) or a {@code Double}. */
    static Object number(String s) {
        boolean integral = true;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '.' || c == 'e' || c == 'E') {
                integral = false;
                break;
            }
        }
        if (integral) {
            if (s.length() < 19) {
                return Long.parseLong(s);
            }
            BigInteger b = new BigInteger(s);
            return b.bitLength() < 64 ? (Object) b.longValue() : (Object) b.doubleValue();
        }
        double d = Double.parseDouble(s);
        if (Double.isInfinite(d)) {
            return new BigDecimal(s).doubleValue();
        }
        return d;
    }

    /** Writes a plain Java value as JSON text. */
    public static String write(Object value) {
        StringBuilder sb = new StringBuilder(64);
        write(value, sb);
        return sb.toString();
    }

    /** Appends a plain Java value as JSON text. */
    public static void write(Object value, StringBuilder sb) {
        if (value == null) {
            sb.append("null");
        } else if (value instanceof String s) {
            writeString(s, sb);
        } else if (value instanceof Boolean b) {
            sb.append(b ? "true" : "false");
        } else if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            sb.append(((Number) value).longValue());
        } else if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                throw new IllegalArgumentException("cannot write " + d + " as JSON: the manager cannot read NaN or infinities");
            }
            sb.append(d);
        } else if (value instanceof Number n) {
            sb.append(n.toString());
        } else if (value instanceof Map<?, ?> m) {
            sb.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                if (!first) {
                    sb.append(", ");
                }
                first = false;
                writeString(String.valueOf(e.getKey()), sb);
                sb.append(": ");
                write(e.getValue(), sb);
            }
            sb.append('}');
        } else if (value instanceof List<?> l) {
            sb.append('[');
            for (int i = 0; i < l.size(); i++) {
                if (i > 0) {
                    sb.append(", ");
                }
                write(l.get(i), sb);
            }
            sb.append(']');
        } else {
            throw new IllegalArgumentException("cannot write a " + value.getClass().getName() + " as JSON");
        }
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /** Appends a JSON string literal, escaping as Python's {@code json.dumps} does by default. */
    public static void writeString(String s, StringBuilder sb) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                case '\b' -> sb.append("\\b");
                case '\f' -> sb.append("\\f");
                default -> {
                    if (c < 0x20 || c > 0x7e) {
                        sb.append("\\u").append(HEX[(c >> 12) & 0xf]).append(HEX[(c >> 8) & 0xf])
                                .append(HEX[(c >> 4) & 0xf]).append(HEX[c & 0xf]);
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}
