package org.tunekit.assessors.successivehalving;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.IntToDoubleFunction;
import org.tunekit.assessors.support.SettlingStep;
import org.tunekit.assessors.support.SortedDoubles;
import org.tunekit.assessors.support.StateFile;
import org.tunekit.sdk.AssessResult;
import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.OptimizeMode;

/**
 * Asynchronous successive halving. Rung {@code k} lies at {@code min_resource × η^(s + k)} steps
 * ({@code η} = {@code reduction_factor}, {@code s} = {@code min_early_stopping_rate}); a trial reaches a
 * rung when its history holds that many values, and its value there is the last of them. The value is
 * recorded in the rung, and the trial goes on only if it is among the best {@code max(1, ⌊m / η⌋)} of
 * the {@code m} values recorded at that rung so far (itself included; ties count in its favour), so
 * early trials are promoted and later ones must beat a growing field, without waiting for any trial. A
 * NaN value at a rung is {@code BAD} and is not recorded. Values stay in their rungs when trials end.
 *
 * <p>With {@code min_resource} {@code auto} the first rung is the {@link SettlingStep} of the first
 * {@code n_startup_trials} trials to complete, which run unjudged; their curves then fill the rungs as
 * if they had been judged on the way, in the order they completed.
 */
final class SuccessiveHalvingAssessor implements Assessor {
    static final String STATE_FILE = "successive-halving.state";

    /** Used in the arguments for the first rung to be found from the first completed trials. */
    static final String AUTO = "auto";
    static final int DEFAULT_STARTUP_TRIALS = 10;

    /** The first rung's step; 0 while {@link #settling} has not found it. */
    private long minResource;
    /** Finds the first rung with {@code min_resource} auto, else {@code null}. */
    private final SettlingStep settling;
    private final int reductionFactor;
    private final int minEarlyStoppingRate;
    private final OptimizeMode mode;

    /** Recorded values per rung, as losses (smaller is better), sorted to count the better ones by binary search. */
    private final List<SortedDoubles> rungs = new ArrayList<>();
    /** How many rungs each running trial has passed through. */
    private final Map<String, Integer> rungsReached = new HashMap<>();

    /**
     * @param minResource  the first rung's step, or 0 to find it from the first {@code startupTrials} completed trials
     * @param startupTrials with {@code minResource} 0, how many completed trials the first rung is found from
     */
    SuccessiveHalvingAssessor(long minResource, int startupTrials, int reductionFactor, int minEarlyStoppingRate, OptimizeMode mode) {
        this.minResource = minResource;
        this.settling = minResource == 0 ? new SettlingStep(startupTrials) : null;
        this.reductionFactor = reductionFactor;
        this.minEarlyStoppingRate = minEarlyStoppingRate;
        this.mode = mode;
    }

    static SuccessiveHalvingAssessor fromArguments(ClassArguments arguments) {
        arguments.requireOnly("min_resource", "n_startup_trials", "reduction_factor", "min_early_stopping_rate", "optimize_mode");
        boolean auto = AUTO.equals(arguments.get("min_resource")) || !arguments.has("min_resource");
        if (!auto && arguments.has("n_startup_trials")) {
            throw new InvalidClassArgumentException("class argument 'n_startup_trials' applies only with min_resource \"auto\", got min_resource "
                    + arguments.get("min_resource"));
        }
        return new SuccessiveHalvingAssessor(
                auto ? 0 : arguments.getInt("min_resource", 1, 1),
                arguments.getInt("n_startup_trials", DEFAULT_STARTUP_TRIALS, 3),
                arguments.getInt("reduction_factor", 3, 2),
                arguments.getInt("min_early_stopping_rate", 0, 0),
                OptimizeMode.from(arguments, OptimizeMode.MAXIMIZE));
    }

    /** The number of steps at which rung {@code k} lies, or {@link Long#MAX_VALUE} past the range of a long. */
    long rungStep(int k) {
        long step = minResource;
        for (int i = 0; i < minEarlyStoppingRate + k; i++) {
            if (step > Long.MAX_VALUE / reductionFactor) {
                return Long.MAX_VALUE;
            }
            step *= reductionFactor;
        }
        return step;
    }

    @Override
    public AssessResult assessTrial(String trialJobId, List<Metric> history) {
        if (minResource == 0) {
            settling.observe(trialJobId, history);
            return AssessResult.GOOD;
        }
        int[] reached = {rungsReached.getOrDefault(trialJobId, 0)};
        AssessResult verdict = climb(i -> history.get(i).value(), history.size(), reached);
        rungsReached.put(trialJobId, reached[0]);
        return verdict;
    }

    /** Takes a curve of {@code length} values through the rungs from {@code reached[0]} as far as its values and its ranks allow. */
    private AssessResult climb(IntToDoubleFunction valueAt, int length, int[] reached) {
        for (long step = rungStep(reached[0]); step <= length; step = rungStep(reached[0])) {
            double loss = mode.toLoss(valueAt.applyAsDouble((int) step - 1));
            reached[0]++;
            if (Double.isNaN(loss) || !promote(reached[0] - 1, loss)) {
                return AssessResult.BAD;
            }
        }
        return AssessResult.GOOD;
    }

    /** The first rung's step, once known. */
    OptionalLong minResource() {
        return minResource == 0 ? OptionalLong.empty() : OptionalLong.of(minResource);
    }

    /** Records {@code loss} in rung {@code k}; true when it is among the best {@code max(1, ⌊m/η⌋)} of the {@code m} recorded there. */
    private boolean promote(int k, double loss) {
        SortedDoubles rung = rung(k);
        int better = rung.countBelow(loss);
        rung.add(loss);
        return better < Math.max(1, rung.size() / reductionFactor);
    }

    private SortedDoubles rung(int k) {
        while (rungs.size() <= k) {
            rungs.add(new SortedDoubles());
        }
        return rungs.get(k);
    }

    @Override
    public void trialEnd(String trialJobId, boolean success) {
        rungsReached.remove(trialJobId);
        if (minResource == 0 && settling.trialEnd(trialJobId, success)) {
            settled();
        }
    }

    private void settled() {
        minResource = settling.step().orElseThrow();
        for (double[] curve : settling.completedCurves()) {
            climb(i -> curve[i], curve.length, new int[] {0});
        }
    }

    @Override
    public void saveCheckpoint(Path directory) throws IOException {
        List<List<String>> records = new ArrayList<>();
        for (int k = 0; k < rungs.size(); k++) {
            records.add(StateFile.record("rung", List.of(Integer.toString(k)), rungs.get(k).toArray()));
        }
        for (Map.Entry<String, Integer> e : rungsReached.entrySet()) {
            records.add(StateFile.record("trial", List.of(e.getKey(), Integer.toString(e.getValue()))));
        }
        if (settling != null) {
            records.addAll(settling.records());
        }
        StateFile.write(directory.resolve(STATE_FILE), "SuccessiveHalving", records);
    }

    @Override
    public void loadCheckpoint(Path directory) throws IOException {
        rungs.clear();
        rungsReached.clear();
        if (settling != null) {
            settling.reset();
        }
        boolean settlingRead = false;
        for (StateFile.Record r : StateFile.read(directory.resolve(STATE_FILE), "SuccessiveHalving")) {
            switch (r.keyword()) {
                case "rung" -> {
                    SortedDoubles rung = rung(r.expectAtLeast(2).count(1));
                    for (double v : r.numbersFrom(2)) {
                        rung.add(v);
                    }
                }
                case "trial" -> rungsReached.put(r.expectSize(3).text(1), r.count(2));
                default -> {
                    if (settling == null || !settling.read(r)) {
                        throw r.error(settling == null ? "unknown record (was the state written with min_resource \"auto\"?)" : "unknown record");
                    }
                    settlingRead = true;
                }
            }
        }
        if (settling != null && !settlingRead) {
            throw new IOException(directory.resolve(STATE_FILE) + ": no settling record, but min_resource is \"auto\" (was the state written "
                    + "with a fixed min_resource?)");
        }
        if (settling != null && settling.step().isPresent()) {
            minResource = settling.step().getAsInt();
        }
    }

    /** The values recorded at rung {@code k}, as losses, in ascending order. */
    List<Double> rungValues(int k) {
        return k < rungs.size() ? Arrays.stream(rungs.get(k).toArray()).boxed().toList() : List.of();
    }
}
