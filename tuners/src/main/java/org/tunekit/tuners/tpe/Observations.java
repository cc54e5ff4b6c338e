package org.tunekit.tuners.tpe;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What TPE has seen of its trials, in encoded coordinates: the completed observations with their
 * loss (and, for MOTPE, their vector of losses), and the trials it suggested in this run that have
 * no result yet, which the constant liar stands in for. It knows the trials by parameter id, so that
 * a result completes its pending suggestion in place and a trial that ends without one is dropped.
 *
 * <p>Observations are kept in the order they arrived ({@link History}'s slots): a suggestion's slot
 * is taken when it is made, an imported or unrequested result's when it arrives.
 */
final class Observations {
    /** A completed observation: its encoded vector, its loss and its vector of losses (null for TPE). */
    record Completed(double[] x, double loss, double[] lossVector) {}

    private final boolean multiObjective;
    private History history;
    /** Every slot's vector of losses (null for pending and dead slots); empty unless multi-objective. */
    private double[][] lossVectors;
    /** The trials known by parameter id (pending, or with a result and not yet ended), to their slot. */
    private final Map<Long, Integer> slotOfTrial = new HashMap<>();

    Observations(int dims, boolean multiObjective) {
        this.history = new History(dims);
        this.multiObjective = multiObjective;
        this.lossVectors = new double[multiObjective ? 16 : 0][];
    }

    History history() {
        return history;
    }

    /** Every slot's vector of losses (MOTPE). */
    double[][] lossVectors() {
        return lossVectors;
    }

    int completedCount() {
        return history.doneCount;
    }

    int pendingCount() {
        return history.pendingCount;
    }

    /** Records a suggestion as pending (replacing an earlier pending one under the same id). */
    void suggested(long parameterId, double[] x) {
        int slot = history.add(x, History.PENDING, Double.NaN);
        Integer previous = slotOfTrial.put(parameterId, slot);
        if (previous != null) {
            history.remove(previous);
        }
    }

    /**
     * Gives the pending suggestion of {@code parameterId} its result: with a finite loss it becomes a
     * completed observation in its slot, otherwise it is dropped.
     *
     * @return false when the trial was not pending (unknown, or with a result already, which is then
     *         dropped: a second final result replaces the first); the caller then adds the result
     *         with {@link #add}
     */
    boolean completePending(long parameterId, double loss, double[] lossVector) {
        Integer slot = slotOfTrial.get(parameterId);
        if (slot == null) {
            return false;
        }
        if (history.state[slot] != History.PENDING) {
            history.remove(slot);
            return false;
        }
        if (Double.isFinite(loss)) {
            history.complete(slot, loss);
            setLossVector(slot, lossVector);
        } else {
            history.remove(slot);
            slotOfTrial.remove(parameterId);
        }
        return true;
    }

    /**
     * Adds a completed observation in a new slot; a null {@code x} (a result the model cannot use)
     * only forgets the trial.
     *
     * @param parameterId the trial's parameter id, or null for an imported result
     */
    void add(Long parameterId, double[] x, double loss, double[] lossVector) {
        if (x == null) {
            if (parameterId != null) {
                slotOfTrial.remove(parameterId);
            }
            return;
        }
        int slot = history.add(x, History.DONE, loss);
        setLossVector(slot, lossVector);
        if (parameterId != null) {
            slotOfTrial.put(parameterId, slot);
        }
    }

    /**
     * A trial ended: a suggestion still pending lies no more. One with a result stays an observation,
     * even after an unsuccessful end (a stopped trial's last intermediate value, with
     * NNI_INCLUDE_INTERMEDIATE_RESULTS, is learnt from, as the manager meant it to be).
     */
    void ended(long parameterId) {
        Integer slot = slotOfTrial.remove(parameterId);
        if (slot != null && history.state[slot] == History.PENDING) {
            history.remove(slot);
        }
    }

    /** The completed observations, oldest first. */
    List<Completed> completed() {
        List<Completed> out = new ArrayList<>();
        for (int s = 0; s < history.slots; s++) {
            if (history.state[s] == History.DONE) {
                out.add(new Completed(history.vector(s), history.loss[s], multiObjective ? lossVectors[s] : null));
            }
        }
        return out;
    }

    /** Drops the dead slots once they are many (more than 64 and a quarter of all), keeping the order of the others. */
    void compactIfSparse() {
        if (history.deadCount() <= 64 || history.deadCount() <= history.slots / 4) {
            return;
        }
        int[] newSlot = history.compact();
        if (multiObjective) {
            double[][] moved = new double[lossVectors.length][];
            for (int s = 0; s < newSlot.length && s < lossVectors.length; s++) {
                if (newSlot[s] >= 0) {
                    moved[newSlot[s]] = lossVectors[s];
                }
            }
            lossVectors = moved;
        }
        slotOfTrial.replaceAll((id, slot) -> newSlot[slot]);
        slotOfTrial.values().removeIf(slot -> slot < 0);
    }

    private void setLossVector(int slot, double[] vector) {
        if (!multiObjective) {
            return;
        }
        if (slot >= lossVectors.length) {
            lossVectors = Arrays.copyOf(lossVectors, Math.max(slot + 1, lossVectors.length * 2));
        }
        lossVectors[slot] = vector;
    }
}
