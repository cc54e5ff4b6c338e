package org.tunekit.tuners.gp;

/**
 * The Matérn covariance as a function of the scaled distance {@code r}, for smoothness 1/2, 3/2
 * and 5/2 (Rasmussen and Williams, "Gaussian Processes for Machine Learning", section 4.2.1),
 * with unit amplitude.
 */
public enum MaternKernel {
    /** nu = 1/2: exp(-r). */
    HALF,
    /** nu = 3/2: (1 + sqrt3 r) exp(-sqrt3 r). */
    THREE_HALVES,
    /** nu = 5/2: (1 + sqrt5 r + 5 r^2 / 3) exp(-sqrt5 r). */
    FIVE_HALVES;

    private static final double SQRT3 = Math.sqrt(3);
    private static final double SQRT5 = Math.sqrt(5);

    /** The kernel of smoothness {@code nu} (0.5, 1.5 or 2.5), or {@code null} for any other value. */
    public static MaternKernel of(double nu) {
        if (nu == 0.5) {
            return HALF;
        }
        if (nu == 1.5) {
            return THREE_HALVES;
        }
        if (nu == 2.5) {
            return FIVE_HALVES;
        }
        return null;
    }

    /** k(r). */
    double value(double r) {
        return switch (this) {
            case HALF -> Math.exp(-r);
            case THREE_HALVES -> (1 + SQRT3 * r) * Math.exp(-SQRT3 * r);
            case FIVE_HALVES -> (1 + SQRT5 * r + 5 * r * r / 3) * Math.exp(-SQRT5 * r);
        };
    }

    /**
     * {@code -k'(r) / r}: the derivative of k with respect to a log length-scale l is this times
     * the squared distance along that length-scale's coordinates divided by l^2.
     */
    double slope(double r) {
        return switch (this) {
            case HALF -> r > 0 ? Math.exp(-r) / r : 0;
            case THREE_HALVES -> 3 * Math.exp(-SQRT3 * r);
            case FIVE_HALVES -> 5.0 / 3 * (1 + SQRT5 * r) * Math.exp(-SQRT5 * r);
        };
    }
}
