package org.tunekit.tuners.dngo;

import java.util.ArrayList;
import java.util.Arrays;
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
import org.tunekit.tuners.unitcube.CandidatePoints;
import org.tunekit.tuners.unitcube.ScrambledSobol;
import org.tunekit.tuners.unitcube.TrainingData;
import org.tunekit.tuners.unitcube.UnitCubeTuner;
import org.tunekit.tuners.common.UnitKey;

/**
 * DNGO (Snoek et al., ICML 2015) over the unit cube of the encoded space, so every parameter type
 * is supported, nested choices included.
 *
 * <p>Model: a {@link NeuralBasis} network (two hidden layers of {@value #HIDDEN} tanh units) on
 * the {@link FeatureMap} inputs, trained for {@code num_epochs_per_training} epochs on the
 * standardised losses ({@code +inf} counts as the worst finite loss, {@code NaN} and {@code -inf}
 * are left out). Its last hidden layer is the basis of a {@link BayesianLinearRegression} whose
 * precisions are chosen by maximising the marginal likelihood. The network is a fresh one,
 * seeded by the number {@code t} of observations it is trained on, where {@code t} is the number
 * of observations up to {@value #INITIAL_DESIGN} and then {@value #INITIAL_DESIGN} plus a multiple
 * of {@code trials_per_update} (the largest not above the number of observations): retrained
 * whenever {@code trials_per_update} new results have arrived. The regression is refitted on every
 * suggestion, so every result counts at once.
 *
 * <p>Suggestions: the first {@value #INITIAL_DESIGN} of the history (results plus pending
 * suggestions) are points of a scrambled Sobol sequence, suggestion {@code k} its point {@code k}. Then
 * {@code min(sample_size, 5000)} candidates (half uniform, a quarter near the best
 * observations, a quarter equal to one of them but for one coordinate drawn anew) are scored by
 * expected improvement, the best {@value #LOCAL_STARTS} are improved by a short (1+1) local
 * search, and the best candidate that is not a known set is suggested. Pending suggestions enter
 * the regression with their predicted mean as their value (kriging believer), and the expected
 * improvement is damped next to them (see {@link #pendingPenalty}).
 *
 * <p>Resume: the network, the regression and the Sobol points are functions of the results in
 * order, so a fresh tuner given them through {@code importData} continues exactly (training the
 * network once on the observations the other one last trained it on).
 */
final class DngoTuner extends UnitCubeTuner {
    static final int HIDDEN = 50;
    static final int INITIAL_DESIGN = 10;
    static final int MAX_SAMPLE_SIZE = 5000;
    private static final int LOCAL_STARTS = 5;
    private static final int LOCAL_STEPS = 20;
    private static final double PENDING_RADIUS = 0.1;
    private static final long NETWORK_STREAM = 0xD5607L;

    private final int sampleSize;
    private final int trialsPerUpdate;
    private final int epochs;

    private FeatureMap features;
    private ScrambledSobol sobol;
    private NeuralBasis network;
    /** How many observations (a prefix of {@link #observations()}) the network was trained on; 0 when untrained. */
    private int trainedOn;
    private List<double[]> ranked = List.of();

    DngoTuner(OptimizeMode mode, long seed, int sampleSize, int trialsPerUpdate, int epochs) {
        super(mode, seed);
        this.sampleSize = sampleSize;
        this.trialsPerUpdate = trialsPerUpdate;
        this.epochs = epochs;
    }

    static DngoTuner create(ClassArguments a) {
        a.requireOnly("optimize_mode", "sample_size", "trials_per_update", "num_epochs_per_training", "seed");
        OptimizeMode mode = OptimizeMode.from(a, OptimizeMode.MAXIMIZE);
        int sampleSize = a.getInt("sample_size", 1000, 1);
        int trialsPerUpdate = a.getInt("trials_per_update", 20, 1);
        int epochs = a.getInt("num_epochs_per_training", 500, 1);
        return new DngoTuner(mode, seedOf(a), Math.min(sampleSize, MAX_SAMPLE_SIZE), trialsPerUpdate, epochs);
    }

    @Override
    protected void spaceChanged(EncodedSpace space) {
        features = new FeatureMap(space);
        sobol = new ScrambledSobol(space.size(), seed());
        network = null;
        trainedOn = 0;
    }

    // ------------------------------------------------------------------------------- training data

    /** Inputs and standardised targets of the usable observations among the first {@code count}. */
    private TrainingData data(int count) {
        return TrainingData.of(observations().subList(0, count), features::features);
    }

    /** Trains a fresh network on the first {@code count} observations, seeded by {@code count}. */
    private void train(int count) {
        TrainingData d = data(count);
        SplittableRandom rng = rngFor(NETWORK_STREAM, count);
        network = new NeuralBasis(features.size(), HIDDEN, rng);
        if (d.y().length > 0) {
            network.train(d.x(), d.y(), epochs, rng);
        }
        trainedOn = count;
    }

    /** How many observations the network is trained on when there are {@code count}. */
    int trainingSize(int count) {
        return count <= INITIAL_DESIGN ? count : count - (count - INITIAL_DESIGN) % trialsPerUpdate;
    }

    // ------------------------------------------------------------------------------- proposals

    @Override
    protected double[] propose(long parameterId, int attempt, SplittableRandom rng) {
        if (attempt == 0) {
            ranked = List.of();
        }
        int count = observations().size();
        TrainingData data = data(count);
        if (data.y().length < 2 || data.y().length + pending().size() < INITIAL_DESIGN || dimension() == 0) {
            return sobol.point(historySize() + attempt);
        }
        if (attempt == 0) {
            int t = trainingSize(count);
            if (network == null || trainedOn != t) {
                train(t);
            }
            ranked = rank(data, rng);
        }
        return attempt < ranked.size() ? ranked.get(attempt) : null;
    }

    private double[] design(double[] unit) {
        double[] b = network.basis(features.features(unit));
        double[] phi = Arrays.copyOf(b, b.length + 1);
        phi[b.length] = 1;
        return phi;
    }

    private record Scored(double[] point, double ei) {}

    private List<double[]> rank(TrainingData data, SplittableRandom rng) {
        int n = data.y().length;
        double[][] phi = new double[n][];
        double best = Double.POSITIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            phi[i] = design(data.from().get(i).unit());
            best = Math.min(best, data.y()[i]);
        }
        BayesianLinearRegression.Precisions precisions = BayesianLinearRegression.fit(phi, data.y());
        BayesianLinearRegression.Posterior posterior = BayesianLinearRegression.posterior(phi, data.y(), precisions);
        if (!pending().isEmpty()) {
            int p = pending().size();
            double[][] phiB = Arrays.copyOf(phi, n + p);
            double[] yB = Arrays.copyOf(data.y(), n + p);
            int i = n;
            for (Proposal pr : pending()) {
                phiB[i] = design(pr.unit());
                yB[i] = posterior.predict(phiB[i])[0];
                best = Math.min(best, yB[i]);
                i++;
            }
            posterior = BayesianLinearRegression.posterior(phiB, yB, precisions);
        }
        final BayesianLinearRegression.Posterior model = posterior;
        final double incumbent = best;
        final List<double[]> busy = pendingUnits();
        java.util.function.Function<double[], Scored> score = u -> {
            double[] unit = canonicalUnit(u);
            double[] pred = model.predict(design(unit));
            return new Scored(u, expectedImprovement(pred[0], Math.sqrt(pred[1]), incumbent) * pendingPenalty(unit, busy));
        };

        int d = dimension();
        List<Observation> top = CandidatePoints.best(data.from(), 5);
        List<Scored> scored = new ArrayList<>(sampleSize + LOCAL_STARTS * LOCAL_STEPS);
        for (int c = 0; c < sampleSize; c++) {
            scored.add(score.apply(CandidatePoints.screening(c, top, d, rng)));
        }
        List<Scored> starts = new ArrayList<>(scored);
        starts.sort(Comparator.comparingDouble((Scored s) -> s.ei()).reversed());
        for (int k = 0; k < Math.min(LOCAL_STARTS, starts.size()); k++) {
            CandidatePoints.climb(starts.get(k), Scored::point, v -> {
                Scored s = score.apply(v);
                scored.add(s);
                return s;
            }, (a, b) -> a.ei() > b.ei(), LOCAL_STEPS, rng);
        }
        scored.sort(Comparator.comparingDouble((Scored s) -> s.ei()).reversed());
        List<double[]> out = new ArrayList<>();
        Set<UnitKey> distinct = new HashSet<>();
        for (int k = 0; k < scored.size() && out.size() < PROPOSAL_ATTEMPTS; k++) {
            double[] u = scored.get(k).point();
            if (distinct.add(new UnitKey(canonicalUnit(u)))) {
                out.add(u);
            }
        }
        return out;
    }

    /**
     * A factor in [0, 1) that vanishes at pending points and approaches 1 away from them:
     * the product over pending points of {@code 1 - exp(-r^2 / (2 * 0.1^2))}, {@code r} the unit-cube
     * distance over the coordinates active in both. The believed values alone barely move a network
     * basis that is saturated around a pending point, so this keeps a batch from piling up there.
     */
    static double pendingPenalty(double[] unit, List<double[]> pendingUnits) {
        double factor = 1;
        for (double[] q : pendingUnits) {
            double r2 = 0;
            for (int j = 0; j < unit.length; j++) {
                if (!Double.isNaN(unit[j]) && !Double.isNaN(q[j])) {
                    double d = unit[j] - q[j];
                    r2 += d * d;
                } else if (Double.isNaN(unit[j]) != Double.isNaN(q[j])) {
                    r2 += 1; // different nested branches
                }
            }
            factor *= 1 - Math.exp(-r2 / (2 * PENDING_RADIUS * PENDING_RADIUS));
        }
        return factor;
    }

    /** The expected improvement of a prediction of the standardised loss over {@code incumbent}. */
    static double expectedImprovement(double mean, double sd, double incumbent) {
        double improvement = incumbent - mean;
        if (!(sd > 1e-12)) {
            return Math.max(0, improvement);
        }
        double z = improvement / sd;
        return improvement * 0.5 * Erf.erfc(-z / Math.sqrt(2)) + sd * Math.exp(-0.5 * z * z) / Math.sqrt(2 * Math.PI);
    }

    // ------------------------------------------------------------------------------- for tests

    /** How many observations the network was last trained on, or -1 when it is untrained. */
    int trainedOn() {
        return network == null ? -1 : trainedOn;
    }
}
