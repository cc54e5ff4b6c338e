package org.tunekit.sdk.space;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tunekit.sdk.Parameters;

/**
 * A numeric view of a search space that model-based tuners share: every parameter, nested ones
 * included, is one coordinate. A choice is its option index, a randint its integer, a log-scale
 * parameter the logarithm of its value, any other continuous parameter its value. A coordinate whose
 * nested option is not chosen is {@code NaN}. The unit view maps each coordinate onto [0, 1] by the
 * parameter's prior, which suits Gaussian processes, CMA-ES and quasi-random sequences.
 * Immutable; safe to share between threads.
 */
public final class EncodedSpace {

    /** How a coordinate is read. */
    public enum Kind {
        /** An option index of a {@link Choice}. */
        CATEGORICAL,
        /** A {@link RandInt} value. */
        INTEGER,
        /** A {@link Continuous} value (its logarithm for the log-scale kinds). */
        REAL
    }

    /**
     * One coordinate.
     *
     * @param index        position in the encoded vector
     * @param parameter    the parameter
     * @param kind         how the coordinate is read
     * @param low          the smallest encoded value (minus infinity for the normal kinds)
     * @param high         the largest encoded value (for categorical and integer, the last index or value)
     * @param parent       the index of the nested choice that must pick {@code parentOption} for this
     *                     coordinate to be active, or -1 for a top-level parameter
     * @param parentOption the option of {@code parent} this coordinate belongs to, or -1
     */
    public record Dimension(int index, Parameter parameter, Kind kind, double low, double high, int parent, int parentOption) {
        /** The number of options (categorical) or values (integer); 0 for real coordinates. */
        public int cardinality() {
            return kind == Kind.REAL ? 0 : (int) (high - low + 1);
        }
    }

    private final SearchSpace space;
    private final List<Dimension> dimensions;
    /** For every parameter of every (sub-)space: the index of its dimension. */
    private final Map<Parameter, Integer> indexOf = new java.util.IdentityHashMap<>();

    private EncodedSpace(SearchSpace space) {
        this.space = space;
        List<Dimension> dims = new ArrayList<>();
        build(space, -1, -1, dims);
        this.dimensions = List.copyOf(dims);
    }

    /** The encoded view of {@code space}. */
    public static EncodedSpace of(SearchSpace space) {
        return new EncodedSpace(space);
    }

    private void build(SearchSpace s, int parent, int parentOption, List<Dimension> dims) {
        for (Parameter p : s.parameters()) {
            int index = dims.size();
            indexOf.put(p, index);
            if (p instanceof Choice c) {
                dims.add(new Dimension(index, p, Kind.CATEGORICAL, 0, c.size() - 1, parent, parentOption));
                for (int k = 0; k < c.size(); k++) {
                    Choice.Option o = c.options().get(k);
                    if (o.nested()) {
                        build(o.subspace(), index, k, dims);
                    }
                }
            } else if (p instanceof RandInt r) {
                dims.add(new Dimension(index, p, Kind.INTEGER, r.low(), r.high() - 1, parent, parentOption));
            } else {
                Continuous c = (Continuous) p;
                double lo = c.bounded() ? (c.logScale() ? Math.log(c.low()) : c.low()) : Double.NEGATIVE_INFINITY;
                double hi = c.bounded() ? (c.logScale() ? Math.log(c.high()) : c.high()) : Double.POSITIVE_INFINITY;
                dims.add(new Dimension(index, p, Kind.REAL, lo, hi, parent, parentOption));
            }
        }
    }

    /** The space this view encodes. */
    public SearchSpace space() {
        return space;
    }

    /** The coordinates, in order. */
    public List<Dimension> dimensions() {
        return dimensions;
    }

    /** The number of coordinates. */
    public int size() {
        return dimensions.size();
    }

    /**
     * Encodes a parameter set.
     *
     * @throws IllegalArgumentException if a value does not belong to the space
     */
    public double[] encode(Parameters parameters) {
        double[] x = new double[dimensions.size()];
        Arrays.fill(x, Double.NaN);
        encodeInto(space, parameters.values(), x);
        return x;
    }

    private void encodeInto(SearchSpace s, Map<String, Object> values, double[] x) {
        for (Parameter p : s.parameters()) {
            int i = indexOf.get(p);
            Object v = values.get(p.name());
            if (p instanceof Choice c) {
                int k = c.indexOf(v);
                if (k < 0) {
                    throw new IllegalArgumentException("parameter '" + p.path() + "': " + v + " is not one of its options");
                }
                x[i] = k;
                Choice.Option o = c.options().get(k);
                if (o.nested()) {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> sub = (Map<String, Object>) v;
                    encodeInto(o.subspace(), sub, x);
                }
            } else {
                if (!(v instanceof Number n)) {
                    throw new IllegalArgumentException("parameter '" + p.path() + "': expected a number, got " + v);
                }
                double d = n.doubleValue();
                x[i] = (p instanceof Continuous c && c.logScale()) ? Math.log(d) : d;
            }
        }
    }

    /**
     * Decodes a vector into a parameter set: rounds indices and integers, exponentiates log-scale
     * coordinates, quantises and clips, and reads only the coordinates of chosen nested options.
     */
    public Parameters decode(double[] x) {
        if (x.length != dimensions.size()) {
            throw new IllegalArgumentException("expected " + dimensions.size() + " coordinates, got " + x.length);
        }
        return Parameters.of(decodeFrom(space, x));
    }

    private Map<String, Object> decodeFrom(SearchSpace s, double[] x) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Parameter p : s.parameters()) {
            Dimension d = dimensions.get(indexOf.get(p));
            double v = x[d.index()];
            if (p instanceof Choice c) {
                int k = (int) clamp(Math.rint(Double.isNaN(v) ? 0 : v), 0, c.size() - 1);
                Choice.Option o = c.options().get(k);
                out.put(p.name(), o.nested() ? Choice.nestedValue(o, Parameters.of(decodeFrom(o.subspace(), x))) : o.value());
            } else if (p instanceof RandInt r) {
                double value = Double.isNaN(v) ? (r.low() + r.high() - 1) / 2.0 : v;
                out.put(p.name(), (long) clamp(Math.rint(value), r.low(), r.high() - 1));
            } else {
                Continuous c = (Continuous) p;
                double value = Double.isNaN(v) ? c.rawFromUnit(0.5) : (c.logScale() ? Math.exp(v) : v);
                out.put(p.name(), c.quantize(c.bounded() ? clamp(value, c.low(), c.high()) : value));
            }
        }
        return out;
    }

    /** Maps an encoded vector onto [0, 1] per coordinate (the prior's quantile); {@code NaN} stays {@code NaN}. */
    public double[] toUnit(double[] x) {
        double[] u = new double[x.length];
        for (Dimension d : dimensions) {
            double v = x[d.index()];
            if (Double.isNaN(v)) {
                u[d.index()] = Double.NaN;
                continue;
            }
            u[d.index()] = switch (d.kind()) {
                case CATEGORICAL, INTEGER -> (v - d.low() + 0.5) / (d.high() - d.low() + 1);
                case REAL -> {
                    Continuous c = (Continuous) d.parameter();
                    yield c.bounded() ? (v - d.low()) / (d.high() - d.low()) : c.toUnit(c.logScale() ? Math.exp(v) : v);
                }
            };
        }
        return u;
    }

    /** Maps a unit-cube vector back to encoded coordinates (inverse of {@link #toUnit}); values are clamped into [0, 1]. */
    public double[] fromUnit(double[] u) {
        double[] x = new double[u.length];
        for (Dimension d : dimensions) {
            double w = u[d.index()];
            if (Double.isNaN(w)) {
                x[d.index()] = Double.NaN;
                continue;
            }
            w = clamp(w, 0, 1);
            x[d.index()] = switch (d.kind()) {
                case CATEGORICAL, INTEGER -> d.low() + Math.min(d.high() - d.low(), Math.floor(w * (d.high() - d.low() + 1)));
                case REAL -> {
                    Continuous c = (Continuous) d.parameter();
                    if (c.bounded()) {
                        yield d.low() + w * (d.high() - d.low());
                    }
                    double value = c.rawFromUnit(clamp(w, 1e-12, 1 - 1e-12));
                    yield c.logScale() ? Math.log(value) : value;
                }
            };
        }
        return x;
    }

    /** True when coordinate {@code d} is active in {@code x}: every enclosing nested choice picks its option. */
    public boolean isActive(Dimension d, double[] x) {
        Dimension cur = d;
        while (cur.parent() >= 0) {
            double chosen = x[cur.parent()];
            if (Double.isNaN(chosen) || (int) Math.rint(chosen) != cur.parentOption()) {
                return false;
            }
            cur = dimensions.get(cur.parent());
        }
        return true;
    }

    private static double clamp(double v, double lo, double hi) {
        return Math.max(lo, Math.min(hi, v));
    }
}
