package org.tunekit.sdk.space;

/** The standard normal distribution's CDF and its inverse, to double precision. */
final class Gaussian {
    private Gaussian() {}

    private static final double SQRT_2PI = 2.5066282746310002;

    /** Standard normal density. */
    static double pdf(double x) {
        return Math.exp(-0.5 * x * x) / SQRT_2PI;
    }

    /** Standard normal CDF (Hart's rational approximation, absolute error below 1e-14). */
    static double cdf(double x) {
        double z = Math.abs(x);
        double tail;
        if (z > 37) {
            tail = 0;
        } else {
            double e = Math.exp(-0.5 * z * z);
            if (z < 7.07106781186547) {
                double num = 3.52624965998911e-02;
                num = num * z + 0.700383064443688;
                num = num * z + 6.37396220353165;
                num = num * z + 33.912866078383;
                num = num * z + 112.079291497871;
                num = num * z + 221.213596169931;
                num = num * z + 220.206867912376;
                double den = 8.83883476483184e-02;
                den = den * z + 1.75566716318264;
                den = den * z + 16.064177579207;
                den = den * z + 86.7807322029461;
                den = den * z + 296.564248779674;
                den = den * z + 637.333633378831;
                den = den * z + 793.826512519948;
                den = den * z + 440.413735824752;
                tail = e * num / den;
            } else {
                double f = z + 0.65;
                f = z + 4 / f;
                f = z + 3 / f;
                f = z + 2 / f;
                f = z + 1 / f;
                tail = e / f / SQRT_2PI;
            }
        }
        return x > 0 ? 1 - tail : tail;
    }

    /**
     * Inverse standard normal CDF: Acklam's rational approximation refined by one Halley step.
     * {@code p} = 0 and 1 give minus and plus infinity.
     */
    static double inverseCdf(double p) {
        if (p <= 0) {
            return Double.NEGATIVE_INFINITY;
        }
        if (p >= 1) {
            return Double.POSITIVE_INFINITY;
        }
        double x;
        final double pLow = 0.02425;
        if (p < pLow) {
            double q = Math.sqrt(-2 * Math.log(p));
            x = (((((-7.784894002430293e-03 * q - 3.223964580411365e-01) * q - 2.400758277161838e+00) * q
                    - 2.549671010243009e+00) * q + 4.374664141464968e+00) * q + 2.938163982698783e+00)
                    / ((((7.784695709041462e-03 * q + 3.224671290700398e-01) * q + 2.445134137142996e+00) * q
                    + 3.754408661907416e+00) * q + 1);
        } else if (p <= 1 - pLow) {
            double q = p - 0.5;
            double r = q * q;
            x = (((((-3.969683028665376e+01 * r + 2.209460984245205e+02) * r - 2.759285104469687e+02) * r
                    + 1.383577518672690e+02) * r - 3.066479806614716e+01) * r + 2.506628277459239e+00) * q
                    / (((((-5.447609879822406e+01 * r + 1.615858368580409e+02) * r - 1.556989798598866e+02) * r
                    + 6.680131188771972e+01) * r - 1.328068155288572e+01) * r + 1);
        } else {
            double q = Math.sqrt(-2 * Math.log1p(-p));
            x = -(((((-7.784894002430293e-03 * q - 3.223964580411365e-01) * q - 2.400758277161838e+00) * q
                    - 2.549671010243009e+00) * q + 4.374664141464968e+00) * q + 2.938163982698783e+00)
                    / ((((7.784695709041462e-03 * q + 3.224671290700398e-01) * q + 2.445134137142996e+00) * q
                    + 3.754408661907416e+00) * q + 1);
        }
        double e = cdf(x) - p;
        double u = e * SQRT_2PI * Math.exp(0.5 * x * x);
        return x - u / (1 + 0.5 * x * u);
    }
}
