package org.tunekit.tuners.smac;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.space.EncodedSpace;
import org.tunekit.tuners.unitcube.ScrambledSobol;
import org.tunekit.tuners.unitcube.UnitCubeTuner;
import org.tunekit.tuners.common.UnitKey;

/**
 * Sequential model-based algorithm configuration (SMAC): a random-forest surrogate, expected
 * improvement, and a local search in the one-exchange neighbourhood to maximise it, after Hutter,
 * Hoos and Leyton-Brown (2011), over the unit cube of the encoded space.
 *
 * <p><b>Inputs of the forest.</b> One feature per coordinate of the encoded space (nested
 * parameters included): a numeric coordinate (real or integer) is its unit value, or -1 where it is
 * an inactive nested parameter, so a threshold can separate inactive from active; a choice is its
 * option index, with one extra category for "inactive", split by subsets of options.
 *
 * <p><b>Targets.</b> Losses ({@code optimize_mode} applied). With {@code log_transform} (the
 * default) the forest learns {@code log((loss - low) / (high - low) + }{@value #LOG_OFFSET}{@code )},
 * where {@code low} and {@code high} are the best and worst loss among the results the forest was
 * grown on; this stretches the differences among good results, where the search must decide, and
 * shrinks those among bad ones (the paper takes the logarithm of run times; losses may be negative,
 * hence the normalisation). A result added to a grown forest uses that forest's {@code low} and
 * {@code high} (a loss below {@code low} counts as {@code low} until the next growth). With
 * {@code log_transform} false the forest learns the losses themselves. {@code +inf} losses count as
 * the worst finite loss known when they arrive; {@code NaN} and {@code -inf} losses are left out.
 *
 * <p><b>Forest.</b> {@code n_trees} trees, bootstrap samples, 5/6 of the features tried per split,
 * nodes of fewer than {@value #MIN_SPLIT} samples not split, at least {@value #MIN_LEAF} per leaf,
 * depth at most {@value #MAX_DEPTH}. Up to {@value #FULL_FIT_LIMIT} results the forest is grown
 * again for every suggestion. Beyond that it is grown again only when the number of results has
 * grown by a tenth since the last growth; results in between are added to the leaves they fall in,
 * each tree counting a result a Poisson(1) number of times (the online form of the bootstrap). Every
 * state of the forest is a function of the seed and the results in order, so a tuner that replays
 * the results rebuilds the same forest (the liars of pending suggestions are taken out again bit
 * for bit).
 *
 * <p><b>Suggestions.</b> The first {@code n_startup_jobs} (results plus pending suggestions) are
 * points of a scrambled Sobol sequence, suggestion {@code k} of the history its point {@code k}.
 * After that, every {@code random_interleave}-th suggestion of the history is a uniform random point (the paper interleaves one random configuration with each model-based
 * one, k = 2; the default here is 10, which finds better points within the 100-trial budget of the
 * benchmark suite; 0 turns it off). The
 * others maximise the expected improvement of the forest's prediction over the best loss: {@value
 * #RANDOM_CANDIDATES} uniform random points are scored, then a first-improvement local search
 * starts from the {@value #STARTS_FROM_BEST} best observed points and the {@value
 * #STARTS_FROM_RANDOM} best random ones. Its neighbourhood changes one coordinate: a numeric one by a
 * Gaussian step (standard deviation 0.2 or 0.05 in the unit view, clamped), a choice to another of
 * its options. The search stops at a local optimum or after {@value #MAX_LOCAL_STEPS} moves, and all
 * searches together evaluate at most {@value #MAX_LOCAL_EVALUATIONS} points. The best-scoring point
 * that is not a known set is suggested.
 *
 * <p><b>Batches.</b> Pending suggestions enter the forest with the worst observed loss (a constant
 * liar), which lowers the expected improvement around them and spreads a batch out.
 */
final class SmacTuner extends UnitCubeTuner {
    static final int MIN_SPLIT = 3;
    static final int MIN_LEAF = 1;
    /** The standard deviations of the Gaussian steps of a numeric coordinate, one neighbour each. */
    private static final double[] STEPS = {0.2, 0.05, 0.2, 0.05};
    static final int MAX_DEPTH = 30;
    static final double FEATURE_RATIO = 5.0 / 6.0;
    static final int FULL_FIT_LIMIT = 250;
    /** Added to the normalised loss before its logarithm is taken. */
    static final double LOG_OFFSET = 0.01;
    static final int RANDOM_CANDIDATES = 500;
    static final int STARTS_FROM_BEST = 10;
    static final int STARTS_FROM_RANDOM = 5;
    static final int MAX_LOCAL_STEPS = 50;
    static final int MAX_LOCAL_EVALUATIONS = 4000;
    private static final long FIT_STREAM = 0x5EACL;
    private static final long ADD_STREAM = 0xADDL;

    private final int trees;
    private final int startupJobs;
    private final int randomInterleave;
    private final boolean logTransform;

    private ScrambledSobol sobol;
    /** The cardinality of each feature: 0 numeric, options + 1 for a choice. */
    private int[] featureCardinality;

    // the training rows derived from observations(), in order
    private final List<double[]> rowX = new ArrayList<>();
    private final List<Double> rowY = new ArrayList<>();
    private int observationsRead;
    private double worstLoss = Double.NEGATIVE_INFINITY;
    private double bestLoss = Double.POSITIVE_INFINITY;

    // the forest grown at baseFitSize rows, with rows up to baseAdded added to its leaves
    private RandomForest base;
    private int baseFitSize;
    private int baseAdded;
    private double baseLow;
    private double baseScale;

    SmacTuner(OptimizeMode mode, long seed, int trees, int startupJobs, int randomInterleave, boolean logTransform) {
        super(mode, seed);
        this.trees = trees;
        this.startupJobs = startupJobs;
        this.randomInterleave = randomInterleave;
        this.logTransform = logTransform;
    }

    static SmacTuner create(ClassArguments a) {
        a.requireOnly("optimize_mode", "config_dedup", "seed", "n_trees", "n_startup_jobs", "random_interleave",
                "log_transform");
        OptimizeMode mode = OptimizeMode.from(a, OptimizeMode.MAXIMIZE);
        // duplicates are always suppressed by the unit-cube base; the argument is validated for compatibility
        a.getBoolean("config_dedup", false);
        int trees = a.getInt("n_trees", 10, 1);
        if (trees > 1000) {
            throw new org.tunekit.sdk.InvalidClassArgumentException("class argument 'n_trees' must be at most 1000, got " + trees);
        }
        int startup = a.getInt("n_startup_jobs", 5, 1);
        int interleave = a.getInt("random_interleave", 10, 0);
        if (interleave == 1) {
            throw new org.tunekit.sdk.InvalidClassArgumentException(
                    "class argument 'random_interleave' must be 0 (off) or at least 2, got 1 (every suggestion random)");
        }
        boolean log = a.getBoolean("log_transform", true);
        return new SmacTuner(mode, seedOf(a), trees, startup, interleave, log);
    }

    @Override
    protected void spaceChanged(EncodedSpace space) {
        sobol = new ScrambledSobol(space.size(), seed());
        setUpFeatures(space);
    }

    private void setUpFeatures(EncodedSpace space) {
        featureCardinality = new int[space.size()];
        for (EncodedSpace.Dimension d : space.dimensions()) {
            featureCardinality[d.index()] = d.kind() == EncodedSpace.Kind.CATEGORICAL ? d.cardinality() + 1 : 0;
        }
        rowX.clear();
        rowY.clear();
        observationsRead = 0;
        worstLoss = Double.NEGATIVE_INFINITY;
        bestLoss = Double.POSITIVE_INFINITY;
        base = null;
        baseFitSize = 0;
        baseAdded = 0;
    }

    /** The forest's features of a unit vector ({@code NaN} marks inactive coordinates). */
    double[] features(double[] unit) {
        double[] f = new double[unit.length];
        for (int i = 0; i < unit.length; i++) {
            double u = unit[i];
            int c = featureCardinality[i];
            if (c == 0) {
                f[i] = Double.isNaN(u) ? -1 : u;
            } else if (Double.isNaN(u)) {
                f[i] = c - 1;
            } else {
                f[i] = Math.max(0, Math.min(c - 2, (int) Math.floor(u * (c - 1))));
            }
        }
        return f;
    }

    /** Reads the observations that arrived since the last call into training rows. */
    private void readObservations() {
        List<Observation> all = observations();
        for (; observationsRead < all.size(); observationsRead++) {
            Observation o = all.get(observationsRead);
            double loss = o.loss();
            if (Double.isFinite(loss)) {
                worstLoss = Math.max(worstLoss, loss);
                bestLoss = Math.min(bestLoss, loss);
            } else if (loss == Double.POSITIVE_INFINITY && worstLoss > Double.NEGATIVE_INFINITY) {
                loss = worstLoss;
            } else {
                continue;
            }
            rowX.add(features(o.unit()));
            rowY.add(loss);
        }
    }

    // ------------------------------------------------------------------------------- proposals

    @Override
    protected double[] propose(long parameterId, int attempt, SplittableRandom rng) {
        if (attempt == 0) {
            ranked = List.of();
        }
        readObservations();
        int d = dimension();
        if (d == 0) {
            return new double[0];
        }
        if (rowY.size() < 2 || observations().size() + pending().size() < startupJobs) {
            return sobol.point(historySize() + attempt);
        }
        long index = historySize();
        if (randomInterleave >= 2 && index % randomInterleave == randomInterleave - 1) {
            return uniform(rng, d);
        }
        if (attempt == 0) {
            ranked = rank(rng);
        }
        return attempt < ranked.size() ? ranked.get(attempt) : null;
    }

    private List<double[]> ranked = List.of();

    private static double[] uniform(SplittableRandom rng, int d) {
        double[] u = new double[d];
        for (int j = 0; j < d; j++) {
            u[j] = rng.nextDouble();
        }
        return u;
    }

    /** Runs of the next full growth: every row count up to the limit, then growth by a tenth. */
    static int fitSizeFor(int rows) {
        if (rows <= FULL_FIT_LIMIT) {
            return rows;
        }
        int size = FULL_FIT_LIMIT;
        while (true) {
            int next = size + Math.max(1, size / 10);
            if (next > rows) {
                return size;
            }
            size = next;
        }
    }

    /** The target the forest learns for a loss, given the anchors of the forest. */
    private double target(double loss, double low, double scale) {
        if (!logTransform) {
            return loss;
        }
        return Math.log(Math.max(0, (loss - low) / scale) + LOG_OFFSET);
    }

    private double modelLow;
    private double modelScale;
    /** The grown forest's leaves before the liars of the current suggestion were added to them. */
    private double[][][] leavesWithoutLiars;

    /** The forest over the results with the pending suggestions as liars (taken out again by {@link #rank}). */
    private RandomForest model(List<double[]> liars, double lie) {
        int n = rowY.size();
        if (n <= FULL_FIT_LIMIT) {
            modelLow = bestLoss;
            modelScale = worstLoss > bestLoss ? worstLoss - bestLoss : 1;
            int total = n + liars.size();
            double[][] x = new double[total][];
            double[] y = new double[total];
            for (int i = 0; i < n; i++) {
                x[i] = rowX.get(i);
                y[i] = target(rowY.get(i), modelLow, modelScale);
            }
            for (int i = 0; i < liars.size(); i++) {
                x[n + i] = liars.get(i);
                y[n + i] = target(lie, modelLow, modelScale);
            }
            RandomForest forest = newForest();
            forest.fit(x, y, total, rngFor(FIT_STREAM, n, liars.size()));
            base = null;
            return forest;
        }
        int size = fitSizeFor(n);
        if (base == null || baseFitSize != size) {
            double low = Double.POSITIVE_INFINITY;
            double high = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < size; i++) {
                low = Math.min(low, rowY.get(i));
                high = Math.max(high, rowY.get(i));
            }
            baseLow = low;
            baseScale = high > low ? high - low : 1;
            double[][] x = rowX.subList(0, size).toArray(new double[0][]);
            double[] y = new double[size];
            for (int i = 0; i < size; i++) {
                y[i] = target(rowY.get(i), baseLow, baseScale);
            }
            base = newForest();
            base.fit(x, y, size, rngFor(FIT_STREAM, size, 0));
            baseFitSize = size;
            baseAdded = size;
        }
        modelLow = baseLow;
        modelScale = baseScale;
        double[] weights = new double[trees];
        for (; baseAdded < n; baseAdded++) {
            SplittableRandom r = rngFor(ADD_STREAM, baseAdded);
            for (int t = 0; t < trees; t++) {
                weights[t] = poissonOne(r);
            }
            base.add(rowX.get(baseAdded), target(rowY.get(baseAdded), baseLow, baseScale), weights);
        }
        Arrays.fill(weights, 1);
        leavesWithoutLiars = liars.isEmpty() ? null : base.saveLeaves();
        for (double[] liar : liars) {
            base.add(liar, target(lie, baseLow, baseScale), weights);
        }
        return base;
    }

    private RandomForest newForest() {
        return new RandomForest(featureCardinality, trees, MIN_SPLIT, MIN_LEAF, MAX_DEPTH, FEATURE_RATIO);
    }

    /** A draw from the Poisson distribution of mean 1. */
    private static int poissonOne(SplittableRandom r) {
        double limit = Math.exp(-1);
        double p = r.nextDouble();
        int k = 0;
        while (p > limit) {
            p *= r.nextDouble();
            k++;
        }
        return k;
    }

    /** A point, its canonical unit vector and its acquisition value. */
    private record Scored(double[] point, double[] unit, double score) {}

    /** Scores candidates and returns the best distinct ones, best first. */
    private List<double[]> rank(SplittableRandom rng) {
        List<double[]> liars = new ArrayList<>();
        for (Proposal p : pending()) {
            liars.add(features(p.unit()));
        }
        RandomForest forest = model(liars, worstLoss);
        try {
            return search(forest, rng);
        } finally {
            if (forest == base && leavesWithoutLiars != null) {
                base.restoreLeaves(leavesWithoutLiars);
            }
            leavesWithoutLiars = null;
        }
    }

    private List<double[]> search(RandomForest forest, SplittableRandom rng) {
        int d = dimension();
        double incumbent = target(bestLoss, modelLow, modelScale);
        double[] prediction = new double[2];
        List<Scored> evaluated = new ArrayList<>(RANDOM_CANDIDATES + MAX_LOCAL_EVALUATIONS + 64);
        java.util.function.Function<double[], Scored> score = u -> {
            double[] unit = canonicalUnit(u);
            forest.predict(features(unit), prediction);
            Scored s = new Scored(u, unit, expectedImprovement(prediction[0], Math.sqrt(prediction[1]), incumbent));
            evaluated.add(s);
            return s;
        };
        List<Scored> randoms = new ArrayList<>(RANDOM_CANDIDATES);
        for (int c = 0; c < RANDOM_CANDIDATES; c++) {
            randoms.add(score.apply(uniform(rng, d)));
        }
        List<double[]> starts = new ArrayList<>();
        List<Observation> finite = new ArrayList<>();
        for (Observation o : observations()) {
            if (Double.isFinite(o.loss())) {
                finite.add(o);
            }
        }
        finite.sort((a, b) -> Double.compare(a.loss(), b.loss()));
        for (int i = 0; i < Math.min(STARTS_FROM_BEST, finite.size()); i++) {
            Observation o = finite.get(i);
            double[] centre = o.unit().clone();
            for (int j = 0; j < d; j++) {
                if (Double.isNaN(centre[j])) {
                    centre[j] = rng.nextDouble();
                }
            }
            starts.add(centre);
        }
        randoms.sort((a, b) -> Double.compare(b.score(), a.score()));
        for (int i = 0; i < Math.min(STARTS_FROM_RANDOM, randoms.size()); i++) {
            starts.add(randoms.get(i).point());
        }
        int budget = MAX_LOCAL_EVALUATIONS;
        for (double[] start : starts) {
            if (budget <= 0) {
                break;
            }
            budget -= localSearch(start, score, rng, budget);
        }
        evaluated.sort((a, b) -> Double.compare(b.score(), a.score()));
        List<double[]> out = new ArrayList<>();
        Set<UnitKey> distinct = new HashSet<>();
        for (Scored s : evaluated) {
            if (out.size() >= PROPOSAL_ATTEMPTS) {
                break;
            }
            if (distinct.add(new UnitKey(s.unit()))) {
                out.add(s.point());
            }
        }
        return out;
    }

    /** First-improvement local search in the one-exchange neighbourhood; returns the evaluations spent. */
    private int localSearch(double[] start, java.util.function.Function<double[], Scored> score, SplittableRandom rng, int budget) {
        int spent = 1;
        Scored current = score.apply(start);
        int d = dimension();
        List<EncodedSpace.Dimension> dims = encoded().dimensions();
        for (int step = 0; step < MAX_LOCAL_STEPS && spent < budget; step++) {
            List<double[]> neighbours = new ArrayList<>();
            for (int j = 0; j < d; j++) {
                if (Double.isNaN(current.unit()[j])) {
                    continue; // an inactive coordinate: changing it changes nothing
                }
                EncodedSpace.Dimension dim = dims.get(j);
                if (dim.kind() == EncodedSpace.Kind.CATEGORICAL) {
                    int k = dim.cardinality();
                    int now = Math.max(0, Math.min(k - 1, (int) Math.floor(current.point()[j] * k)));
                    for (int o = 0; o < k; o++) {
                        if (o != now) {
                            double[] v = current.point().clone();
                            v[j] = (o + 0.5) / k;
                            neighbours.add(v);
                        }
                    }
                } else {
                    for (double sd : STEPS) {
                        double[] v = current.point().clone();
                        v[j] = Math.max(0, Math.min(1, v[j] + sd * rng.nextGaussian()));
                        neighbours.add(v);
                    }
                }
            }
            // visit the neighbours in random order, move to the first that is better
            boolean moved = false;
            for (int i = neighbours.size() - 1; i >= 0 && spent < budget; i--) {
                int pick = rng.nextInt(i + 1);
                double[] v = neighbours.get(pick);
                neighbours.set(pick, neighbours.get(i));
                Scored s = score.apply(v);
                spent++;
                if (s.score() > current.score()) {
                    current = s;
                    moved = true;
                    break;
                }
            }
            if (!moved) {
                break;
            }
        }
        return spent;
    }

    /** The expected improvement (larger is better) of a prediction over the incumbent loss. */
    static double expectedImprovement(double mean, double sd, double incumbent) {
        double improvement = incumbent - mean;
        if (!(sd > 1e-12)) {
            return Math.max(0, improvement);
        }
        double z = improvement / sd;
        return improvement * normalCdf(z) + sd * Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI);
    }

    static double normalCdf(double z) {
        return 0.5 * erfc(-z / Math.sqrt(2));
    }

    /** The complementary error function, by Abramowitz and Stegun 7.1.26 (absolute error below 1.5e-7). */
    private static double erfc(double x) {
        double z = Math.abs(x);
        double t = 1 / (1 + 0.3275911 * z);
        double poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
        double r = poly * Math.exp(-z * z);
        return x >= 0 ? r : 2 - r;
    }

    // ------------------------------------------------------------------------------- for tests

    /** The number of results in the training rows (after reading new observations). */
    int rows() {
        readObservations();
        return rowY.size();
    }
}
