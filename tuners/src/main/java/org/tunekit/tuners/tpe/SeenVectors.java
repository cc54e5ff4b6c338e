package org.tunekit.tuners.tpe;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * Every encoded parameter set TPE has suggested or has a result for, so that none is suggested
 * twice. Vectors are compared element by element, so they must be normalised
 * ({@link TpeSpace#normalise}) before they are added or looked up.
 */
final class SeenVectors {
    private final Set<Key> keys = new HashSet<>();

    /** Adds a vector; returns true when it was not there before. */
    boolean add(double[] x) {
        return keys.add(new Key(x.clone()));
    }

    boolean contains(double[] x) {
        return keys.contains(new Key(x));
    }

    int size() {
        return keys.size();
    }

    private record Key(double[] x) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && Arrays.equals(x, k.x);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(x);
        }
    }
}
