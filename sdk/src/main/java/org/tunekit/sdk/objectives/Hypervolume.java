package org.tunekit.sdk.objectives;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The hypervolume of a set of loss vectors: the measure of the region that at least one of them
 * dominates and that is bounded by a reference point (worse than the points in every coordinate).
 * Exact: a sweep for 2 objectives in O(n log n), and for more the slicing of Zitzler's HSO (the
 * points sorted by the last objective, each slab between two consecutive values measured one
 * dimension lower), O(n^2 log n) for 3 objectives. Points that are not strictly better than the
 * reference in every coordinate add nothing, so the reference point decides what counts.
 */
public final class Hypervolume {
    private Hypervolume() {}

    /**
     * The hypervolume of the points with respect to the reference point.
     *
     * @param points    loss vectors, each as long as the reference point; {@code NaN} vectors add nothing
     * @param reference the reference point
     * @throws IllegalArgumentException when a point's length differs from the reference's, or the
     *         reference has a coordinate that is not finite
     */
    public static double of(double[][] points, double[] reference) {
        for (double r : reference) {
            if (!Double.isFinite(r)) {
                throw new IllegalArgumentException("the reference point must be finite, got " + Arrays.toString(reference));
            }
        }
        List<double[]> inside = new ArrayList<>(points.length);
        for (double[] p : points) {
            if (p.length != reference.length) {
                throw new IllegalArgumentException("a point of " + p.length + " objectives against a reference point of " + reference.length);
            }
            boolean better = true;
            for (int i = 0; i < p.length && better; i++) {
                better = p[i] < reference[i];
            }
            if (better) {
                inside.add(p);
            }
        }
        if (inside.isEmpty() || reference.length == 0) {
            return 0;
        }
        return measure(inside.toArray(new double[0][]), reference, reference.length);
    }

    /**
     * Each point's exclusive contribution: the hypervolume of all points less that of all but it.
     * A dominated point or a duplicate contributes 0.
     */
    public static double[] contributions(double[][] points, double[] reference) {
        double total = of(points, reference);
        double[] out = new double[points.length];
        double[][] rest = new double[Math.max(0, points.length - 1)][];
        for (int i = 0; i < points.length; i++) {
            for (int j = 0, k = 0; j < points.length; j++) {
                if (j != i) {
                    rest[k++] = points[j];
                }
            }
            out[i] = Math.max(0, total - of(rest, reference));
        }
        return out;
    }

    /**
     * A reference point for points that came without one: per coordinate the worst (largest) value
     * plus {@code margin} times the range of values (or times 1 when all values are equal), so that
     * the points at the edge of the front still add to the hypervolume.
     *
     * @param points loss vectors of one length, at least one, all finite
     * @param margin the fraction of the range to add, at least 0
     * @throws IllegalArgumentException when there are no points or a value is not finite
     */
    public static double[] nadirReference(double[][] points, double margin) {
        if (points.length == 0) {
            throw new IllegalArgumentException("a reference point needs at least one point");
        }
        int m = points[0].length;
        double[] low = new double[m];
        double[] high = new double[m];
        Arrays.fill(low, Double.POSITIVE_INFINITY);
        Arrays.fill(high, Double.NEGATIVE_INFINITY);
        for (double[] p : points) {
            for (int i = 0; i < m; i++) {
                if (!Double.isFinite(p[i])) {
                    throw new IllegalArgumentException("a point holds a value that is not finite: " + Arrays.toString(p));
                }
                low[i] = Math.min(low[i], p[i]);
                high[i] = Math.max(high[i], p[i]);
            }
        }
        double[] ref = new double[m];
        for (int i = 0; i < m; i++) {
            double range = high[i] - low[i];
            ref[i] = high[i] + margin * (range > 0 ? range : 1);
        }
        return ref;
    }

    /** The hypervolume of points all strictly inside the reference box, over their first {@code d} coordinates. */
    private static double measure(double[][] points, double[] reference, int d) {
        if (d == 1) {
            double best = reference[0];
            for (double[] p : points) {
                best = Math.min(best, p[0]);
            }
            return reference[0] - best;
        }
        if (d == 2) {
            double[][] sorted = points.clone();
            Arrays.sort(sorted, Comparator.comparingDouble((double[] p) -> p[0]).thenComparingDouble(p -> p[1]));
            double area = 0;
            double floor = reference[1];
            for (double[] p : sorted) {
                if (p[1] < floor) {
                    area += (reference[0] - p[0]) * (floor - p[1]);
                    floor = p[1];
                }
            }
            return area;
        }
        int last = d - 1;
        double[][] sorted = points.clone();
        Arrays.sort(sorted, Comparator.comparingDouble((double[] p) -> p[last]));
        double volume = 0;
        for (int k = 0; k < sorted.length; k++) {
            double top = k + 1 < sorted.length ? sorted[k + 1][last] : reference[last];
            double depth = top - sorted[k][last];
            if (depth > 0) {
                volume += depth * measure(Arrays.copyOf(sorted, k + 1), reference, last);
            }
        }
        return volume;
    }
}
