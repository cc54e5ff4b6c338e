package org.tunekit.tuners.cmaes;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.hipparchus.linear.Array2DRowRealMatrix;
import org.hipparchus.linear.EigenDecompositionSymmetric;
import org.hipparchus.linear.RealMatrix;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.space.EncodedSpace;
import org.tunekit.tuners.unitcube.UnitCubeTuner;

/**
 * CMA-ES (covariance matrix adaptation evolution strategy, after Hansen's tutorial "The CMA
 * Evolution Strategy", 2016) in the unit cube of the encoded space, with IPOP restarts.
 *
 * <p>Start: the first mean is the centre of the cube ({@code start: centre}, the default, where
 * Optuna's CMA-ES starts too), or a uniformly random point drawn as a restart's mean is
 * ({@code start: random}). The centre is a good start wherever good values lie mid-range,
 * which holds for many hand-set hyper-parameter ranges (on the real-model suite, 128 trials, the
 * centre scores 60.6 one at a time and 67.3 in rounds of 8, a random start 53.3 and 49.5;
 * bench/results/realmodels/cmaes-start) and for test functions whose optimum is the centre of their
 * box (Ackley, Rastrigin).
 *
 * <p>Samples {@code x = m + sigma * B D z} are reflected into [0, 1]; integer and categorical
 * coordinates are rounded when the point is decoded. The update uses the reflected points: weighted
 * recombination of the better half, cumulative step-size adaptation, and a rank-one plus rank-mu
 * covariance update in which the worse half has negative weights (active CMA, with the tutorial's
 * default weights). Draws are mirrored and orthogonal: member {@code 2j+1} of a generation is member
 * {@code 2j} reflected through the mean, and the pairs of each block of {@code n} pairs go in
 * orthogonal directions. Elitism: at each update, the best member of the restart's
 * earlier generations stands in for the generation's worst member when it is better (the
 * flat-fitness and restart tests look at the generation's own members only).
 *
 * <p>Generations are made of results in the order they arrive, whoever proposed them: a result of
 * this tuner's own suggestions (of whatever generation it was drawn from), an imported result
 * ({@link #importData}) and a customized trial each become the next member of the current
 * generation. As soon as the generation has {@code lambda} members, the distribution is updated
 * from them and the next generation begins; a trailing incomplete generation waits for the rest of
 * its members. A member enters the update as the first draw of the current generation (among its
 * first {@code 4 lambda + 32}) that decodes to the member's parameter set, which for this tuner's
 * own suggestions is the point proposed (before rounding); a member no such draw gives enters as
 * the unit vector of its set (clamped to [0, 1]; an inactive nested coordinate counts as at the
 * mean, so it moves nothing). Failed trials do not count. So the state (mean, step size,
 * covariance, paths, restarts) is a function of the ordered results alone: a fresh tuner of the
 * same seed given the same results in the same order through {@code importData} reaches exactly
 * the state of the tuner that suggested them, which is how the dispatcher resumes it and how a
 * stateless service (Katib's) rebuilds the strategy on every request.
 *
 * <p>Sampling: member {@code k} of generation {@code g} is drawn from a generator seeded by
 * {@code (seed, g, k)}. Attempt {@code a} of a suggestion takes the {@code a}-th draw, in order of
 * {@code k}, whose set is neither a member of the current generation nor a pending suggestion. So
 * a tuner that replayed the results walks the current generation as the other one did. A batch
 * larger than what a generation still needs simply draws more members of the current
 * distribution; their results count in whatever generation is current when they arrive.
 *
 * <p>Restarts (IPOP): when the step size has shrunk below the resolution that matters
 * ({@code sigma * sqrt(max C_ii) < 1e-7}), the covariance is ill-conditioned (condition number over
 * 1e14), the best values of the last {@code 10 + 30 n / lambda} generations are flat, or the best
 * value has not improved for {@code 20 + 60 n / lambda} generations, the strategy restarts from a
 * uniformly random mean (drawn from {@code (seed, restart number)}) with {@code sigma0} and the
 * identity covariance, doubling {@code lambda} for each of the first {@code restarts} restarts
 * (later restarts keep the population).
 */
final class CmaEsTuner extends UnitCubeTuner {
    private final double sigma0;
    private final int popsize0;
    private final int maxRestarts;
    private final boolean randomStart;

    private int n;
    private int lambda;
    private int mu;
    private double[] weights;
    /** The (negative) weights of the ranks {@code mu .. lambda-1} in the active covariance update. */
    private double[] negativeWeights;
    private double mueff;
    private double cs;
    private double ds;
    private double cc;
    private double c1;
    private double cmu;
    private double chiN;

    private double[] mean;
    /** The best member of the generations of this restart so far (its point and loss), or {@code null}. */
    private double[] elitePoint;
    private double eliteLoss = Double.POSITIVE_INFINITY;
    private double sigma;
    private double[][] cov;
    private double[] pc;
    private double[] ps;
    private double[][] basis;
    private double[] scales;

    private long generation;
    private long generationInRestart;
    private int restartCount;
    private long updates;
    private double bestInRestart;
    private long lastImprovement;
    private final List<Double> bestHistory = new ArrayList<>();
    /** The members of the current generation: the points the update uses, their losses, their parameter sets' unit vectors. */
    private final List<double[]> resultPoints = new ArrayList<>();
    private final List<Double> resultLosses = new ArrayList<>();
    private final List<double[]> resultUnits = new ArrayList<>();
    /** The draws of the current generation computed so far: {point, its canonical unit vector}, by {@code k}. */
    private final List<double[][]> draws = new ArrayList<>();

    CmaEsTuner(OptimizeMode mode, long seed, double sigma0, int popsize, int restarts, boolean randomStart) {
        super(mode, seed);
        this.sigma0 = sigma0;
        this.popsize0 = popsize;
        this.maxRestarts = restarts;
        this.randomStart = randomStart;
    }

    static CmaEsTuner create(ClassArguments arguments) {
        arguments.requireOnly("optimize_mode", "seed", "sigma0", "popsize", "restarts", "start");
        OptimizeMode mode = OptimizeMode.from(arguments, OptimizeMode.MAXIMIZE);
        double sigma0 = arguments.getDouble("sigma0", 0.3);
        if (!(sigma0 > 0 && sigma0 <= 10)) {
            throw new InvalidClassArgumentException("class argument 'sigma0' must be in (0, 10] (the unit cube is [0, 1]), got " + sigma0);
        }
        int popsize = arguments.has("popsize") ? arguments.getInt("popsize", 0, 2) : 0;
        int restarts = arguments.getInt("restarts", 9, 0);
        boolean randomStart = "random".equals(arguments.getChoice("start", "centre", "centre", "center", "random"));
        return new CmaEsTuner(mode, seedOf(arguments), sigma0, popsize, restarts, randomStart);
    }

    // ------------------------------------------------------------------------------- strategy parameters

    private void setPopulation(int populationSize) {
        lambda = populationSize;
        mu = lambda / 2;
        weights = new double[mu];
        double sum = 0;
        for (int i = 0; i < mu; i++) {
            weights[i] = Math.log((lambda + 1) / 2.0) - Math.log(i + 1);
            sum += weights[i];
        }
        double sumSq = 0;
        for (int i = 0; i < mu; i++) {
            weights[i] /= sum;
            sumSq += weights[i] * weights[i];
        }
        mueff = 1 / sumSq;
        cs = (mueff + 2) / (n + mueff + 5);
        ds = 1 + 2 * Math.max(0, Math.sqrt((mueff - 1) / (n + 1)) - 1) + cs;
        cc = (4 + mueff / n) / (n + 4 + 2 * mueff / n);
        c1 = 2 / ((n + 1.3) * (n + 1.3) + mueff);
        cmu = Math.min(1 - c1, 2 * (mueff - 2 + 1 / mueff) / ((n + 2) * (n + 2) + mueff));
        chiN = Math.sqrt(n) * (1 - 1.0 / (4 * n) + 1.0 / (21.0 * n * n));
        // active CMA (the tutorial's default weights): the worse half gets negative weights, scaled so that
        // the covariance stays positive definite
        negativeWeights = new double[lambda - mu];
        double negSum = 0;
        double negSumSq = 0;
        for (int i = mu; i < lambda; i++) {
            double w = Math.log((lambda + 1) / 2.0) - Math.log(i + 1);
            negativeWeights[i - mu] = w;
            negSum += w;
            negSumSq += w * w;
        }
        if (negSum < 0) {
            double mueffMinus = negSum * negSum / negSumSq;
            double scale = Math.min(1 + c1 / cmu, Math.min(1 + 2 * mueffMinus / (mueff + 2), (1 - c1 - cmu) / (n * cmu)));
            for (int i = 0; i < negativeWeights.length; i++) {
                negativeWeights[i] = Math.min(0, negativeWeights[i]) * scale / -negSum;
            }
        } else {
            Arrays.fill(negativeWeights, 0);
        }
    }

    static int defaultPopulation(int n) {
        return Math.max(2, 4 + (int) Math.floor(3 * Math.log(Math.max(1, n))));
    }

    private void startRestart(double[] start) {
        mean = start;
        sigma = sigma0;
        cov = new double[n][n];
        basis = new double[n][n];
        scales = new double[n];
        for (int i = 0; i < n; i++) {
            cov[i][i] = 1;
            basis[i][i] = 1;
            scales[i] = 1;
        }
        pc = new double[n];
        ps = new double[n];
        generationInRestart = 0;
        bestInRestart = Double.POSITIVE_INFINITY;
        lastImprovement = 0;
        bestHistory.clear();
        elitePoint = null;
        eliteLoss = Double.POSITIVE_INFINITY;
        clearMembers();
    }

    private void clearMembers() {
        resultPoints.clear();
        resultLosses.clear();
        resultUnits.clear();
        draws.clear();
    }

    @Override
    protected void spaceChanged(EncodedSpace space) {
        n = space.size();
        generation = 0;
        restartCount = 0;
        updates = 0;
        if (n == 0) {
            return;
        }
        setPopulation(popsize0 > 0 ? popsize0 : defaultPopulation(n));
        startRestart(randomStart ? randomMean(0) : centre());
        // the results kept from the old space are replayed as generations, in their order
        for (Observation o : observations()) {
            observed(o);
        }
    }

    // ------------------------------------------------------------------------------- ask

    /** The key of the generators of the draws (see the class comment). */
    private static final long DRAW = 0xC3A_E5L;

    @Override
    protected double[] propose(long parameterId, int attempt, SplittableRandom rng) {
        if (n == 0) {
            return new double[0];
        }
        List<double[]> taken = new ArrayList<>(resultUnits);
        taken.addAll(pendingUnits());
        // a draw whose set is taken is skipped; the walk is bounded, which matters when rounding maps many draws together
        int limit = matchLimit() + taken.size() + attempt;
        int free = 0;
        for (int k = 0; ; k++) {
            double[][] d = drawAt(k);
            if (k >= limit || !contains(taken, d[1])) {
                if (free == attempt || k >= limit) {
                    return d[0];
                }
                free++;
            }
        }
    }

    /** How many draws of a generation are searched for the point of a member. */
    private int matchLimit() {
        return 4 * lambda + 32;
    }

    /** Draw {@code k} of the current generation and its canonical unit vector (cached until the generation ends). */
    private double[][] drawAt(int k) {
        while (draws.size() <= k) {
            double[] x = draw(generation, draws.size());
            draws.add(new double[][] {x, canonicalUnit(x)});
        }
        return draws.get(k);
    }

    /**
     * Member {@code k} of generation {@code g} of the current distribution. Mirrored orthogonal
     * sampling: members {@code 2j} and {@code 2j+1} are {@code +z} and {@code -z}; the directions of
     * the pairs {@code j} of one block of {@code n} pairs are orthogonal (Gram-Schmidt on {@code n}
     * Gaussian vectors drawn from {@code (seed, g, block)}), each with its own vector's length, so
     * that a block covers the space more evenly than independent draws.
     */
    private double[] draw(long g, int k) {
        int pair = k / 2;
        int index = pair % n;
        SplittableRandom rng = rngFor(DRAW, g, pair / n);
        double[][] v = new double[index + 1][n];
        double length = 0;
        for (int r = 0; r <= index; r++) {
            for (int i = 0; i < n; i++) {
                v[r][i] = rng.nextGaussian();
            }
            if (r == index) {
                length = Math.sqrt(dot(v[r], v[r]));
            }
            for (int q = 0; q < r; q++) {
                double d = dot(v[r], v[q]);
                for (int i = 0; i < n; i++) {
                    v[r][i] -= d * v[q][i];
                }
            }
            double norm = Math.sqrt(dot(v[r], v[r]));
            for (int i = 0; i < n; i++) {
                v[r][i] /= norm;
            }
        }
        double sign = k % 2 == 1 ? -1 : 1;
        double[] z = new double[n];
        for (int i = 0; i < n; i++) {
            z[i] = sign * v[index][i] * length * scales[i];
        }
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int j = 0; j < n; j++) {
                s += basis[i][j] * z[j];
            }
            x[i] = reflect(mean[i] + sigma * s);
        }
        return x;
    }

    /** Reflects a coordinate into [0, 1] at its bounds (as often as needed). */
    static double reflect(double v) {
        if (v >= 0 && v <= 1) {
            return v;
        }
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return 0.5;
        }
        double t = v % 2;
        if (t < 0) {
            t += 2;
        }
        return t > 1 ? 2 - t : t;
    }

    private static double dot(double[] a, double[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }

    private static boolean contains(List<double[]> units, double[] unit) {
        for (double[] u : units) {
            if (sameUnit(u, unit)) {
                return true;
            }
        }
        return false;
    }

    private static boolean sameUnit(double[] a, double[] b) {
        for (int i = 0; i < a.length; i++) {
            boolean na = Double.isNaN(a[i]);
            if (na != Double.isNaN(b[i]) || !na && Math.abs(a[i] - b[i]) > 1e-9) {
                return false;
            }
        }
        return true;
    }

    // ------------------------------------------------------------------------------- tell

    @Override
    protected void observed(Observation observation) {
        if (n == 0) {
            return;
        }
        double[] point = null;
        for (int k = 0; k < matchLimit() && point == null; k++) {
            double[][] d = drawAt(k);
            if (sameUnit(d[1], observation.unit())) {
                point = d[0].clone();
            }
        }
        if (point == null) {
            point = observation.unit().clone();
            for (int i = 0; i < n; i++) {
                point[i] = Double.isNaN(point[i]) ? mean[i] : Math.max(0, Math.min(1, point[i]));
            }
        }
        double loss = Double.isNaN(observation.loss()) ? Double.POSITIVE_INFINITY : observation.loss();
        resultPoints.add(point);
        resultLosses.add(loss);
        resultUnits.add(observation.unit());
        if (resultLosses.size() >= lambda) {
            update();
        }
    }

    private void update() {
        // the flat-fitness and restart tests look at the generation's own members, not at the elite that stands in below
        double[] own = new double[resultLosses.size()];
        for (int i = 0; i < own.length; i++) {
            own[i] = resultLosses.get(i);
        }
        Arrays.sort(own);
        double best = own[0];
        double nearMedian = own[Math.min(own.length - 1, (int) Math.ceil(0.7 * own.length) - 1)];
        // elitism: the best point of this restart so far stands in for the generation's worst member
        if (elitePoint != null) {
            int worst = 0;
            for (int i = 1; i < resultLosses.size(); i++) {
                if (resultLosses.get(i) > resultLosses.get(worst)) {
                    worst = i;
                }
            }
            if (eliteLoss < resultLosses.get(worst)) {
                resultPoints.set(worst, elitePoint);
                resultLosses.set(worst, eliteLoss);
            }
        }
        for (int i = 0; i < resultLosses.size(); i++) {
            if (resultLosses.get(i) < eliteLoss) {
                eliteLoss = resultLosses.get(i);
                elitePoint = resultPoints.get(i);
            }
        }
        int count = resultLosses.size();
        Integer[] order = new Integer[count];
        for (int i = 0; i < count; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Double.compare(resultLosses.get(a), resultLosses.get(b)));
        double[] old = mean.clone();
        double[][] steps = new double[mu][n];
        double[] newMean = new double[n];
        for (int k = 0; k < mu; k++) {
            double[] x = resultPoints.get(order[k]);
            for (int i = 0; i < n; i++) {
                steps[k][i] = (x[i] - old[i]) / sigma;
                newMean[i] += weights[k] * x[i];
            }
        }
        mean = newMean;
        double[] meanStep = new double[n];
        for (int i = 0; i < n; i++) {
            meanStep[i] = (mean[i] - old[i]) / sigma;
        }
        // ps <- (1 - cs) ps + sqrt(cs (2 - cs) mueff) C^(-1/2) meanStep, with C^(-1/2) = B D^-1 B'
        double[] bt = new double[n];
        for (int j = 0; j < n; j++) {
            double s = 0;
            for (int i = 0; i < n; i++) {
                s += basis[i][j] * meanStep[i];
            }
            bt[j] = s / scales[j];
        }
        double psFactor = Math.sqrt(cs * (2 - cs) * mueff);
        double psNorm = 0;
        for (int i = 0; i < n; i++) {
            double s = 0;
            for (int j = 0; j < n; j++) {
                s += basis[i][j] * bt[j];
            }
            ps[i] = (1 - cs) * ps[i] + psFactor * s;
            psNorm += ps[i] * ps[i];
        }
        psNorm = Math.sqrt(psNorm);
        generationInRestart++;
        boolean hsig = psNorm / Math.sqrt(1 - Math.pow(1 - cs, 2.0 * generationInRestart)) / chiN < 1.4 + 2.0 / (n + 1);
        double pcFactor = Math.sqrt(cc * (2 - cc) * mueff);
        for (int i = 0; i < n; i++) {
            pc[i] = (1 - cc) * pc[i] + (hsig ? pcFactor * meanStep[i] : 0);
        }
        // the worse ranks' steps, each scaled to the Mahalanobis length sqrt(n) (C^(-1/2) y = B D^-1 B' y)
        int worse = Math.min(negativeWeights.length, count - mu);
        double[][] negSteps = new double[worse][n];
        double weightSum = 1;
        for (int k = 0; k < worse; k++) {
            double[] x = resultPoints.get(order[mu + k]);
            for (int i = 0; i < n; i++) {
                negSteps[k][i] = (x[i] - old[i]) / sigma;
            }
            double norm2 = 0;
            for (int j = 0; j < n; j++) {
                double s = 0;
                for (int i = 0; i < n; i++) {
                    s += basis[i][j] * negSteps[k][i];
                }
                norm2 += (s / scales[j]) * (s / scales[j]);
            }
            double f = norm2 > 1e-300 ? Math.sqrt(n / norm2) : 0;
            for (int i = 0; i < n; i++) {
                negSteps[k][i] *= f;
            }
            weightSum += negativeWeights[k];
        }
        double keep = 1 - c1 - cmu * weightSum + (hsig ? 0 : c1 * cc * (2 - cc));
        for (int i = 0; i < n; i++) {
            for (int j = 0; j <= i; j++) {
                double rankMu = 0;
                for (int k = 0; k < mu; k++) {
                    rankMu += weights[k] * steps[k][i] * steps[k][j];
                }
                for (int k = 0; k < worse; k++) {
                    rankMu += negativeWeights[k] * negSteps[k][i] * negSteps[k][j];
                }
                double v = keep * cov[i][j] + c1 * pc[i] * pc[j] + cmu * rankMu;
                cov[i][j] = v;
                cov[j][i] = v;
            }
        }
        sigma *= Math.exp((cs / ds) * (psNorm / chiN - 1));
        if (best == nearMedian) {
            // flat fitness (common once rounding makes neighbours identical): widen the search
            sigma *= Math.exp(0.2 + cs / ds);
        }
        sigma = Math.min(sigma, 1.0);
        decompose();
        generation++;
        updates++;
        clearMembers();
        bestHistory.add(best);
        if (best < bestInRestart) {
            bestInRestart = best;
            lastImprovement = generationInRestart;
        }
        if (shouldRestart()) {
            restart();
        }
    }

    private void decompose() {
        RealMatrix c = new Array2DRowRealMatrix(cov, false);
        EigenDecompositionSymmetric eig = new EigenDecompositionSymmetric(c);
        double[] values = eig.getEigenvalues();
        RealMatrix v = eig.getV();
        for (int j = 0; j < n; j++) {
            scales[j] = Math.sqrt(Math.max(values[j], 1e-300));
            for (int i = 0; i < n; i++) {
                basis[i][j] = v.getEntry(i, j);
            }
        }
    }

    private boolean shouldRestart() {
        double maxStd = 0;
        double maxScale = 0;
        double minScale = Double.POSITIVE_INFINITY;
        for (int i = 0; i < n; i++) {
            maxStd = Math.max(maxStd, Math.sqrt(cov[i][i]));
            maxScale = Math.max(maxScale, scales[i]);
            minScale = Math.min(minScale, scales[i]);
        }
        if (sigma * maxStd < 1e-7) {
            return true;
        }
        if (maxScale / minScale > 1e7) {
            return true;
        }
        int flatWindow = 10 + (int) Math.ceil(30.0 * n / lambda);
        if (bestHistory.size() >= flatWindow) {
            double lo = Double.POSITIVE_INFINITY;
            double hi = Double.NEGATIVE_INFINITY;
            for (int i = bestHistory.size() - flatWindow; i < bestHistory.size(); i++) {
                lo = Math.min(lo, bestHistory.get(i));
                hi = Math.max(hi, bestHistory.get(i));
            }
            if (hi - lo <= 1e-12 * Math.max(1, Math.abs(lo))) {
                return true;
            }
        }
        return generationInRestart - lastImprovement > 20 + (long) Math.ceil(60.0 * n / lambda);
    }

    private void restart() {
        restartCount++;
        if (restartCount <= maxRestarts) {
            setPopulation(lambda * 2);
        }
        startRestart(randomMean(restartCount));
    }

    private double[] centre() {
        double[] start = new double[n];
        Arrays.fill(start, 0.5);
        return start;
    }

    /** The uniformly random mean of restart {@code restart} (0: the start of the search). */
    private double[] randomMean(int restart) {
        SplittableRandom rng = rngFor(0x5EED_CA11L, restart);
        double[] start = new double[n];
        for (int i = 0; i < n; i++) {
            start[i] = rng.nextDouble();
        }
        return start;
    }

    // ------------------------------------------------------------------------------- state (tests)

    int populationSize() {
        return lambda;
    }

    int restartCount() {
        return restartCount;
    }

    long generation() {
        return generation;
    }

    double sigma() {
        return sigma;
    }

    double[] mean() {
        return mean.clone();
    }

    double[][] covariance() {
        double[][] c = new double[n][];
        for (int i = 0; i < n; i++) {
            c[i] = cov[i].clone();
        }
        return c;
    }

    /** How many members the current generation has so far. */
    int members() {
        return resultLosses.size();
    }
}
