package org.tunekit.tuners.sobol;

import java.util.SplittableRandom;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.objectives.Objectives;
import org.tunekit.sdk.space.EncodedSpace;
import org.tunekit.tuners.unitcube.ScrambledSobol;
import org.tunekit.tuners.unitcube.UnitCubeTuner;

/**
 * Suggests the points of a digitally shifted Sobol sequence in the unit cube of the encoded space,
 * mapped through {@code fromUnit} and {@code decode}. Points that decode to a set already known are
 * skipped. Nested parameters take coordinates of their own, read only when their option is chosen.
 * Results are not used for the suggestions (the sequence is fixed by the seed), but they and
 * imported data count as known sets. Suggestion number {@code k} of the history (results plus
 * pending suggestions) is point {@code k} of the sequence, or a later one when that decodes to a
 * known set, so a tuner that replays the results continues where the other left off. Class arguments: {@code optimize_mode}, {@code seed}, and
 * {@code objectives} (checked, not used: Sobol is a baseline of multi-objective experiments).
 */
final class SobolTuner extends UnitCubeTuner {
    private ScrambledSobol sequence;

    SobolTuner(OptimizeMode mode, long seed) {
        super(mode, seed);
    }

    static SobolTuner create(ClassArguments arguments) {
        arguments.requireOnly("optimize_mode", "seed", Objectives.ARGUMENT);
        OptimizeMode mode = OptimizeMode.from(arguments, OptimizeMode.MAXIMIZE);
        Objectives.from(arguments); // checked, unused: a baseline for multi-objective tuners
        return new SobolTuner(mode, seedOf(arguments));
    }

    @Override
    protected void spaceChanged(EncodedSpace space) {
        sequence = new ScrambledSobol(space.size(), seed());
    }

    @Override
    protected double[] propose(long parameterId, int attempt, SplittableRandom rng) {
        return sequence.point(historySize() + attempt);
    }
}
