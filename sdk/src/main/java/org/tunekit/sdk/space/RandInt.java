package org.tunekit.sdk.space;

import java.util.random.RandomGenerator;

/**
 * {@code randint [low, high)}: an integer from {@code low} up to but excluding {@code high}, as NNI
 * draws it. Values are {@code Long}.
 *
 * @param name the key
 * @param path the path
 * @param low  the smallest value
 * @param high one more than the largest value
 */
public record RandInt(String name, String path, long low, long high) implements Parameter {
    @Override public String nniType() { return "randint"; }

    /** How many values there are. */
    public long size() {
        return high - low;
    }

    @Override
    public Object sample(RandomGenerator rng) {
        return low + rng.nextLong(high - low);
    }

    @Override
    public boolean accepts(Object value) {
        if (value instanceof Long l) {
            return l >= low && l < high;
        }
        if (value instanceof Double d) {
            return d == Math.rint(d) && d >= low && d < high;
        }
        return false;
    }

    @Override
    public Object fromUnit(double u) {
        long k = (long) Math.floor(u * (high - low));
        return low + Math.max(0, Math.min(high - low - 1, k));
    }
}
