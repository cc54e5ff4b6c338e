package org.tunekit.tuners.metis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.hipparchus.special.Erf;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.space.EncodedSpace;
import org.tunekit.tuners.gp.FeatureMap;
import org.tunekit.tuners.gp.GaussianProcess;
import org.tunekit.tuners.gp.GpSurrogate;
import org.tunekit.tuners.gp.MaternKernel;
import org.tunekit.tuners.unitcube.CandidatePoints;
import org.tunekit.tuners.unitcube.ScrambledSobol;
import org.tunekit.tuners.unitcube.TrainingData;
import org.tunekit.tuners.unitcube.UnitCubeTuner;
import org.tunekit.tuners.common.UnitKey;

/**
 * Metis (Li et al., USENIX ATC 2018) over the unit cube of the encoded space, so every parameter
 * type is supported, nested choices included.
 *
 * <p>Model: a Gaussian process with a Matérn 5/2 kernel on the {@link FeatureMap} inputs and the
 * standardised losses ({@code +inf} counts as the worst finite loss, {@code NaN} and {@code -inf}
 * are left out). Its hyper-parameters are refitted whenever the number of observations has grown by
 * an eighth and reused in between, each fit on the observations up to its point
 * ({@link GpSurrogate#fitThrough}), so a fresh tuner that replays the results makes the same fits.
 *
 * <p>The first {@code cold_start_num} suggestions of the history (results plus pending suggestions)
 * are scrambled Sobol points, suggestion {@code k} the sequence's point {@code k}. Afterwards each round
 * screens {@code min(selection_num_starting_points, 1000)} points (half uniform, a quarter near
 * the best observations, a quarter equal to one of them but for one coordinate drawn anew) with
 * one prediction each, and builds up to three kinds of candidate:
 * <ul>
 *   <li><em>exploitation</em>: the point minimising the predicted mean, found by a short local
 *       search from the best screened points;</li>
 *   <li><em>exploration</em>: the point maximising the predicted variance, found likewise;</li>
 *   <li><em>re-sampling</em>: for every observation whose value lies outside the 95% interval that
 *       the process predicts for it from all the other observations (closed-form leave-one-out with
 *       the same kernel), a point next to it, unless it has such a neighbour already. An exact repeat
 *       is not possible, as suggestions are never repeated, so the re-sample is taken at a nearby
 *       new point.</li>
 * </ul>
 * Each candidate's expected gain is its expected improvement over the best loss; for a re-sampling
 * candidate the prediction is the leave-one-out one (what the point would be worth if its
 * observation were an outlier). The candidate with the largest gain is suggested. The exploration
 * candidate takes part with probability {@code exploration_probability}; {@code no_resampling}
 * leaves out re-sampling and {@code no_candidates} leaves out exploitation and exploration (then
 * only re-sampling candidates or random points are suggested).
 *
 * <p>Pending suggestions enter the model with their predicted mean as their value (kriging
 * believer), which shrinks the variance next to them and spreads a batch out; the exploitation
 * candidate is then sought away from them (a penalty on the mean that fades with the distance to
 * each pending point), since next to them the believed mean is lowest and nothing is left to gain.
 */
final class MetisTuner extends UnitCubeTuner {
    static final int MAX_STARTING_POINTS = 1000;
    private static final int LOCAL_STARTS = 3;
    private static final double PENDING_RADIUS = 0.1;
    private static final int LOCAL_STEPS = 20;
    private static final double NOISE = 1e-5;
    private static final double OUTLIER_Z = 1.96;
    private static final int MAX_RESAMPLE_CANDIDATES = 5;
    private static final double RESAMPLE_RADIUS = 0.01;
    private static final long FIT_STREAM = 0x3E715L;

    /** The kinds of candidate a round produces. */
    enum Source { EXPLOITATION, EXPLORATION, RESAMPLING }

    private final boolean noResampling;
    private final boolean noCandidates;
    private final int startingPoints;
    private final int coldStart;
    private final double explorationProbability;

    private FeatureMap features;
    private ScrambledSobol sobol;
    private GpSurrogate model;
    private List<double[]> ranked = List.of();
    private Source lastSource;

    MetisTuner(OptimizeMode mode, long seed, boolean noResampling, boolean noCandidates, int startingPoints, int coldStart,
            double explorationProbability) {
        super(mode, seed);
        this.noResampling = noResampling;
        this.noCandidates = noCandidates;
        this.startingPoints = startingPoints;
        this.coldStart = coldStart;
        this.explorationProbability = explorationProbability;
    }

    static MetisTuner create(ClassArguments a) {
        a.requireOnly("optimize_mode", "no_resampling", "no_candidates", "selection_num_starting_points", "cold_start_num",
                "exploration_probability", "seed");
        OptimizeMode mode = OptimizeMode.from(a, OptimizeMode.MAXIMIZE);
        boolean noResampling = a.getBoolean("no_resampling", false);
        boolean noCandidates = a.getBoolean("no_candidates", false);
        int starts = a.getInt("selection_num_starting_points", 600, 1);
        int coldStart = a.getInt("cold_start_num", 10, 1);
        double exploration = a.getDouble("exploration_probability", 0.9, 0, 1);
        return new MetisTuner(mode, seedOf(a), noResampling, noCandidates, Math.min(starts, MAX_STARTING_POINTS), coldStart,
                exploration);
    }

    @Override
    protected void spaceChanged(EncodedSpace space) {
        features = new FeatureMap(space);
        sobol = new ScrambledSobol(space.size(), seed());
        model = new GpSurrogate(features, MaternKernel.FIVE_HALVES, NOISE);
    }

    // ------------------------------------------------------------------------------- training data

    /**
     * The usable observations (at most {@link GpSurrogate#MAX_POINTS}, as for GPTuner): inputs,
     * standardised targets, and the observations they come from.
     */
    private TrainingData data() {
        return TrainingData.of(observations(), GpSurrogate::modelPoints, features::features);
    }

    // ------------------------------------------------------------------------------- proposals

    @Override
    protected double[] propose(long parameterId, int attempt, SplittableRandom rng) {
        if (attempt == 0) {
            ranked = List.of();
            lastSource = null;
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

    /** A candidate with its source and expected gain. */
    private record Candidate(double[] point, Source source, double gain) {}

    /** One evaluated point: its prediction (standardised loss) and expected improvement. */
    private record Scored(double[] point, double mean, double variance, double ei) {}

    private List<double[]> rank(TrainingData data, SplittableRandom rng) {
        model.fitThrough(observations().size(), count -> {
            TrainingData d = TrainingData.of(observations().subList(0, count), GpSurrogate::modelPoints, features::features);
            return new GpSurrogate.FitData(d.x(), d.y());
        }, n -> rngFor(FIT_STREAM, n));
        GaussianProcess.Posterior posterior = model.posterior(data.x(), data.y());
        if (posterior == null) {
            return List.of();
        }

        // re-sampling candidates come from the real observations only
        List<Candidate> candidates = new ArrayList<>();
        if (!noResampling) {
            candidates.addAll(resamplingCandidates(data, posterior, rng));
        }

        GpSurrogate.Believed believed = model.believe(posterior, data.x(), data.y(), pendingUnits());
        java.util.function.Function<double[], Scored> score = u -> {
            double[] pred = model.predict(believed.posterior(), canonicalUnit(u));
            return new Scored(u, pred[0], pred[1], expectedImprovement(pred[0], Math.sqrt(pred[1]), believed.incumbent()));
        };

        List<Scored> scored = screen(data, score, rng);
        boolean explore = rng.nextDouble() < explorationProbability;
        if (!noCandidates) {
            // with trials pending, the believed mean is lowest right next to them, where nothing is left
            // to gain: exploitation then looks for the lowest mean away from them (local penalisation)
            List<double[]> pending = pendingUnits();
            Comparator<Scored> byMean = pending.isEmpty() ? Comparator.comparingDouble(Scored::mean)
                    : Comparator.comparingDouble((Scored s) -> s.mean() + pendingPenalty(s.point(), pending));
            Scored exploit = localSearch(scored, byMean, score, rng);
            candidates.add(new Candidate(exploit.point(), Source.EXPLOITATION, exploit.ei()));
            if (explore) {
                Scored far = localSearch(scored, Comparator.comparingDouble((Scored s) -> s.variance()).reversed(), score, rng);
                candidates.add(new Candidate(far.point(), Source.EXPLORATION, far.ei()));
            }
        }
        candidates.sort(Comparator.comparingDouble((Candidate c) -> c.gain()).reversed());
        lastSource = candidates.isEmpty() ? null : candidates.get(0).source();

        List<double[]> out = new ArrayList<>();
        Set<UnitKey> distinct = new HashSet<>();
        for (Candidate c : candidates) {
            if (distinct.add(new UnitKey(canonicalUnit(c.point())))) {
                out.add(c.point());
            }
        }
        if (noCandidates) {
            return out; // then random points
        }
        scored.sort(Comparator.comparingDouble((Scored s) -> s.ei()).reversed());
        for (int k = 0; k < scored.size() && out.size() < PROPOSAL_ATTEMPTS; k++) {
            double[] u = scored.get(k).point();
            if (distinct.add(new UnitKey(canonicalUnit(u)))) {
                out.add(u);
            }
        }
        return out;
    }

    /**
     * How much a point next to pending suggestions is held back when exploiting: one standard
     * deviation of the standardised loss at a pending point, fading with the distance in the unit
     * cube over {@value #PENDING_RADIUS}.
     */
    static double pendingPenalty(double[] u, List<double[]> pending) {
        double penalty = 0;
        for (double[] p : pending) {
            double d2 = 0;
            for (int j = 0; j < u.length; j++) {
                double a = Double.isNaN(u[j]) ? 0.5 : u[j];
                double b = Double.isNaN(p[j]) ? 0.5 : p[j];
                d2 += (a - b) * (a - b);
            }
            penalty += Math.exp(-d2 / (2 * PENDING_RADIUS * PENDING_RADIUS));
        }
        return penalty;
    }

    /** Scores the screening points: uniform ones, points near the best observations, and best observations with one coordinate redrawn. */
    private List<Scored> screen(TrainingData data, java.util.function.Function<double[], Scored> score, SplittableRandom rng) {
        int d = dimension();
        List<Observation> top = CandidatePoints.best(data.from(), 5);
        List<Scored> out = new ArrayList<>(startingPoints + 2 * LOCAL_STARTS * LOCAL_STEPS);
        for (int c = 0; c < startingPoints; c++) {
            out.add(score.apply(CandidatePoints.screening(c, top, d, rng)));
        }
        return out;
    }

    /**
     * A (1+1) local search from the {@value #LOCAL_STARTS} best screened points in the given order;
     * every point it evaluates is added to {@code scored}. Returns the best point found.
     */
    private Scored localSearch(List<Scored> scored, Comparator<Scored> order, java.util.function.Function<double[], Scored> score,
            SplittableRandom rng) {
        List<Scored> starts = new ArrayList<>(scored);
        starts.sort(order);
        Scored best = starts.get(0);
        for (int k = 0; k < Math.min(LOCAL_STARTS, starts.size()); k++) {
            Scored current = CandidatePoints.climb(starts.get(k), Scored::point, v -> {
                Scored s = score.apply(v);
                scored.add(s);
                return s;
            }, (a, b) -> order.compare(a, b) < 0, LOCAL_STEPS, rng);
            if (order.compare(current, best) < 0) {
                best = current;
            }
        }
        return best;
    }

    /**
     * Points next to the observations that the process, trained without each of them, predicts
     * poorly; the gain is the expected improvement under that leave-one-out prediction over the best
     * of the other observations. At most {@value #MAX_RESAMPLE_CANDIDATES}, the most surprising first.
     */
    private List<Candidate> resamplingCandidates(TrainingData data, GaussianProcess.Posterior posterior, SplittableRandom rng) {
        int n = data.y().length;
        if (n < 3) {
            return List.of();
        }
        double[][] loo = posterior.leaveOneOut(data.y());
        double[] y = data.y();
        double best = Double.POSITIVE_INFINITY;
        double second = Double.POSITIVE_INFINITY;
        for (double v : y) {
            if (v < best) {
                second = best;
                best = v;
            } else if (v < second) {
                second = v;
            }
        }
        List<double[]> outliers = new ArrayList<>(); // {index, |z|}
        for (int i = 0; i < n; i++) {
            double sd = Math.sqrt(loo[1][i]);
            double z = Math.abs(y[i] - loo[0][i]) / sd;
            if (z > OUTLIER_Z) {
                outliers.add(new double[] {i, z});
            }
        }
        outliers.sort((a, b) -> Double.compare(b[1], a[1]));
        List<Candidate> out = new ArrayList<>();
        int d = dimension();
        for (double[] o : outliers) {
            if (out.size() >= MAX_RESAMPLE_CANDIDATES) {
                break;
            }
            int i = (int) o[0];
            Observation obs = data.from().get(i);
            if (alreadyResampled(obs, data.from())) {
                continue;
            }
            double[] centre = obs.unit();
            double[] u = new double[d];
            for (int j = 0; j < d; j++) {
                double c = Double.isNaN(centre[j]) ? rng.nextDouble() : centre[j];
                u[j] = Math.max(0, Math.min(1, c + RESAMPLE_RADIUS * rng.nextGaussian()));
            }
            double incumbent = y[i] == best ? second : best;
            out.add(new Candidate(u, Source.RESAMPLING, expectedImprovement(loo[0][i], Math.sqrt(loo[1][i]), incumbent)));
        }
        return out;
    }

    /**
     * Whether another observation or a pending suggestion lies within {@code 3 * RESAMPLE_RADIUS} of
     * {@code obs} (unit-cube distance over the coordinates active in both): then it has been
     * re-sampled already, and one re-sample per observation is enough.
     */
    private boolean alreadyResampled(Observation obs, List<Observation> all) {
        List<double[]> others = new ArrayList<>();
        for (Observation o : all) {
            if (o != obs) {
                others.add(o.unit());
            }
        }
        for (Proposal p : pending()) {
            others.add(p.unit());
        }
        double limit = 9 * RESAMPLE_RADIUS * RESAMPLE_RADIUS;
        for (double[] q : others) {
            double r2 = 0;
            double[] u = obs.unit();
            for (int j = 0; j < u.length && r2 <= limit; j++) {
                if (Double.isNaN(u[j]) != Double.isNaN(q[j])) {
                    r2 = Double.POSITIVE_INFINITY;
                } else if (!Double.isNaN(u[j])) {
                    double d = u[j] - q[j];
                    r2 += d * d;
                }
            }
            if (r2 <= limit) {
                return true;
            }
        }
        return false;
    }

    /** The expected improvement of a prediction of the standardised loss over {@code incumbent}. */
    static double expectedImprovement(double mean, double sd, double incumbent) {
        if (!(sd > 0)) {
            return Math.max(0, incumbent - mean);
        }
        double improvement = incumbent - mean;
        double z = improvement / sd;
        return improvement * 0.5 * Erf.erfc(-z / Math.sqrt(2)) + sd * Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI);
    }

    // ------------------------------------------------------------------------------- for tests

    /** The source of the candidate ranked first by the latest model-based proposal, or {@code null}. */
    Source lastSource() {
        return lastSource;
    }
}
