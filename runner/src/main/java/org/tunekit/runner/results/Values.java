package org.tunekit.runner.results;

import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/** How the outputs show numbers, durations and parameter values, and what they derive from the results. */
final class Values {
    /** The key of a nested-choice value that holds the name of the option chosen. */
    static final String CHOICE_NAME = "_name";

    private static final MathContext SIGNIFICANT = new MathContext(6);

    private Values() {
    }

    /**
     * A number with at most 6 significant digits and no trailing zeros: plain from 1e-4 up to 1e6, in
     * scientific notation ({@code 1.5e-07}, {@code 2.34568e+09}) outside; {@code NaN}, {@code inf}, {@code -inf}.
     */
    static String number(double x) {
        if (Double.isNaN(x)) {
            return "NaN";
        }
        if (Double.isInfinite(x)) {
            return x > 0 ? "inf" : "-inf";
        }
        if (x == 0) {
            return "0";
        }
        BigDecimal rounded = new BigDecimal(x).round(SIGNIFICANT);
        int exponent = rounded.precision() - rounded.scale() - 1;
        if (exponent >= -4 && exponent < 6) {
            return rounded.stripTrailingZeros().toPlainString();
        }
        String mantissa = rounded.movePointLeft(exponent).stripTrailingZeros().toPlainString();
        return String.format(Locale.ROOT, "%se%s%02d", mantissa, exponent < 0 ? "-" : "+", Math.abs(exponent));
    }

    /** A number as {@link #number(double)} shows it, whole numbers of integral types exactly; {@code null} as empty. */
    static String value(Number n) {
        if (n == null) {
            return "";
        }
        if (n instanceof Long || n instanceof Integer || n instanceof Short || n instanceof Byte) {
            return n.toString();
        }
        return number(n.doubleValue());
    }

    /** A duration for a person: {@code 12.3s}, {@code 4m05s}, {@code 2h03m}, {@code 3d04h}; negative as zero. */
    static String duration(Duration d) {
        long millis = Math.max(0, d.toMillis());
        if (millis < 60_000) {
            return String.format(Locale.ROOT, "%.1fs", millis / 1000.0);
        }
        long seconds = millis / 1000;
        if (seconds < 3600) {
            return String.format(Locale.ROOT, "%dm%02ds", seconds / 60, seconds % 60);
        }
        if (seconds < 86_400) {
            return String.format(Locale.ROOT, "%dh%02dm", seconds / 3600, seconds % 3600 / 60);
        }
        return String.format(Locale.ROOT, "%dd%02dh", seconds / 86_400, seconds % 86_400 / 3600);
    }

    /** How long a trial ran, if it has started and ended. */
    static Optional<Duration> duration(TrialRecord t) {
        return t.started() == null || t.ended() == null ? Optional.empty()
                : Optional.of(Duration.between(t.started(), t.ended()));
    }

    /**
     * How long the experiment has run: to its end; to now while it is running; after a crash (no end, not
     * running) to the last start or end of a trial, the last moment known; empty when nothing says.
     */
    static Optional<Duration> elapsed(ExperimentResults r, Clock clock) {
        if (r.started() == null) {
            return Optional.empty();
        }
        Instant end = r.ended();
        if (end == null && "RUNNING".equalsIgnoreCase(r.status())) {
            end = clock.instant();
        }
        if (end == null) {
            end = r.trials().stream().flatMap(t -> Stream.of(t.started(), t.ended()))
                    .filter(Objects::nonNull).max(Comparator.naturalOrder()).orElse(null);
        }
        return end == null ? Optional.empty() : Optional.of(Duration.between(r.started(), end));
    }

    /** A trial status for a sentence: {@code early stopped}. */
    static String statusWords(TrialStatus s) {
        return s.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }

    /** The order statuses are counted in: how trials ended, the usual first, then those still running. */
    static final List<TrialStatus> COUNT_ORDER = List.of(TrialStatus.SUCCEEDED, TrialStatus.EARLY_STOPPED,
            TrialStatus.FAILED, TrialStatus.USER_CANCELED, TrialStatus.LOST, TrialStatus.RUNNING);

    /** How many trials are in each status, in {@link #COUNT_ORDER}, statuses with none left out. */
    static Map<TrialStatus, Integer> counts(ExperimentResults r) {
        Map<TrialStatus, Integer> counts = new LinkedHashMap<>();
        for (TrialStatus s : COUNT_ORDER) {
            int n = (int) r.trials().stream().filter(t -> t.status() == s).count();
            if (n > 0) {
                counts.put(s, n);
            }
        }
        return counts;
    }

    /** {@code 60 trials: 41 succeeded, 15 early stopped, 4 failed}, or {@code no trials}. */
    static String countsSentence(ExperimentResults r) {
        int n = r.trials().size();
        if (n == 0) {
            return "no trials";
        }
        StringBuilder sb = new StringBuilder().append(n).append(n == 1 ? " trial: " : " trials: ");
        String sep = "";
        for (Map.Entry<TrialStatus, Integer> e : counts(r).entrySet()) {
            sb.append(sep).append(e.getValue()).append(' ').append(statusWords(e.getKey()));
            sep = ", ";
        }
        return sb.toString();
    }

    /** True when the trial has a final value that is a number (not NaN). */
    static boolean hasFinalValue(TrialRecord t) {
        return t.finalValue() != null && !t.finalValue().isNaN();
    }

    /** True when the trial is ranked: it has a final value and is in a {@linkplain TrialStatus#ranked ranked} state. */
    static boolean ranked(TrialRecord t) {
        return hasFinalValue(t) && t.status().ranked();
    }

    /** The trials with a final value, best first; equal values in order of sequence; LOST trials left out. */
    static List<TrialRecord> ranking(ExperimentResults r) {
        Comparator<TrialRecord> byValue = Comparator.comparingDouble(TrialRecord::finalValue);
        return r.trials().stream().filter(Values::ranked)
                .sorted((r.maximize() ? byValue.reversed() : byValue).thenComparingInt(TrialRecord::sequence))
                .toList();
    }

    /**
     * A parameter value in one short line: numbers as {@link #value(Number)}; a nested choice as
     * {@code adam(lr=0.01, momentum=0.9)} (its sub-values by name); another map as {@code {a=1, b=x}}; a list
     * as {@code [1, 2]}; control characters as spaces.
     */
    static String compact(Object v) {
        StringBuilder sb = new StringBuilder();
        compact(v, sb);
        return sb.toString();
    }

    private static void compact(Object v, StringBuilder sb) {
        if (v == null) {
            sb.append("null");
        } else if (v instanceof Number n) {
            sb.append(value(n));
        } else if (v instanceof Map<?, ?> m) {
            boolean choice = m.containsKey(CHOICE_NAME);
            Map<String, Object> subs = subValues(m);
            if (choice) {
                compact(m.get(CHOICE_NAME), sb);
                if (subs.isEmpty()) {
                    return;
                }
            }
            sb.append(choice ? '(' : '{');
            String sep = "";
            for (Map.Entry<String, Object> e : subs.entrySet()) {
                sb.append(sep).append(oneLine(e.getKey())).append('=');
                compact(e.getValue(), sb);
                sep = ", ";
            }
            sb.append(choice ? ')' : '}');
        } else if (v instanceof List<?> l) {
            sb.append('[');
            String sep = "";
            for (Object o : l) {
                sb.append(sep);
                compact(o, sb);
                sep = ", ";
            }
            sb.append(']');
        } else {
            sb.append(oneLine(v.toString()));
        }
    }

    /** A map's entries but the choice name, by key. */
    static Map<String, Object> subValues(Map<?, ?> m) {
        Map<String, Object> subs = new TreeMap<>();
        m.forEach((k, val) -> {
            if (!CHOICE_NAME.equals(k)) {
                subs.put(String.valueOf(k), val);
            }
        });
        return subs;
    }

    /** The text with each control character (a newline, a tab) replaced by a space. */
    static String oneLine(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        s.codePoints().forEach(c -> sb.appendCodePoint(Character.isISOControl(c) ? ' ' : c));
        return sb.toString();
    }

    /**
     * The parameters flattened to one value per path: a nested choice {@code optimizer: {_name: adam, lr: 0.01}}
     * gives {@code [optimizer] -> adam} and {@code [optimizer, lr] -> 0.01}; another map gives only its entries'
     * paths; lists and scalars are values. In the order of {@link #PATH_ORDER}.
     */
    static Map<List<String>, Object> flatten(Map<String, Object> parameters) {
        Map<List<String>, Object> out = new TreeMap<>(PATH_ORDER);
        flatten(List.of(), parameters, out);
        return out;
    }

    private static void flatten(List<String> prefix, Map<?, ?> m, Map<List<String>, Object> out) {
        m.forEach((k, v) -> {
            if (CHOICE_NAME.equals(k) && !prefix.isEmpty()) {
                out.put(prefix, v);
                return;
            }
            List<String> path = new ArrayList<>(prefix);
            path.add(String.valueOf(k));
            if (v instanceof Map<?, ?> sub) {
                flatten(List.copyOf(path), sub, out);
            } else {
                out.put(List.copyOf(path), v);
            }
        });
    }

    /** Paths in depth-first order: a path right before the paths under it, siblings by name. */
    static final Comparator<List<String>> PATH_ORDER = (a, b) -> {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int c = a.get(i).compareTo(b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    };

    /** Every path any trial has a value for, in the order of {@link #PATH_ORDER}. */
    static List<List<String>> parameterPaths(List<TrialRecord> trials) {
        TreeSet<List<String>> paths = new TreeSet<>(PATH_ORDER);
        for (TrialRecord t : trials) {
            paths.addAll(flatten(t.parameters()).keySet());
        }
        return List.copyOf(paths);
    }

    /** Every top-level parameter name any trial has, by name. */
    static List<String> parameterNames(List<TrialRecord> trials) {
        TreeSet<String> names = new TreeSet<>();
        trials.forEach(t -> names.addAll(t.parameters().keySet()));
        return List.copyOf(names);
    }

    /** A path as a column name: {@code optimizer.lr}. */
    static String pathName(List<String> path) {
        return String.join(".", path);
    }

    /**
     * The parameters as {@code name  value} lines, values aligned; a nested choice's sub-values indented under
     * it by two spaces per level, a plain map's entries likewise with no value on its own line.
     */
    static List<String[]> parameterLines(Map<String, Object> parameters) {
        List<String[]> lines = new ArrayList<>();
        parameterLines("", new TreeMap<>(parameters), lines);
        return lines;
    }

    private static void parameterLines(String indent, Map<String, Object> m, List<String[]> lines) {
        m.forEach((k, v) -> {
            String name = indent + oneLine(k);
            if (v instanceof Map<?, ?> sub) {
                lines.add(new String[] {name, sub.containsKey(CHOICE_NAME) ? compact(sub.get(CHOICE_NAME)) : ""});
                parameterLines(indent + "  ", subValues(sub), lines);
            } else {
                lines.add(new String[] {name, compact(v)});
            }
        });
    }

    /** The number of code points in the text: what a terminal shows as its width, for most text. */
    static int width(String s) {
        return s.codePointCount(0, s.length());
    }

    /** The text cut to at most the width, its last shown character an ellipsis when cut. */
    static String truncate(String s, int width) {
        if (width(s) <= width) {
            return s;
        }
        if (width <= 0) {
            return "";
        }
        return s.substring(0, s.offsetByCodePoints(0, width - 1)) + "…";
    }
}
