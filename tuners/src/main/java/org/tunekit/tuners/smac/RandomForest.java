package org.tunekit.tuners.smac;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A regression random forest that predicts a mean and a variance, the surrogate of SMAC.
 *
 * <p>Inputs are vectors of features. A feature of {@linkplain #cardinality cardinality} 0 is
 * numeric and split by a threshold halfway between two observed values; a feature of cardinality
 * {@code c > 0} holds a category index in {@code 0 .. c-1} and is split into two subsets of
 * categories: the categories present in the node are ordered by their mean target and the best
 * prefix of that order is taken (the optimal subset split for squared error). Each tree is grown on
 * a bootstrap sample, each node considers a random subset of {@code ceil(featureRatio * d)}
 * features, a node of fewer than {@code minSplit} samples is a leaf and no leaf gets fewer than
 * {@code minLeaf} samples.
 *
 * <p>Leaves keep the weight, sum and sum of squares of their targets, so that a sample can be
 * {@linkplain #add added} to (or, with a negative weight, taken out of) a grown forest without
 * growing it again: the tree structure stays, the leaf statistics follow.
 *
 * <p>A prediction is the mixture of the trees' leaf distributions: its mean is the average of the
 * leaf means, its variance the variance of the leaf means plus the average within-leaf variance.
 */
final class RandomForest {
    private final int[] cardinality;
    private final int trees;
    private final int minSplit;
    private final int minLeaf;
    private final int maxDepth;
    private final int featuresPerSplit;
    private Tree[] forest = new Tree[0];

    RandomForest(int[] cardinality, int trees, int minSplit, int minLeaf, int maxDepth, double featureRatio) {
        this.cardinality = cardinality.clone();
        this.trees = trees;
        this.minSplit = Math.max(2, minSplit);
        this.minLeaf = Math.max(1, minLeaf);
        this.maxDepth = maxDepth;
        this.featuresPerSplit = Math.max(1, Math.min(cardinality.length, (int) Math.ceil(featureRatio * cardinality.length)));
    }

    /** The number of trees. */
    int trees() {
        return trees;
    }

    /** Whether the forest has been grown. */
    boolean fitted() {
        return forest.length > 0;
    }

    /**
     * Grows every tree on a bootstrap sample of the first {@code n} rows.
     *
     * @param x   the rows' features
     * @param y   the rows' targets
     * @param n   how many rows to use (at least 1)
     * @param rng the source of the bootstrap samples and feature subsets
     */
    void fit(double[][] x, double[] y, int n, SplittableRandom rng) {
        forest = new Tree[trees];
        for (int t = 0; t < trees; t++) {
            int[] sample = new int[n];
            for (int i = 0; i < n; i++) {
                sample[i] = rng.nextInt(n);
            }
            Tree tree = new Tree();
            tree.grow(x, y, sample, 0, n, 0, rng.split());
            forest[t] = tree;
        }
    }

    /** A copy of every leaf's weight, sum and sum of squares, for {@link #restoreLeaves}. */
    double[][][] saveLeaves() {
        double[][][] saved = new double[forest.length][][];
        for (int t = 0; t < forest.length; t++) {
            Tree tree = forest[t];
            saved[t] = new double[][] {tree.count.clone(), tree.sum.clone(), tree.squares.clone()};
        }
        return saved;
    }

    /**
     * Puts back the leaf statistics {@link #saveLeaves} copied, bit for bit (taking samples out
     * with negative weights would leave rounding behind).
     */
    void restoreLeaves(double[][][] saved) {
        for (int t = 0; t < forest.length; t++) {
            forest[t].count = saved[t][0];
            forest[t].sum = saved[t][1];
            forest[t].squares = saved[t][2];
        }
    }

    /**
     * Adds a sample to the leaf it falls into in each tree.
     *
     * @param weights the weight in each tree (a bootstrap draw), negative to take a sample out
     */
    void add(double[] x, double y, double[] weights) {
        for (int t = 0; t < forest.length; t++) {
            if (weights[t] != 0) {
                Tree tree = forest[t];
                int leaf = tree.leafOf(x);
                tree.count[leaf] += weights[t];
                tree.sum[leaf] += weights[t] * y;
                tree.squares[leaf] += weights[t] * y * y;
            }
        }
    }

    /**
     * Predicts the target of {@code x}.
     *
     * @param out receives the mean at 0 and the variance at 1
     */
    void predict(double[] x, double[] out) {
        double meanSum = 0;
        double meanSquares = 0;
        double within = 0;
        int used = 0;
        for (Tree tree : forest) {
            int leaf = tree.leafOf(x);
            double c = tree.count[leaf];
            if (c <= 1e-12) {
                continue;
            }
            double m = tree.sum[leaf] / c;
            double v = Math.max(0, tree.squares[leaf] / c - m * m);
            meanSum += m;
            meanSquares += m * m;
            within += v;
            used++;
        }
        if (used == 0) {
            out[0] = 0;
            out[1] = 0;
            return;
        }
        double mean = meanSum / used;
        out[0] = mean;
        out[1] = Math.max(0, meanSquares / used - mean * mean) + within / used;
    }

    /** One regression tree in flat arrays; node 0 is the root, a leaf has feature -1. */
    private final class Tree {
        int size;
        int[] feature = new int[16];
        double[] threshold = new double[16];
        boolean[][] leftCategories = new boolean[16][];
        int[] left = new int[16];
        int[] right = new int[16];
        double[] count = new double[16];
        double[] sum = new double[16];
        double[] squares = new double[16];

        int leafOf(double[] x) {
            int node = 0;
            while (feature[node] >= 0) {
                int f = feature[node];
                boolean goLeft = leftCategories[node] != null
                        ? leftCategories[node][(int) x[f]]
                        : x[f] <= threshold[node];
                node = goLeft ? left[node] : right[node];
            }
            return node;
        }

        private int newNode() {
            if (size == feature.length) {
                int n = size * 2;
                feature = Arrays.copyOf(feature, n);
                threshold = Arrays.copyOf(threshold, n);
                leftCategories = Arrays.copyOf(leftCategories, n);
                left = Arrays.copyOf(left, n);
                right = Arrays.copyOf(right, n);
                count = Arrays.copyOf(count, n);
                sum = Arrays.copyOf(sum, n);
                squares = Arrays.copyOf(squares, n);
            }
            feature[size] = -1;
            return size++;
        }

        /** Grows the subtree of rows {@code rows[from, to)}; returns its node. */
        int grow(double[][] x, double[] y, int[] rows, int from, int to, int depth, SplittableRandom rng) {
            int node = newNode();
            int m = to - from;
            double s = 0;
            double ss = 0;
            for (int i = from; i < to; i++) {
                double v = y[rows[i]];
                s += v;
                ss += v * v;
            }
            count[node] = m;
            sum[node] = s;
            squares[node] = ss;
            if (m < minSplit || m < 2 * minLeaf || depth >= maxDepth || ss - s * s / m <= 1e-12 * Math.max(1, ss)) {
                return node;
            }
            Split best = null;
            int d = cardinality.length;
            int[] order = new int[d];
            for (int i = 0; i < d; i++) {
                order[i] = i;
            }
            for (int k = 0; k < featuresPerSplit; k++) {
                int j = k + rng.nextInt(d - k);
                int f = order[j];
                order[j] = order[k];
                order[k] = f;
                Split split = cardinality[f] == 0
                        ? numericSplit(x, y, rows, from, to, f, s, ss)
                        : categoricalSplit(x, y, rows, from, to, f, s);
                if (split != null && (best == null || split.gain > best.gain)) {
                    best = split;
                }
            }
            if (best == null || best.gain <= 1e-12 * Math.max(1, ss)) {
                return node;
            }
            // partition the rows: those going left first
            int i = from;
            int j = to - 1;
            while (i <= j) {
                if (goesLeft(best, x[rows[i]])) {
                    i++;
                } else {
                    int tmp = rows[i];
                    rows[i] = rows[j];
                    rows[j] = tmp;
                    j--;
                }
            }
            if (i - from < minLeaf || to - i < minLeaf) {
                return node;
            }
            feature[node] = best.feature;
            threshold[node] = best.threshold;
            leftCategories[node] = best.leftCategories;
            int l = grow(x, y, rows, from, i, depth + 1, rng);
            left[node] = l;
            int r = grow(x, y, rows, i, to, depth + 1, rng);
            right[node] = r;
            return node;
        }
    }

    private static boolean goesLeft(Split split, double[] row) {
        return split.leftCategories != null ? split.leftCategories[(int) row[split.feature]] : row[split.feature] <= split.threshold;
    }

    /** A candidate split and its reduction of the squared error. */
    private record Split(int feature, double threshold, boolean[] leftCategories, double gain) {}

    private Split numericSplit(double[][] x, double[] y, int[] rows, int from, int to, int f, double s, double ss) {
        int m = to - from;
        double[] keys = new double[m];
        double[] targets = new double[m];
        for (int i = 0; i < m; i++) {
            keys[i] = x[rows[from + i]][f];
            targets[i] = y[rows[from + i]];
        }
        sortTogether(keys, targets, 0, m - 1);
        if (keys[0] == keys[m - 1]) {
            return null;
        }
        double parent = s * s / m;
        double leftSum = 0;
        double bestGain = 0;
        int bestAt = -1;
        for (int i = 0; i < m - 1; i++) {
            leftSum += targets[i];
            int nl = i + 1;
            if (keys[i] == keys[i + 1] || nl < minLeaf || m - nl < minLeaf) {
                continue;
            }
            double gain = gain(leftSum, nl, s, m, parent);
            if (gain > bestGain) {
                bestGain = gain;
                bestAt = i;
            }
        }
        if (bestAt < 0) {
            return null;
        }
        return new Split(f, (keys[bestAt] + keys[bestAt + 1]) / 2, null, bestGain);
    }

    /**
     * How much splitting {@code m} rows whose targets sum to {@code total} into the first {@code nl}
     * (summing to {@code leftSum}) and the rest reduces the squared error, given {@code parent = total^2 / m}.
     */
    private static double gain(double leftSum, int nl, double total, int m, double parent) {
        double rightSum = total - leftSum;
        return leftSum * leftSum / nl + rightSum * rightSum / (m - nl) - parent;
    }

    private Split categoricalSplit(double[][] x, double[] y, int[] rows, int from, int to, int f, double s) {
        int c = cardinality[f];
        double[] catSum = new double[c];
        int[] catCount = new int[c];
        for (int i = from; i < to; i++) {
            int k = (int) x[rows[i]][f];
            catSum[k] += y[rows[i]];
            catCount[k]++;
        }
        int present = 0;
        Integer[] cats = new Integer[c];
        for (int k = 0; k < c; k++) {
            if (catCount[k] > 0) {
                cats[present++] = k;
            }
        }
        if (present < 2) {
            return null;
        }
        Integer[] byMean = Arrays.copyOf(cats, present);
        Arrays.sort(byMean, (a, b) -> Double.compare(catSum[a] / catCount[a], catSum[b] / catCount[b]));
        int m = to - from;
        double parent = s * s / m;
        double leftSum = 0;
        int nl = 0;
        double bestGain = 0;
        int bestAt = -1;
        for (int i = 0; i < present - 1; i++) {
            leftSum += catSum[byMean[i]];
            nl += catCount[byMean[i]];
            if (nl < minLeaf || m - nl < minLeaf) {
                continue;
            }
            double gain = gain(leftSum, nl, s, m, parent);
            if (gain > bestGain) {
                bestGain = gain;
                bestAt = i;
            }
        }
        if (bestAt < 0) {
            return null;
        }
        boolean[] goLeft = new boolean[c];
        int leftCount = 0;
        for (int i = 0; i <= bestAt; i++) {
            goLeft[byMean[i]] = true;
            leftCount += catCount[byMean[i]];
        }
        // categories absent from the node follow the larger side
        boolean absentLeft = leftCount * 2 >= m;
        for (int k = 0; k < c; k++) {
            if (catCount[k] == 0) {
                goLeft[k] = absentLeft;
            }
        }
        return new Split(f, Double.NaN, goLeft, bestGain);
    }

    /** Sorts {@code keys[lo..hi]} ascending, moving {@code values} along. */
    private static void sortTogether(double[] keys, double[] values, int lo, int hi) {
        while (hi - lo > 16) {
            double pivot = median3(keys[lo], keys[(lo + hi) >>> 1], keys[hi]);
            int i = lo;
            int j = hi;
            while (i <= j) {
                while (keys[i] < pivot) {
                    i++;
                }
                while (keys[j] > pivot) {
                    j--;
                }
                if (i <= j) {
                    swap(keys, values, i++, j--);
                }
            }
            if (j - lo < hi - i) {
                sortTogether(keys, values, lo, j);
                lo = i;
            } else {
                sortTogether(keys, values, i, hi);
                hi = j;
            }
        }
        for (int i = lo + 1; i <= hi; i++) {
            double k = keys[i];
            double v = values[i];
            int j = i - 1;
            while (j >= lo && keys[j] > k) {
                keys[j + 1] = keys[j];
                values[j + 1] = values[j];
                j--;
            }
            keys[j + 1] = k;
            values[j + 1] = v;
        }
    }

    private static double median3(double a, double b, double c) {
        return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
    }

    private static void swap(double[] keys, double[] values, int i, int j) {
        double k = keys[i];
        keys[i] = keys[j];
        keys[j] = k;
        double v = values[i];
        values[i] = values[j];
        values[j] = v;
    }
}
