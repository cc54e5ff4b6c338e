package org.tunekit.assessors.successivehalving;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.tunekit.assessors.support.StateFile;
import org.tunekit.sdk.AssessResult;
import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.ClassArguments;
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
 */
final class SuccessiveHalvingAssessor implements Assessor {
    static final String STATE_FILE = "successive-halving.state";

    private final long minResource;
    private final int reductionFactor;
    private final int minEarlyStoppingRate;
    private final OptimizeMode mode;

    /** Recorded values per rung, as losses (smaller is better). */
    private final List<List<Double>> rungs = new ArrayList<>();
    /** How many rungs each running trial has passed through. */
    private final Map<String, Integer> rungsReached = new HashMap<>();

    SuccessiveHalvingAssessor(long minResource, int reductionFactor, int minEarlyStoppingRate, OptimizeMode mode) {
        this.minResource = minResource;
        this.reductionFactor = reductionFactor;
        this.minEarlyStoppingRate = minEarlyStoppingRate;
        this.mode = mode;
    }

    static SuccessiveHalvingAssessor fromArguments(ClassArguments arguments) {
        arguments.requireOnly("min_resource", "reduction_factor", "min_early_stopping_rate", "optimize_mode");
        return new SuccessiveHalvingAssessor(
                arguments.getInt("min_resource", 1, 1),
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
        int reached = rungsReached.getOrDefault(trialJobId, 0);
        AssessResult verdict = AssessResult.GOOD;
        for (long step = rungStep(reached); step <= history.size(); step = rungStep(reached)) {
            double loss = mode.toLoss(history.get((int) step - 1).value());
            reached++;
            if (Double.isNaN(loss)) {
                verdict = AssessResult.BAD;
                break;
            }
            if (!promote(rung(reached - 1), loss)) {
                verdict = AssessResult.BAD;
                break;
            }
        }
        rungsReached.put(trialJobId, reached);
        return verdict;
    }

    private List<Double> rung(int k) {
        while (rungs.size() <= k) {
            rungs.add(new ArrayList<>());
        }
        return rungs.get(k);
    }

    /** Records {@code loss} in {@code rung}; true when it is among the best {@code max(1, ⌊m/η⌋)}. */
    private boolean promote(List<Double> rung, double loss) {
        rung.add(loss);
        int places = Math.max(1, rung.size() / reductionFactor);
        int better = 0;
        for (double other : rung) {
            if (other < loss) {
                better++;
            }
        }
        return better < places;
    }

    @Override
    public void trialEnd(String trialJobId, boolean success) {
        rungsReached.remove(trialJobId);
    }

    @Override
    public void saveCheckpoint(Path directory) throws IOException {
        List<List<String>> records = new ArrayList<>();
        for (int k = 0; k < rungs.size(); k++) {
            double[] values = rungs.get(k).stream().mapToDouble(Double::doubleValue).toArray();
            records.add(StateFile.record("rung", List.of(Integer.toString(k)), values));
        }
        for (Map.Entry<String, Integer> e : rungsReached.entrySet()) {
            records.add(StateFile.record("trial", List.of(e.getKey(), Integer.toString(e.getValue()))));
        }
        StateFile.write(directory.resolve(STATE_FILE), "SuccessiveHalving", records);
    }

    @Override
    public void loadCheckpoint(Path directory) throws IOException {
        rungs.clear();
        rungsReached.clear();
        for (StateFile.Record r : StateFile.read(directory.resolve(STATE_FILE), "SuccessiveHalving")) {
            switch (r.keyword()) {
                case "rung" -> {
                    List<Double> rung = rung(r.expectAtLeast(2).count(1));
                    for (double v : r.numbersFrom(2)) {
                        rung.add(v);
                    }
                }
                case "trial" -> rungsReached.put(r.expectSize(3).text(1), r.count(2));
                default -> throw r.error("unknown record");
            }
        }
    }

    /** The values recorded at rung {@code k}, as losses. */
    List<Double> rungValues(int k) {
        return k < rungs.size() ? List.copyOf(rungs.get(k)) : List.of();
    }
}
