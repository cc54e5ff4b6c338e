package org.tunekit.examples.tuner;

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
 * Coordinate search (a compass search) in the unit cube of the encoded space. After
 * {@code random_trials} draws from the space, it probes the best point so far one coordinate at a
 * time, a step up and a step down ({@code +s e1, +s e2, ..., -s e1, -s e2, ...}). A better result
 * moves the centre there; a whole round of probes (two per coordinate) without improvement halves
 * the step, and a step below {@code min_step} starts again at {@code initial_step}. Coordinates of
 * nested options that the centre does not choose are skipped; categories and integers move when the
 * step crosses their cell in the unit cube.
 *
 * <p>Class arguments: {@code optimize_mode} (maximize), {@code seed} (0), {@code random_trials} (3),
 * {@code initial_step} (0.25), {@code min_step} (0.01).
 *
 * <p>With several trials running at once the probes go out before their results come back, so a
 * round of probes is judged by the results that arrive, in whatever order. A probe that would repeat
 * a parameter set (common on integer and categorical coordinates) is passed over; when no probe is
 * new, the suggestion is a fresh draw.
 *
 * <p>It keeps no checkpoint: everything it knows follows from its results (a probe already made is
 * among the parameter sets seen), and the randomness of a suggestion comes from the seed and the
 * parameter id alone, so on resume the dispatcher gives it every earlier result through
 * {@link #importData} and it carries on as if it had never stopped.
 */
public final class CoordinateSearchTuner implements Tuner {

    private final OptimizeMode mode;
    private final long seed;
    private final int randomTrials;
    private final double initialStep;
    private final double minStep;

    private SearchSpace space;
    private EncodedSpace encoded;
    private final Set<Parameters> seen = new LinkedHashSet<>();
    private Parameters centre;
    private double centreLoss = Double.POSITIVE_INFINITY;
    private double step;
    private int failures;
    private int results;

    /** A tuner with these class arguments; an unknown or malformed argument is an error naming it. */
    public CoordinateSearchTuner(ClassArguments args) {
        args.requireOnly("optimize_mode", "seed", "random_trials", "initial_step", "min_step");
        this.mode = OptimizeMode.from(args, OptimizeMode.MAXIMIZE);
        this.seed = args.getLong("seed", 0);
        this.randomTrials = args.getInt("random_trials", 3, 1);
        this.initialStep = args.getDouble("initial_step", 0.25, 1e-6, 1);
        this.minStep = args.getDouble("min_step", 0.01, 1e-9, initialStep);
        this.step = initialStep;
    }

    @Override
    public void updateSearchSpace(SearchSpace newSpace) {
        if (space != null && !space.equals(newSpace)) {
            seen.clear();
            centre = null;
            centreLoss = Double.POSITIVE_INFINITY;
            step = initialStep;
            failures = 0;
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
        if (centre != null && results >= randomTrials && encoded.size() > 0) {
            double[] unit = encoded.toUnit(encoded.encode(centre));
            int probes = 2 * encoded.size();
            for (int i = 0; i < probes; i++) {
                Parameters candidate = probe(unit, i);
                if (candidate != null && seen.add(candidate)) {
                    return candidate;
                }
            }
        }
        SplittableRandom rng = new SplittableRandom(seed ^ (parameterId * 0x9E3779B97F4A7C15L));
        for (int attempt = 0; attempt < 20_000; attempt++) {
            Parameters candidate = space.sample(rng);
            if (seen.add(candidate)) {
                return candidate;
            }
        }
        throw new NoMoreTrialsException("no unseen parameter set found in 20000 draws");
    }

    /** The k-th probe around the centre, or null when its coordinate is not active there. */
    private Parameters probe(double[] unit, long k) {
        int d = (int) (k % encoded.size());
        double sign = (k / encoded.size()) % 2 == 0 ? 1 : -1;
        if (Double.isNaN(unit[d])) {
            return null;
        }
        double[] u = unit.clone();
        u[d] = Math.min(1, Math.max(0, u[d] + sign * step));
        if (u[d] == unit[d]) {
            return null;
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
        if (!Double.isNaN(loss) && loss < centreLoss) {
            centreLoss = loss;
            centre = parameters;
            failures = 0;
            return;
        }
        if (centre != null && results > randomTrials && ++failures >= 2 * Math.max(1, encoded == null ? 1 : encoded.size())) {
            failures = 0;
            step = step / 2 < minStep ? initialStep : step / 2;
        }
    }
}
