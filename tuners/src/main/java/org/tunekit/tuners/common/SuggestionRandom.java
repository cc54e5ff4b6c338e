package org.tunekit.tuners.common;

import java.util.SplittableRandom;

/**
 * The random source of one suggestion, a function of the tuner's seed and the parameter id alone: a
 * tuner rebuilt from its results (resume by replay) then makes, for the same id, the suggestion the
 * uninterrupted one would have made.
 */
public final class SuggestionRandom {
    private SuggestionRandom() {}

    /** The generator of the draws for {@code parameterId} under {@code seed}. */
    public static SplittableRandom of(long seed, long parameterId) {
        return new SplittableRandom(mix(seed ^ mix(parameterId + 0x9e3779b97f4a7c15L)));
    }

    /** SplitMix64's finaliser: every bit of the result depends on every bit of {@code z}. */
    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
