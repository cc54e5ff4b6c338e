package org.tunekit.tuners.tpe;

import java.util.Arrays;

/**
 * Every observation the model learns from, in encoded coordinates, kept in the order it arrived
 * (its slot): completed trials with their loss, and pending trials (suggested, no result yet). For
 * every coordinate it keeps the slots where the coordinate is active, sorted by value, and it keeps
 * the completed slots sorted by loss; both are updated by insertion as observations arrive, so
 * building the estimators never sorts. Removed observations stay in place as dead slots and are
 * skipped.
 */
final class History {
    static final byte DEAD = 0;
    static final byte PENDING = 1;
    static final byte DONE = 2;

    private final int dims;
    /** Column per coordinate: values[d][slot]. */
    double[][] values;
    double[] loss = new double[16];
    byte[] state = new byte[16];
    int slots;

    /** Per coordinate, the active slots sorted by (value, slot). */
    int[][] byValue;
    int[] byValueSize;
    /** Completed slots sorted by (loss, slot). */
    int[] byLoss = new int[16];
    int byLossSize;

    int doneCount;
    int pendingCount;

    History(int dims) {
        this.dims = dims;
        values = new double[dims][16];
        byValue = new int[dims][16];
        byValueSize = new int[dims];
    }

    int dims() {
        return dims;
    }

    /** Appends an observation; returns its slot. */
    int add(double[] x, byte initialState, double lossValue) {
        if (slots == loss.length) {
            int n = slots * 2;
            loss = Arrays.copyOf(loss, n);
            state = Arrays.copyOf(state, n);
            for (int d = 0; d < dims; d++) {
                values[d] = Arrays.copyOf(values[d], n);
            }
        }
        int slot = slots++;
        state[slot] = PENDING;
        loss[slot] = Double.NaN;
        pendingCount++;
        for (int d = 0; d < dims; d++) {
            double v = x[d];
            values[d][slot] = v;
            if (!Double.isNaN(v)) {
                insertByValue(d, slot, v);
            }
        }
        if (initialState == DONE) {
            complete(slot, lossValue);
        }
        return slot;
    }

    private void insertByValue(int d, int slot, double v) {
        int[] list = byValue[d];
        int size = byValueSize[d];
        if (size == list.length) {
            list = Arrays.copyOf(list, size * 2);
            byValue[d] = list;
        }
        double[] col = values[d];
        // upper bound: after every equal value, as the new slot is the latest
        int lo = 0;
        int hi = size;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (col[list[mid]] <= v) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        System.arraycopy(list, lo, list, lo + 1, size - lo);
        list[lo] = slot;
        byValueSize[d] = size + 1;
    }

    /** Gives a pending observation its loss. */
    void complete(int slot, double lossValue) {
        if (state[slot] != PENDING) {
            throw new IllegalStateException("slot " + slot + " is not pending");
        }
        state[slot] = DONE;
        pendingCount--;
        doneCount++;
        loss[slot] = lossValue;
        if (byLossSize == byLoss.length) {
            byLoss = Arrays.copyOf(byLoss, byLossSize * 2);
        }
        int lo = 0;
        int hi = byLossSize;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            int s = byLoss[mid];
            if (loss[s] < lossValue || (loss[s] == lossValue && s < slot)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        System.arraycopy(byLoss, lo, byLoss, lo + 1, byLossSize - lo);
        byLoss[lo] = slot;
        byLossSize++;
    }

    /** Removes an observation (a failed trial, or a pending one that ended without a result). */
    void remove(int slot) {
        if (state[slot] == DONE) {
            doneCount--;
            int k = 0;
            while (byLoss[k] != slot) {
                k++;
            }
            System.arraycopy(byLoss, k + 1, byLoss, k, byLossSize - k - 1);
            byLossSize--;
        } else if (state[slot] == PENDING) {
            pendingCount--;
        } else {
            return;
        }
        state[slot] = DEAD;
    }

    /** How many slots are dead. */
    int deadCount() {
        return slots - doneCount - pendingCount;
    }

    /**
     * Drops the dead slots, keeping the order of the others.
     *
     * @return for every old slot its new slot, or -1 for a dropped one
     */
    int[] compact() {
        int[] newSlot = new int[slots];
        int n = 0;
        for (int s = 0; s < slots; s++) {
            if (state[s] == DEAD) {
                newSlot[s] = -1;
                continue;
            }
            newSlot[s] = n;
            loss[n] = loss[s];
            state[n] = state[s];
            for (int d = 0; d < dims; d++) {
                values[d][n] = values[d][s];
            }
            n++;
        }
        slots = n;
        for (int d = 0; d < dims; d++) {
            byValueSize[d] = remap(byValue[d], byValueSize[d], newSlot);
        }
        byLossSize = remap(byLoss, byLossSize, newSlot);
        return newSlot;
    }

    private static int remap(int[] list, int size, int[] newSlot) {
        int n = 0;
        for (int k = 0; k < size; k++) {
            int s = newSlot[list[k]];
            if (s >= 0) {
                list[n++] = s;
            }
        }
        return n;
    }

    /** The observation in slot {@code slot} as an encoded vector. */
    double[] vector(int slot) {
        double[] x = new double[dims];
        for (int d = 0; d < dims; d++) {
            x[d] = values[d][slot];
        }
        return x;
    }

    double bestLoss() {
        return loss[byLoss[0]];
    }

    double worstLoss() {
        return loss[byLoss[byLossSize - 1]];
    }

    /** The mean loss of the completed observations, summed in arrival order. */
    double meanLoss() {
        double sum = 0;
        for (int s = 0; s < slots; s++) {
            if (state[s] == DONE) {
                sum += loss[s];
            }
        }
        return sum / doneCount;
    }
}
