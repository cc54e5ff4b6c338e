package org.tunekit.tuners.tpe;

import java.util.HashSet;
import java.util.Set;
import org.tunekit.tuners.common.UnitKey;

/**
 * Every encoded parameter set TPE has suggested or has a result for, so that none is suggested
 * twice. Vectors are compared element by element, so they must be normalised
 * ({@link TpeSpace#normalise}) before they are added or looked up.
 */
final class SeenVectors {
    private final Set<UnitKey> keys = new HashSet<>();

    /** Adds a vector; returns true when it was not there before. */
    boolean add(double[] x) {
        return keys.add(new UnitKey(x.clone()));
    }

    boolean contains(double[] x) {
        return keys.contains(new UnitKey(x));
    }

    int size() {
        return keys.size();
    }
}
