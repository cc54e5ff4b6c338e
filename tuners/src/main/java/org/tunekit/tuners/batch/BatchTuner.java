package org.tunekit.tuners.batch;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.JsonValues;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.Choice;
import org.tunekit.sdk.space.Parameter;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.tuners.common.CheckpointFile;
import org.tunekit.tuners.common.SeenParameters;

/**
 * NNI's batch tuner: the search space is exactly one parameter, {@code combine_params}, a
 * {@code choice} whose options are whole parameter sets; they are handed out in order, each one as
 * the trial's parameters, and then there are no more trials. Sets that were imported are skipped.
 * A new search space starts again from its first set.
 */
final class BatchTuner implements Tuner {
    /** The one parameter name NNI's batch tuner accepts. */
    static final String KEY = "combine_params";

    static final String CHECKPOINT_FILE = "batch-tuner.state";
    private static final CheckpointFile CHECKPOINT = new CheckpointFile(CHECKPOINT_FILE, 0x544b4254, 1, "BatchTuner"); // "TKBT"

    private List<Parameters> sets;
    private int next;
    private Integer restoredNext;
    private final SeenParameters imported = new SeenParameters();

    BatchTuner(ClassArguments arguments) {
        // seed is accepted, like every Tunekit tuner's, and unused: the list is handed out in order
        arguments.requireOnly("seed");
        arguments.getOptionalLong("seed");
    }

    @Override
    public void updateSearchSpace(SearchSpace space) {
        if (space.parameters().size() != 1 || space.parameter(KEY) == null) {
            throw new IllegalArgumentException("BatchTuner needs a search space with exactly one parameter, '" + KEY
                    + "', a choice whose options are whole parameter sets; got parameters "
                    + space.definition().keySet());
        }
        Parameter p = space.parameter(KEY);
        if (!(p instanceof Choice choice)) {
            throw new IllegalArgumentException("BatchTuner: '" + KEY + "' must be of type choice, got " + p.nniType());
        }
        List<Parameters> parsed = new ArrayList<>(choice.size());
        for (int i = 0; i < choice.size(); i++) {
            Choice.Option o = choice.options().get(i);
            if (o.nested() || !(o.value() instanceof Map<?, ?> m)) {
                throw new IllegalArgumentException("BatchTuner: option " + i + " of '" + KEY
                        + "' must be a parameter set (a JSON object without \"_name\"), got "
                        + (o.nested() ? "a nested option \"" + o.value() + "\"" : JsonValues.describe(o.value())));
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> values = (Map<String, Object>) m;
            parsed.add(Parameters.of(values));
        }
        sets = List.copyOf(parsed);
        next = restoredNext != null ? Math.min(restoredNext, sets.size()) : 0;
        restoredNext = null;
    }

    @Override
    public Parameters generateParameters(long parameterId) throws NoMoreTrialsException {
        if (sets == null) {
            throw new IllegalStateException("BatchTuner: asked for parameters before any search space was set");
        }
        while (next < sets.size()) {
            Parameters p = sets.get(next++);
            if (!imported.contains(p)) {
                return p;
            }
        }
        throw new NoMoreTrialsException("all " + sets.size() + " parameter sets of '" + KEY + "' have been handed out");
    }

    @Override
    public void receiveTrialResult(TrialResult result) {
        // the batch is fixed in advance
    }

    /** Imported parameter sets are not handed out again. */
    @Override
    public void importData(List<ImportedTrial> trials) {
        for (ImportedTrial t : trials) {
            imported.add(t.parameters());
        }
    }

    @Override
    public void saveCheckpoint(Path directory) throws IOException {
        CHECKPOINT.write(directory, out -> {
            out.writeInt(next);
            imported.writeTo(out);
        });
    }

    /** Restores the position in the list; it applies to the search space set next (the experiment's, on resume). */
    @Override
    public void loadCheckpoint(Path directory) throws IOException {
        CHECKPOINT.read(directory, (in, file) -> {
            int saved = in.readInt();
            if (saved < 0) {
                throw new IOException(file + ": corrupt position " + saved);
            }
            imported.readFrom(in);
            if (sets != null) {
                next = Math.min(saved, sets.size());
            } else {
                restoredNext = saved;
            }
        });
    }
}
