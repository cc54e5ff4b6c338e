package org.tunekit.tuners.unitcube;

import java.util.OptionalLong;
import java.util.SplittableRandom;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.Parameters;

/**
 * Finds the parameter set of one suggestion that is not known yet: the tuner's proposals first (up
 * to {@value UnitCubeTuner#PROPOSAL_ATTEMPTS} of them), then {@value #RANDOM_ATTEMPTS} uniform
 * random points, then, for a finite space, the first set of its enumeration that is not known.
 */
final class CandidateSearch {
    static final int RANDOM_ATTEMPTS = 256;

    /** The tuner's proposal number {@code attempt} of this suggestion, or {@code null} for "no more". */
    @FunctionalInterface
    interface Proposer {
        double[] propose(int attempt);
    }

    /**
     * A set found.
     *
     * @param parameters the suggestion, as its point decodes
     * @param key        its canonical form
     * @param unit       the unit vector of its canonical form
     */
    record Found(Parameters parameters, Parameters key, double[] unit) {}

    private CandidateSearch() {}

    /**
     * The next new set.
     *
     * @param rng the suggestion's generator, which drew the proposals; it draws the random points
     * @throws NoMoreTrialsException when every set of a finite space is known, or no new set was found
     */
    static Found next(UnitCodec codec, ObservationHistory history, Proposer proposer, SplittableRandom rng)
            throws NoMoreTrialsException {
        OptionalLong size = codec.space().size();
        if (size.isPresent() && history.knownCount() >= size.getAsLong()) {
            throw new NoMoreTrialsException("all " + size.getAsLong() + " parameter sets of the search space have been suggested");
        }
        for (int attempt = 0; attempt < UnitCubeTuner.PROPOSAL_ATTEMPTS; attempt++) {
            double[] u = proposer.propose(attempt);
            if (u == null) {
                break;
            }
            Found f = ifNew(codec, history, u);
            if (f != null) {
                return f;
            }
        }
        for (int attempt = 0; attempt < RANDOM_ATTEMPTS; attempt++) {
            Found f = ifNew(codec, history, CandidatePoints.uniform(codec.dimension(), rng));
            if (f != null) {
                return f;
            }
        }
        if (size.isPresent() && size.getAsLong() <= FiniteSpace.MAX_ENUMERATION) {
            for (Parameters candidate : FiniteSpace.enumerate(codec.space())) {
                UnitCodec.Known k = codec.canonical(candidate);
                if (k != null && !history.isKnown(k.parameters())) {
                    return new Found(k.parameters(), k.parameters(), codec.unitOf(k.parameters()));
                }
            }
            throw new NoMoreTrialsException("all parameter sets of the search space have been suggested");
        }
        throw new NoMoreTrialsException("no new parameter set found after "
                + (UnitCubeTuner.PROPOSAL_ATTEMPTS + RANDOM_ATTEMPTS) + " attempts");
    }

    private static Found ifNew(UnitCodec codec, ObservationHistory history, double[] point) {
        if (point.length != codec.dimension()) {
            throw new IllegalStateException("proposal has " + point.length + " coordinates, the space has " + codec.dimension());
        }
        Parameters p = codec.decodeUnit(point);
        UnitCodec.Known k = codec.canonical(p);
        Parameters key = k != null ? k.parameters() : p;
        if (history.isKnown(key)) {
            return null;
        }
        return new Found(p, key, codec.unitOf(key));
    }
}
