package org.tunekit.tuners.random;

import java.io.IOException;
import java.nio.file.Path;
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
import org.tunekit.tuners.common.CheckpointFile;
import org.tunekit.tuners.common.SeenParameters;

/**
 * Random search: every suggestion is a draw from the search space's prior ({@link SearchSpace#sample}).
 *
 * <p>A draw that equals a point already suggested or imported is drawn again, up to
 * {@link #MAX_DRAWS} times; when the space is finite and every point has been seen, the tuner has no
 * more trials. Draw {@code k} uses the {@code k}-th child generator split from a
 * {@link SplittableRandom} seeded with {@code seed}, so the sequence depends only on the seed and on
 * the points seen, and a checkpoint needs only the seed, the number of draws and the seen points.
 *
 * <p>The seen points belong to a search space: when the space is replaced during a run by a
 * different one, they are forgotten.
 */
final class RandomTuner implements Tuner {
    /** How many times a suggestion is redrawn when it repeats a seen point. */
    static final int MAX_DRAWS = 1000;

    static final String CHECKPOINT_FILE = "random-tuner.state";
    private static final CheckpointFile CHECKPOINT = new CheckpointFile(CHECKPOINT_FILE, 0x544b524e, 1, "Random tuner"); // "TKRN"
    private static final System.Logger LOG = System.getLogger(RandomTuner.class.getName());

    private long seed;
    private SplittableRandom master;
    private long draws;
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
        master = new SplittableRandom(seed);
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
        Parameters drawn = null;
        for (int attempt = 0; attempt < MAX_DRAWS; attempt++) {
            drawn = space.sample(nextGenerator());
            if (seen.add(drawn)) {
                return drawn;
            }
        }
        LOG.log(System.Logger.Level.WARNING, "Random tuner: " + MAX_DRAWS + " draws in a row repeated seen points; "
                + "suggesting a repeat for parameter id " + parameterId);
        return drawn;
    }

    private SplittableRandom nextGenerator() {
        draws++;
        return master.split();
    }

    @Override
    public void receiveTrialResult(TrialResult result) {
        // random search learns nothing from results
    }

    /** Imported points count as seen (those that fit the current search space). */
    @Override
    public void importData(List<ImportedTrial> trials) {
        for (ImportedTrial t : trials) {
            if (space == null || space.violation(t.parameters()).isEmpty()) {
                seen.add(t.parameters());
            }
        }
    }

    @Override
    public void saveCheckpoint(Path directory) throws IOException {
        CHECKPOINT.write(directory, out -> {
            out.writeLong(seed);
            out.writeLong(draws);
            seen.writeTo(out);
        });
    }

    /** Restores the seed, the position in its stream and the seen points; the search space comes afterwards. */
    @Override
    public void loadCheckpoint(Path directory) throws IOException {
        boolean found = CHECKPOINT.read(directory, (in, file) -> {
            long savedSeed = in.readLong();
            long savedDraws = in.readLong();
            if (savedDraws < 0) {
                throw new IOException(file + ": corrupt draw count " + savedDraws);
            }
            seen.readFrom(in);
            if (savedSeed != seed) {
                LOG.log(System.Logger.Level.INFO, "Random tuner: continuing the checkpoint's seed " + savedSeed + " (not " + seed + ")");
            }
            seed = savedSeed;
            master = new SplittableRandom(seed);
            for (long i = 0; i < savedDraws; i++) {
                master.split();
            }
            draws = savedDraws;
        });
        if (!found) {
            LOG.log(System.Logger.Level.INFO, "Random tuner: no checkpoint file " + CHECKPOINT.file(directory) + "; starting afresh");
        }
    }
}
