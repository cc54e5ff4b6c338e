package org.tunekit.tuners.grid;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.tuners.common.CheckpointFile;
import org.tunekit.tuners.common.SeenParameters;

/**
 * Grid search in NNI's order (see {@link Grid}). A point already suggested or imported is skipped,
 * so the grid never repeats itself; when it is exhausted the tuner has no more trials.
 *
 * <p>Unbounded parameters ({@code normal}, {@code lognormal} and their quantised kinds) are gridded
 * on the quantiles of their prior: the median first, then the quartiles, then the octiles, and so on.
 *
 * <p>A new search space restarts the grid from its beginning; points already suggested stay seen.
 * The checkpoint is the set of seen points: the grid restarted after a restore skips them and goes
 * on exactly where it stopped.
 */
final class GridSearchTuner implements Tuner {
    static final String CHECKPOINT_FILE = "grid-search.state";
    private static final CheckpointFile CHECKPOINT = new CheckpointFile(CHECKPOINT_FILE, 0x544b4752, 1, "GridSearch tuner"); // "TKGR"

    private final SeenParameters seen = new SeenParameters();
    private Grid grid;

    GridSearchTuner(ClassArguments arguments) {
        // optimize_mode (NNI's) and seed (every Tunekit tuner's) are accepted and checked; the grid needs neither
        arguments.requireOnly("optimize_mode", "seed");
        OptimizeMode.from(arguments, OptimizeMode.MAXIMIZE);
        arguments.getOptionalLong("seed");
    }

    @Override
    public void updateSearchSpace(SearchSpace space) {
        grid = new Grid(space);
    }

    @Override
    public Parameters generateParameters(long parameterId) throws NoMoreTrialsException {
        if (grid == null) {
            throw new IllegalStateException("GridSearch tuner: asked for parameters before any search space was set");
        }
        Parameters p;
        while ((p = grid.next()) != null) {
            if (seen.add(p)) {
                return p;
            }
        }
        throw new NoMoreTrialsException("the search space has been fully explored");
    }

    @Override
    public void receiveTrialResult(TrialResult result) {
        // a grid does not depend on results
    }

    /** Imported points count as already explored. */
    @Override
    public void importData(List<ImportedTrial> trials) {
        for (ImportedTrial t : trials) {
            seen.add(t.parameters());
        }
    }

    @Override
    public void saveCheckpoint(Path directory) throws IOException {
        CHECKPOINT.write(directory, seen::writeTo);
    }

    @Override
    public void loadCheckpoint(Path directory) throws IOException {
        if (!CHECKPOINT.read(directory, (in, file) -> seen.readFrom(in))) {
            return;
        }
        if (grid != null) {
            grid = new Grid(grid.space());
        }
    }
}
