package org.tunekit.tuners.unitcube;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.SplittableRandom;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.EncodedSpace;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.tuners.common.SuggestionRandom;

/**
 * A tuner that proposes points of the unit cube of {@link EncodedSpace}; this class does the rest:
 * decoding a point into a parameter set, keeping the observations and the pending suggestions,
 * suppressing duplicates and recognising an exhausted finite space.
 *
 * <p><b>Resume by replay.</b> A tuner's state is a function of its settings, its seed and its
 * history: the observations in order of arrival plus the suggestions it made in this run that are
 * still pending. A result of its own suggestion, a result of a trial it does not know (a customized
 * trial, a trial of an earlier run) and an imported result ({@link #importData}) are one and the same
 * observation, built from the parameter set's canonical form and the metric only. Suggestion
 * {@code id} draws its randomness from a generator seeded by {@code (seed, id)}, and every "how far
 * along" decision of a subclass counts the history ({@link #historySize()}), never the suggestions
 * made since construction. So a fresh tuner of the same arguments given the same results through
 * {@code importData} makes the same next suggestions as the tuner that ran them, and it never
 * suggests a set it has a result for while a finite space has others. There is no checkpoint: the
 * dispatcher resumes a tuner by replaying its results.
 *
 * <p>What results cannot give, and so a replay does not restore: a suggestion that ended without a
 * result (a failed or cancelled trial) stays known to the instance that made it, which does not
 * suggest it again, while a replayed instance may; and trials still running when the dispatcher
 * stopped count as pending only in the instance that suggested them (their results, when they
 * come, are observations like any other). The two instances differ only after such trials.
 *
 * <p>A subclass implements {@link #propose}; when a proposal decodes to a set already suggested or
 * observed it is asked again with the next attempt number, up to {@value #PROPOSAL_ATTEMPTS} times,
 * then uniform random points are tried, then (for a finite space) the remaining sets are
 * enumerated; only then is {@link NoMoreTrialsException} thrown.
 */
public abstract class UnitCubeTuner implements Tuner {
    private static final System.Logger LOG = System.getLogger(UnitCubeTuner.class.getName());
    /** How often {@link #propose} is asked for one suggestion before random points are tried. */
    protected static final int PROPOSAL_ATTEMPTS = 64;
    /** The first key of the generator of a suggestion (the second is its parameter id). */
    private static final long SUGGESTION_STREAM = 0x5A66E57L;

    /**
     * A suggestion waiting for its result.
     *
     * @param parameterId the id the dispatcher gave it
     * @param parameters  the parameter set
     * @param unit        the unit vector of the set's canonical form, {@code NaN} at inactive coordinates
     */
    public record Proposal(long parameterId, Parameters parameters, double[] unit) {}

    /**
     * One result the tuner knows, whoever proposed it.
     *
     * @param parameters the parameter set, in canonical form
     * @param unit       its unit vector, {@code NaN} at inactive coordinates
     * @param loss       the metric as a loss (smaller is better); may be infinite or {@code NaN}
     */
    public record Observation(Parameters parameters, double[] unit, double loss) {}

    /** Whether a larger or a smaller metric is better. */
    protected final OptimizeMode mode;
    private final long seed;
    private UnitNeighbourhood neighbourhood;
    private UnitCodec codec;
    private final ObservationHistory history = new ObservationHistory();
    private final List<ImportedTrial> importsBeforeSpace = new ArrayList<>();

    /**
     * Creates the tuner.
     *
     * @param mode whether a larger or a smaller metric is better
     * @param seed the seed of every random choice
     */
    protected UnitCubeTuner(OptimizeMode mode, long seed) {
        this.mode = mode;
        this.seed = seed;
    }

    /** The class argument {@code seed}, or a fresh random seed when it is absent. */
    public static long seedOf(ClassArguments arguments) {
        java.util.OptionalLong s = arguments.getOptionalLong("seed");
        return s.isPresent() ? s.getAsLong() : new SplittableRandom().nextLong();
    }

    // ----------------------------------------------------------------------------------- hooks

    /**
     * Proposes a point of the unit cube for suggestion {@code parameterId}. Called with attempt 0,
     * then again with 1, 2, ... while the proposals decode to sets that are already known. The
     * point must be a function of the history, the attempt and {@code rng}.
     *
     * @param parameterId the id of the suggestion
     * @param attempt     0 for the first proposal of this suggestion
     * @param rng         this suggestion's generator, seeded by {@code (seed, parameterId)} (the same
     *                    object for every attempt)
     * @return a vector of {@link #dimension()} values in [0, 1] (values outside are clamped), or
     *         {@code null} to let random points be tried
     */
    protected abstract double[] propose(long parameterId, int attempt, SplittableRandom rng);

    /** Told that the search space changed: the observations have been re-encoded and pending suggestions dropped. */
    protected void spaceChanged(EncodedSpace space) {}

    /**
     * Told of a new observation, already last in {@link #observations()}: a result of a suggestion,
     * of a customized trial and an imported result alike.
     */
    protected void observed(Observation observation) {}

    // ----------------------------------------------------------------------------------- state for subclasses

    /** The encoded view of the current space, or {@code null} before the first space. */
    protected final EncodedSpace encoded() {
        return codec == null ? null : codec.encoded();
    }

    /** Draws and moves in the unit cube of the current space, made anew when the space changes. */
    protected final UnitNeighbourhood neighbourhood() {
        if (neighbourhood == null || neighbourhood.space() != encoded()) {
            neighbourhood = new UnitNeighbourhood(encoded());
        }
        return neighbourhood;
    }

    /** The number of unit-cube coordinates. */
    protected final int dimension() {
        return codec == null ? 0 : codec.dimension();
    }

    /** Every observation, in order of arrival. */
    protected final List<Observation> observations() {
        return history.observations();
    }

    /** The suggestions waiting for results, in order of suggestion. */
    protected final Collection<Proposal> pending() {
        return history.pending();
    }

    /** The unit points of the suggestions waiting for results, in order of suggestion. */
    protected final List<double[]> pendingUnits() {
        List<double[]> units = new ArrayList<>();
        for (Proposal p : history.pending()) {
            units.add(p.unit());
        }
        return units;
    }

    /** The observations plus the pending suggestions: the position of the next suggestion in the history. */
    protected final int historySize() {
        return history.size();
    }

    /** The seed of every random choice. */
    protected final long seed() {
        return seed;
    }

    /** A generator seeded from the tuner's seed and the given keys, independent of all others. */
    protected final SplittableRandom rngFor(long... keys) {
        long h = seed ^ 0x6A09E667F3BCC909L;
        for (long k : keys) {
            h = SuggestionRandom.mix(h + 0x9E3779B97F4A7C15L * (k + 1));
        }
        return new SplittableRandom(h);
    }

    /**
     * The unit vector a unit-cube point decodes to, without building the parameter set: integers and
     * option indices rounded, quantised values quantised, inactive nested coordinates {@code NaN}.
     * Equal, up to rounding of logarithms, to the {@code unit} of the set the point decodes to.
     */
    protected final double[] canonicalUnit(double[] point) {
        return codec.canonicalUnit(point);
    }

    // ----------------------------------------------------------------------------------- Tuner

    /**
     * Sets the space. The same space again (as a resumed experiment sends it) changes nothing; a
     * different one keeps the observations that fit it, drops pending suggestions and resets the
     * subclass through {@link #spaceChanged}.
     */
    @Override
    public void updateSearchSpace(SearchSpace newSpace) {
        if (codec != null && UnitCodec.sameSpace(newSpace, codec.space())) {
            return;
        }
        codec = new UnitCodec(newSpace);
        history.reencode(codec);
        spaceChanged(codec.encoded());
        if (!importsBeforeSpace.isEmpty()) {
            List<ImportedTrial> imports = new ArrayList<>(importsBeforeSpace);
            importsBeforeSpace.clear();
            importData(imports);
        }
    }

    @Override
    public final Parameters generateParameters(long parameterId) throws NoMoreTrialsException {
        if (codec == null) {
            throw new IllegalStateException("generateParameters called before updateSearchSpace");
        }
        SplittableRandom rng = rngFor(SUGGESTION_STREAM, parameterId);
        CandidateSearch.Found found = CandidateSearch.next(codec, history, attempt -> propose(parameterId, attempt, rng), rng);
        history.suggest(new Proposal(parameterId, found.parameters(), found.unit()), found.key());
        return found.parameters();
    }

    @Override
    public List<Parameters> generateMultipleParameters(List<Long> parameterIds) {
        List<Parameters> out = new ArrayList<>(parameterIds.size());
        for (long id : parameterIds) {
            try {
                out.add(generateParameters(id));
            } catch (NoMoreTrialsException e) {
                break;
            }
        }
        return out;
    }

    /**
     * Adds the result as the next observation. A result of a pending suggestion is read from the set
     * suggested; any other (a customized trial, a trial this instance did not suggest) from the
     * result's own parameter set, which is ignored (logged) when it does not fit the space.
     */
    @Override
    public void receiveTrialResult(TrialResult result) {
        double loss = mode.toLoss(result.metric().value());
        Proposal p = history.answer(result.parameterId());
        Parameters parameters = p != null && !result.customized() ? p.parameters() : result.parameters();
        if (codec == null || parameters == null) {
            return;
        }
        UnitCodec.Known k = codec.canonical(parameters);
        if (k == null) {
            LOG.log(System.Logger.Level.WARNING, "trial " + result.parameterId() + " ignored, it does not fit the search space: "
                    + codec.misfit(parameters));
            return;
        }
        observed(history.observe(codec, k.parameters(), loss));
    }

    @Override
    public void trialEnd(long parameterId, boolean success) {
        history.answer(parameterId);
    }

    /**
     * Adds each trial as the next observation, exactly as {@link #receiveTrialResult} adds a result
     * (a pending suggestion of the same set counts as answered). Trials that arrive before the
     * search space wait for it; a set that does not fit the space is skipped (logged).
     */
    @Override
    public void importData(List<ImportedTrial> trials) {
        if (codec == null) {
            importsBeforeSpace.addAll(trials);
            return;
        }
        for (ImportedTrial t : trials) {
            double loss = mode.toLoss(t.metric().value());
            UnitCodec.Known k = codec.canonical(t.parameters());
            if (k == null) {
                LOG.log(System.Logger.Level.WARNING, "imported trial skipped, it does not fit the search space: "
                        + codec.misfit(t.parameters()));
                continue;
            }
            history.answer(k.parameters());
            observed(history.observe(codec, k.parameters(), loss));
        }
    }
}
