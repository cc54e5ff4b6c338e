package org.tunekit.runner.results;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.DoubleStream;
import java.util.stream.IntStream;
import org.tunekit.sdk.objectives.Objectives;
import org.tunekit.sdk.space.Choice;
import org.tunekit.sdk.space.Continuous;
import org.tunekit.sdk.space.LogUniform;
import org.tunekit.sdk.space.Parameter;
import org.tunekit.sdk.space.RandInt;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.sdk.space.Uniform;

/**
 * How much of the variation of the trials' values each parameter explains on its own: fANOVA (Hutter, Hoos and
 * Leyton-Brown, <i>An Efficient Approach for Assessing Hyperparameter Importance</i>, ICML 2014), as Optuna's
 * default {@code FanovaImportanceEvaluator} computes it. For the dashboard and the report.
 *
 * <p><b>Method.</b> A random forest regressor of 64 trees is fitted to the trials: each tree to a bootstrap
 * sample, every parameter considered at every split, grown to depth 64 at most and until a node has fewer than 2
 * samples, equal values, or no split that lowers the squared error; a numeric split point is the midpoint between
 * two neighbouring values. A tree cuts the parameters' domain into one cell per leaf and predicts a constant on
 * each, so the variance of its prediction over the whole domain, and the variance of each single-parameter
 * marginal (the prediction averaged over all other parameters), are exact sums over the cells weighed by their
 * volume. A parameter's importance is the mean over the trees of its marginal variance divided by the tree's
 * variance (trees that predict a constant left out); the means are then divided by their sum, so that the
 * importances sum to 1, as Optuna normalises them. Before that division, what the means leave of 1 is the share
 * of the interactions between parameters, which is not reported.
 *
 * <p><b>Domain.</b> The domain, whose volume weighs the cells, is the search space's prior, each parameter on
 * the scale where the prior is uniform: {@code uniform} and {@code quniform} the value in {@code [low, high]}
 * (rounding to a multiple of q changes at the midpoints between multiples, where the splits fall, so the
 * quantised prior weighs as the cells do); {@code loguniform} and {@code qloguniform} the log of the value in
 * {@code [log low, log high]}; {@code randint [low, high)} the value in {@code [low - 1/2, high - 1/2]}, an
 * interval of width 1 per integer; the unbounded {@code normal} and {@code qnormal} the value, {@code lognormal}
 * and {@code qlognormal} its log, between the smallest and largest seen. A value outside its bounds widens them.
 *
 * <p><b>Categories.</b> A {@code choice} is a categorical variable, each of its k options weighing 1/k; a
 * nested choice is the option its {@code _name} names (its sub-parameters are not rated). A split of a
 * categorical sends a set of categories left: the best of the k - 1 splits of the node's categories ordered by
 * their mean value (for squared error the best of all partitions is among them); a category none of the node's
 * samples has goes to the side with more samples. A cell then holds a set of categories and the domain is
 * exactly the k options. One-hot columns would not be: their box holds corners that are no option, or several,
 * and weighs them as options; an ordinal code with splits on it would cut the options only in one arbitrary
 * order, splitting categories of like effect apart.
 *
 * <p><b>Without a search space</b>, or for a parameter the space does not define or a value that does not fit
 * it (a space changed while the experiment ran), the domain is read from the values seen: all numbers (and not
 * a {@code choice}), a number between the smallest and the largest; otherwise a categorical of the distinct
 * values. Only the top-level parameters that every trial has are rated.
 *
 * <p><b>Cost.</b> At most 2,000 trials are fitted: a random subset of them when there are more. 10,000 trials of
 * 10 parameters took 0.5 to 0.7 s on one core of a shared 2-core machine (fitting all 10,000 took 2 to 4 s).
 *
 * <p>Seeded: the same trials in the same order with the same seed give the same importances; another order or
 * seed gives another forest, whose importances differ by chance.
 */
public final class Importance {
    /** The number of trees, as Optuna's default. */
    static final int TREES = 64;
    /** The deepest a tree grows, as Optuna's default. */
    static final int MAX_DEPTH = 64;
    /** The most trials a forest is fitted to; more are subsampled. */
    static final int MAX_TRIALS = 2000;

    private Importance() {
    }

    /**
     * The importance of each parameter, most important first.
     *
     * @param parameters  each trial's parameters (name to value: a number, string, boolean, list, or map; a
     *                    nested choice a map with {@code _name})
     * @param values      each trial's value, in the same order; trials whose value is NaN or infinite are left out
     * @param searchSpace the search space in NNI's format ({@code {"name": {"_type": ..., "_value": [...]}}}), or
     *                    {@code null} to read every parameter's domain from the values seen
     * @param seed        the seed of the forest's random choices
     * @return parameter name to importance, unmodifiable, the importances summing to 1, in order of decreasing
     *         importance (ties in the space's order, then the trials'); empty when nothing can be told: fewer than
     *         2 trials with a finite value, those values all equal, or no parameter with an effect of its own
     * @throws IllegalArgumentException when the lengths differ or the search space is malformed
     */
    public static Map<String, Double> of(List<Map<String, Object>> parameters, double[] values,
                                         Map<String, Object> searchSpace, long seed) {
        if (parameters.size() != values.length) {
            throw new IllegalArgumentException(parameters.size() + " parameter sets but " + values.length + " values");
        }
        SearchSpace space = searchSpace == null ? SearchSpace.empty() : SearchSpace.parse(searchSpace);
        List<Integer> finite = IntStream.range(0, values.length).filter(i -> Double.isFinite(values[i])).boxed().toList();
        SplittableRandom random = new SplittableRandom(seed);
        if (finite.size() > MAX_TRIALS) {
            finite = subsample(finite, MAX_TRIALS, random);
        }
        if (finite.size() < 2) {
            return Map.of();
        }
        List<Map<String, Object>> used = finite.stream().map(parameters::get).toList();
        double[] y = standardised(finite.stream().mapToDouble(i -> values[i]).toArray());
        if (y == null) {
            return Map.of();
        }
        Encoded e = encode(used, space);
        if (e.names().isEmpty()) {
            return Map.of();
        }
        double[] mean = forestImportance(e.dimensions(), e.x(), y, random);
        double sum = Arrays.stream(mean).sum();
        if (!(sum > 0)) {
            return Map.of();
        }
        Map<String, Double> out = new LinkedHashMap<>();
        IntStream.range(0, mean.length).boxed().sorted(Comparator.comparingDouble(d -> -mean[d]))
                .forEach(d -> out.put(e.names().get(d), mean[d] / sum));
        return Collections.unmodifiableMap(out);
    }

    /**
     * The importance of each parameter in an experiment's succeeded trials, as {@link #of(List, double[], Map, long)}:
     * of the first objective's value when the experiment names objectives (a trial whose final metric lacks it left
     * out), otherwise (or when its objectives are malformed) of the final value.
     *
     * @param results     the experiment's results
     * @param searchSpace the experiment's search space in NNI's format, or {@code null}
     * @param seed        the seed of the forest's random choices
     * @return as {@link #of(List, double[], Map, long)}
     */
    public static Map<String, Double> of(ExperimentResults results, Map<String, Object> searchSpace, long seed) {
        Objectives objectives;
        try {
            objectives = results.objectiveList();
        } catch (IllegalArgumentException e) {
            objectives = Objectives.none();
        }
        List<Map<String, Object>> parameters = new ArrayList<>();
        List<Double> values = new ArrayList<>();
        for (TrialRecord t : results.trials()) {
            if (t.status() != TrialStatus.SUCCEEDED) {
                continue;
            }
            Double v = t.finalValue();
            if (!objectives.isEmpty()) {
                try {
                    v = t.finalMetric() == null ? null : objectives.values(t.finalMetric(), "trial " + t.trialJobId())[0];
                } catch (IllegalArgumentException e) {
                    v = null;
                }
            }
            if (v != null && Double.isFinite(v)) {
                parameters.add(t.parameters());
                values.add(v);
            }
        }
        return of(parameters, values.stream().mapToDouble(Double::doubleValue).toArray(), searchSpace, seed);
    }

    /** {@code k} of the items, drawn without replacement, in their order. */
    private static List<Integer> subsample(List<Integer> items, int k, SplittableRandom random) {
        int[] idx = IntStream.range(0, items.size()).toArray();
        for (int i = 0; i < k; i++) {
            int j = i + random.nextInt(idx.length - i);
            int t = idx[i];
            idx[i] = idx[j];
            idx[j] = t;
        }
        return Arrays.stream(idx, 0, k).sorted().mapToObj(items::get).toList();
    }

    /** The values less their mean, divided by their standard deviation, or {@code null} when they are all equal. */
    private static double[] standardised(double[] v) {
        double min = Arrays.stream(v).min().orElseThrow();
        double max = Arrays.stream(v).max().orElseThrow();
        if (min == max) {
            return null;
        }
        // scaled first, so that squares of values near the largest double stay finite
        double scale = Math.max(Math.abs(min), Math.abs(max));
        double mean = Arrays.stream(v).map(x -> x / scale).average().orElseThrow();
        double sd = Math.sqrt(Arrays.stream(v).map(x -> (x / scale - mean) * (x / scale - mean)).average().orElseThrow());
        return Arrays.stream(v).map(x -> (x / scale - mean) / sd).toArray();
    }

    // ---- encoding ------------------------------------------------------------------------------------------

    /**
     * One dimension of the domain: categories {@code 0 .. categories - 1} each weighing {@code 1 / categories}, or,
     * when {@code categories} is 0, the numbers in {@code [low, high]} weighed uniformly.
     */
    record Dimension(double low, double high, int categories) {
        static Dimension numeric(double low, double high) {
            return new Dimension(low, high, 0);
        }

        static Dimension categorical(int categories) {
            return new Dimension(0, 0, categories);
        }

        boolean isCategorical() {
            return categories > 0;
        }
    }

    /** The parameters rated, their dimensions, and each trial's point: a number, or a category's index. */
    record Encoded(List<String> names, List<Dimension> dimensions, double[][] x) {
    }

    /** The trials' parameters as points of the domain, by {@link Importance}'s encoding. */
    static Encoded encode(List<Map<String, Object>> trials, SearchSpace space) {
        LinkedHashSet<String> names = new LinkedHashSet<>();
        space.parameters().forEach(p -> names.add(p.name()));
        trials.forEach(t -> names.addAll(t.keySet()));
        names.removeIf(name -> trials.stream().anyMatch(t -> !t.containsKey(name)));
        List<String> rated = List.copyOf(names);
        List<Dimension> dims = new ArrayList<>();
        double[][] x = new double[trials.size()][rated.size()];
        for (int d = 0; d < rated.size(); d++) {
            String name = rated.get(d);
            List<Object> seen = trials.stream().map(t -> t.get(name)).toList();
            double[] column = new double[seen.size()];
            dims.add(encode(space.parameter(name), seen, column));
            for (int i = 0; i < column.length; i++) {
                x[i][d] = column[i];
            }
        }
        return new Encoded(rated, List.copyOf(dims), x);
    }

    /**
     * A parameter's dimension, by its definition ({@code null} when the space has none) or else by the values seen;
     * fills in the values' coordinates.
     */
    private static Dimension encode(Parameter p, List<Object> seen, double[] column) {
        if (p instanceof Choice c && seen.stream().allMatch(v -> c.indexOf(v) >= 0)) {
            for (int i = 0; i < column.length; i++) {
                column[i] = c.indexOf(seen.get(i));
            }
            return Dimension.categorical(c.size());
        }
        boolean numbers = seen.stream().allMatch(v -> v instanceof Number n && Double.isFinite(n.doubleValue()));
        if (numbers && !(p instanceof Choice)) {
            boolean log = p instanceof Continuous c && c.logScale();
            // normal and lognormal are unbounded, and a parameter the space does not define has no bounds:
            // the values seen bound them
            double[] bounds = {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
            if (p instanceof Uniform u) {
                bounds = new double[] {u.low(), u.high()};
            } else if (p instanceof LogUniform u) {
                bounds = new double[] {Math.log(u.low()), Math.log(u.high())};
            } else if (p instanceof RandInt r) {
                bounds = new double[] {r.low() - 0.5, r.high() - 0.5};
            }
            return numeric(seen, log, bounds, column);
        }
        Map<Object, Integer> categories = new LinkedHashMap<>();
        for (int i = 0; i < column.length; i++) {
            column[i] = categories.computeIfAbsent(categoryKey(seen.get(i)), k -> categories.size());
        }
        return Dimension.categorical(categories.size());
    }

    /**
     * A numeric dimension: the values (their logs when {@code log}) widen the bounds to hold them all; a
     * non-positive value on a log scale (a quantised one rounded to 0) is put at the lower bound.
     */
    private static Dimension numeric(List<Object> seen, boolean log, double[] bounds, double[] column) {
        double low = bounds[0];
        double high = bounds[1];
        for (int i = 0; i < column.length; i++) {
            double v = ((Number) seen.get(i)).doubleValue();
            column[i] = log ? (v > 0 ? Math.log(v) : Double.NaN) : v;
            if (!Double.isNaN(column[i])) {
                low = Math.min(low, column[i]);
                high = Math.max(high, column[i]);
            }
        }
        if (low > high) { // no positive value on a log scale, and no bounds
            low = 0;
            high = 0;
        }
        for (int i = 0; i < column.length; i++) {
            if (Double.isNaN(column[i])) {
                column[i] = low;
            }
        }
        return Dimension.numeric(low, high);
    }

    /** What tells categories of values seen apart: numbers by value, a nested choice by its option's name. */
    private static Object categoryKey(Object v) {
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        if (v instanceof Map<?, ?> m && m.containsKey(Values.CHOICE_NAME)) {
            return Arrays.asList("choice", categoryKey(m.get(Values.CHOICE_NAME)));
        }
        return v;
    }

    // ---- the forest ----------------------------------------------------------------------------------------

    /** A node of a regression tree. */
    sealed interface Node permits Leaf, Split {
    }

    /** A leaf: the tree's prediction for the points that reach it. */
    record Leaf(double value) implements Node {
    }

    /**
     * A split on dimension {@code dimension}: a number goes to {@code left} when it is at most {@code threshold}, a
     * category when it is in {@code categories} (which is {@code null} for a numeric split); others to {@code right}.
     */
    record Split(int dimension, double threshold, BitSet categories, Node left, Node right) implements Node {
        boolean goesLeft(double x) {
            return categories == null ? x <= threshold : categories.get((int) x);
        }
    }

    /** The mean over the forest's trees of each dimension's share of the tree's variance. */
    private static double[] forestImportance(List<Dimension> dims, double[][] x, double[] y, SplittableRandom random) {
        SplittableRandom[] perTree = new SplittableRandom[TREES];
        for (int t = 0; t < TREES; t++) {
            perTree[t] = random.split();
        }
        int[][] sorted = new int[dims.size()][];
        for (int d = 0; d < dims.size(); d++) {
            int dim = d;
            sorted[d] = IntStream.range(0, y.length).boxed().sorted(Comparator.comparingDouble(i -> x[i][dim]))
                    .mapToInt(Integer::intValue).toArray();
        }
        double[] sum = new double[dims.size()];
        int counted = 0;
        for (int t = 0; t < TREES; t++) {
            Node tree = fitTree(dims, x, y, sorted, perTree[t]);
            Variances v = variances(tree, dims);
            if (v.total() > 0) {
                for (int d = 0; d < sum.length; d++) {
                    sum[d] += v.marginal()[d] / v.total();
                }
                counted++;
            }
        }
        for (int d = 0; d < sum.length; d++) {
            sum[d] = counted == 0 ? 0 : sum[d] / counted;
        }
        return sum;
    }

    /**
     * A tree fitted to a bootstrap sample of the points, drawn as weights: how many times each point was drawn.
     *
     * @param sorted the points' indices, for each dimension in increasing order of it
     */
    static Node fitTree(List<Dimension> dims, double[][] x, double[] y, int[][] sorted, SplittableRandom random) {
        double[] w = new double[y.length];
        for (int i = 0; i < y.length; i++) {
            w[random.nextInt(y.length)]++;
        }
        int[][] order = new int[dims.size()][];
        for (int d = 0; d < order.length; d++) {
            order[d] = Arrays.stream(sorted[d]).filter(i -> w[i] > 0).toArray();
        }
        return new Grower(dims, x, y, w).grow(order, 0);
    }

    /** Grows a tree on weighted points. */
    private record Grower(List<Dimension> dims, double[][] x, double[] y, double[] w) {
        /** A split found, and by how much it lowers the node's weighted squared error. */
        private record Candidate(double gain, Split split) {
        }

        /** The subtree of the points in {@code order[d]}, listed for each dimension d in increasing order of it. */
        Node grow(int[][] order, int depth) {
            int[] members = order[0];
            double weight = 0;
            double sum = 0;
            double min = Double.POSITIVE_INFINITY;
            double max = Double.NEGATIVE_INFINITY;
            for (int i : members) {
                weight += w[i];
                sum += w[i] * y[i];
                min = Math.min(min, y[i]);
                max = Math.max(max, y[i]);
            }
            double mean = sum / weight;
            if (weight < 2 || depth >= MAX_DEPTH || min == max) {
                return new Leaf(mean);
            }
            double error = 0;
            for (int i : members) {
                error += w[i] * (y[i] - mean) * (y[i] - mean);
            }
            // a gain within rounding of zero is no gain: it would split points of equal means
            Candidate best = new Candidate(1e-12 * error, null);
            for (int d = 0; d < dims.size(); d++) {
                Candidate c = dims.get(d).isCategorical() ? categorical(d, members, mean) : numeric(d, order[d], mean);
                if (c != null && c.gain() > best.gain()) {
                    best = c;
                }
            }
            if (best.split() == null) {
                return new Leaf(mean);
            }
            Split s = best.split();
            int[][] left = new int[order.length][];
            int[][] right = new int[order.length][];
            for (int d = 0; d < order.length; d++) {
                int[] l = new int[order[d].length];
                int[] r = new int[order[d].length];
                int nl = 0;
                int nr = 0;
                for (int i : order[d]) {
                    if (s.goesLeft(x[i][s.dimension()])) {
                        l[nl++] = i;
                    } else {
                        r[nr++] = i;
                    }
                }
                left[d] = Arrays.copyOf(l, nl);
                right[d] = Arrays.copyOf(r, nr);
            }
            return new Split(s.dimension(), s.threshold(), s.categories(), grow(left, depth + 1), grow(right, depth + 1));
        }

        /** The best split of dimension d at a midpoint between two neighbouring values, or {@code null}. */
        private Candidate numeric(int d, int[] sorted, double mean) {
            double total = 0;
            double weight = 0;
            for (int i : sorted) {
                total += w[i] * (y[i] - mean);
                weight += w[i];
            }
            double leftSum = 0;
            double leftWeight = 0;
            double bestGain = Double.NEGATIVE_INFINITY;
            double threshold = Double.NaN;
            for (int k = 0; k + 1 < sorted.length; k++) {
                int i = sorted[k];
                leftSum += w[i] * (y[i] - mean);
                leftWeight += w[i];
                double a = x[i][d];
                double b = x[sorted[k + 1]][d];
                if (a == b) {
                    continue;
                }
                double gain = gain(leftSum, leftWeight, total, weight);
                if (gain > bestGain) {
                    bestGain = gain;
                    double mid = a + (b - a) / 2;
                    threshold = mid < b ? mid : a;
                }
            }
            return Double.isNaN(threshold) ? null : new Candidate(bestGain, new Split(d, threshold, null, null, null));
        }

        /**
         * The best split of categorical dimension d into the categories of lower and of higher mean value, or
         * {@code null}; the categories no point here has go to the side that weighs more.
         */
        private Candidate categorical(int d, int[] members, double mean) {
            int k = dims.get(d).categories();
            double[] sums = new double[k];
            double[] weights = new double[k];
            for (int i : members) {
                int c = (int) x[i][d];
                sums[c] += w[i] * (y[i] - mean);
                weights[c] += w[i];
            }
            int[] present = IntStream.range(0, k).filter(c -> weights[c] > 0).boxed()
                    .sorted(Comparator.comparingDouble(c -> sums[c] / weights[c])).mapToInt(Integer::intValue).toArray();
            double total = Arrays.stream(sums).sum();
            double weight = Arrays.stream(weights).sum();
            double leftSum = 0;
            double leftWeight = 0;
            double bestGain = Double.NEGATIVE_INFINITY;
            int bestCount = 0;
            boolean absentLeft = false;
            for (int j = 0; j + 1 < present.length; j++) {
                leftSum += sums[present[j]];
                leftWeight += weights[present[j]];
                double gain = gain(leftSum, leftWeight, total, weight);
                if (gain > bestGain) {
                    bestGain = gain;
                    bestCount = j + 1;
                    absentLeft = leftWeight >= weight - leftWeight;
                }
            }
            if (bestCount == 0) {
                return null;
            }
            BitSet left = new BitSet(k);
            if (absentLeft) {
                left.set(0, k);
                for (int j = bestCount; j < present.length; j++) {
                    left.clear(present[j]);
                }
            } else {
                for (int j = 0; j < bestCount; j++) {
                    left.set(present[j]);
                }
            }
            return new Candidate(bestGain, new Split(d, Double.NaN, left, null, null));
        }

        /** How much a split lowers the weighted squared error, from the sums of the values less the node's mean. */
        private static double gain(double leftSum, double leftWeight, double total, double weight) {
            double rightSum = total - leftSum;
            double rightWeight = weight - leftWeight;
            return leftSum * leftSum / leftWeight + rightSum * rightSum / rightWeight - total * total / weight;
        }
    }

    // ---- variances -----------------------------------------------------------------------------------------

    /** The variance of a tree's prediction over the domain, and of each dimension's marginal. */
    record Variances(double total, double[] marginal) {
    }

    /**
     * A leaf's cell: its value; for each dimension its share of the dimension (the cell's volume is their product),
     * and its interval ({@code low}, {@code high}) or its set of categories.
     */
    private record Cell(double value, double[] share, double[] low, double[] high, BitSet[] categories) {
        double volume() {
            double v = 1;
            for (double s : share) {
                v *= s;
            }
            return v;
        }

        /** The volume of the cell's projection on every dimension but d. */
        double volumeBut(int d) {
            double v = 1;
            for (int e = 0; e < share.length; e++) {
                v *= e == d ? 1 : share[e];
            }
            return v;
        }
    }

    /** The tree's total and marginal variances over the domain, summed exactly over its leaves' cells. */
    static Variances variances(Node tree, List<Dimension> dims) {
        int n = dims.size();
        double[] low = new double[n];
        double[] high = new double[n];
        BitSet[] categories = new BitSet[n];
        for (int d = 0; d < n; d++) {
            Dimension dim = dims.get(d);
            low[d] = dim.low();
            high[d] = dim.high();
            categories[d] = new BitSet();
            categories[d].set(0, dim.categories());
        }
        List<Cell> cells = new ArrayList<>();
        collectCells(tree, dims, low, high, categories, cells);
        double mean = cells.stream().mapToDouble(c -> c.volume() * c.value()).sum();
        double total = cells.stream().mapToDouble(c -> c.volume() * (c.value() - mean) * (c.value() - mean)).sum();
        double[] marginal = new double[n];
        for (int d = 0; d < n; d++) {
            marginal[d] = dims.get(d).isCategorical() ? categoricalMarginal(cells, d, dims.get(d).categories())
                    : numericMarginal(cells, d, dims.get(d));
        }
        return new Variances(total, marginal);
    }

    private static void collectCells(Node node, List<Dimension> dims, double[] low, double[] high, BitSet[] categories,
                                     List<Cell> out) {
        if (node instanceof Leaf leaf) {
            double[] share = new double[dims.size()];
            for (int d = 0; d < share.length; d++) {
                Dimension dim = dims.get(d);
                share[d] = dim.isCategorical() ? categories[d].cardinality() / (double) dim.categories()
                        : dim.high() > dim.low() ? (high[d] - low[d]) / (dim.high() - dim.low()) : 1;
            }
            BitSet[] sets = Arrays.stream(categories).map(b -> (BitSet) b.clone()).toArray(BitSet[]::new);
            out.add(new Cell(leaf.value(), share, low.clone(), high.clone(), sets));
        } else if (node instanceof Split s) {
            int d = s.dimension();
            if (s.categories() == null) {
                double at = Math.max(low[d], Math.min(high[d], s.threshold()));
                double wasHigh = high[d];
                high[d] = at;
                collectCells(s.left(), dims, low, high, categories, out);
                high[d] = wasHigh;
                double wasLow = low[d];
                low[d] = at;
                collectCells(s.right(), dims, low, high, categories, out);
                low[d] = wasLow;
            } else {
                BitSet was = categories[d];
                categories[d] = (BitSet) was.clone();
                categories[d].and(s.categories());
                collectCells(s.left(), dims, low, high, categories, out);
                categories[d] = (BitSet) was.clone();
                categories[d].andNot(s.categories());
                collectCells(s.right(), dims, low, high, categories, out);
                categories[d] = was;
            }
        }
    }

    /**
     * The variance of the marginal of numeric dimension d: the cells' bounds cut it into intervals on each of which
     * the marginal is the sum of the values of the cells over it, each weighed by the volume of the cell's other sides.
     */
    private static double numericMarginal(List<Cell> cells, int d, Dimension dim) {
        double[] cuts = cells.stream().flatMapToDouble(c -> DoubleStream.of(c.low()[d], c.high()[d]))
                .sorted().distinct().toArray();
        if (cuts.length < 2) {
            return 0;
        }
        double[] change = new double[cuts.length];
        for (Cell c : cells) {
            double v = c.value() * c.volumeBut(d);
            change[Arrays.binarySearch(cuts, c.low()[d])] += v;
            change[Arrays.binarySearch(cuts, c.high()[d])] -= v;
        }
        double[] marginal = new double[cuts.length - 1];
        double[] weight = new double[cuts.length - 1];
        double running = 0;
        for (int j = 0; j < marginal.length; j++) {
            running += change[j];
            marginal[j] = running;
            weight[j] = (cuts[j + 1] - cuts[j]) / (dim.high() - dim.low());
        }
        return weightedVariance(marginal, weight);
    }

    /** The variance of the marginal of categorical dimension d, each of its k categories weighing 1/k. */
    private static double categoricalMarginal(List<Cell> cells, int d, int k) {
        double[] marginal = new double[k];
        for (Cell c : cells) {
            double v = c.value() * c.volumeBut(d);
            c.categories()[d].stream().forEach(cat -> marginal[cat] += v);
        }
        double[] weight = new double[k];
        Arrays.fill(weight, 1.0 / k);
        return weightedVariance(marginal, weight);
    }

    private static double weightedVariance(double[] v, double[] weight) {
        double mean = 0;
        for (int j = 0; j < v.length; j++) {
            mean += weight[j] * v[j];
        }
        double var = 0;
        for (int j = 0; j < v.length; j++) {
            var += weight[j] * (v[j] - mean) * (v[j] - mean);
        }
        return var;
    }
}
