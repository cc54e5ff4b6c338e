package org.tunekit.tuners.gp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.hipparchus.special.Erf;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.space.EncodedSpace;
import org.tunekit.tuners.unitcube.CandidatePoints;
import org.tunekit.tuners.unitcube.ScrambledSobol;
import org.tunekit.tuners.unitcube.TrainingData;
import org.tunekit.tuners.unitcube.UnitCubeTuner;
import org.tunekit.tuners.common.UnitKey;

/**
 * Gaussian-process Bayesian optimisation over the unit cube of the encoded space.
 *
 * <p>Inputs: see {@link FeatureMap} (numeric coordinates as unit values, choices one-hot, inactive
 * nested coordinates at a fixed value). Targets: losses ({@code optimize_mode} applied),
 * standardised; {@code +inf} losses count as the worst finite loss, {@code NaN} and {@code -inf}
 * are left out. With {@code output_warping} (default: true above {@value #LOCAL_DIMENSIONS}
 * parameters, false up to that; ignored when {@code xi > 0}) the standardised losses are made
 * closer to Gaussian by {@link OutputWarping}. Kernel: Matérn with smoothness {@code nu}, an amplitude and one length-scale per
 * parameter, noise variance {@code alpha}; hyper-parameters are refitted by maximum a posteriori
 * whenever the number of observations has grown by an eighth since the last fit (so about
 * 8 ln(n) fits in a run of n trials, each on the observations up to its point, see
 * {@link GpSurrogate#fitThrough}: a tuner that replays results makes the same fits), from the
 * previous fit, the default and one random start, on at most the 300 most recent model points. The model holds every observation up to 400 of them;
 * beyond that, the best 100 and the most recent 300, so a suggestion's cost stays bounded however
 * long the experiment runs or however much data is imported.
 *
 * <p>Suggestions: the first {@code cold_start_num} of the history (results plus pending
 * suggestions) are points of a scrambled Sobol sequence, suggestion {@code k} its point
 * {@code k}. Then {@code min(selection_num_warm_up, 1000)} candidates (three quarters uniform, a quarter near the
 * best observations; in more than {@value #LOCAL_DIMENSIONS} dimensions, every second one is
 * replaced by the incumbent with a few coordinates moved, see {@link #perturbed}) are scored by the acquisition ({@code utility}: expected improvement with
 * margin {@code xi}, probability of improvement with margin {@code xi}, or the confidence bound
 * {@code mean - kappa * sd} on the loss), and the best {@code min(selection_num_starting_points, 5)}
 * are improved by a short (1+1) local search. The best-scoring candidate that is not a known set is
 * suggested. Pending suggestions enter the model with their predicted mean as their value, and
 * that value also counts for the incumbent (kriging believer), which spreads a batch out.
 */
final class GpTuner extends UnitCubeTuner {
    static final int MAX_WARM_UP = 1000;
    static final int MAX_STARTING_POINTS = 5;
    private static final int LOCAL_STEPS = 20;
    private static final long FIT_STREAM = 0x6F17L;
    /** Above this many parameters, half the candidates are {@link #perturbed} incumbents. */
    static final int LOCAL_DIMENSIONS = 6;
    private static final double[] PERTURBATION_STEPS = {0.02, 0.1, 0.3};

    /** What the acquisition maximises. */
    enum Utility { EI, UCB, POI }

    private final Utility utility;
    private final double kappa;
    private final double xi;
    private final MaternKernel kernel;
    private final double alpha;
    private final int coldStart;
    private final int warmUp;
    private final int startingPoints;
    /** {@code output_warping}, or {@code null} when not given (then: above {@value #LOCAL_DIMENSIONS} parameters). */
    private final Boolean warping;

    private FeatureMap features;
    private ScrambledSobol sobol;
    private GpSurrogate model;
    private List<double[]> ranked = List.of();

    GpTuner(OptimizeMode mode, long seed, Utility utility, double kappa, double xi, MaternKernel kernel, double alpha,
            int coldStart, int warmUp, int startingPoints, Boolean warping) {
        super(mode, seed);
        this.utility = utility;
        this.kappa = kappa;
        this.xi = xi;
        this.kernel = kernel;
        this.alpha = alpha;
        this.coldStart = coldStart;
        this.warmUp = warmUp;
        this.startingPoints = startingPoints;
        this.warping = warping;
    }

    static GpTuner create(ClassArguments a) {
        a.requireOnly("optimize_mode", "utility", "kappa", "xi", "nu", "alpha", "cold_start_num",
                "selection_num_warm_up", "selection_num_starting_points", "output_warping", "seed");
        OptimizeMode mode = OptimizeMode.from(a, OptimizeMode.MAXIMIZE);
        Utility utility = Utility.valueOf(a.getChoice("utility", "ei", "ei", "ucb", "poi").toUpperCase(java.util.Locale.ROOT));
        double kappa = a.getDouble("kappa", 5, 0, 1e6);
        double xi = a.getDouble("xi", 0, 0, 1e300);
        double nu = a.getDouble("nu", 2.5);
        MaternKernel kernel = MaternKernel.of(nu);
        if (kernel == null) {
            throw new InvalidClassArgumentException("class argument 'nu' must be 0.5, 1.5 or 2.5, got " + nu);
        }
        double alpha = a.getDouble("alpha", 1e-6, 0, 1e6);
        int coldStart = a.getInt("cold_start_num", 10, 1);
        int warmUp = a.getInt("selection_num_warm_up", 100000, 1);
        int starts = a.getInt("selection_num_starting_points", 250, 0);
        Boolean warping = a.has("output_warping") ? a.getBoolean("output_warping", true) : null;
        return new GpTuner(mode, seedOf(a), utility, kappa, xi, kernel, alpha, coldStart,
                Math.min(warmUp, MAX_WARM_UP), Math.min(starts, MAX_STARTING_POINTS), warping);
    }

    @Override
    protected void spaceChanged(EncodedSpace space) {
        features = new FeatureMap(space);
        sobol = new ScrambledSobol(space.size(), seed());
        model = new GpSurrogate(features, kernel, alpha);
    }

    // ------------------------------------------------------------------------------- training data

    /** The usable observations, targets standardised, at most {@link GpSurrogate#MAX_POINTS} of them. */
    private TrainingData data() {
        return TrainingData.of(observations(), GpSurrogate::modelPoints, features::features);
    }

    // ------------------------------------------------------------------------------- proposals

    @Override
    protected double[] propose(long parameterId, int attempt, SplittableRandom rng) {
        if (attempt == 0) {
            ranked = List.of();
        }
        TrainingData data = data();
        if (data.size() < 2 || data.size() + pending().size() < coldStart || dimension() == 0) {
            return sobol.point(historySize() + attempt);
        }
        if (attempt == 0) {
            ranked = rank(data, rng);
        }
        return attempt < ranked.size() ? ranked.get(attempt) : null;
    }

    /** The model's targets: the standardised losses, warped when {@code output_warping} says so. */
    private double[] targets(TrainingData data) {
        // the margin xi is in the metric's units, which a warping would not keep
        boolean warp = warping != null ? warping : dimension() > LOCAL_DIMENSIONS;
        return warp && xi == 0 ? OutputWarping.leastSkewed(data.y()) : data.y();
    }

    /** The training set of the hyper-parameter fit at the first {@code count} observations. */
    private GpSurrogate.FitData fitData(int count) {
        TrainingData d = TrainingData.of(observations().subList(0, count), GpSurrogate::modelPoints, features::features);
        return new GpSurrogate.FitData(d.x(), targets(d));
    }

    /** Scores candidates and returns the best distinct ones, best first. */
    private List<double[]> rank(TrainingData data, SplittableRandom rng) {
        double[] y = targets(data);
        model.fitThrough(observations().size(), this::fitData, n -> rngFor(FIT_STREAM, n));
        GaussianProcess.Posterior posterior = model.posterior(data.x(), y);
        if (posterior == null) {
            return List.of();
        }
        // kriging believer: each pending point takes its predicted mean as its value, incumbent included
        GpSurrogate.Believed believed = model.believe(posterior, data.x(), y, pendingUnits());
        final double margin = xi / data.scale();
        java.util.function.ToDoubleFunction<double[]> score = u -> {
            double[] pred = model.predict(believed.posterior(), canonicalUnit(u));
            return acquisition(pred[0], Math.sqrt(pred[1]), believed.incumbent(), margin);
        };

        int d = dimension();
        List<Observation> top = CandidatePoints.best(observations().stream().filter(o -> Double.isFinite(o.loss())).toList(), 5);
        List<double[]> points = new ArrayList<>(warmUp + startingPoints * LOCAL_STEPS);
        List<Double> scores = new ArrayList<>(points.size());
        for (int c = 0; c < warmUp; c++) {
            double[] u = d > LOCAL_DIMENSIONS && c % 2 == 1 && !top.isEmpty() ? perturbed(top.get(0), c / 2, d, rng)
                    : CandidatePoints.nearOrUniform(c, top, d, rng);
            points.add(u);
            scores.add(score.applyAsDouble(u));
        }
        Integer[] order = order(scores);
        int started = 0;
        for (int k = 0; k < order.length && started < startingPoints; k++, started++) {
            ScoredPoint start = new ScoredPoint(points.get(order[k]), scores.get(order[k]));
            CandidatePoints.climb(start, ScoredPoint::unit, v -> {
                double sv = score.applyAsDouble(v);
                points.add(v);
                scores.add(sv);
                return new ScoredPoint(v, sv);
            }, (a, b) -> a.score() > b.score(), LOCAL_STEPS, rng);
        }
        order = order(scores);
        List<double[]> out = new ArrayList<>();
        Set<UnitKey> distinct = new HashSet<>();
        for (int k = 0; k < order.length && out.size() < PROPOSAL_ATTEMPTS; k++) {
            double[] u = points.get(order[k]);
            if (distinct.add(new UnitKey(canonicalUnit(u)))) {
                out.add(u);
            }
        }
        return out;
    }

    /**
     * The incumbent's point with a random subset of its coordinates moved: each with probability
     * {@code min(1, 10 / d)}, at least one, by a Gaussian step of standard deviation 0.02, 0.1 or 0.3
     * in turn ({@code k} counts these candidates), clamped to the cube. In many dimensions a
     * uniform candidate is almost never better than the incumbent; these search near it along a few
     * coordinates at a time, as trust-region methods do.
     */
    static double[] perturbed(Observation best, int k, int d, SplittableRandom rng) {
        double[] centre = best.unit();
        double sd = PERTURBATION_STEPS[k % PERTURBATION_STEPS.length];
        double probability = Math.min(1, 10.0 / d);
        double[] u = new double[d];
        boolean any = false;
        for (int j = 0; j < d; j++) {
            u[j] = Double.isNaN(centre[j]) ? rng.nextDouble() : centre[j];
            if (rng.nextDouble() < probability) {
                u[j] = Math.max(0, Math.min(1, u[j] + sd * rng.nextGaussian()));
                any = true;
            }
        }
        if (!any) {
            int j = rng.nextInt(d);
            u[j] = Math.max(0, Math.min(1, u[j] + sd * rng.nextGaussian()));
        }
        return u;
    }

    /** A candidate and its acquisition value. */
    private record ScoredPoint(double[] unit, double score) {}

    private static Integer[] order(List<Double> scores) {
        Integer[] order = new Integer[scores.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(scores.get(b), scores.get(a)));
        return order;
    }

    /** The acquisition value (larger is better) of a prediction of the standardised loss. */
    double acquisition(double mean, double sd, double incumbent, double margin) {
        return switch (utility) {
            case UCB -> kappa * sd - mean;
            case POI -> normalCdf((incumbent - mean - margin) / sd);
            case EI -> {
                double improvement = incumbent - mean - margin;
                double z = improvement / sd;
                yield improvement * normalCdf(z) + sd * Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI);
            }
        };
    }

    private static double normalCdf(double z) {
        return 0.5 * Erf.erfc(-z / Math.sqrt(2));
    }

    // ------------------------------------------------------------------------------- for tests

    double[] theta() {
        return model.theta();
    }
}
