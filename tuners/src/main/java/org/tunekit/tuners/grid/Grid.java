package org.tunekit.tuners.grid;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.space.Choice;
import org.tunekit.sdk.space.Continuous;
import org.tunekit.sdk.space.InvalidSearchSpaceException;
import org.tunekit.sdk.space.Parameter;
import org.tunekit.sdk.space.RandInt;
import org.tunekit.sdk.space.SearchSpace;

/**
 * The enumeration order of NNI's grid search over one search space.
 *
 * <p>Every parameter, nested ones included, is a dimension, numbered depth first in definition
 * order. A {@code choice} or {@code randint} dimension has all its values from the start, in order.
 * Any other dimension holds positions in (0, 1) of its prior's quantile scale (the inverse CDF, then
 * quantisation and clipping turn a position into a value): {@code [0.5]} at first; each later round
 * appends, in increasing order, the midpoints of the gaps between neighbouring positions (0 and 1
 * bounding the outer gaps) whose values differ from both neighbours, so a quantised dimension never
 * takes the same value twice. The outer bounds count as different from everything, their values not
 * being on the grid.
 *
 * <p>Each round walks every index vector of the grid like an odometer, the last dimension fastest,
 * moving only the dimensions in use (a parameter nested under a choice option is in use only while
 * that option is chosen), and yields the vectors that use at least one value added in that round.
 * The grid is exhausted when no gap can yield a new value any more, which for finite spaces happens
 * once every value has been used; spaces with a non-quantised continuous or an unbounded parameter
 * never run out in practice.
 */
final class Grid {
    private final SearchSpace space;
    private final List<Dimension> dims = new ArrayList<>();
    private final int[] topLevel;
    private int[] vector;
    private int round;
    private boolean exhausted;

    /** One dimension of the grid. */
    private static final class Dimension {
        final Parameter parameter;
        /** For a choice: per option, the dimensions of its nested space, or {@code null}. */
        int[][] children;
        /** Number of values of a categorical dimension, or -1 for a quantile dimension. */
        final int categories;
        /** The positions of a quantile dimension, in the order they joined the grid. */
        final List<Double> positions = new ArrayList<>();
        /** Gaps that may still yield new values, as {low, high} positions in increasing order. */
        List<double[]> gaps = new ArrayList<>();
        /** The size of the grid in this dimension before the current round. */
        int bar;

        Dimension(Parameter parameter) {
            this.parameter = parameter;
            if (parameter instanceof Choice c) {
                categories = c.size();
            } else if (parameter instanceof RandInt r) {
                if (r.size() > Integer.MAX_VALUE) {
                    throw new InvalidSearchSpaceException(r.path(), "randint has " + r.size()
                            + " values, too many to enumerate in a grid");
                }
                categories = (int) r.size();
            } else {
                categories = -1;
                positions.add(0.5);
                Continuous c = (Continuous) parameter;
                addIfProductive(c, 0.0, 0.5, gaps);
                addIfProductive(c, 0.5, 1.0, gaps);
            }
        }

        int size() {
            return categories >= 0 ? categories : positions.size();
        }
    }

    Grid(SearchSpace space) {
        this.space = space;
        this.topLevel = addSpace(space);
    }

    private int[] addSpace(SearchSpace s) {
        List<Parameter> params = s.parameters();
        int[] out = new int[params.size()];
        for (int i = 0; i < params.size(); i++) {
            Parameter p = params.get(i);
            int index = dims.size();
            Dimension d = new Dimension(p);
            dims.add(d);
            out[i] = index;
            if (p instanceof Choice c && c.nested()) {
                d.children = new int[c.size()][];
                for (int k = 0; k < c.size(); k++) {
                    Choice.Option o = c.options().get(k);
                    if (o.nested()) {
                        d.children[k] = addSpace(o.subspace());
                    }
                }
            }
        }
        return out;
    }

    /** The search space this grid enumerates. */
    SearchSpace space() {
        return space;
    }

    /** The next point in grid order, or {@code null} when the grid is exhausted. */
    Parameters next() {
        while (!exhausted) {
            if (vector == null) {
                vector = new int[dims.size()];
            } else if (!step()) {
                vector = null;
                subdivide();
                continue;
            }
            if (round == 0 || !allOld()) {
                return Parameters.of(valuesOf(topLevel));
            }
        }
        return null;
    }

    /** Moves the vector on by one, odometer-wise over the dimensions in use; false at the end of the round. */
    private boolean step() {
        List<Integer> active = new ArrayList<>();
        collectActive(topLevel, active);
        for (int j = active.size() - 1; j >= 0; j--) {
            int i = active.get(j);
            if (vector[i] + 1 < dims.get(i).size()) {
                vector[i]++;
                return true;
            }
            vector[i] = 0;
        }
        return false;
    }

    private void collectActive(int[] indices, List<Integer> out) {
        for (int i : indices) {
            out.add(i);
            int[][] children = dims.get(i).children;
            if (children != null && children[vector[i]] != null) {
                collectActive(children[vector[i]], out);
            }
        }
    }

    /** True when every dimension in use is at a value that an earlier round already used. */
    private boolean allOld() {
        List<Integer> active = new ArrayList<>();
        collectActive(topLevel, active);
        for (int i : active) {
            if (vector[i] >= dims.get(i).bar) {
                return false;
            }
        }
        return true;
    }

    /** Starts the next round: refines every quantile dimension; rounds that add nothing are skipped. */
    private void subdivide() {
        while (true) {
            round++;
            boolean added = false;
            boolean productive = false;
            for (Dimension d : dims) {
                d.bar = d.size();
                if (d.categories >= 0) {
                    continue;
                }
                Continuous c = (Continuous) d.parameter;
                List<double[]> nextGaps = new ArrayList<>();
                for (double[] gap : d.gaps) {
                    double l = gap[0];
                    double r = gap[1];
                    double m = (l + r) / 2;
                    double vl = valueAt(c, l);
                    double vm = valueAt(c, m);
                    double vr = valueAt(c, r);
                    if ((vl < vm || l == 0.0) && (vm < vr || r == 1.0)) {
                        d.positions.add(m);
                        added = true;
                    }
                    addIfProductive(c, l, m, nextGaps);
                    addIfProductive(c, m, r, nextGaps);
                }
                d.gaps = nextGaps;
                productive |= !nextGaps.isEmpty();
            }
            if (added) {
                return;
            }
            if (!productive) {
                exhausted = true;
                return;
            }
        }
    }

    /** Keeps the gap (l, r) when bisecting it can still yield a value not yet on the grid. */
    private static void addIfProductive(Continuous c, double l, double r, List<double[]> gaps) {
        double m = (l + r) / 2;
        if (!(l < m && m < r)) {
            return; // no position left between l and r
        }
        double vl = valueAt(c, l);
        double vr = valueAt(c, r);
        if (!(vl < vr)) {
            return;
        }
        if (c.q() == 0 || l == 0.0 || r == 1.0) {
            gaps.add(new double[] {l, r});
            return;
        }
        // quantised, both ends on the grid: is there a multiple of q strictly between their values?
        double q = c.q();
        double next = (Math.floor(vl / q + 1e-9) + 1) * q;
        if (c.bounded()) {
            next = Math.min(c.high(), Math.max(c.low(), next));
        }
        if (next < vr && vr - next > 1e-9 * q) {
            gaps.add(new double[] {l, r});
        }
    }

    private static double valueAt(Continuous c, double position) {
        return c.quantize(c.rawFromUnit(position));
    }

    private Map<String, Object> valuesOf(int[] indices) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (int i : indices) {
            Dimension d = dims.get(i);
            values.put(d.parameter.name(), valueOf(d, vector[i]));
        }
        return values;
    }

    private Object valueOf(Dimension d, int index) {
        if (d.parameter instanceof Choice c) {
            Choice.Option o = c.options().get(index);
            if (!o.nested()) {
                return o.value();
            }
            return Choice.nestedValue(o, Parameters.of(valuesOf(d.children[index])));
        }
        if (d.parameter instanceof RandInt r) {
            return r.low() + index;
        }
        return valueAt((Continuous) d.parameter, d.positions.get(index));
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("Grid(round ").append(round).append(", sizes ");
        int[] sizes = new int[dims.size()];
        for (int i = 0; i < sizes.length; i++) {
            sizes[i] = dims.get(i).size();
        }
        return sb.append(Arrays.toString(sizes)).append(')').toString();
    }
}
