package org.tunekit.tuners.tpe;

import java.util.OptionalLong;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.space.Continuous;
import org.tunekit.sdk.space.EncodedSpace;
import org.tunekit.sdk.space.SearchSpace;

/**
 * A search space as TPE's model sees it: its {@link EncodedSpace} vectors, with a quantised log
 * value of 0 (whose log is minus infinity) moved to log(q / 2) and no negative zeros, so that a
 * parameter set and the vector of its decoded self encode the same.
 */
final class TpeSpace {
    private final SearchSpace space;
    private final EncodedSpace encoded;
    /** Per coordinate, what a log of minus infinity becomes (NaN where the coordinate is not on a log scale). */
    private final double[] logOfZero;

    TpeSpace(SearchSpace space) {
        this.space = space;
        this.encoded = EncodedSpace.of(space);
        this.logOfZero = new double[encoded.size()];
        for (EncodedSpace.Dimension d : encoded.dimensions()) {
            logOfZero[d.index()] = d.parameter() instanceof Continuous c && c.logScale() ? Math.log(c.q() * 0.5) : Double.NaN;
        }
    }

    SearchSpace space() {
        return space;
    }

    EncodedSpace encoded() {
        return encoded;
    }

    /** How many parameter sets the space holds, when it is finite. */
    OptionalLong size() {
        return space.size();
    }

    /** True when the parameter set is one of the space's. */
    boolean contains(Parameters p) {
        return space.violation(p).isEmpty();
    }

    /** The parameter set as the model's vector. */
    double[] encode(Parameters p) {
        double[] x = encoded.encode(p);
        for (int i = 0; i < x.length; i++) {
            if (x[i] == Double.NEGATIVE_INFINITY && !Double.isNaN(logOfZero[i])) {
                x[i] = logOfZero[i];
            }
            x[i] += 0.0;
        }
        return x;
    }

    Parameters decode(double[] x) {
        return encoded.decode(x);
    }

    /** The vector exactly as its decoded parameter set encodes, so that seen vectors and results agree. */
    double[] normalise(double[] x) {
        return encode(decode(x));
    }
}
