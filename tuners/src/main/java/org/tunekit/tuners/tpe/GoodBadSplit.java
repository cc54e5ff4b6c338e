package org.tunekit.tuners.tpe;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.tunekit.sdk.objectives.Hypervolume;
import org.tunekit.sdk.objectives.Pareto;

/**
 * TPE's split of the observations into good and bad: by loss for one objective, by Pareto rank and
 * hypervolume contribution for several (MOTPE). Both mark the good slots in an array that is theirs
 * until the next split; every other slot is bad (or left out, which the model decides).
 */
final class GoodBadSplit {
    /** The largest last front whose members are chosen by hypervolume contribution; larger ones by crowding distance. */
    static final int MAX_HYPERVOLUME_SELECTION = 40;

    private boolean[] good = new boolean[16];
    private int[] pendingSlots = new int[16];

    /** How many of n observations count as good: {@code ceil(gamma * n^0.8)}. */
    static int goodCount(int n, double gamma) {
        return Math.min(n, (int) Math.ceil(gamma * Math.pow(n, 0.8)));
    }

    private boolean[] cleared(History h) {
        if (good.length < h.slots) {
            int n = Math.max(h.slots, good.length * 2);
            good = new boolean[n];
            pendingSlots = new int[n];
        }
        Arrays.fill(good, 0, h.slots, false);
        return good;
    }

    /**
     * The split by loss: of the completed observations and (unless the liar is {@code none}) the
     * pending ones, which take the liar's loss, the {@code goodCount(n)} with the smallest loss are
     * good; ties go to the older slot.
     */
    boolean[] byLoss(History h, TpeSettings.ConstantLiar liar, double gamma) {
        boolean[] good = cleared(h);
        int pending = 0;
        if (liar != TpeSettings.ConstantLiar.NONE) {
            for (int s = 0; s < h.slots; s++) {
                if (h.state[s] == History.PENDING) {
                    pendingSlots[pending++] = s;
                }
            }
        }
        double lie = switch (liar) {
            case WORST -> h.worstLoss();
            case MEAN -> h.meanLoss();
            default -> h.bestLoss();
        };
        int goodLeft = goodCount(h.byLossSize + pending, gamma);
        int i = 0;
        int j = 0;
        while (goodLeft-- > 0) {
            boolean takeDone;
            if (i >= h.byLossSize) {
                takeDone = false;
            } else if (j >= pending) {
                takeDone = true;
            } else {
                int s = h.byLoss[i];
                takeDone = h.loss[s] < lie || (h.loss[s] == lie && s < pendingSlots[j]);
            }
            good[takeDone ? h.byLoss[i++] : pendingSlots[j++]] = true;
        }
        return good;
    }

    /**
     * MOTPE's split: the good observations are {@code goodCount(n)} of the n completed ones, taken
     * front by front in order of Pareto rank; of the first front that does not fit whole, the members
     * that add least to the front's hypervolume are dropped one at a time (reference point: the
     * worst loss of every objective plus a tenth of its range), or, for a front of more than
     * {@value #MAX_HYPERVOLUME_SELECTION}, the most crowded ones. Pending trials follow the liar:
     * {@code best} counts them good, {@code worst} and {@code mean} bad.
     *
     * @param lossVectors every completed slot's vector of losses
     */
    boolean[] byPareto(History h, double[][] lossVectors, TpeSettings.ConstantLiar liar, double gamma) {
        boolean[] good = cleared(h);
        int[] done = new int[h.doneCount];
        int n = 0;
        for (int s = 0; s < h.slots; s++) {
            if (h.state[s] == History.DONE) {
                done[n++] = s;
            }
        }
        double[][] points = new double[n][];
        for (int i = 0; i < n; i++) {
            points[i] = lossVectors[done[i]];
        }
        int quota = goodCount(n, gamma);
        int taken = 0;
        for (int[] front : Pareto.fronts(points, quota)) {
            if (taken >= quota) {
                break;
            }
            if (taken + front.length <= quota) {
                for (int i : front) {
                    good[done[i]] = true;
                }
                taken += front.length;
                continue;
            }
            for (int i : thin(points, front, quota - taken)) {
                good[done[i]] = true;
            }
            taken = quota;
        }
        if (liar == TpeSettings.ConstantLiar.BEST) {
            for (int s = 0; s < h.slots; s++) {
                if (h.state[s] == History.PENDING) {
                    good[s] = true;
                }
            }
        }
        return good;
    }

    /** The {@code keep} members of a front that hold the most of its hypervolume (or, for a large front, the least crowded). */
    static int[] thin(double[][] points, int[] front, int keep) {
        if (front.length > MAX_HYPERVOLUME_SELECTION) {
            double[] crowding = Pareto.crowdingDistances(points, front);
            Integer[] order = new Integer[front.length];
            for (int i = 0; i < order.length; i++) {
                order[i] = i;
            }
            Arrays.sort(order, (a, b) -> Double.compare(crowding[b], crowding[a]));
            int[] out = new int[keep];
            for (int i = 0; i < keep; i++) {
                out[i] = front[order[i]];
            }
            return out;
        }
        double[] reference = Hypervolume.nadirReference(points, 0.1);
        List<Integer> members = new ArrayList<>();
        for (int i : front) {
            members.add(i);
        }
        while (members.size() > keep) {
            double[][] p = new double[members.size()][];
            for (int i = 0; i < p.length; i++) {
                p[i] = points[members.get(i)];
            }
            double[] contribution = Hypervolume.contributions(p, reference);
            int worst = 0;
            for (int i = 1; i < contribution.length; i++) {
                if (contribution[i] < contribution[worst]) {
                    worst = i;
                }
            }
            members.remove(worst);
        }
        int[] out = new int[keep];
        for (int i = 0; i < keep; i++) {
            out[i] = members.get(i);
        }
        return out;
    }
}
