package org.tunekit.assessors.support;

import java.util.Arrays;

/**
 * A growing collection of numbers kept in ascending order, for assessors that compare a value with
 * the values other trials had at the same step: an insertion costs a binary search and a shift, a rank
 * or an order statistic a binary search or an index.
 */
public final class SortedDoubles {
    private double[] values = new double[8];
    private int size;

    /** How many values it holds. */
    public int size() {
        return size;
    }

    /** The {@code i}-th smallest value (from 0). */
    public double get(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("index " + i + " of " + size + " values");
        }
        return values[i];
    }

    /** Adds {@code v} (not NaN). */
    public void add(double v) {
        if (Double.isNaN(v)) {
            throw new IllegalArgumentException("NaN has no place in an order");
        }
        int at = countBelow(v);
        if (size == values.length) {
            values = Arrays.copyOf(values, size * 2);
        }
        System.arraycopy(values, at, values, at + 1, size - at);
        values[at] = v;
        size++;
    }

    /** How many values are strictly smaller than {@code v}. */
    public int countBelow(double v) {
        int lo = 0;
        int hi = size;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (values[mid] < v) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * The {@code q}-th percentile (0-100), interpolating linearly between order statistics.
     *
     * @throws IllegalStateException when it is empty
     */
    public double percentile(double q) {
        if (size == 0) {
            throw new IllegalStateException("no values to take a percentile of");
        }
        double rank = q / 100.0 * (size - 1);
        int below = (int) Math.floor(rank);
        int above = Math.min(below + 1, size - 1);
        return values[below] + (rank - below) * (values[above] - values[below]);
    }

    /** The values in ascending order. */
    public double[] toArray() {
        return Arrays.copyOf(values, size);
    }
}
