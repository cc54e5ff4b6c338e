package org.tunekit.katib;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.tunekit.katib.api.Distribution;
import org.tunekit.katib.api.FeasibleSpace;
import org.tunekit.katib.api.ParameterAssignment;
import org.tunekit.katib.api.ParameterSpec;
import org.tunekit.katib.api.ParameterType;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.space.InvalidSearchSpaceException;
import org.tunekit.sdk.space.SearchSpace;

/**
 * An experiment's parameters as a Tunekit {@link SearchSpace}, with the translation of values both
 * ways: Katib's strings into the values a tuner works with (to take in trials), and a tuner's values
 * into Katib's strings (to answer). Immutable.
 *
 * <p>How each Katib parameter is modelled:
 * <ul>
 *   <li>{@code INT} [min, max], uniform: {@code randint} over [min, max + 1).</li>
 *   <li>{@code INT} or {@code DOUBLE} with a {@code step}, uniform: the grid min, min + step, ... up to
 *       max, as a {@code randint} over the grid's indices (ordered, so model-based tuners see
 *       neighbours), answered as exact decimals.</li>
 *   <li>{@code DOUBLE} [min, max]: {@code uniform}, {@code loguniform}; {@code NORMAL} is
 *       {@code normal} with mean (min + max) / 2 and deviation (max - min) / 6, {@code LOG_NORMAL}
 *       the same in log space; values are clipped into [min, max] and, with a step, put on the
 *       step's grid. An {@code INT} with such a distribution is the quantised kind (q = 1).</li>
 *   <li>{@code DISCRETE} and {@code CATEGORICAL}: {@code choice} over the list; the answer is the
 *       list's own string.</li>
 *   <li>A parameter whose min equals its max is a choice of that one value.</li>
 * </ul>
 */
final class KatibSpace {
    /** The largest number of grid points a stepped parameter may have. */
    static final long MAX_GRID = 1L << 40;

    private final List<Dim> dims;
    private final SearchSpace space;
    private final Map<String, Integer> position;
    private final boolean finite;

    private KatibSpace(List<Dim> dims) {
        this.dims = List.copyOf(dims);
        Map<String, Object> def = new LinkedHashMap<>();
        Map<String, Integer> m = new HashMap<>();
        boolean fin = true;
        for (Dim d : dims) {
            def.put(d.name(), d.nni());
            m.put(d.name(), m.size());
            fin &= d.finite();
        }
        try {
            this.space = SearchSpace.parse(def);
        } catch (InvalidSearchSpaceException e) {
            throw KatibException.invalid("the parameters do not make a search space: " + e.getMessage());
        }
        this.position = m;
        this.finite = fin;
    }

    /**
     * Reads the experiment's parameter specs.
     *
     * @throws KatibException (INVALID_ARGUMENT) naming the parameter and what is wrong with it
     */
    static KatibSpace of(List<ParameterSpec> specs) {
        if (specs.isEmpty()) {
            throw KatibException.invalid("the experiment has no parameters");
        }
        List<Dim> dims = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (ParameterSpec p : specs) {
            String name = p.getName();
            if (name.isEmpty()) {
                throw KatibException.invalid("a parameter has no name");
            }
            if (!names.add(name)) {
                throw KatibException.invalid("parameter " + name + " is given twice");
            }
            dims.add(dim(p));
        }
        return new KatibSpace(dims);
    }

    /** The Tunekit search space. */
    SearchSpace space() {
        return space;
    }

    /** True when every parameter has finitely many values. */
    boolean finite() {
        return finite;
    }

    /** The number of parameters. */
    int size() {
        return dims.size();
    }

    /**
     * A trial's assignments as read once: {@code key} is equal for equal assignments (numbers
     * compared by value, so "0.50" and "0.5" are the same; a continuous value by the double it reads
     * as) and {@code null} when a value does not parse, a parameter is unknown or given twice, or one
     * is missing; {@code parameters} is the Tunekit parameter set, or {@code null} when the
     * assignments do not lie in this space (out of a bound, off a grid, not in a list).
     */
    record Point(String key, Parameters parameters) {}

    private static final Point UNREADABLE = new Point(null, null);

    /** Reads a trial's assignments: each value is parsed once, for both its key and its Tunekit value. */
    Point read(List<ParameterAssignment> assignments) {
        return read(assignments, null);
    }

    /**
     * As {@link #read(List)}; the parameter named {@code skip}, when not {@code null}, is left out
     * of the key (any value, or none, is taken) and the point has no parameters.
     */
    private Point read(List<ParameterAssignment> assignments, String skip) {
        String[] parts = new String[dims.size()];
        Object[] values = new Object[dims.size()];
        boolean inside = skip == null;
        for (ParameterAssignment a : assignments) {
            Integer at = position.get(a.getName());
            if (at == null || parts[at] != null) {
                return UNREADABLE;
            }
            if (a.getName().equals(skip)) {
                parts[at] = "";
                continue;
            }
            Read r = dims.get(at).read(a.getValue().trim());
            if (r == null) {
                return UNREADABLE;
            }
            parts[at] = r.canonical();
            values[at] = r.value();
            inside &= r.value() != null;
        }
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < parts.length; k++) {
            String part = parts[k] == null && dims.get(k).name().equals(skip) ? "" : parts[k];
            if (part == null) {
                return UNREADABLE;
            }
            sb.append(part.length()).append(':').append(part);
        }
        if (!inside) {
            return new Point(sb.toString(), null);
        }
        Map<String, Object> named = new LinkedHashMap<>();
        for (int i = 0; i < values.length; i++) {
            named.put(dims.get(i).name(), values[i]);
        }
        return new Point(sb.toString(), Parameters.of(named));
    }

    /**
     * Reads a trial's assignments as a Tunekit parameter set, or {@code null} when they do not lie
     * in this space (a parameter missing, unknown or out of its bounds, a value that does not parse).
     */
    Parameters toTunekit(List<ParameterAssignment> assignments) {
        return read(assignments).parameters();
    }

    /** A tuner's parameter set as Katib's assignments, in the experiment's parameter order. */
    List<ParameterAssignment> toKatib(Parameters parameters) {
        List<ParameterAssignment> out = new ArrayList<>(dims.size());
        for (Dim d : dims) {
            Object v = parameters.values().get(d.name());
            if (v == null) {
                throw new IllegalStateException("the tuner's parameter set has no value for " + d.name() + ": " + parameters);
            }
            out.add(ParameterAssignment.newBuilder().setName(d.name()).setValue(d.toKatib(v)).build());
        }
        return out;
    }

    /** The key of {@link #read}, or {@code null} when the assignments cannot be read. */
    String key(List<ParameterAssignment> assignments) {
        return read(assignments).key();
    }

    /** As {@link #key(List)}, but for the parameter named {@code skip} (any value, or none, is taken). */
    String key(List<ParameterAssignment> assignments, String skip) {
        return read(assignments, skip).key();
    }

    // --------------------------------------------------------------------------------- parameters

    private static Dim dim(ParameterSpec p) {
        String name = p.getName();
        FeasibleSpace fs = p.getFeasibleSpace();
        ParameterType type = p.getParameterType();
        switch (type) {
            case DISCRETE, CATEGORICAL -> {
                return listed(name, fs.getListList(), type == ParameterType.DISCRETE);
            }
            case INT, DOUBLE -> {
                return ranged(name, fs, type == ParameterType.INT);
            }
            default -> throw KatibException.invalid("parameter " + name + " has parameter type " + p.getParameterTypeValue()
                    + " (" + type + "); known types: INT, DOUBLE, DISCRETE, CATEGORICAL");
        }
    }

    private static Dim listed(String name, List<String> list, boolean numeric) {
        if (list.isEmpty()) {
            throw KatibException.invalid("parameter " + name + " (" + (numeric ? "DISCRETE" : "CATEGORICAL") + ") has an empty list");
        }
        List<Object> values = new ArrayList<>();
        Set<String> keys = new HashSet<>();
        for (String s : list) {
            String key;
            if (numeric) {
                BigDecimal b = decimal(s);
                if (b == null) {
                    throw KatibException.invalid("parameter " + name + " (DISCRETE): list value \"" + s + "\" is not a number");
                }
                key = canonical(b);
                values.add(b.doubleValue());
            } else {
                key = s;
                values.add(s);
            }
            if (!keys.add(key)) {
                throw KatibException.invalid("parameter " + name + ": list value \"" + s + "\" is given twice");
            }
        }
        return new Listed(name, List.copyOf(list), values, numeric);
    }

    private static Dim ranged(String name, FeasibleSpace fs, boolean integer) {
        String what = "parameter " + name + " (" + (integer ? "INT" : "DOUBLE") + ")";
        BigDecimal min = bound(what, "min", fs.getMin());
        BigDecimal max = bound(what, "max", fs.getMax());
        if (integer && (!isInteger(min) || !isInteger(max))) {
            throw KatibException.invalid(what + ": min and max must be integers, got min \"" + fs.getMin() + "\", max \"" + fs.getMax() + "\"");
        }
        if (min.compareTo(max) > 0) {
            throw KatibException.invalid(what + ": min " + fs.getMin() + " is greater than max " + fs.getMax());
        }
        BigDecimal step = null;
        if (!fs.getStep().isBlank()) {
            step = decimal(fs.getStep());
            if (step == null || step.signum() <= 0) {
                throw KatibException.invalid(what + ": step \"" + fs.getStep() + "\" is not a positive number");
            }
            if (integer && !isInteger(step)) {
                throw KatibException.invalid(what + ": step \"" + fs.getStep() + "\" is not an integer");
            }
        }
        Distribution dist = fs.getDistribution();
        if (dist == Distribution.UNRECOGNIZED) {
            throw KatibException.invalid(what + " has distribution " + fs.getDistributionValue()
                    + "; known distributions: UNIFORM, LOG_UNIFORM, NORMAL, LOG_NORMAL");
        }
        if (min.compareTo(max) == 0) {
            String v = fs.getMin().trim();
            return new Listed(name, List.of(v), List.of(min.doubleValue()), true);
        }
        double lo = min.doubleValue();
        double hi = max.doubleValue();
        boolean log = dist == Distribution.LOG_UNIFORM || dist == Distribution.LOG_NORMAL;
        if (log && min.signum() <= 0) {
            throw KatibException.invalid(what + ": distribution " + dist + " needs min > 0, got min " + fs.getMin());
        }
        boolean uniform = dist == Distribution.UNIFORM || dist == Distribution.DISTRIBUTION_UNSPECIFIED;
        if (uniform && step != null && !(integer && step.compareTo(BigDecimal.ONE) == 0)) {
            BigDecimal count = max.subtract(min).divide(step, 0, RoundingMode.FLOOR).add(BigDecimal.ONE);
            if (count.compareTo(BigDecimal.valueOf(MAX_GRID)) > 0) {
                throw KatibException.invalid(what + ": step " + fs.getStep() + " makes more than 2^40 values between min and max");
            }
            return new Grid(name, min, step, count.longValueExact(), integer);
        }
        if (uniform && integer) {
            return new IntRange(name, min.longValueExact(), max.longValueExact());
        }
        String q = integer && step == null ? "q" : "";
        List<Object> args;
        String kind;
        switch (dist) {
            case LOG_UNIFORM -> {
                kind = "loguniform";
                args = new ArrayList<>(List.of(lo, hi));
            }
            case NORMAL -> {
                kind = "normal";
                args = new ArrayList<>(List.of((lo + hi) / 2, (hi - lo) / 6));
            }
            case LOG_NORMAL -> {
                kind = "lognormal";
                double a = Math.log(lo);
                double b = Math.log(hi);
                args = new ArrayList<>(List.of((a + b) / 2, (b - a) / 6));
            }
            default -> {
                kind = "uniform";
                args = new ArrayList<>(List.of(lo, hi));
            }
        }
        if (!q.isEmpty()) {
            args.add(1.0);
        }
        for (Object a : args) {
            double d = (Double) a;
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                throw KatibException.invalid(what + ": min and max are too far apart for distribution " + dist);
            }
        }
        if (kind.endsWith("normal") && !((Double) args.get(1) > 0)) {
            throw KatibException.invalid(what + ": min and max are too close for distribution " + dist + " (no spread left)");
        }
        return new Real(name, Map.of("_type", q + kind, "_value", args), min, max, step, integer, lo, hi);
    }

    private static BigDecimal bound(String what, String which, String text) {
        if (text.isBlank()) {
            throw KatibException.invalid(what + " has no " + which);
        }
        BigDecimal b = decimal(text);
        if (b == null) {
            throw KatibException.invalid(what + ": " + which + " \"" + text + "\" is not a number");
        }
        return b;
    }

    /** Parses a decimal number, or returns {@code null}. */
    static BigDecimal decimal(String text) {
        String t = text.trim();
        if (t.isEmpty() || t.length() > 400) {
            return null;
        }
        try {
            BigDecimal b = new BigDecimal(t);
            double d = b.doubleValue();
            return Double.isInfinite(d) ? null : b;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * Parses a plain decimal literal ({@code [+-]digits[.digits][(e|E)[+-]digits]}, as {@link #decimal}
     * takes) straight to the nearest double, or returns NaN when the text is not one or its value is
     * not finite as a double.
     */
    static double plainDouble(String text) {
        int n = text.length();
        if (n == 0 || n > 400) {
            return Double.NaN;
        }
        int i = 0;
        char c = text.charAt(0);
        if (c == '+' || c == '-') {
            i++;
        }
        int digits = 0;
        while (i < n && (c = text.charAt(i)) >= '0' && c <= '9') {
            i++;
            digits++;
        }
        if (i < n && text.charAt(i) == '.') {
            i++;
            while (i < n && (c = text.charAt(i)) >= '0' && c <= '9') {
                i++;
                digits++;
            }
        }
        if (digits == 0) {
            return Double.NaN;
        }
        if (i < n && ((c = text.charAt(i)) == 'e' || c == 'E')) {
            i++;
            if (i < n && ((c = text.charAt(i)) == '+' || c == '-')) {
                i++;
            }
            int exponent = 0;
            while (i < n && (c = text.charAt(i)) >= '0' && c <= '9') {
                i++;
                exponent++;
            }
            if (exponent == 0) {
                return Double.NaN;
            }
        }
        if (i != n) {
            return Double.NaN;
        }
        double d = Double.parseDouble(text);
        return Double.isInfinite(d) ? Double.NaN : d;
    }

    /**
     * Parses an integer literal of at most 18 digits (an optional sign, then digits) without
     * BigDecimal, or returns {@link Long#MIN_VALUE} when the text is anything else (which
     * {@link #decimal} then reads).
     */
    static long plainLong(String text) {
        int n = text.length();
        int i = n > 0 && (text.charAt(0) == '-' || text.charAt(0) == '+') ? 1 : 0;
        if (n - i < 1 || n - i > 18) {
            return Long.MIN_VALUE;
        }
        for (int k = i; k < n; k++) {
            char c = text.charAt(k);
            if (c < '0' || c > '9') {
                return Long.MIN_VALUE;
            }
        }
        return Long.parseLong(text);
    }

    private static boolean isInteger(BigDecimal b) {
        return b.stripTrailingZeros().scale() <= 0;
    }

    static String canonical(BigDecimal b) {
        return b.signum() == 0 ? "0" : b.stripTrailingZeros().toPlainString();
    }

    /** A double as the shortest decimal that reads back as the same double, without an exponent. */
    static String format(double d) {
        return canonical(BigDecimal.valueOf(d));
    }

    // ------------------------------------------------------------------------------- the kinds

    /** A value's canonical text and its Tunekit value ({@code null} when outside the parameter's values). */
    private record Read(String canonical, Object value) {}

    /** One Katib parameter and its Tunekit counterpart. */
    private interface Dim {
        /** Reads a Katib string once, or returns {@code null} when it does not parse. */
        default Read read(String text) {
            String c = canonical(text);
            return c == null ? null : new Read(c, toTunekit(text));
        }

        String name();

        /** The parameter in NNI's search-space format. */
        Map<String, Object> nni();

        boolean finite();

        /** A Katib string as the tuner's value, or {@code null} when it is not one of this parameter's values. */
        Object toTunekit(String value);

        /** A tuner's value as Katib's string. */
        String toKatib(Object value);

        /** The value's canonical text, or {@code null} when it does not parse. */
        String canonical(String value);
    }

    private record IntRange(String name, long min, long max) implements Dim {
        @Override
        public Map<String, Object> nni() {
            return Map.of("_type", "randint", "_value", List.of(min, max + 1));
        }

        @Override
        public boolean finite() {
            return true;
        }

        @Override
        public Object toTunekit(String value) {
            long plain = plainLong(value);
            if (plain != Long.MIN_VALUE) {
                return plain < min || plain > max ? null : plain;
            }
            BigDecimal b = decimal(value);
            if (b == null || !isInteger(b) || b.compareTo(BigDecimal.valueOf(min)) < 0 || b.compareTo(BigDecimal.valueOf(max)) > 0) {
                return null;
            }
            return b.longValueExact();
        }

        @Override
        public String toKatib(Object value) {
            long v = Math.round(((Number) value).doubleValue());
            if (value instanceof Long l) {
                v = l;
            }
            return Long.toString(Math.max(min, Math.min(max, v)));
        }

        @Override
        public String canonical(String value) {
            long plain = plainLong(value);
            if (plain != Long.MIN_VALUE) {
                return Long.toString(plain);
            }
            BigDecimal b = decimal(value);
            return b == null ? null : KatibSpace.canonical(b);
        }
    }

    /** min + k * step for k in [0, count): the tuner sees k. */
    private record Grid(String name, BigDecimal min, BigDecimal step, long count, boolean integer) implements Dim {
        @Override
        public Map<String, Object> nni() {
            return Map.of("_type", "randint", "_value", List.of(0L, count));
        }

        @Override
        public boolean finite() {
            return true;
        }

        @Override
        public Object toTunekit(String value) {
            BigDecimal b = decimal(value);
            if (b == null) {
                return null;
            }
            BigDecimal[] qr = b.subtract(min).divideAndRemainder(step);
            if (qr[1].signum() != 0 || qr[0].signum() < 0 || qr[0].compareTo(BigDecimal.valueOf(count)) >= 0) {
                return null;
            }
            return qr[0].longValueExact();
        }

        @Override
        public String toKatib(Object value) {
            long k = Math.max(0, Math.min(count - 1, ((Number) value).longValue()));
            return KatibSpace.canonical(min.add(step.multiply(BigDecimal.valueOf(k))));
        }

        @Override
        public String canonical(String value) {
            BigDecimal b = decimal(value);
            return b == null ? null : KatibSpace.canonical(b);
        }
    }

    /** A real (or, quantised, integer) distribution clipped into [min, max], on the step's grid if there is one. */
    private record Real(String name, Map<String, Object> nni, BigDecimal min, BigDecimal max, BigDecimal step, boolean integer,
            double lo, double hi) implements Dim {
        /** Continuous: no grid and no integers, so a value is the double it reads as (parsed without BigDecimal). */
        private boolean continuous() {
            return step == null && !integer;
        }

        @Override
        public boolean finite() {
            return false;
        }

        @Override
        public Object toTunekit(String value) {
            if (continuous()) {
                double d = plainDouble(value);
                return Double.isNaN(d) || d < lo || d > hi ? null : d;
            }
            BigDecimal b = decimal(value);
            if (b == null || b.compareTo(min) < 0 || b.compareTo(max) > 0 || (integer && !isInteger(b))) {
                return null;
            }
            return b.doubleValue();
        }

        @Override
        public String toKatib(Object value) {
            double d = ((Number) value).doubleValue();
            BigDecimal b = Double.isNaN(d) ? min : Double.isInfinite(d) ? (d > 0 ? max : min) : new BigDecimal(d);
            if (step != null) {
                BigDecimal k = b.subtract(min).divide(step, 0, RoundingMode.HALF_EVEN);
                b = min.add(step.multiply(k));
                while (b.compareTo(max) > 0) {
                    b = b.subtract(step);
                }
                while (b.compareTo(min) < 0) {
                    b = b.add(step);
                }
            } else if (integer) {
                b = b.setScale(0, RoundingMode.HALF_EVEN);
            }
            if (b.compareTo(min) < 0) {
                b = min;
            } else if (b.compareTo(max) > 0) {
                b = max;
            }
            if (step != null || integer) {
                return KatibSpace.canonical(b);
            }
            return format(b.doubleValue());
        }

        @Override
        public Read read(String text) {
            if (!continuous()) {
                return Dim.super.read(text);
            }
            double d = plainDouble(text);
            return Double.isNaN(d) ? null : new Read(bits(d), d < lo || d > hi ? null : d);
        }

        /** A continuous value's canonical text: its double's bits (-0 as 0), so equal values are equal texts. */
        private static String bits(double d) {
            return Long.toHexString(Double.doubleToLongBits(d == 0 ? 0.0 : d));
        }

        @Override
        public String canonical(String value) {
            if (continuous()) {
                double d = plainDouble(value);
                return Double.isNaN(d) ? null : bits(d);
            }
            BigDecimal b = decimal(value);
            return b == null ? null : KatibSpace.canonical(b);
        }
    }

    /** A list of values; the tuner sees a choice, Katib gets the list's own string back. */
    private record Listed(String name, List<String> texts, List<Object> values, boolean numeric) implements Dim {
        @Override
        public Map<String, Object> nni() {
            return Map.of("_type", "choice", "_value", values);
        }

        @Override
        public boolean finite() {
            return true;
        }

        private int indexOfText(String value) {
            if (numeric) {
                BigDecimal b = decimal(value);
                if (b == null) {
                    return -1;
                }
                for (int i = 0; i < texts.size(); i++) {
                    if (decimal(texts.get(i)).compareTo(b) == 0) {
                        return i;
                    }
                }
                return -1;
            }
            return texts.indexOf(value);
        }

        @Override
        public Object toTunekit(String value) {
            int i = indexOfText(value);
            return i < 0 ? null : values.get(i);
        }

        @Override
        public String toKatib(Object value) {
            int i = values.indexOf(value);
            if (i < 0 && value instanceof Number n) {
                for (int j = 0; j < values.size(); j++) {
                    if (values.get(j) instanceof Number m && m.doubleValue() == n.doubleValue()) {
                        i = j;
                        break;
                    }
                }
            }
            if (i < 0) {
                throw new IllegalStateException("the tuner chose " + value + " for " + name + ", which is not in its list " + texts);
            }
            return texts.get(i);
        }

        @Override
        public String canonical(String value) {
            int i = indexOfText(value);
            return i < 0 ? (numeric ? null : "?" + value) : "#" + i;
        }
    }
}
