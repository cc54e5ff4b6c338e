package org.tunekit.tuners.bohb;

import org.tunekit.tuners.common.ValueText;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.SplittableRandom;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.space.EncodedSpace;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.sdk.stats.RankCorrelation;
import org.tunekit.tuners.hyperband.BracketAdvisor;

/**
 * BOHB (Falkner, Klein &amp; Hutter 2018): Hyperband's brackets between {@code min_budget} and
 * {@code max_budget} (brackets may run at the same time, as in the paper's parallel version), with each
 * new configuration drawn from a model instead of the prior.
 *
 * <p>The model: every result is kept with its budget. For the largest budget with at least
 * {@code min_points_in_model + 2} results whose values rank configurations as the full budget does,
 * the results are ranked by loss; the best
 * {@code max(N_min, top_n_percent · N / 100)} form the good set and the worst
 * {@code max(N_min, N - that)} the bad set, each fitted with a {@link KernelDensity} in the unit view
 * of the search space. {@code num_samples} candidates are drawn from the good density with its
 * bandwidths multiplied by {@code bandwidth_factor}; the one with the largest {@code l(x) / g(x)} is
 * chosen. A fraction {@code random_fraction} of configurations, and all of them while no budget has
 * enough results, come from the prior. Failed and early-stopped trials rank worst (loss
 * {@code +inf}) and so land in the bad set. Imported results ({@code FD}) count as results at
 * {@code max_budget}.
 *
 * <p>Whether a smaller budget ranks as the full one does is measured on the learning curves of the
 * trials that ran the full budget: a budget's model is used only when, over the last
 * {@value #CURVES_KEPT} such curves (at least {@value #CURVES_NEEDED}), the values at its share of the
 * curve rank the trials as their final values with a rank correlation of at least
 * {@value RankCorrelation#PREDICTIVE}. Where trials report no intermediate results the paper's rule
 * holds: any budget with enough results. Curves that cross late (slow starters) thus keep the model off
 * budgets whose ranking would mislead it.
 *
 * <p>With {@code min_budget: "auto"} (and {@code n_startup_trials}, default 10) the smallest budget
 * is found from the first full-budget trials' intermediate results, as {@link BracketAdvisor}
 * describes; those trials come from the prior and their results join the model at {@code max_budget}.
 */
final class BohbAdvisor extends BracketAdvisor {
    private static final System.Logger LOG = System.getLogger(BohbAdvisor.class.getName());

    private final Integer minPointsInModel;
    private final double topNPercent;
    private final int numSamples;
    private final double randomFraction;
    private final double bandwidthFactor;
    private final double minBandwidth;

    /** The fewest full-budget curves a smaller budget's ranking is judged on. */
    static final int CURVES_NEEDED = 10;
    /** The most recent full-budget curves kept. */
    static final int CURVES_KEPT = 200;

    private final List<Observation> observations = new ArrayList<>();
    private final java.util.ArrayDeque<double[]> fullCurves = new java.util.ArrayDeque<>();
    /** Per budget index, whether it ranks as the full budget on {@link #fullCurves} ({@code null}: not computed since they changed). */
    private Boolean[] ranksLikeFull = new Boolean[0];
    private EncodedSpace encoded;

    /**
     * One result: a configuration, how many budget levels below {@code max_budget} it ran at (counted
     * from the top, so results at {@code max_budget} stay there when {@code min_budget: "auto"} fixes
     * the schedule after they arrive), and its loss.
     */
    private static final class Observation {
        final Parameters config;
        final int belowMax;
        final double loss;
        EncodedSpace unitOf;
        double[] unit;

        Observation(Parameters config, int belowMax, double loss) {
            this.config = config;
            this.belowMax = belowMax;
            this.loss = loss;
        }
    }

    private BohbAdvisor(OptimizeMode mode, long seed, double minBudget, double maxBudget, int eta, Integer minPointsInModel,
                        double topNPercent, int numSamples, double randomFraction, double bandwidthFactor, double minBandwidth,
                        int startupTrials) {
        super("BOHB", mode, seed, maxBudget, startupTrials > 0 ? 0 : largestBracket(maxBudget / minBudget, eta), eta,
                ExecMode.PARALLELISM, startupTrials);
        this.minPointsInModel = minPointsInModel;
        this.topNPercent = topNPercent;
        this.numSamples = numSamples;
        this.randomFraction = randomFraction;
        this.bandwidthFactor = bandwidthFactor;
        this.minBandwidth = minBandwidth;
    }

    /** Reads NNI's class arguments, plus {@code seed}. */
    static BohbAdvisor create(ClassArguments a) {
        a.requireOnly("optimize_mode", "min_budget", "n_startup_trials", "max_budget", "eta", "min_points_in_model", "top_n_percent",
                "num_samples", "random_fraction", "bandwidth_factor", "min_bandwidth", "seed");
        OptimizeMode mode = OptimizeMode.from(a, OptimizeMode.MAXIMIZE);
        int startupTrials = startupTrials(a);
        double maxBudget = a.getDouble("max_budget", 3);
        double minBudget = startupTrials > 0 ? Math.min(1, maxBudget) : a.getDouble("min_budget", 1);
        if (!(minBudget > 0) || Double.isInfinite(maxBudget) || !(maxBudget >= minBudget)) {
            throw new InvalidClassArgumentException("class arguments 'min_budget' and 'max_budget' must satisfy 0 < min_budget <= max_budget, got "
                    + minBudget + " and " + maxBudget);
        }
        int eta = a.getInt("eta", 3, 2);
        OptionalLong minPoints = a.getOptionalLong("min_points_in_model");
        if (minPoints.isPresent() && (minPoints.getAsLong() < 1 || minPoints.getAsLong() > 1_000_000)) {
            throw new InvalidClassArgumentException("class argument 'min_points_in_model' must be an integer >= 1, got " + minPoints.getAsLong());
        }
        double top = a.getDouble("top_n_percent", 15, 1, 99);
        int samples = a.getInt("num_samples", 64, 1);
        double random = a.getDouble("random_fraction", 0.33, 0, 1);
        double factor = a.getDouble("bandwidth_factor", 3, 1e-9, 1e9);
        double minBw = a.getDouble("min_bandwidth", 1e-3, 1e-12, 1);
        OptionalLong given = a.getOptionalLong("seed");
        long seed = given.isPresent() ? given.getAsLong() : new SplittableRandom().nextLong();
        if (given.isEmpty()) {
            LOG.log(System.Logger.Level.INFO, "BOHB: no seed given, using seed " + seed);
        }
        return new BohbAdvisor(mode, seed, minBudget, maxBudget, eta,
                minPoints.isPresent() ? (int) minPoints.getAsLong() : null, top, samples, random, factor, minBw, startupTrials);
    }

    @Override
    protected void spaceChanged(SearchSpace space) {
        encoded = EncodedSpace.of(space);
    }

    @Override
    protected void observed(Parameters config, int budgetIndex, double loss) {
        observations.add(new Observation(config, maxBracket() - budgetIndex, loss));
    }

    @Override
    protected void fullBudgetCurve(double[] losses) {
        fullCurves.addLast(losses);
        if (fullCurves.size() > CURVES_KEPT) {
            fullCurves.removeFirst();
        }
        ranksLikeFull = new Boolean[0];
    }

    /** Whether results at budget index {@code b} may form the model: see the class comment. */
    boolean ranksLikeTheFullBudget(int b) {
        if (b == maxBracket() || fullCurves.isEmpty() && !intermediateResultsSeen()) {
            return true;
        }
        if (fullCurves.size() < CURVES_NEEDED) {
            return false;
        }
        // the model is refitted for every suggestion; the curves change only when a full-budget trial ends
        if (ranksLikeFull.length != maxBracket() + 1) {
            ranksLikeFull = new Boolean[maxBracket() + 1];
        }
        if (ranksLikeFull[b] == null) {
            List<double[]> curves = List.copyOf(fullCurves);
            ranksLikeFull[b] = RankCorrelation.atStep(curves, stepOf(b, typicalLength(curves))) >= RankCorrelation.PREDICTIVE;
        }
        return ranksLikeFull[b];
    }

    @Override
    public void importData(List<ImportedTrial> trials) {
        int added = 0;
        for (ImportedTrial t : trials) {
            Map<String, Object> values = new LinkedHashMap<>(t.parameters().values());
            values.remove(BUDGET_KEY);
            double loss = mode().toLoss(t.metric().value());
            observations.add(new Observation(Parameters.of(values), 0, Double.isNaN(loss) ? Double.POSITIVE_INFINITY : loss));
            added++;
        }
        LOG.log(System.Logger.Level.INFO, "BOHB: " + added + " imported results added at the largest budget");
    }

    @Override
    protected Parameters sampleConfig(SearchSpace space, int budgetIndex, SplittableRandom rng) {
        if (rng.nextDouble() < randomFraction || encoded == null || encoded.size() == 0) {
            return space.sample(rng);
        }
        Model model = model();
        if (model == null) {
            return space.sample(rng);
        }
        double[] best = null;
        double bestScore = Double.NEGATIVE_INFINITY;
        for (int i = 0; i < numSamples; i++) {
            double[] u = model.good.sample(rng, bandwidthFactor);
            double score = model.good.logDensity(u) - model.bad.logDensity(u);
            if (Double.isNaN(score)) {
                continue;
            }
            if (best == null || score > bestScore) {
                best = u;
                bestScore = score;
            }
        }
        if (best == null) {
            return space.sample(rng);
        }
        return encoded.decode(encoded.fromUnit(best));
    }

    /** The two densities of the model, and the budget index they were fitted at. */
    record Model(int budgetIndex, KernelDensity good, KernelDensity bad) {}

    /** The model for the largest budget with enough results, or {@code null} when there is none. */
    Model model() {
        int nMin = minPointsInModel != null ? minPointsInModel : encoded.size() + 1;
        for (int b = maxBracket(); b >= 0; b--) {
            List<Observation> at = new ArrayList<>();
            for (Observation o : observations) {
                if (o.belowMax == maxBracket() - b && unitOf(o) != null) {
                    at.add(o);
                }
            }
            if (at.size() < nMin + 2 || !ranksLikeTheFullBudget(b)) {
                continue;
            }
            at.sort(Comparator.comparingDouble(o -> o.loss));
            int n = at.size();
            int nGood = Math.max(nMin, (int) Math.floor(topNPercent * n / 100));
            int nBad = Math.max(nMin, n - nGood);
            List<double[]> good = at.subList(0, nGood).stream().map(o -> o.unit).toList();
            List<double[]> bad = at.subList(n - nBad, n).stream().map(o -> o.unit).toList();
            return new Model(b, KernelDensity.fit(encoded, good, minBandwidth), KernelDensity.fit(encoded, bad, minBandwidth));
        }
        return null;
    }

    private double[] unitOf(Observation o) {
        if (o.unitOf != encoded) {
            o.unitOf = encoded;
            o.unit = null;
            if (encoded.space().violation(o.config).isEmpty()) {
                try {
                    o.unit = encoded.toUnit(encoded.encode(o.config));
                } catch (IllegalArgumentException e) {
                    o.unit = null;
                }
            }
        }
        return o.unit;
    }

    @Override
    protected void writeState(List<String> lines) {
        for (Observation o : observations) {
            lines.add("observation " + (maxBracket() - o.belowMax) + " " + Double.toHexString(o.loss) + " " + ValueText.write(o.config.values()));
        }
        for (double[] c : fullCurves) {
            StringBuilder sb = new StringBuilder("fullcurve");
            for (double v : c) {
                sb.append(' ').append(Double.toHexString(v));
            }
            lines.add(sb.toString());
        }
    }

    @Override
    protected void readState(List<String> lines) throws IOException {
        List<Observation> restored = new ArrayList<>();
        List<double[]> curves = new ArrayList<>();
        for (String line : lines) {
            String[] w = line.split(" ");
            if (w[0].equals("fullcurve")) {
                double[] c = new double[w.length - 1];
                for (int k = 1; k < w.length; k++) {
                    c[k - 1] = Double.parseDouble(w[k]);
                }
                curves.add(c);
                continue;
            }
            if (!w[0].equals("observation") || w.length != 4) {
                throw new IOException("BOHB checkpoint: unexpected line \"" + line + "\"");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> values = (Map<String, Object>) ValueText.read(w[3]);
            restored.add(new Observation(Parameters.of(values), maxBracket() - Integer.parseInt(w[1]), Double.parseDouble(w[2])));
        }
        observations.clear();
        observations.addAll(restored);
        fullCurves.clear();
        fullCurves.addAll(curves);
        ranksLikeFull = new Boolean[0];
    }
}
