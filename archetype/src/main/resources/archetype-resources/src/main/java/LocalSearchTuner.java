package ${package};

import java.util.LinkedHashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
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

/**
 * Random search that turns into a local search. The first {@code random_trials} suggestions are
 * draws from the search space ({@code SearchSpace.sample}); after that each suggestion is the best
 * point so far moved by a Gaussian step of {@code radius} in the unit cube of the encoded space
 * ({@link EncodedSpace}), or, with probability {@code explore}, a fresh draw. No parameter set is
 * suggested twice, and a finite space that is used up ends the experiment.
 *
 * <p>Class arguments: {@code optimize_mode} (maximize), {@code seed} (0), {@code random_trials} (5),
 * {@code radius} (0.1), {@code explore} (0.2).
 *
 * <p>The randomness of a suggestion comes from the seed and the parameter id alone, so the same seed
 * gives the same sequence. It keeps no checkpoint: on resume the dispatcher gives it every earlier
 * result through {@link #importData}, from which it learns all it knew.
 */
public final class LocalSearchTuner implements Tuner {
    private static final int ATTEMPTS = 200;

    private final long seed;
    private final OptimizeMode mode;
    private final int randomTrials;
    private final double radius;
    private final double explore;

    private SearchSpace space;
    private EncodedSpace encoded;
    private final Set<Parameters> seen = new LinkedHashSet<>();
    private Parameters best;
    private double bestLoss = Double.POSITIVE_INFINITY;
    private int results;

    /** A tuner with these class arguments; an unknown or malformed argument is an error naming it. */
    public LocalSearchTuner(ClassArguments args) {
        args.requireOnly("optimize_mode", "seed", "random_trials", "radius", "explore");
        this.mode = OptimizeMode.from(args, OptimizeMode.MAXIMIZE);
        this.seed = args.getLong("seed", 0);
        this.randomTrials = args.getInt("random_trials", 5, 0);
        this.radius = args.getDouble("radius", 0.1, 1e-6, 1);
        this.explore = args.getDouble("explore", 0.2, 0, 1);
    }

    @Override
    public void updateSearchSpace(SearchSpace newSpace) {
        if (space != null && !space.equals(newSpace)) {
            seen.clear();
            best = null;
            bestLoss = Double.POSITIVE_INFINITY;
            results = 0;
        }
        space = newSpace;
        encoded = EncodedSpace.of(newSpace);
    }

    @Override
    public Parameters generateParameters(long parameterId) throws NoMoreTrialsException {
        if (space == null) {
            throw new IllegalStateException("no search space yet");
        }
        OptionalLong size = space.size();
        if (size.isPresent() && seen.size() >= size.getAsLong()) {
            throw new NoMoreTrialsException("all " + size.getAsLong() + " parameter sets of the space were suggested");
        }
        SplittableRandom rng = new SplittableRandom(seed ^ (parameterId * 0x9E3779B97F4A7C15L));
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            boolean local = best != null && results >= randomTrials && rng.nextDouble() >= explore;
            Parameters candidate = local ? neighbour(rng) : space.sample(rng);
            if (seen.add(candidate)) {
                return candidate;
            }
        }
        // The neighbourhood is used up (a small finite space): keep drawing from the whole space.
        for (int attempt = 0; attempt < 100 * ATTEMPTS; attempt++) {
            Parameters candidate = space.sample(rng);
            if (seen.add(candidate)) {
                return candidate;
            }
        }
        throw new NoMoreTrialsException("no unseen parameter set found in " + 100 * ATTEMPTS + " draws");
    }

    /** The best point moved by a Gaussian step in the unit cube; a coordinate that was inactive is drawn anew. */
    private Parameters neighbour(SplittableRandom rng) {
        double[] u = encoded.toUnit(encoded.encode(best));
        for (int i = 0; i < u.length; i++) {
            double moved = Double.isNaN(u[i]) ? rng.nextDouble() : u[i] + radius * rng.nextGaussian();
            u[i] = Math.min(1, Math.max(0, moved));
        }
        return encoded.decode(encoded.fromUnit(u));
    }

    @Override
    public void receiveTrialResult(TrialResult result) {
        results++;
        learn(result.parameters(), result.metric().value());
    }

    @Override
    public void importData(List<ImportedTrial> trials) {
        for (ImportedTrial t : trials) {
            if (space != null && space.violation(t.parameters()).isEmpty()) {
                seen.add(t.parameters());
                results++;
                learn(t.parameters(), t.metric().value());
            }
        }
    }

    private void learn(Parameters parameters, double value) {
        double loss = mode.toLoss(value);
        if (!Double.isNaN(loss) && loss < bestLoss) {
            bestLoss = loss;
            best = parameters;
        }
    }
}
