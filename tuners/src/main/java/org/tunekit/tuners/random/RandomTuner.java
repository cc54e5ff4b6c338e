package org.tunekit.tuners.random;

import java.util.List;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.objectives.Objectives;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.tuners.common.SuggestionRandom;
import org.tunekit.tuners.common.SeenParameters;

/**
 * Random search: every suggestion is a draw from the search space's prior ({@link SearchSpace#sample}).
 *
 * <p>A draw that equals a point already suggested, or one the tuner has a result for (received or
 * imported), is drawn again, up to {@link #MAX_DRAWS} times; when the space is finite and every
 * point has been seen, the tuner has no more trials. The draws for a parameter id come from a
 * generator seeded with a function of the seed and the id alone, so the suggestion for an id
 * depends only on the seed and on the points seen. That is how the tuner resumes, with no
 * checkpoint: a fresh instance given the earlier results through {@link #importData} suggests for
 * the next id what the uninterrupted one would, and none of the points it has results for.
 *
 * <p>The seen points belong to a search space: when the space is replaced during a run by a
 * different one, they are forgotten.
 */
final class RandomTuner implements Tuner {
    /** How many times a suggestion is redrawn when it repeats a seen point. */
    static final int MAX_DRAWS = 1000;

    private static final System.Logger LOG = System.getLogger(RandomTuner.class.getName());

    private final long seed;
    private final SeenParameters seen = new SeenParameters();
    private SearchSpace space;

    RandomTuner(ClassArguments arguments) {
        arguments.requireOnly("optimize_mode", "seed", Objectives.ARGUMENT);
        OptimizeMode.from(arguments, OptimizeMode.MAXIMIZE); // accepted for NNI compatibility, checked, unused
        Objectives.from(arguments); // checked, unused: a baseline for multi-objective tuners
        OptionalLong given = arguments.getOptionalLong("seed");
        if (given.isPresent()) {
            seed = given.getAsLong();
        } else {
            seed = new SplittableRandom().nextLong();
            LOG.log(System.Logger.Level.INFO, "Random tuner: no seed given, using seed " + seed);
        }
    }

    /** The seed in use. */
    long seed() {
        return seed;
    }

    @Override
    public void updateSearchSpace(SearchSpace newSpace) {
        if (space != null && !space.equals(newSpace)) {
            seen.clear();
        }
        space = newSpace;
    }

    @Override
    public Parameters generateParameters(long parameterId) throws NoMoreTrialsException {
        if (space == null) {
            throw new IllegalStateException("Random tuner: asked for parameters before any search space was set");
        }
        OptionalLong size = space.size();
        if (size.isPresent() && seen.size() >= size.getAsLong()) {
            throw new NoMoreTrialsException("every one of the " + size.getAsLong() + " points of the search space has been suggested");
        }
        SplittableRandom random = randomFor(seed, parameterId);
        Parameters drawn = null;
        for (int attempt = 0; attempt < MAX_DRAWS; attempt++) {
            drawn = space.sample(random);
            if (seen.add(drawn)) {
                return drawn;
            }
        }
        LOG.log(System.Logger.Level.WARNING, "Random tuner: " + MAX_DRAWS + " draws in a row repeated seen points; "
                + "suggesting a repeat for parameter id " + parameterId);
        return drawn;
    }

    /** The generator of the draws for {@code parameterId}: a function of the seed and the id alone. */
    static SplittableRandom randomFor(long seed, long parameterId) {
        return SuggestionRandom.of(seed, parameterId);
    }

    /** Random search learns nothing from a result, but its point counts as seen, as an imported one's does. */
    @Override
    public void receiveTrialResult(TrialResult result) {
        if (result.parameters() != null) {
            see(result.parameters());
        }
    }

    /** Imported points count as seen (those that fit the current search space). */
    @Override
    public void importData(List<ImportedTrial> trials) {
        for (ImportedTrial t : trials) {
            see(t.parameters());
        }
    }

    private void see(Parameters p) {
        if (space == null || space.violation(p).isEmpty()) {
            seen.add(p);
        }
    }
}
