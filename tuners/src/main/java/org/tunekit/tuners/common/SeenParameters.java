package org.tunekit.tuners.common;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.tunekit.sdk.Parameters;

/**
 * The set of parameter sets a tuner has already suggested or imported, compared by value: key
 * order does not matter, and numbers are compared by value ({@code 3} and {@code 3.0} are the same
 * point, as are {@code 0.0} and {@code -0.0}). Not thread-safe (tuners are called from one thread).
 */
public final class SeenParameters {
    private final LinkedHashSet<String> keys = new LinkedHashSet<>();

    /** An empty set. */
    public SeenParameters() {}

    /** The canonical text of a parameter set: equal for parameter sets that are the same point. */
    public static String keyOf(Parameters parameters) {
        StringBuilder sb = new StringBuilder();
        append(sb, parameters.values());
        return sb.toString();
    }

    /** Adds a point; returns true when it was not there before. */
    public boolean add(Parameters parameters) {
        return keys.add(keyOf(parameters));
    }

    /** True when the point is in the set. */
    public boolean contains(Parameters parameters) {
        return keys.contains(keyOf(parameters));
    }

    /** How many distinct points the set holds. */
    public int size() {
        return keys.size();
    }

    /** Forgets every point. */
    public void clear() {
        keys.clear();
    }

    /** Writes the set (in insertion order) for a checkpoint. */
    public void writeTo(DataOutputStream out) throws IOException {
        out.writeInt(keys.size());
        for (String k : keys) {
            byte[] b = k.getBytes(StandardCharsets.UTF_8);
            out.writeInt(b.length);
            out.write(b);
        }
    }

    /** Replaces the set with one written by {@link #writeTo}. */
    public void readFrom(DataInputStream in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            throw new IOException("corrupt checkpoint: negative count of seen parameter sets " + n);
        }
        List<String> read = new ArrayList<>(Math.min(n, 1 << 16));
        for (int i = 0; i < n; i++) {
            int len = in.readInt();
            if (len < 0) {
                throw new IOException("corrupt checkpoint: negative key length " + len + " at entry " + i);
            }
            read.add(new String(in.readNBytes(len), StandardCharsets.UTF_8));
        }
        keys.clear();
        keys.addAll(read);
    }

    private static void append(StringBuilder sb, Object v) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof Number n) {
            appendNumber(sb, n);
        } else if (v instanceof String s) {
            appendString(sb, s);
        } else if (v instanceof Boolean b) {
            sb.append(b.booleanValue());
        } else if (v instanceof Map<?, ?> m) {
            TreeMap<String, Object> sorted = new TreeMap<>();
            m.forEach((k, x) -> sorted.put(String.valueOf(k), x));
            sb.append('{');
            boolean first = true;
            for (Map.Entry<String, Object> e : sorted.entrySet()) {
                if (!first) {
                    sb.append(',');
                }
                first = false;
                appendString(sb, e.getKey());
                sb.append(':');
                append(sb, e.getValue());
            }
            sb.append('}');
        } else if (v instanceof List<?> l) {
            sb.append('[');
            for (int i = 0; i < l.size(); i++) {
                if (i > 0) {
                    sb.append(',');
                }
                append(sb, l.get(i));
            }
            sb.append(']');
        } else {
            appendString(sb, v.toString());
        }
    }

    private static void appendNumber(StringBuilder sb, Number n) {
        if (n instanceof Long || n instanceof Integer || n instanceof Short || n instanceof Byte) {
            sb.append(n.longValue());
            return;
        }
        double d = n.doubleValue();
        if (d == Math.rint(d) && Math.abs(d) < 0x1p53) {
            sb.append((long) d); // integral doubles equal the integer; -0.0 becomes 0
        } else {
            sb.append(d);
        }
    }

    private static void appendString(StringBuilder sb, String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                sb.append('\\');
            }
            sb.append(c);
        }
        sb.append('"');
    }
}
