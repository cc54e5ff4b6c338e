package org.tunekit.tuners.bohb;

import java.util.List;
import java.util.SplittableRandom;
import org.tunekit.sdk.space.EncodedSpace;

/**
 * A product-kernel density over the unit view of an {@link EncodedSpace}, as BOHB fits one to the good
 * and one to the bad results of a budget. Numeric coordinates (real and integer) use a Gaussian kernel
 * in [0, 1]; categorical ones the Aitchison–Aitken kernel ({@code 1 - λ} for the same option,
 * {@code λ / (c - 1)} for each other). Bandwidths follow the normal reference rule
 * {@code 1.06 · sd · m^(-1/(d+4))} per coordinate ({@code d} coordinates) (on the option indices for categorical ones), at least
 * {@code min_bandwidth}; a categorical {@code λ} is at most {@code (c - 1) / c}.
 *
 * <p>Inactive coordinates (a nested option that is not chosen, {@code NaN}) are handled the same way
 * everywhere: the density of a point only involves its active coordinates, and a data point that lacks
 * one of them contributes the prior's density there (1 in the unit view, {@code 1/c} for a choice);
 * sampling walks the coordinates parents first, so a coordinate is drawn only if its option was
 * chosen, from the kernel around the data point when the data point has it, from the prior otherwise.
 * The Gaussian kernel is not renormalised for the truncation to [0, 1]; both densities of the ratio
 * BOHB maximises share that.
 */
final class KernelDensity {
    private static final double LOG_SQRT_2PI = 0.5 * Math.log(2 * Math.PI);
    private static final double UNIFORM_SD = Math.sqrt(1.0 / 12);

    private final double[][] points;
    private final double[] bandwidth;
    private final int[] cardinality;
    private final int[] parent;
    private final int[] parentOption;

    private KernelDensity(double[][] points, double[] bandwidth, int[] cardinality, int[] parent, int[] parentOption) {
        this.points = points;
        this.bandwidth = bandwidth;
        this.cardinality = cardinality;
        this.parent = parent;
        this.parentOption = parentOption;
    }

    /**
     * Fits the density to unit-view points of {@code space}.
     *
     * @param minBandwidth the smallest bandwidth of any coordinate
     */
    static KernelDensity fit(EncodedSpace space, List<double[]> unitPoints, double minBandwidth) {
        if (unitPoints.isEmpty()) {
            throw new IllegalArgumentException("a kernel density needs at least one point");
        }
        int dims = space.size();
        double[][] pts = unitPoints.toArray(new double[0][]);
        int[] card = new int[dims];
        int[] par = new int[dims];
        int[] parOpt = new int[dims];
        double[] bw = new double[dims];
        for (EncodedSpace.Dimension d : space.dimensions()) {
            int i = d.index();
            card[i] = d.kind() == EncodedSpace.Kind.CATEGORICAL ? d.cardinality() : 0;
            par[i] = d.parent();
            parOpt[i] = d.parentOption();
            double sum = 0;
            double sumSq = 0;
            int m = 0;
            for (double[] p : pts) {
                if (!Double.isNaN(p[i])) {
                    double v = card[i] > 0 ? index(p[i], card[i]) : p[i];
                    sum += v;
                    sumSq += v * v;
                    m++;
                }
            }
            double sd;
            if (m < 2) {
                sd = card[i] > 0 ? Math.sqrt((card[i] * (double) card[i] - 1) / 12) : UNIFORM_SD;
                m = Math.max(m, 1);
            } else {
                double mean = sum / m;
                sd = Math.sqrt(Math.max(0, sumSq / m - mean * mean) * m / (m - 1));
            }
            double h = Math.max(minBandwidth, 1.06 * sd * Math.pow(m, -1.0 / (dims + 4)));
            if (card[i] > 0) {
                h = Math.min(h, (card[i] - 1) / (double) card[i]);
            }
            bw[i] = h;
        }
        return new KernelDensity(pts, bw, card, par, parOpt);
    }

    /** The bandwidth of coordinate {@code i} (Gaussian sd, or Aitchison–Aitken λ). */
    double bandwidth(int i) {
        return bandwidth[i];
    }

    /** The log density at a unit-view point ({@code NaN} coordinates are inactive and skipped). */
    double logDensity(double[] x) {
        double max = Double.NEGATIVE_INFINITY;
        double[] terms = new double[points.length];
        for (int n = 0; n < points.length; n++) {
            double[] p = points[n];
            double s = 0;
            for (int i = 0; i < x.length; i++) {
                if (Double.isNaN(x[i])) {
                    continue;
                }
                int c = cardinality[i];
                if (c > 0) {
                    if (c == 1) {
                        continue;
                    }
                    if (Double.isNaN(p[i])) {
                        s -= Math.log(c);
                    } else {
                        double lambda = bandwidth[i];
                        s += index(x[i], c) == index(p[i], c) ? Math.log1p(-lambda) : Math.log(lambda / (c - 1));
                    }
                } else if (!Double.isNaN(p[i])) {
                    double z = (x[i] - p[i]) / bandwidth[i];
                    s += -0.5 * z * z - Math.log(bandwidth[i]) - LOG_SQRT_2PI;
                }
            }
            terms[n] = s;
            max = Math.max(max, s);
        }
        if (max == Double.NEGATIVE_INFINITY) {
            return max;
        }
        double sum = 0;
        for (double t : terms) {
            sum += Math.exp(t - max);
        }
        return max + Math.log(sum / points.length);
    }

    /**
     * Draws a unit-view point: a data point at random, then every active coordinate from its kernel
     * with the bandwidth multiplied by {@code factor}.
     */
    double[] sample(SplittableRandom rng, double factor) {
        double[] base = points[rng.nextInt(points.length)];
        double[] u = new double[base.length];
        for (int i = 0; i < u.length; i++) {
            int par = parent[i];
            if (par >= 0 && (Double.isNaN(u[par]) || index(u[par], cardinality[par]) != parentOption[i])) {
                u[i] = Double.NaN;
                continue;
            }
            int c = cardinality[i];
            if (c > 0) {
                int k;
                if (Double.isNaN(base[i])) {
                    k = rng.nextInt(c);
                } else {
                    k = index(base[i], c);
                    double lambda = Math.min((c - 1) / (double) c, bandwidth[i] * factor);
                    if (c > 1 && rng.nextDouble() < lambda) {
                        int other = rng.nextInt(c - 1);
                        k = other >= k ? other + 1 : other;
                    }
                }
                u[i] = (k + 0.5) / c;
            } else if (Double.isNaN(base[i])) {
                u[i] = rng.nextDouble();
            } else {
                double h = bandwidth[i] * factor;
                double v = Double.NaN;
                for (int attempt = 0; attempt < 32; attempt++) {
                    double w = base[i] + h * rng.nextGaussian();
                    if (w >= 0 && w <= 1) {
                        v = w;
                        break;
                    }
                }
                u[i] = Double.isNaN(v) ? Math.max(0, Math.min(1, base[i])) : v;
            }
        }
        return u;
    }

    private static int index(double unit, int cardinality) {
        return (int) Math.max(0, Math.min(cardinality - 1, Math.floor(unit * cardinality)));
    }
}
