package org.tunekit.sdk.objectives;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Pareto dominance between loss vectors (every coordinate smaller-is-better): non-dominated sorting
 * and crowding distance as NSGA-II (Deb et al. 2002) defines them.
 */
public final class Pareto {
    private Pareto() {}

    /**
     * True when {@code a} dominates {@code b}: no worse in every coordinate and better in one. A
     * vector holding {@code NaN} neither dominates nor is dominated.
     *
     * @throws IllegalArgumentException when the lengths differ
     */
    public static boolean dominates(double[] a, double[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException("vectors of " + a.length + " and " + b.length + " objectives cannot be compared");
        }
        boolean better = false;
        for (int i = 0; i < a.length; i++) {
            if (!(a[i] <= b[i])) {
                return false;
            }
            if (a[i] < b[i]) {
                better = true;
            }
        }
        return better;
    }

    /**
     * The non-domination rank of every point: 0 for the points no other dominates (the Pareto front),
     * 1 for those only rank-0 points dominate, and so on. Equal points share a rank.
     *
     * @param points loss vectors of one length
     * @return one rank per point, in the points' order
     */
    public static int[] ranks(double[][] points) {
        int n = points.length;
        int[] dominatedBy = new int[n];
        int[][] dominates = new int[n][];
        int[] count = new int[n];
        for (int i = 0; i < n; i++) {
            dominates[i] = new int[4];
        }
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                if (dominates(points[i], points[j])) {
                    dominates[i] = push(dominates[i], count[i]++, j);
                    dominatedBy[j]++;
                } else if (dominates(points[j], points[i])) {
                    dominates[j] = push(dominates[j], count[j]++, i);
                    dominatedBy[i]++;
                }
            }
        }
        int[] rank = new int[n];
        int[] current = new int[n];
        int size = 0;
        for (int i = 0; i < n; i++) {
            if (dominatedBy[i] == 0) {
                current[size++] = i;
            }
        }
        int r = 0;
        int[] next = new int[n];
        while (size > 0) {
            int nextSize = 0;
            for (int k = 0; k < size; k++) {
                int i = current[k];
                rank[i] = r;
                for (int t = 0; t < count[i]; t++) {
                    int j = dominates[i][t];
                    if (--dominatedBy[j] == 0) {
                        next[nextSize++] = j;
                    }
                }
            }
            int[] swap = current;
            current = next;
            next = swap;
            size = nextSize;
            r++;
        }
        return rank;
    }

    private static int[] push(int[] a, int size, int v) {
        if (size == a.length) {
            a = Arrays.copyOf(a, size * 2);
        }
        a[size] = v;
        return a;
    }

    /**
     * The fronts of non-dominated sorting: the indices of the rank-0 points, then of the rank-1
     * points, and so on, each in increasing index order.
     */
    public static List<int[]> fronts(double[][] points) {
        int[] rank = ranks(points);
        int max = -1;
        for (int r : rank) {
            max = Math.max(max, r);
        }
        int[] sizes = new int[max + 1];
        for (int r : rank) {
            sizes[r]++;
        }
        List<int[]> out = new ArrayList<>(max + 1);
        int[] fill = new int[max + 1];
        for (int r = 0; r <= max; r++) {
            out.add(new int[sizes[r]]);
        }
        for (int i = 0; i < rank.length; i++) {
            out.get(rank[i])[fill[rank[i]]++] = i;
        }
        return out;
    }

    /**
     * The first fronts of non-dominated sorting, as many as it takes to hold at least {@code atLeast}
     * points (all fronts when there are fewer points), each front's indices in increasing order. The
     * same fronts as the first of {@link #fronts(double[][])}, found by peeling: the points are sorted
     * lexicographically once (so a point can only be dominated by one before it), and each front is
     * the remaining points that no earlier member of that front dominates. That takes
     * O(n log n + n f m) per front of size f, where a full sort takes O(n^2 m), so a model that needs
     * only its best points does not pay for ranking them all.
     */
    public static List<int[]> fronts(double[][] points, int atLeast) {
        int n = points.length;
        Integer[] boxed = new Integer[n];
        for (int i = 0; i < n; i++) {
            boxed[i] = i;
        }
        Arrays.sort(boxed, (a, b) -> {
            double[] x = points[a];
            double[] y = points[b];
            for (int k = 0; k < x.length; k++) {
                int c = Double.compare(x[k], y[k]);
                if (c != 0) {
                    return c;
                }
            }
            return Integer.compare(a, b);
        });
        int[] remaining = new int[n];
        for (int i = 0; i < n; i++) {
            remaining[i] = boxed[i];
        }
        int size = n;
        int covered = 0;
        List<int[]> out = new ArrayList<>();
        int[] front = new int[n];
        int[] rest = new int[n];
        while (size > 0 && covered < atLeast) {
            int f = 0;
            int r = 0;
            for (int k = 0; k < size; k++) {
                int i = remaining[k];
                boolean dominated = false;
                for (int t = 0; t < f && !dominated; t++) {
                    dominated = dominates(points[front[t]], points[i]);
                }
                if (dominated) {
                    rest[r++] = i;
                } else {
                    front[f++] = i;
                }
            }
            int[] members = Arrays.copyOf(front, f);
            Arrays.sort(members);
            out.add(members);
            covered += f;
            int[] swap = remaining;
            remaining = rest;
            rest = swap;
            size = r;
        }
        return out;
    }

    /** The indices of the points that no other point dominates, in increasing order. */
    public static int[] nondominated(double[][] points) {
        return points.length == 0 ? new int[0] : fronts(points).get(0);
    }

    /**
     * The crowding distance of each member of a set of points (Deb et al. 2002): per objective, the
     * members are sorted and each gets the gap between its two neighbours divided by the objective's
     * range; the sums are returned. The members with the smallest and largest value of an objective
     * get {@link Double#POSITIVE_INFINITY}, as do all members of a set of at most two.
     *
     * @param points  loss vectors
     * @param members the indices of the set's points
     * @return one distance per member, in the members' order
     */
    public static double[] crowdingDistances(double[][] points, int[] members) {
        int n = members.length;
        double[] distance = new double[n];
        if (n <= 2) {
            Arrays.fill(distance, Double.POSITIVE_INFINITY);
            return distance;
        }
        int m = points[members[0]].length;
        Integer[] order = new Integer[n];
        for (int k = 0; k < m; k++) {
            final int obj = k;
            for (int i = 0; i < n; i++) {
                order[i] = i;
            }
            Arrays.sort(order, Comparator.comparingDouble((Integer i) -> points[members[i]][obj]).thenComparingInt(i -> i));
            double low = points[members[order[0]]][k];
            double high = points[members[order[n - 1]]][k];
            distance[order[0]] = Double.POSITIVE_INFINITY;
            distance[order[n - 1]] = Double.POSITIVE_INFINITY;
            double range = high - low;
            if (!(range > 0)) {
                continue;
            }
            for (int i = 1; i < n - 1; i++) {
                distance[order[i]] += (points[members[order[i + 1]]][k] - points[members[order[i - 1]]][k]) / range;
            }
        }
        return distance;
    }
}
