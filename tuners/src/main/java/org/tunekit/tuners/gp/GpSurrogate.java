package org.tunekit.tuners.gp;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntFunction;
import org.tunekit.tuners.unitcube.UnitCubeTuner.Observation;

/**
 * A Gaussian process surrogate of the standardised loss on {@link FeatureMap} inputs, with the
 * schedule of its hyper-parameter fits and the kriging believer for pending points.
 *
 * <p>The hyper-parameters are refitted by maximum a posteriori whenever the number of observations
 * has grown by an eighth since the last fit ({@link #fitThrough}), from the previous fit (but
 * for every {@value #CHAIN}th fit), the default and one random start, on at most the
 * {@value #MAX_FIT_POINTS} most recent points; in between they are reused.
 */
public final class GpSurrogate {
    private static final int FIT_ITERATIONS = 30;
    private static final int MAX_FIT_POINTS = 300;
    /** How many fits of the schedule start one from the other before one starts afresh. */
    private static final int CHAIN = 8;
    /** The most observations a posterior is built on (see {@link #modelPoints}). */
    public static final int MAX_POINTS = 400;

    private final FeatureMap features;
    private final MaternKernel kernel;
    private final double noise;
    private double[] theta;
    /** The schedule's index of {@link #theta}, -1 before the first fit. */
    private int fittedIndex = -1;
    /** A fit outside the schedule, used while the schedule has none. */
    private double[] interim;

    /** An unfitted surrogate on the given inputs with the given kernel and noise variance. */
    public GpSurrogate(FeatureMap features, MaternKernel kernel, double noise) {
        this.features = features;
        this.kernel = kernel;
        this.noise = noise;
    }

    /** The training set of a fit: inputs, oldest first, and standardised (possibly warped) losses. */
    public record FitData(double[][] x, double[] y) {}

    /**
     * Brings the hyper-parameters to the last fit of the schedule up to {@code count} observations.
     * Fit {@code k} of the schedule is due at {@code s_k} observations: {@code s_0 = 2}, then
     * {@code s_(k+1) = s_k + max(1, s_k / 8)}, so a fit each time the observations have grown by an
     * eighth. It is made on the training set of the first {@code s_k} observations, from the
     * default, one random start and (unless {@code k} is a multiple of {@value #CHAIN}) fit
     * {@code k - 1}. So the hyper-parameters are a function of the observations alone, however often
     * and at whatever counts this is called, and a tuner that replays its results makes at most
     * {@value #CHAIN} fits to catch up.
     *
     * @param count  the number of observations
     * @param data   the training set of the first {@code s} observations
     * @param random the generator for the random start of the fit at {@code s} observations
     */
    public void fitThrough(int count, IntFunction<FitData> data, IntFunction<SplittableRandom> random) {
        int last = -1;
        for (int k = 0, s = 2; s <= count; k++, s += Math.max(1, s / 8)) {
            last = k;
        }
        if (last > fittedIndex) {
            int from = last / CHAIN * CHAIN;
            int k = from;
            int s = due(from);
            if (fittedIndex >= from) {
                k = fittedIndex + 1;
                s = due(k);
            }
            for (; k <= last; k++, s += Math.max(1, s / 8)) {
                if (k % CHAIN == 0) {
                    theta = null; // a chain begins
                }
                FitData d = data.apply(s);
                if (d.y().length >= 2) {
                    theta = fit(d.x(), d.y(), theta, random.apply(s));
                }
            }
            fittedIndex = last;
        }
        interim = null;
        if (theta == null) {
            // no fit since the chain began had two usable losses: one for now, which no later fit starts from
            FitData d = data.apply(count);
            if (d.y().length >= 2) {
                interim = fit(d.x(), d.y(), null, random.apply(count));
            }
        }
    }

    /** {@code s_k}, the number of observations at which fit {@code k} is due. */
    private static int due(int k) {
        int s = 2;
        for (int i = 0; i < k; i++) {
            s += Math.max(1, s / 8);
        }
        return s;
    }

    private double[] fit(double[][] x, double[] y, double[] previous, SplittableRandom rng) {
        int n = y.length;
        if (n > MAX_FIT_POINTS) {
            // the hyper-parameters are fitted on the most recent points only, which bounds a fit's cost
            x = Arrays.copyOfRange(x, n - MAX_FIT_POINTS, n);
            y = Arrays.copyOfRange(y, n - MAX_FIT_POINTS, n);
        }
        GaussianProcess gp = new GaussianProcess(x, y, features.groupOf(), features.groups(), kernel, noise);
        List<double[]> starts = new ArrayList<>();
        if (previous != null) {
            starts.add(previous);
        }
        starts.add(GaussianProcess.defaultTheta(features.groups()));
        double[] start = new double[features.groups() + 1];
        start[0] = rng.nextDouble(-1, 1);
        for (int g = 1; g < start.length; g++) {
            start[g] = rng.nextDouble(Math.log(0.05), Math.log(2));
        }
        starts.add(start);
        return gp.fit(starts, FIT_ITERATIONS);
    }

    /** The posterior given the training points with the current hyper-parameters, or {@code null} if it cannot be built. */
    public GaussianProcess.Posterior posterior(double[][] x, double[] y) {
        return new GaussianProcess(x, y, features.groupOf(), features.groups(), kernel, noise).posterior(current());
    }

    /** A posterior that takes pending points into account, and the incumbent standardised loss. */
    public record Believed(GaussianProcess.Posterior posterior, double incumbent) {}

    /**
     * The kriging believer: each pending point joins the training points with {@code posterior}'s
     * predicted mean as its value, and that value also counts for the incumbent. Returns
     * {@code posterior} itself when nothing is pending or the extended posterior cannot be built.
     *
     * @param posterior the posterior of the training points {@code x}, {@code y}
     * @param pendingUnits the unit points of the pending suggestions
     */
    public Believed believe(GaussianProcess.Posterior posterior, double[][] x, double[] y, List<double[]> pendingUnits) {
        double best = Double.POSITIVE_INFINITY;
        for (double v : y) {
            best = Math.min(best, v);
        }
        if (pendingUnits.isEmpty()) {
            return new Believed(posterior, best);
        }
        int n = y.length;
        int p = pendingUnits.size();
        double[][] xb = Arrays.copyOf(x, n + p);
        double[] yb = Arrays.copyOf(y, n + p);
        int i = n;
        for (double[] unit : pendingUnits) {
            xb[i] = features.features(unit);
            yb[i] = posterior.predict(xb[i], features.groupOf())[0];
            best = Math.min(best, yb[i]);
            i++;
        }
        GaussianProcess.Posterior believed = posterior(xb, yb);
        return new Believed(believed != null ? believed : posterior, best);
    }

    /** The predicted mean and variance at a unit point. */
    public double[] predict(GaussianProcess.Posterior posterior, double[] unit) {
        return posterior.predict(features.features(unit), features.groupOf());
    }

    /** The fitted hyper-parameters, or {@code null} before the first fit (a copy). */
    public double[] theta() {
        double[] t = current();
        return t == null ? null : t.clone();
    }

    private double[] current() {
        return theta != null ? theta : interim;
    }

    /**
     * The observations a posterior is built on: all of them up to {@link #MAX_POINTS}, beyond that
     * the best quarter of that number (where the next suggestions matter most) and the most recent
     * of the rest, in their original order. It bounds the cost of a suggestion (a Cholesky
     * factorisation is cubic in the points, its matrices quadratic) whatever the length of the
     * experiment or the size of imported data.
     */
    public static List<Observation> modelPoints(List<Observation> usable) {
        int n = usable.size();
        if (n <= MAX_POINTS) {
            return usable;
        }
        Integer[] byLoss = new Integer[n];
        for (int i = 0; i < n; i++) {
            byLoss[i] = i;
        }
        Arrays.sort(byLoss, (a, b) -> Double.compare(usable.get(a).loss(), usable.get(b).loss()));
        boolean[] keep = new boolean[n];
        int kept = 0;
        for (int k = 0; k < MAX_POINTS / 4; k++) {
            keep[byLoss[k]] = true;
            kept++;
        }
        for (int i = n - 1; i >= 0 && kept < MAX_POINTS; i--) {
            if (!keep[i]) {
                keep[i] = true;
                kept++;
            }
        }
        List<Observation> subset = new ArrayList<>(MAX_POINTS);
        for (int i = 0; i < n; i++) {
            if (keep[i]) {
                subset.add(usable.get(i));
            }
        }
        return subset;
    }
}
