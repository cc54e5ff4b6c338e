package org.tunekit.sdk.testkit;

import java.util.List;
import java.util.NoSuchElementException;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.Parameters;

/**
 * What a {@link TunerTestKit#run test run} produced: every trial in the order the tuner suggested
 * it, and whether the tuner ran out of suggestions before the requested number of trials.
 *
 * @param history   the trials, in order of their parameter ids
 * @param mode      the objective's direction, which decides {@link #best()}
 * @param exhausted true when the tuner said it had no more trials
 */
public record TunerRun(List<Trial> history, OptimizeMode mode, boolean exhausted) {

    /**
     * One evaluated suggestion.
     *
     * @param parameterId the id the driver gave the suggestion
     * @param parameters  the suggestion
     * @param value       the objective's value at it
     */
    public record Trial(long parameterId, Parameters parameters, double value) {}

    /** Copies the history. */
    public TunerRun {
        history = List.copyOf(history);
    }

    /**
     * The best trial (the first of equals).
     *
     * @throws NoSuchElementException when the run has no trials
     */
    public Trial best() {
        Trial best = null;
        for (Trial t : history) {
            if (best == null || mode.isBetter(t.value(), best.value())) {
                best = t;
            }
        }
        if (best == null) {
            throw new NoSuchElementException("the run has no trials");
        }
        return best;
    }

    /** The best value after each trial: entry {@code i} is the best of the first {@code i + 1} trials. */
    public double[] bestSoFar() {
        double[] out = new double[history.size()];
        for (int i = 0; i < out.length; i++) {
            double v = history.get(i).value();
            out[i] = (i == 0 || mode.isBetter(v, out[i - 1])) ? v : out[i - 1];
        }
        return out;
    }
}
