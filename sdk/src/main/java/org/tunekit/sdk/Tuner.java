package org.tunekit.sdk;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.tunekit.sdk.space.SearchSpace;

/**
 * A hyperparameter tuner: suggests parameter sets and learns from their results.
 *
 * <p>The dispatcher calls a tuner from one thread at a time, and in the order the events arrived on
 * the wire: a trial's final result always comes before its {@link #trialEnd}. Implementations need
 * no locking.
 */
public interface Tuner {

    /**
     * Hands the tuner the context through which it can send trials on its own initiative (see
     * {@link TunerContext}). Called once, before the first {@link #updateSearchSpace} (and after
     * {@link #loadCheckpoint} when an experiment resumes), on the thread of the tuner's callbacks.
     * The default ignores it.
     */
    default void open(TunerContext context) {}

    /** Sets (or replaces) the search space. Called before the first suggestion. */
    void updateSearchSpace(SearchSpace space);

    /**
     * Suggests one parameter set.
     *
     * @param parameterId the id the dispatcher gave this suggestion
     * @throws NoMoreTrialsException when the tuner has nothing more to suggest
     */
    Parameters generateParameters(long parameterId) throws NoMoreTrialsException;

    /**
     * Suggests the next parameter set for a multi-phase trial that asked for one. By default the
     * same as {@link #generateParameters(long)}.
     */
    default Parameters generateParameters(long parameterId, String trialJobId) throws NoMoreTrialsException {
        return generateParameters(parameterId);
    }

    /**
     * Suggests one parameter set per id, all before any of their results come back. A tuner that
     * runs out returns fewer (possibly none). The default calls {@link #generateParameters(long)}
     * for each id; model-based tuners override it to spread a batch out.
     */
    default List<Parameters> generateMultipleParameters(List<Long> parameterIds) {
        List<Parameters> out = new ArrayList<>(parameterIds.size());
        for (long id : parameterIds) {
            try {
                out.add(generateParameters(id));
            } catch (NoMoreTrialsException e) {
                break;
            }
        }
        return out;
    }

    /** Receives the final result of a trial. */
    void receiveTrialResult(TrialResult result);

    /**
     * Told when a trial has ended, after its final result (if any).
     *
     * @param parameterId the id of the trial's parameter set
     * @param success     true when the trial succeeded
     */
    default void trialEnd(long parameterId, boolean success) {}

    /** Receives results from elsewhere (imported data, or trials of an experiment being resumed). */
    default void importData(List<ImportedTrial> trials) {}

    /**
     * Whether results of user-added ("customized") trials should reach {@link #receiveTrialResult};
     * false by default.
     */
    default boolean acceptsCustomizedTrials() {
        return false;
    }

    /**
     * Saves state that results cannot rebuild into {@code directory} (which exists). Most tuners
     * need no checkpoint: one that does not implement {@link #loadCheckpoint} is rebuilt on resume
     * from every earlier result, given through {@link #importData} in trial order, and parameter ids
     * go on above the earlier ones; a tuner that draws a suggestion's randomness from its seed and
     * the parameter id then makes the same suggestions as if it had never stopped. A tuner that
     * implements both is given, on resume, only the results its checkpoint does not hold.
     */
    default void saveCheckpoint(Path directory) throws IOException {}

    /** Restores state saved by {@link #saveCheckpoint} when the experiment resumes (see there). */
    default void loadCheckpoint(Path directory) throws IOException {}
}
