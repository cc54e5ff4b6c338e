package org.tunekit.tuners.tpe;

import java.util.random.RandomGenerator;

/**
 * The SplitMix64 generator (the algorithm behind {@link java.util.SplittableRandom}) with its one
 * word of state readable and settable, so that a checkpoint can continue the exact sequence.
 */
final class SplitMix64 implements RandomGenerator {
    private static final long GOLDEN_GAMMA = 0x9e3779b97f4a7c15L;
    private long state;

    SplitMix64(long seed) {
        this.state = seed;
    }

    long state() {
        return state;
    }

    void setState(long state) {
        this.state = state;
    }

    @Override
    public long nextLong() {
        long z = (state += GOLDEN_GAMMA);
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }
}
