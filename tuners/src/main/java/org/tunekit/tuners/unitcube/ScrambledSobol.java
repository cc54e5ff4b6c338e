package org.tunekit.tuners.unitcube;

import java.util.SplittableRandom;
import org.hipparchus.random.SobolSequenceGenerator;

/**
 * A Sobol sequence in [0, 1)^d randomised by a linear matrix scramble and a digital shift
 * (Matoušek, "On the L2-discrepancy for anchored boxes", 1998; Owen, "Scrambling Sobol' and
 * Niederreiter-Xing points", 1998): digit {@code i} of a coordinate's 52-bit binary expansion is
 * replaced by the parity of digit {@code i} and a seeded random subset of the digits before it
 * (a random lower-triangular binary matrix with a unit diagonal), then XOR-ed with a seeded random
 * word. Both keep the sequence's (t, s)-net structure while making different seeds give different
 * sequences, and they move the plain sequence's first point off the corner. Points are returned at the centre of their
 * 2^-52 cell, so no coordinate is exactly 0. For more than 1000 dimensions (beyond the direction
 * numbers the generator ships) the points are seeded uniform random instead. Not thread-safe.
 */
public final class ScrambledSobol {
    private static final int BITS = 52;
    private static final double SCALE = 0x1p52;
    private static final int MAX_SOBOL_DIMENSION = 1000;

    private final int dimension;
    private final long seed;
    private final long[] shifts;
    /** {@code scramble[j][i]}: the input digits that output digit {@code i + 1} of coordinate {@code j} is the parity of. */
    private final long[][] scramble;
    private SobolSequenceGenerator generator;
    private long index;

    /**
     * Creates the sequence.
     *
     * @param dimension the number of coordinates, 0 or more
     * @param seed      picks the digital shift
     */
    public ScrambledSobol(int dimension, long seed) {
        if (dimension < 0) {
            throw new IllegalArgumentException("dimension must be >= 0, got " + dimension);
        }
        this.dimension = dimension;
        this.seed = seed;
        SplittableRandom rng = new SplittableRandom(seed);
        this.shifts = new long[dimension];
        this.scramble = new long[dimension][BITS];
        long all = (1L << BITS) - 1;
        for (int j = 0; j < dimension; j++) {
            shifts[j] = rng.nextLong() >>> (64 - BITS);
            for (int i = 1; i <= BITS; i++) {
                long before = all & ~((1L << (BITS - i + 1)) - 1); // digits 1 .. i-1
                scramble[j][i - 1] = (rng.nextLong() & before) | (1L << (BITS - i));
            }
        }
        this.generator = dimension >= 1 && dimension <= MAX_SOBOL_DIMENSION ? new SobolSequenceGenerator(dimension) : null;
    }

    /** The number of coordinates. */
    public int dimension() {
        return dimension;
    }

    /** How many points have been drawn (the index of the next one). */
    public long index() {
        return index;
    }

    /** Moves to point {@code target}, so that {@link #next()} returns it. */
    public void skipTo(long target) {
        if (target < 0 || target > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("Sobol index out of range: " + target);
        }
        if (generator != null) {
            if (target == 0) {
                generator = new SobolSequenceGenerator(dimension);
            } else {
                generator.skipTo((int) target - 1); // generates point target - 1, so that point target comes next
            }
        }
        index = target;
    }

    /**
     * Point {@code index} of the sequence: a function of the seed and the index alone, so that a
     * tuner can take its point from its history rather than from how many it has drawn.
     */
    public double[] point(long index) {
        if (index != this.index) {
            skipTo(index);
        }
        return next();
    }

    /** The next point. */
    public double[] next() {
        double[] u = new double[dimension];
        if (generator == null) {
            SplittableRandom rng = new SplittableRandom(seed ^ (0x9E3779B97F4A7C15L * (index + 1)));
            for (int j = 0; j < dimension; j++) {
                u[j] = rng.nextDouble();
            }
        } else {
            double[] v = generator.nextVector();
            for (int j = 0; j < dimension; j++) {
                long digits = (long) (v[j] * SCALE);
                long bits = 0;
                long[] rows = scramble[j];
                for (int i = 1; i <= BITS; i++) {
                    bits |= (long) (Long.bitCount(digits & rows[i - 1]) & 1) << (BITS - i);
                }
                bits ^= shifts[j];
                u[j] = (bits + 0.5) / SCALE;
            }
        }
        index++;
        return u;
    }
}
