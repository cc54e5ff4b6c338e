package org.tunekit.tuners.unitcube;

import java.util.LinkedHashMap;
import java.util.Map;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.space.Choice;
import org.tunekit.sdk.space.Continuous;
import org.tunekit.sdk.space.EncodedSpace;
import org.tunekit.sdk.space.Parameter;
import org.tunekit.sdk.space.SearchSpace;

/**
 * The unit cube of one search space: a point decodes to a parameter set ({@code fromUnit}, then
 * {@code decode}, which rounds integers and option indices and quantises), and a parameter set has
 * a <em>canonical</em> form ({@code decode(encode(set))}) and a unit vector
 * ({@code toUnit(encode(set))}, {@code NaN} where a nested parameter is inactive).
 *
 * <p>Everything the tuners keep about a set is derived from its canonical form, which depends on
 * the set's values only: a set this tuner suggested and the same set read back from an
 * experiment's record (as a resumed experiment imports it) give the same canonical set and unit.
 */
final class UnitCodec {
    private final SearchSpace space;
    private final EncodedSpace encoded;

    UnitCodec(SearchSpace space) {
        this.space = space;
        this.encoded = EncodedSpace.of(space);
    }

    SearchSpace space() {
        return space;
    }

    EncodedSpace encoded() {
        return encoded;
    }

    int dimension() {
        return encoded.size();
    }

    /** A parameter set in canonical form, with the encoded vector it decodes from. */
    record Known(Parameters parameters, double[] source) {}

    /** The canonical form of a set, or {@code null} when the set does not fit the space. */
    Known canonical(Parameters p) {
        if (space.violation(p).isPresent()) {
            return null;
        }
        double[] source;
        try {
            source = encoded.encode(p);
        } catch (IllegalArgumentException e) {
            return null;
        }
        return new Known(decode(source), source);
    }

    /** Why a set does not fit the space, for a log line. */
    String misfit(Parameters p) {
        return space.violation(p).orElse(String.valueOf(p));
    }

    /** The parameter set a unit-cube point decodes to (coordinates clamped to [0, 1]). */
    Parameters decodeUnit(double[] point) {
        return decode(encoded.fromUnit(clamp(point)));
    }

    private Parameters decode(double[] source) {
        return Parameters.of(withoutNegativeZero(encoded.decode(source).values()));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> withoutNegativeZero(Map<String, Object> values) {
        Map<String, Object> out = new LinkedHashMap<>();
        values.forEach((k, v) -> {
            if (v instanceof Double d && d == 0.0) {
                out.put(k, 0.0);
            } else if (v instanceof Map<?, ?> m) {
                out.put(k, withoutNegativeZero((Map<String, Object>) m));
            } else {
                out.put(k, v);
            }
        });
        return out;
    }

    /** {@code toUnit(encode(p))}: {@code NaN} at inactive nested coordinates. */
    double[] unitOf(Parameters p) {
        return encoded.toUnit(encoded.encode(p));
    }

    /**
     * The unit vector a unit-cube point decodes to, without building the parameter set: integers and
     * option indices rounded, quantised values quantised, inactive nested coordinates {@code NaN}.
     * Equal, up to rounding of logarithms, to the unit vector of the set the point decodes to.
     */
    double[] canonicalUnit(double[] point) {
        double[] x = encoded.fromUnit(clamp(point));
        for (EncodedSpace.Dimension d : encoded.dimensions()) {
            int i = d.index();
            if (!encoded.isActive(d, x)) {
                x[i] = Double.NaN;
            } else if (d.kind() == EncodedSpace.Kind.REAL) {
                Continuous c = (Continuous) d.parameter();
                if (c.q() > 0 || c.bounded()) {
                    double value = c.logScale() ? Math.exp(x[i]) : x[i];
                    value = c.quantize(c.bounded() ? Math.max(c.low(), Math.min(c.high(), value)) : value);
                    x[i] = c.logScale() ? Math.log(value) : value;
                }
            }
        }
        return encoded.toUnit(x);
    }

    /** The point with every coordinate clamped to [0, 1] ({@code NaN} to 0.5); a new array. */
    static double[] clamp(double[] point) {
        double[] u = new double[point.length];
        for (int i = 0; i < u.length; i++) {
            double v = point[i];
            u[i] = Double.isNaN(v) ? 0.5 : Math.max(0, Math.min(1, v));
        }
        return u;
    }

    /**
     * Whether two spaces are the same: the same parameters (paths, types, numbers, option values) in
     * the same order, whatever maps they were parsed from.
     */
    static boolean sameSpace(SearchSpace a, SearchSpace b) {
        return describe(a).equals(describe(b));
    }

    private static String describe(SearchSpace s) {
        StringBuilder sb = new StringBuilder();
        for (Parameter p : s.allParameters()) {
            sb.append(p.path()).append('\u0000').append(p.nniType()).append('\u0000');
            if (p instanceof Choice c) {
                for (Choice.Option o : c.options()) {
                    sb.append(o.nested() ? "nested:" : "").append(o.value()).append('\u0001');
                }
            } else {
                sb.append(p);
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
