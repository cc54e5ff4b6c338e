package org.tunekit.bench.quality;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;
import java.util.Locale;

/** Number formats of the benchmark outputs. */
public final class Numbers {
    private Numbers() {}

    /**
     * Three significant digits, as the reference tables print them: plain for magnitudes from 0.01
     * up ({@code 0.0513}, {@code 2}, {@code 17.1}), otherwise {@code 1.42e-03}.
     */
    public static String sig3(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        if (v == 0) {
            return "0";
        }
        if (Math.abs(v) < 0.01 || Math.abs(v) >= 1e6) {
            return String.format(Locale.ROOT, "%.2e", v);
        }
        return new BigDecimal(v).round(new MathContext(3)).stripTrailingZeros().toPlainString();
    }

    /** Seconds to three significant digits, plain down to 0.0001 ({@code 0.00116}), as the reference prints them. */
    static String seconds(double v) {
        if (Double.isFinite(v) && Math.abs(v) >= 1e-4 && Math.abs(v) < 1e6) {
            return new BigDecimal(v).round(new MathContext(3)).stripTrailingZeros().toPlainString();
        }
        return sig3(v);
    }

    /** {@code median [Q1, Q3]}, or the median alone when there is one value. */
    public static String quartiles(Quantiles q) {
        if (q.n() == 1) {
            return sig3(q.median()) + " (1 seed)";
        }
        return sig3(q.median()) + " [" + sig3(q.q1()) + ", " + sig3(q.q3()) + "]";
    }

    /** A list of seeds, as {@code 0..29} when it is a run of consecutive integers. */
    public static String seeds(List<Long> seeds) {
        if (seeds.isEmpty()) {
            return "none";
        }
        boolean consecutive = true;
        for (int i = 1; i < seeds.size(); i++) {
            consecutive &= seeds.get(i) == seeds.get(i - 1) + 1;
        }
        if (consecutive && seeds.size() > 2) {
            return seeds.get(0) + ".." + seeds.get(seeds.size() - 1);
        }
        return String.join(",", seeds.stream().map(String::valueOf).toList());
    }
}
