package org.tunekit.sdk.space;

import java.util.random.RandomGenerator;

/**
 * A real-valued parameter, optionally quantised: {@code round(x / q) * q}, clipped into
 * [{@code low}, {@code high}] for the bounded kinds. Values are always {@code Double}.
 */
public sealed interface Continuous extends Parameter permits Uniform, LogUniform, Normal, LogNormal {

    /** The quantum, or 0 when the parameter is not quantised. */
    double q();

    /** True for the kinds sampled on a log scale. */
    boolean logScale();

    /** True for the uniform kinds, whose values lie in [{@link #low()}, {@link #high()}]. */
    boolean bounded();

    /** The lower bound (bounded kinds), or minus infinity (normal) or 0 (lognormal). */
    double low();

    /** The upper bound (bounded kinds), or plus infinity. */
    double high();

    /** The value before quantisation at quantile {@code u}. */
    double rawFromUnit(double u);

    /** The quantile of a value (the prior's CDF; for bounded kinds the position between the bounds). */
    double toUnit(double value);

    /** Draws a value before quantisation. */
    double rawSample(RandomGenerator rng);

    /** Quantises and clips a raw value as NNI does; Python's half-to-even rounding is kept. */
    default double quantize(double x) {
        double v = x;
        if (Double.isInfinite(v)) {
            // a wide (log)normal prior overflows the double range; the value must stay a finite number
            v = Math.copySign(Double.MAX_VALUE / 2, v);
        }
        if (q() > 0) {
            v = Math.rint(v / q()) * q();
        }
        if (bounded()) {
            v = Math.min(high(), Math.max(low(), v));
        }
        if (logScale() && q() == 0 && v <= 0 && !Double.isNaN(v)) {
            // exp underflowed to 0: the smallest positive value is the nearest one a log-scale parameter can take
            v = Double.MIN_VALUE;
        }
        return v;
    }

    @Override
    default Object sample(RandomGenerator rng) {
        return quantize(rawSample(rng));
    }

    @Override
    default Object fromUnit(double u) {
        return quantize(rawFromUnit(u));
    }

    @Override
    default boolean accepts(Object value) {
        if (!(value instanceof Number n)) {
            return false;
        }
        double v = n.doubleValue();
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return false;
        }
        if (bounded() && (v < low() || v > high())) {
            return false;
        }
        // a log-scale value is positive; quantising may round it down to 0, never below
        if (logScale() && (q() == 0 ? v <= 0 : v < 0)) {
            return false;
        }
        if (q() > 0) {
            double k = v / q();
            return Math.abs(k - Math.rint(k)) < 1e-9 * Math.max(1, Math.abs(k)) || (bounded() && (v == low() || v == high()));
        }
        return true;
    }

    /** Returns NNI's type name for a continuous kind. */
    static String typeName(String base, double q) {
        return q > 0 ? "q" + base : base;
    }
}
