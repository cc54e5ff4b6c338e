package org.tunekit.study;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import org.tunekit.sdk.Parameters;

/**
 * One trial of a study as stored: what was tried and how it ended.
 *
 * @param number       its number in the study, from 0, in the order trials started
 * @param parameterId  the parameter id its parameters were suggested under (as a dispatcher numbers them)
 * @param parameters   the parameters
 * @param state        where it stands
 * @param values       its objective values, in the order of the study's objectives; empty unless it succeeded
 * @param intermediate the intermediate values it reported, by step
 * @param enqueued     true when its parameters were enqueued ({@link Study#enqueue}) rather than suggested
 * @param message      why it failed or was pruned, or {@code null}
 * @param worker       the worker that ran it (host, process and study instance)
 * @param started      when it was handed out
 * @param ended        when it ended, or {@code null} while it runs
 */
public record TrialRecord(int number, long parameterId, Parameters parameters, TrialState state, List<Double> values,
                          NavigableMap<Long, Double> intermediate, boolean enqueued, String message, String worker,
                          Instant started, Instant ended) {

    /** Copies the lists and maps. */
    public TrialRecord {
        values = List.copyOf(values);
        intermediate = java.util.Collections.unmodifiableNavigableMap(new TreeMap<>(intermediate));
    }

    /** Its value, for a study of one objective; empty unless it succeeded. */
    public Optional<Double> value() {
        if (values.size() > 1) {
            throw new StudyException("trial " + number + " has " + values.size() + " values, one per objective: read values()");
        }
        return values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }

    /** The same trial with another state, values, message and end. */
    TrialRecord ended(TrialState newState, List<Double> newValues, String newMessage, Instant when) {
        return new TrialRecord(number, parameterId, parameters, newState, newValues, intermediate, enqueued, newMessage, worker, started, when);
    }

    /** The same trial with one more intermediate value. */
    TrialRecord withIntermediate(long step, double value) {
        TreeMap<Long, Double> m = new TreeMap<>(intermediate);
        m.put(step, value);
        return new TrialRecord(number, parameterId, parameters, state, values, m, enqueued, message, worker, started, ended);
    }

    /** The trial's job id in {@code experiment.db}. */
    String jobId() {
        return "trial-" + number;
    }

    static NavigableMap<Long, Double> noIntermediate() {
        return new TreeMap<>(Map.of());
    }
}
