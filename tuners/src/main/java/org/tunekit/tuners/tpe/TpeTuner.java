package org.tunekit.tuners.tpe;

import java.util.List;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.objectives.Objectives;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.tuners.common.SuggestionRandom;
import org.tunekit.tuners.common.TakesOverTrials;

/**
 * The tree-structured Parzen estimator of Bergstra et al. (2011), "Algorithms for Hyper-Parameter
 * Optimization", under NNI's {@code TPE} name and class arguments.
 *
 * <p>Until {@code n_startup_jobs} results have arrived (default 10, where NNI's is 20: see
 * {@code TpeSettings.TPE_STARTUP}), parameter sets are drawn from the prior. After
 * that the observations are split by loss: the best {@code ceil(gamma * n^0.8)} are "good", the rest
 * "bad". (The linear rule {@code ceil(gamma * n)} keeps too many good observations for a focused
 * search on a 100-trial budget, the square-root rule of later TPE implementations too few; the
 * power 0.8 lies between them and measured best on the benchmark suite: at the default gamma 0.25 it
 * keeps 4, 6 and 10 good observations out of 25, 50 and 100.) For every parameter, nested ones included, two Parzen estimators are built from the
 * observations where that parameter was active: l from the good ones, g from the bad ones. Each
 * mixes one component per observation with the prior (weight {@code prior_weight}); the weights of
 * all but the {@code linear_forgetting} most recent observations ramp down linearly with age; every
 * numeric component's bandwidth is multiplied by {@code bandwidth_factor} (a Tunekit extension of
 * NNI's arguments, in (0, 1], default 1: NNI's estimator; Katib's {@code tpe} uses 0.4 for its short
 * budgets).
 * {@code n_ei_candidates} values are drawn from l and the one with the largest l / g (which maximises
 * expected improvement) is suggested. Parameters are chosen one at a time in search-space order, so a
 * nested option's parameters are chosen only when the option is; in {@code multivariate} mode whole
 * parameter sets are drawn from the l estimators and the set with the largest joint ratio wins.
 *
 * <p>Encoding: continuous kinds are modelled in their own (log-)space, truncated to the bounds of
 * the uniform kinds; quantised kinds and {@code randint} (an ordered integer, modelled on
 * [low - 0.5, high - 0.5]) are rounded after drawing and scored at the rounded value; {@code choice}
 * estimators are weighted option counts plus {@code prior_weight} spread evenly over the options.
 *
 * <p>Batches: a trial that has been suggested but has no result yet is modelled with the constant
 * liar's loss (the best, worst or mean loss so far, {@code constant_liar_type}; default {@code worst},
 * where NNI's is {@code best}: see {@code TpeSettings.LIAR}), which decides whether it counts as good
 * or bad; its component weighs a quarter of a real observation's, so that a batch spreads out
 * instead of piling onto its own guesses (with the liar {@code best} this halved the batch-mode
 * regret on hartmann6). No parameter set is suggested twice; a finite space that is used up ends with {@link NoMoreTrialsException}.
 *
 * <p>Resume by replay: the tuner keeps no checkpoint. Its state is a function of the results it got,
 * received or imported alike, and of its own pending suggestions (with those it took over,
 * {@link #takeOver}): the randomness of a suggestion is
 * drawn from the seed and the parameter id alone, and the start-up phase lasts until
 * {@code n_startup_jobs} results are known. So a fresh instance given the same results through
 * {@link #importData} suggests what the uninterrupted one would for the same id, and never one of
 * the parameter sets it has results for.
 *
 * <p>With several objectives (MOTPE, see {@link MotpeTunerProvider}) everything above holds but the
 * split: each observation keeps its vector of losses, and the good ones are chosen by Pareto rank and
 * hypervolume contribution ({@code GoodBadSplit.byPareto}); a pending trial is good under the liar
 * {@code best} and bad under the others.
 */
public final class TpeTuner implements Tuner, TakesOverTrials {
    private static final int MODEL_ATTEMPTS = 8;
    private static final int RANDOM_ATTEMPTS = 2000;

    private final TpeSettings settings;
    private final long seed;
    /** The objectives of MOTPE; none for TPE. */
    private final Objectives objectives;
    /** The tuner's name in messages. */
    private final String name;
    private final GoodBadSplit split = new GoodBadSplit();

    // set with the search space
    private TpeSpace space;
    private ParzenModel model;
    private Observations observations;
    private SeenVectors seen;

    /** Creates the tuner with the given settings. */
    TpeTuner(TpeSettings settings) {
        this(settings, Objectives.none());
    }

    /**
     * Creates the tuner with the given settings; with several objectives it is MOTPE (see
     * {@link MotpeTunerProvider}): the settings' mode is then unused and observations are split by
     * Pareto rank and hypervolume contribution instead of by loss.
     */
    TpeTuner(TpeSettings settings, Objectives objectives) {
        this.settings = settings;
        this.objectives = objectives;
        this.name = objectives.isEmpty() ? "TPE" : "MOTPE";
        this.seed = settings.seed().isPresent() ? settings.seed().getAsLong() : new SplittableRandom().nextLong();
    }

    /** The settings this tuner runs with. */
    TpeSettings settings() {
        return settings;
    }

    /** How many completed observations the model learns from. */
    int observationCount() {
        return observations == null ? 0 : observations.completedCount();
    }

    /** How many suggested trials are waiting for their result. */
    int pendingCount() {
        return observations == null ? 0 : observations.pendingCount();
    }

    /**
     * The random source of the suggestion for {@code parameterId}: a function of the seed and the id
     * alone, so that any instance with the same seed and history makes the same suggestion for it.
     */
    static RandomGenerator randomFor(long seed, long parameterId) {
        return SuggestionRandom.of(seed, parameterId);
    }

    /**
     * Sets the search space. The completed observations that fit a new space are kept (pending
     * suggestions are forgotten); setting the same space again changes nothing.
     */
    @Override
    public void updateSearchSpace(SearchSpace newSpace) {
        if (space != null && newSpace.equals(space.space())) {
            return;
        }
        TpeSpace old = space;
        List<Observations.Completed> kept = observations == null ? List.of() : observations.completed();
        space = new TpeSpace(newSpace);
        model = new ParzenModel(space.encoded(), settings);
        observations = new Observations(space.encoded().size(), !objectives.isEmpty());
        seen = new SeenVectors();
        for (Observations.Completed c : kept) {
            Parameters p = old.decode(c.x());
            if (space.contains(p)) {
                observe(null, p, c.loss(), c.lossVector());
            }
        }
    }

    @Override
    public Parameters generateParameters(long parameterId) throws NoMoreTrialsException {
        if (space == null) {
            throw new IllegalStateException(name + ": generateParameters before the search space was set");
        }
        if (space.size().isPresent() && seen.size() >= space.size().getAsLong()) {
            throw new NoMoreTrialsException(name + ": all " + space.size().getAsLong() + " parameter sets of the search space have been suggested");
        }
        RandomGenerator rng = randomFor(seed, parameterId);
        double[] x = null;
        int results = observations.completedCount();
        if (results >= settings.startupJobs() && results > 0) {
            buildModel();
            for (int attempt = 0; attempt < MODEL_ATTEMPTS && x == null; attempt++) {
                double[] candidate = space.normalise(settings.multivariate() ? model.proposeJointly(rng) : model.proposeOneAtATime(rng));
                if (!seen.contains(candidate)) {
                    x = candidate;
                }
            }
        }
        for (int attempt = 0; attempt < RANDOM_ATTEMPTS && x == null; attempt++) {
            double[] candidate = space.encode(space.space().sample(rng));
            if (!seen.contains(candidate)) {
                x = candidate;
            }
        }
        if (x == null) {
            throw new NoMoreTrialsException(name + ": found no parameter set that has not been suggested already");
        }
        seen.add(x);
        observations.suggested(parameterId, x);
        return space.decode(x);
    }

    /** Splits the observations into good and bad and builds the model from them. */
    private void buildModel() {
        observations.compactIfSparse();
        History h = observations.history();
        boolean[] good = objectives.isEmpty()
                ? split.byLoss(h, settings.liar(), settings.gamma())
                : split.byPareto(h, observations.lossVectors(), settings.liar(), settings.gamma());
        model.build(h, good, settings.liar() != TpeSettings.ConstantLiar.NONE);
    }

    /**
     * Learns from a result: it completes the trial's pending suggestion, or else is observed as an
     * imported result is. A non-finite loss drops the trial.
     */
    @Override
    public void receiveTrialResult(TrialResult result) {
        if (space == null) {
            return;
        }
        double[] vector = objectives.isEmpty() ? null : objectives.losses(result);
        double loss = loss(result.metric(), vector);
        if (!observations.completePending(result.parameterId(), loss, vector)) {
            observe(result.parameterId(), result.parameters(), loss, vector);
        }
    }

    @Override
    public void trialEnd(long parameterId, boolean success) {
        if (observations != null) {
            observations.ended(parameterId);
        }
    }

    /** Takes the trial as a pending suggestion of its own: it is not suggested again and lies until its result comes. */
    @Override
    public void takeOver(long parameterId, Parameters parameters) {
        if (space == null || !space.contains(parameters)) {
            return;
        }
        double[] x = space.encode(parameters);
        seen.add(x);
        observations.suggested(parameterId, x);
    }

    /** Observes every imported result, in order, as a received one (see {@link #receiveTrialResult}). */
    @Override
    public void importData(List<ImportedTrial> trials) {
        if (space == null) {
            return;
        }
        for (int i = 0; i < trials.size(); i++) {
            ImportedTrial t = trials.get(i);
            double[] vector = objectives.isEmpty() ? null : objectives.losses(t.metric(), "imported trial " + (i + 1) + " of " + trials.size());
            observe(null, t.parameters(), loss(t.metric(), vector), vector);
        }
    }

    /** TPE's loss of a metric; MOTPE's stand-in for it (see {@link #scalarLoss}). */
    private double loss(Metric metric, double[] vector) {
        return vector == null ? settings.mode().toLoss(metric.value()) : scalarLoss(vector);
    }

    /**
     * A result the tuner did not suggest in this run: a completed observation in a new slot, and a
     * seen parameter set, when its loss is finite and its parameters belong to the space.
     *
     * @param parameterId the trial's parameter id, or null for an imported result
     */
    private void observe(Long parameterId, Parameters parameters, double loss, double[] vector) {
        double[] x = null;
        if (Double.isFinite(loss) && parameters != null && space.contains(parameters)) {
            x = space.encode(parameters);
            seen.add(x);
        }
        observations.add(parameterId, x, loss, vector);
    }

    /**
     * MOTPE's stand-in for the scalar loss History keeps (its order by loss is not used for the
     * split): the sum of the losses, or NaN when one is not finite, which drops the observation.
     */
    private static double scalarLoss(double[] vector) {
        double sum = 0;
        for (double v : vector) {
            if (!Double.isFinite(v)) {
                return Double.NaN;
            }
            sum += v;
        }
        return sum;
    }
}
