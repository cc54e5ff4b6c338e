package org.tunekit.sdk;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code classArgs} of an experiment config entry, with typed accessors whose errors name the
 * argument. Keys are NNI's ({@code optimize_mode}, {@code seed}, ...). Immutable.
 */
public final class ClassArguments {
    private static final ClassArguments EMPTY = new ClassArguments(Map.of(), "");

    private final Map<String, Object> values;
    private final String prefix;

    private ClassArguments(Map<String, Object> values, String prefix) {
        this.values = values;
        this.prefix = prefix;
    }

    /** Class arguments from a JSON-like map (a {@code null} map means none). */
    @SuppressWarnings("unchecked")
    public static ClassArguments of(Map<String, ?> values) {
        if (values == null || values.isEmpty()) {
            return EMPTY;
        }
        return new ClassArguments((Map<String, Object>) JsonValues.immutableCopy(values), "");
    }

    /** No class arguments. */
    public static ClassArguments empty() {
        return EMPTY;
    }

    /** Every argument, as given. */
    public Map<String, Object> asMap() {
        return values;
    }

    /** True when the argument is present and not {@code null}. */
    public boolean has(String name) {
        return values.get(name) != null;
    }

    /** The raw value, or {@code null}. */
    public Object get(String name) {
        return values.get(name);
    }

    /**
     * Fails, naming them, when arguments other than {@code known} are present: a misspelt argument
     * is an error, not a silently ignored setting.
     */
    public ClassArguments requireOnly(String... known) {
        Set<String> allowed = new LinkedHashSet<>(Arrays.asList(known));
        List<String> unknown = new ArrayList<>();
        for (String k : values.keySet()) {
            if (!allowed.contains(k)) {
                String closest = closest(k, allowed);
                unknown.add("'" + prefix + k + "'" + (closest == null ? "" : " (did you mean '" + prefix + closest + "'?)"));
            }
        }
        if (!unknown.isEmpty()) {
            throw new InvalidClassArgumentException((unknown.size() == 1 ? "unknown class argument " : "unknown class arguments ")
                    + String.join(", ", unknown) + "; known: " + new TreeSet<>(allowed));
        }
        return this;
    }

    /** The known name {@code name} is most likely a misspelling of, or null when none is close. */
    static String closest(String name, Set<String> known) {
        String n = squash(name);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String k : known) {
            if (squash(k).equals(n)) {
                return k; // differs only in case, '_' or '-': optimizeMode, Optimize-Mode
            }
            int d = distance(name.toLowerCase(Locale.ROOT), k.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                bestDistance = d;
                best = k;
            }
        }
        return best != null && bestDistance <= Math.max(2, Math.min(name.length(), best.length()) / 3) && bestDistance < name.length()
                ? best : null;
    }

    private static String squash(String s) {
        return s.toLowerCase(Locale.ROOT).replace("_", "").replace("-", "");
    }

    /** Edit distance with adjacent transpositions (so {@code sede} is one step from {@code seed}). */
    private static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }

    /** A string argument. */
    public String getString(String name, String fallback) {
        Object v = values.get(name);
        if (v == null) {
            return fallback;
        }
        if (v instanceof String s) {
            return s;
        }
        throw wrongType(name, "a string", v);
    }

    /** A number argument (integers are accepted). */
    public double getDouble(String name, double fallback) {
        Object v = values.get(name);
        if (v == null) {
            return fallback;
        }
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        if (v instanceof String s) {
            try {
                return Double.parseDouble(s.trim());
            } catch (NumberFormatException e) {
                // fall through to the error
            }
        }
        throw wrongType(name, "a number", v);
    }

    /** A number argument that must lie in [{@code min}, {@code max}]. */
    public double getDouble(String name, double fallback, double min, double max) {
        double d = getDouble(name, fallback);
        if (!(d >= min && d <= max)) {
            throw new InvalidClassArgumentException("class argument '" + prefix + name + "' must be in [" + min + ", " + max + "], got " + d);
        }
        return d;
    }

    /** An integer argument. */
    public long getLong(String name, long fallback) {
        OptionalLong v = getOptionalLong(name);
        return v.isPresent() ? v.getAsLong() : fallback;
    }

    /** An integer argument that must be at least {@code min}. */
    public int getInt(String name, int fallback, int min) {
        long v = getLong(name, fallback);
        if (v < min || v > Integer.MAX_VALUE) {
            throw new InvalidClassArgumentException("class argument '" + prefix + name + "' must be an integer >= " + min + ", got " + v);
        }
        return (int) v;
    }

    /** An integer argument, or empty when absent. */
    public OptionalLong getOptionalLong(String name) {
        Object v = values.get(name);
        if (v == null) {
            return OptionalLong.empty();
        }
        if (v instanceof Long l) {
            return OptionalLong.of(l);
        }
        if (v instanceof Double d && d == Math.rint(d) && Math.abs(d) < 9.0e15) {
            return OptionalLong.of(d.longValue());
        }
        if (v instanceof String s) {
            try {
                return OptionalLong.of(Long.parseLong(s.trim()));
            } catch (NumberFormatException e) {
                // fall through to the error
            }
        }
        throw wrongType(name, "an integer", v);
    }

    /** A boolean argument ({@code true}/{@code false}, or the strings {@code "true"}/{@code "false"}). */
    public boolean getBoolean(String name, boolean fallback) {
        Object v = values.get(name);
        if (v == null) {
            return fallback;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        if (v instanceof String s && (s.equalsIgnoreCase("true") || s.equalsIgnoreCase("false"))) {
            return Boolean.parseBoolean(s);
        }
        throw wrongType(name, "true or false", v);
    }

    /** An argument that must be one of {@code choices} (compared without case); returns it in lower case. */
    public String getChoice(String name, String fallback, String... choices) {
        String v = getString(name, fallback);
        if (v == null) {
            return null;
        }
        for (String c : choices) {
            if (c.equalsIgnoreCase(v)) {
                return c.toLowerCase(Locale.ROOT);
            }
        }
        throw new InvalidClassArgumentException("class argument '" + prefix + name + "' must be one of "
                + Arrays.toString(choices) + ", got \"" + v + "\"");
    }

    /** A nested object argument (such as TPE's {@code tpe_args}); empty when absent. */
    public ClassArguments getNested(String name) {
        Object v = values.get(name);
        if (v == null) {
            return new ClassArguments(Map.of(), prefix + name + ".");
        }
        if (v instanceof Map<?, ?> m) {
            @SuppressWarnings("unchecked")
            Map<String, Object> map = (Map<String, Object>) m;
            return new ClassArguments(map, prefix + name + ".");
        }
        throw wrongType(name, "an object", v);
    }

    private InvalidClassArgumentException wrongType(String name, String expected, Object got) {
        return new InvalidClassArgumentException("class argument '" + prefix + name + "' must be " + expected
                + ", got " + JsonValues.describe(got));
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
