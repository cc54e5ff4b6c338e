package org.tunekit.tuners.turbo;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.hipparchus.special.Erf;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.space.EncodedSpace;
import org.tunekit.tuners.gp.FeatureMap;
import org.tunekit.tuners.gp.GaussianProcess;
import org.tunekit.tuners.gp.GpSurrogate;
import org.tunekit.tuners.gp.MaternKernel;
import org.tunekit.tuners.gp.OutputWarping;
import org.tunekit.tuners.unitcube.ScrambledSobol;
import org.tunekit.tuners.unitcube.TrainingData;
import org.tunekit.tuners.unitcube.UnitCubeTuner;
import org.tunekit.tuners.common.UnitKey;

/**
 * Trust-region Bayesian optimisation with one trust region (TuRBO-1, Eriksson et al. 2019) over the
 * unit cube of the encoded space.
 *
 * <p>Model: the Gaussian process of {@link GpSurrogate} (Matérn 5/2, an amplitude and one
 * length-scale per parameter, noise variance 1e-6, hyper-parameters refitted as the data grow) on
 * the {@link FeatureMap} inputs, fitted to the observations of the current trust region only. With
 * {@code output_warping} (the default) the losses are first mapped by the least skewed of
 * {@code log(1 + (loss - min) / s)} for a few scales {@code s} and the identity ({@link OutputWarping}),
 * which keeps their order and the incumbent but tames heavy tails such as Rosenbrock's.
 *
 * <p>Suggestions: the first {@code initial_points} of a region are points of a scrambled Sobol
 * sequence. Then the trust region is the box centred at the region's best point with side
 * {@code L * w_i} along parameter {@code i}, where {@code w} are the fitted length-scales divided by
 * their geometric mean (clipped to the cube). {@code candidates} points are drawn in it: each
 * copies the centre and redraws a random subset of the coordinates (each with probability
 * {@code min(1, 20 / d)}, at least one), a categorical coordinate over all its options. The
 * candidate of largest expected improvement that is not a known set is suggested. Pending
 * suggestions enter the model with their predicted mean as value (kriging believer), which spreads
 * a batch out.
 *
 * <p>Trust region: a result that arrives when the region already holds
 * {@code max(2, initial_points)} observations (one the region's initial design does not account
 * for) is a success when it improves on the region's best by more than 1e-3 of its magnitude, else
 * a failure. After {@code success_tolerance} successes in a row {@code L} doubles (up to
 * {@code max_length}); after {@code failure_tolerance} failures in a row (default
 * {@code max(4, min(d, 10))}: the paper's {@code d} capped so that a budget of a hundred trials sees
 * the region shrink) it halves. When it falls below {@code min_length} the region restarts: a new
 * Sobol design and a new model that ignores the older observations (they stay known, so none is
 * suggested again).
 *
 * <p>Resume: the region (its start, length, counters and restarts), the model's fits and the
 * Sobol point of a suggestion (the number of the region's observations plus pending suggestions)
 * all follow from the results in order, so a fresh tuner given them through {@code importData}
 * continues exactly. An imported or customized result counts for the region like any other.
 *
 * <p>Cost: the model holds at most {@link GpSurrogate#MAX_POINTS} observations of the region
 * ({@link GpSurrogate#modelPoints}), and the candidates are at most {@value #MAX_CANDIDATES}.
 */
final class TurboTuner extends UnitCubeTuner {
    static final int MAX_CANDIDATES = 5000;
    private static final double NOISE = 1e-6;
    private static final double PERTURBED_DIMENSIONS = 20;
    private static final double IMPROVEMENT = 1e-3;
    private static final long FIT_STREAM = 0x7B0F17L;
    private static final long SOBOL_STREAM = 0x7B050BL;

    private final int initialPoints;
    private final int candidates;
    private final int successTolerance;
    private final int failureTolerance;
    private final double initialLength;
    private final double minLength;
    private final double maxLength;
    private final boolean warping;

    private FeatureMap features;
    private GpSurrogate model;
    private ScrambledSobol sobol;
    private boolean[] categorical;
    private double length;
    private int successes;
    private int failures;
    private int restarts;
    /** Index in {@link #observations()} of the first observation of the current region. */
    private int regionStart;
    private List<double[]> ranked = List.of();

    private TurboTuner(OptimizeMode mode, long seed, int initialPoints, int candidates, int successTolerance, int failureTolerance,
            double initialLength, double minLength, double maxLength, boolean warping) {
        super(mode, seed);
        this.initialPoints = initialPoints;
        this.candidates = candidates;
        this.successTolerance = successTolerance;
        this.failureTolerance = failureTolerance;
        this.initialLength = initialLength;
        this.minLength = minLength;
        this.maxLength = maxLength;
        this.warping = warping;
    }

    /**
     * The tuner of the given class arguments; {@code 0} for {@code initial_points},
     * {@code candidates} or {@code failure_tolerance} (their defaults) means "depends on the number
     * of parameters d": {@code min(max(10, d / 2 + 1), 25)}, {@code min(max(500, 100 d), 2000)} and
     * {@code max(4, min(d, 10))}.
     *
     * @throws InvalidClassArgumentException naming an argument that is unknown or out of range
     */
    static TurboTuner create(ClassArguments a) {
        a.requireOnly("optimize_mode", "seed", "initial_points", "candidates", "success_tolerance", "failure_tolerance",
                "initial_length", "min_length", "max_length", "output_warping");
        OptimizeMode mode = OptimizeMode.from(a, OptimizeMode.MAXIMIZE);
        int initial = a.getInt("initial_points", 0, 0);
        int candidates = a.getInt("candidates", 0, 0);
        if (candidates > MAX_CANDIDATES) {
            throw new InvalidClassArgumentException("class argument 'candidates' must be at most " + MAX_CANDIDATES + ", got " + candidates);
        }
        int success = a.getInt("success_tolerance", 3, 1);
        int failure = a.getInt("failure_tolerance", 0, 0);
        double minLength = a.getDouble("min_length", Math.pow(0.5, 7), 1e-9, 1);
        double maxLength = a.getDouble("max_length", 1.6, minLength, 2);
        double initialLength = a.getDouble("initial_length", 0.8, minLength, maxLength);
        boolean warping = a.getBoolean("output_warping", true);
        return new TurboTuner(mode, seedOf(a), initial, candidates, success, failure, initialLength, minLength, maxLength, warping);
    }

    private int initialPoints() {
        return initialPoints > 0 ? initialPoints : Math.min(Math.max(10, dimension() / 2 + 1), 25);
    }

    private int candidateCount() {
        return candidates > 0 ? candidates : Math.min(Math.max(500, 100 * dimension()), 2000);
    }

    private int failureTolerance() {
        return failureTolerance > 0 ? failureTolerance : Math.max(4, Math.min(dimension(), 10));
    }

    @Override
    protected void spaceChanged(EncodedSpace space) {
        features = new FeatureMap(space);
        categorical = new boolean[space.size()];
        for (EncodedSpace.Dimension d : space.dimensions()) {
            categorical[d.index()] = d.kind() == EncodedSpace.Kind.CATEGORICAL;
        }
        restarts = 0;
        startRegion(0);
    }

    /** Starts a trust region whose data are the observations from {@code start} on. */
    private void startRegion(int start) {
        regionStart = start;
        length = initialLength;
        successes = 0;
        failures = 0;
        model = new GpSurrogate(features, MaternKernel.FIVE_HALVES, NOISE);
        sobol = new ScrambledSobol(dimension(), rngFor(SOBOL_STREAM, restarts).nextLong());
    }

    private List<Observation> region() {
        List<Observation> all = observations();
        return all.subList(Math.min(regionStart, all.size()), all.size());
    }

    // ------------------------------------------------------------------------------- proposals

    @Override
    protected double[] propose(long parameterId, int attempt, SplittableRandom rng) {
        if (attempt == 0) {
            ranked = List.of();
        }
        if (dimension() == 0) {
            return sobol.point(attempt);
        }
        TrainingData data = TrainingData.of(region(), GpSurrogate::modelPoints, features::features);
        if (data.size() < 2 || data.size() + pending().size() < initialPoints()) {
            return sobol.point(region().size() + pending().size() + attempt);
        }
        if (attempt == 0) {
            ranked = rank(data, rng);
        }
        return attempt < ranked.size() ? ranked.get(attempt) : null;
    }

    /** The model's training set on the first {@code count} observations of the region. */
    private GpSurrogate.FitData fitData(int count) {
        TrainingData d = TrainingData.of(region().subList(0, count), GpSurrogate::modelPoints, features::features);
        return new GpSurrogate.FitData(d.x(), warping ? OutputWarping.leastSkewed(d.y()) : d.y());
    }

    /** The candidates of the trust region by expected improvement, best first, distinct sets only. */
    private List<double[]> rank(TrainingData data, SplittableRandom rng) {
        double[] y = warping ? OutputWarping.leastSkewed(data.y()) : data.y();
        model.fitThrough(region().size(), this::fitData, n -> rngFor(FIT_STREAM, restarts, n));
        GaussianProcess.Posterior posterior = model.posterior(data.x(), y);
        if (posterior == null) {
            return List.of();
        }
        GpSurrogate.Believed believed = model.believe(posterior, data.x(), y, pendingUnits());
        double[] centre = centre(data, y);
        double[][] box = box(centre, model.theta());
        int d = dimension();
        int count = candidateCount();
        double probability = Math.min(1, PERTURBED_DIMENSIONS / d);
        double[][] points = new double[count][];
        double[] scores = new double[count];
        for (int c = 0; c < count; c++) {
            double[] u = centre.clone();
            boolean any = false;
            for (int j = 0; j < d; j++) {
                if (rng.nextDouble() < probability) {
                    u[j] = perturbed(j, box, rng);
                    any = true;
                }
            }
            if (!any) {
                int j = rng.nextInt(d);
                u[j] = perturbed(j, box, rng);
            }
            points[c] = u;
            double[] pred = model.predict(believed.posterior(), canonicalUnit(u));
            scores[c] = expectedImprovement(pred[0], Math.sqrt(pred[1]), believed.incumbent());
        }
        Integer[] order = new Integer[count];
        for (int i = 0; i < count; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(scores[b], scores[a]));
        List<double[]> out = new ArrayList<>();
        Set<UnitKey> distinct = new HashSet<>();
        for (int k = 0; k < count && out.size() < PROPOSAL_ATTEMPTS; k++) {
            double[] u = points[order[k]];
            if (distinct.add(new UnitKey(canonicalUnit(u)))) {
                out.add(u);
            }
        }
        return out;
    }

    private double perturbed(int j, double[][] box, SplittableRandom rng) {
        return categorical[j] ? rng.nextDouble() : box[0][j] + (box[1][j] - box[0][j]) * rng.nextDouble();
    }

    /** The unit point of the region's best observation ({@code NaN} coordinates at the cube's centre). */
    private double[] centre(TrainingData data, double[] y) {
        int best = 0;
        for (int i = 1; i < y.length; i++) {
            if (y[i] < y[best]) {
                best = i;
            }
        }
        Observation o = data.from().get(best);
        double[] c = o.unit().clone();
        for (int j = 0; j < c.length; j++) {
            if (Double.isNaN(c[j])) {
                c[j] = 0.5;
            }
        }
        return c;
    }

    /**
     * The trust region around {@code centre}: {lower corner, upper corner}, side {@code L * w_j}
     * with {@code w} the length-scales over their geometric mean, clipped to the cube.
     */
    double[][] box(double[] centre, double[] theta) {
        int d = centre.length;
        double[] logLength = new double[d];
        double mean = 0;
        for (int j = 0; j < d; j++) {
            logLength[j] = theta == null ? 0 : theta[j + 1];
            mean += logLength[j];
        }
        mean /= Math.max(1, d);
        double[][] box = new double[2][d];
        for (int j = 0; j < d; j++) {
            double half = 0.5 * length * Math.exp(logLength[j] - mean);
            box[0][j] = Math.max(0, centre[j] - half);
            box[1][j] = Math.min(1, centre[j] + half);
        }
        return box;
    }

    /** Expected improvement of a Gaussian prediction over the incumbent (all in the model's units). */
    static double expectedImprovement(double mean, double sd, double incumbent) {
        double improvement = incumbent - mean;
        if (!(sd > 0)) {
            return Math.max(0, improvement);
        }
        double z = improvement / sd;
        return improvement * 0.5 * Erf.erfc(-z / Math.sqrt(2)) + sd * Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI);
    }

    // ------------------------------------------------------------------------------- trust region

    @Override
    protected void observed(Observation observation) {
        List<Observation> region = region();
        if (region.size() - 1 < Math.max(2, initialPoints())) {
            return; // a result of the region's initial design
        }
        double best = Double.POSITIVE_INFINITY;
        for (int i = 0; i < region.size() - 1; i++) {
            double loss = region.get(i).loss();
            if (!Double.isNaN(loss)) {
                best = Math.min(best, loss);
            }
        }
        double loss = observation.loss();
        boolean success = !Double.isNaN(loss) && (best == Double.POSITIVE_INFINITY ? loss < best
                : loss < best - IMPROVEMENT * Math.abs(best));
        if (success) {
            successes++;
            failures = 0;
        } else {
            failures++;
            successes = 0;
        }
        if (successes >= successTolerance) {
            length = Math.min(2 * length, maxLength);
            successes = 0;
        } else if (failures >= failureTolerance()) {
            length /= 2;
            failures = 0;
        }
        if (length < minLength) {
            restarts++;
            startRegion(observations().size());
        }
    }

    // ------------------------------------------------------------- for TurboThen's hand-over and tests

    /** The current side length {@code L} of the trust region. */
    double length() {
        return length;
    }

    /** The suggestions still waiting for their results. */
    Collection<Proposal> inFlight() {
        return pending();
    }

    /** How many times the trust region has restarted. */
    int restarts() {
        return restarts;
    }
}
