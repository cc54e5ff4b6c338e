package org.tunekit.tuners.common;

import java.util.Arrays;

/**
 * A point of the unit cube as a hash key: equal when the coordinates are equal element by element
 * (as {@link Arrays#equals(double[], double[])}, so {@code NaN} equals {@code NaN}). The array is
 * not copied; callers must not change it afterwards.
 *
 * @param v the coordinates
 */
public record UnitKey(double[] v) {
    @Override
    public boolean equals(Object o) {
        return o instanceof UnitKey k && Arrays.equals(v, k.v);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(v);
    }

    @Override
    public String toString() {
        return Arrays.toString(v);
    }
}
