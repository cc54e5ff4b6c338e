package org.tunekit.sdk.objectives;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.JsonValues;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.TrialResult;

/**
 * The objectives an experiment optimises together, as the {@code objectives} class argument names
 * them: a list of objects with a {@code metric} (a key of the metric object trials report),
 * a {@code mode} ({@code maximize} or {@code minimize}) and an optional {@code reference} value
 * that bounds the hypervolume on that objective:
 *
 * <pre>{@code
 * classArgs:
 *   objectives:
 *     - {metric: accuracy, mode: maximize, reference: 0.5}
 *     - {metric: latency_ms, mode: minimize}
 * }</pre>
 *
 * <p>A trial then reports {@code {"default": 0.93, "accuracy": 0.93, "latency_ms": 12.5}} (NNI's
 * metric object); the key {@code default} names the number of a trial that reports a plain number.
 * Immutable; an absent argument gives {@link #none()}.
 */
public final class Objectives {
    /** The class argument's name. */
    public static final String ARGUMENT = "objectives";
    private static final Set<String> ENTRY_KEYS = Set.of("metric", "mode", "reference");
    private static final Objectives NONE = new Objectives(List.of());

    private final List<Objective> list;

    private Objectives(List<Objective> list) {
        this.list = List.copyOf(list);
    }

    /** No objectives: a single-objective experiment. */
    public static Objectives none() {
        return NONE;
    }

    /**
     * The given objectives.
     *
     * @throws IllegalArgumentException when a metric key appears twice
     */
    public static Objectives of(List<Objective> objectives) {
        for (int i = 0; i < objectives.size(); i++) {
            for (int j = 0; j < i; j++) {
                if (objectives.get(i).metric().equals(objectives.get(j).metric())) {
                    throw new IllegalArgumentException("objective " + (i + 1) + " repeats the metric '"
                            + objectives.get(i).metric() + "' of objective " + (j + 1));
                }
            }
        }
        return objectives.isEmpty() ? NONE : new Objectives(objectives);
    }

    /**
     * Reads the {@code objectives} class argument; {@link #none()} when it is absent.
     *
     * @throws InvalidClassArgumentException naming the entry and key that is wrong: not a list, an
     *         entry that is not an object, a missing or blank {@code metric}, a missing or unknown
     *         {@code mode}, a reference that is not a finite number, an unknown key, a repeated metric
     */
    public static Objectives from(ClassArguments arguments) {
        Object raw = arguments.get(ARGUMENT);
        if (raw == null) {
            return NONE;
        }
        if (!(raw instanceof List<?> entries)) {
            throw new InvalidClassArgumentException("class argument 'objectives' must be a list of objects such as "
                    + "{metric: accuracy, mode: maximize}, got " + JsonValues.describe(raw));
        }
        if (entries.isEmpty()) {
            throw new InvalidClassArgumentException("class argument 'objectives' is an empty list: name at least one "
                    + "objective, such as {metric: accuracy, mode: maximize}");
        }
        List<Objective> out = new ArrayList<>();
        for (int i = 0; i < entries.size(); i++) {
            String at = "objectives[" + i + "]";
            if (!(entries.get(i) instanceof Map<?, ?> entry)) {
                throw new InvalidClassArgumentException("class argument '" + at + "' must be an object with 'metric' and 'mode', got "
                        + JsonValues.describe(entries.get(i)));
            }
            for (Object key : entry.keySet()) {
                if (!ENTRY_KEYS.contains(key)) {
                    throw new InvalidClassArgumentException("class argument '" + at + "' has the unknown key '" + key
                            + "'; known: metric, mode, reference");
                }
            }
            if (!(entry.get("metric") instanceof String metric) || metric.isBlank()) {
                throw new InvalidClassArgumentException("class argument '" + at + ".metric' must name a metric key, got "
                        + JsonValues.describe(entry.get("metric")));
            }
            Object modeText = entry.get("mode");
            if (modeText == null) {
                throw new InvalidClassArgumentException("class argument '" + at + ".mode' is missing: say \"maximize\" or \"minimize\" for metric '"
                        + metric + "'");
            }
            OptimizeMode mode = switch (modeText instanceof String s ? s.toLowerCase(Locale.ROOT) : "") {
                case "maximize" -> OptimizeMode.MAXIMIZE;
                case "minimize" -> OptimizeMode.MINIMIZE;
                default -> throw new InvalidClassArgumentException("class argument '" + at + ".mode' must be \"maximize\" or \"minimize\", got "
                        + JsonValues.describe(modeText));
            };
            OptionalDouble reference = OptionalDouble.empty();
            Object ref = entry.get("reference");
            if (ref != null) {
                if (!(ref instanceof Number n) || !Double.isFinite(n.doubleValue())) {
                    throw new InvalidClassArgumentException("class argument '" + at + ".reference' must be a finite number, got "
                            + JsonValues.describe(ref));
                }
                reference = OptionalDouble.of(n.doubleValue());
            }
            out.add(new Objective(metric, mode, reference));
        }
        try {
            return of(out);
        } catch (IllegalArgumentException e) {
            throw new InvalidClassArgumentException("class argument 'objectives': " + e.getMessage());
        }
    }

    /**
     * Checks that there are at least two objectives, for a tuner that optimises several at once.
     *
     * @param tuner the tuner's name, for the message
     * @return this
     * @throws InvalidClassArgumentException when there are fewer than two
     */
    public Objectives requireSeveral(String tuner) {
        if (list.size() < 2) {
            throw new InvalidClassArgumentException(tuner + " optimises several objectives at once: class argument 'objectives' must name "
                    + "at least 2, such as [{metric: accuracy, mode: maximize}, {metric: latency, mode: minimize}], got "
                    + (list.isEmpty() ? "none" : "only '" + list.get(0).metric() + "'"));
        }
        return this;
    }

    /** The objectives, in the order given. */
    public List<Objective> list() {
        return list;
    }

    /** How many objectives there are. */
    public int size() {
        return list.size();
    }

    /** True when no objective is named. */
    public boolean isEmpty() {
        return list.isEmpty();
    }

    /**
     * The objectives' values in a reported metric, in order.
     *
     * @param reported the metric as reported: a number (which holds only {@code default}) or an object
     * @param trial    names the trial in the message, such as {@code trial Ab3xZ (parameter id 4)}
     * @throws IllegalArgumentException naming the trial and the key when a key is missing or its value
     *         is not a number
     */
    public double[] values(Object reported, String trial) {
        double[] out = new double[list.size()];
        for (int i = 0; i < out.length; i++) {
            String key = list.get(i).metric();
            Object v;
            if (reported instanceof Map<?, ?> m) {
                if (!m.containsKey(key)) {
                    throw new IllegalArgumentException(trial + " reported a metric without the key '" + key + "' that objective "
                            + (i + 1) + " needs; its keys: " + m.keySet());
                }
                v = m.get(key);
            } else if ("default".equals(key)) {
                v = reported;
            } else {
                throw new IllegalArgumentException(trial + " reported " + JsonValues.describe(reported) + ", not a metric object with the key '"
                        + key + "' that objective " + (i + 1) + " needs");
            }
            out[i] = number(v, trial, key);
        }
        return out;
    }

    /**
     * The objectives' values in a trial's metric, as losses (smaller is better), in order.
     *
     * @throws IllegalArgumentException naming the trial and the key when a key is missing or not a number
     */
    public double[] losses(Metric metric, String trial) {
        double[] v = values(metric.reported(), trial);
        for (int i = 0; i < v.length; i++) {
            v[i] = list.get(i).toLoss(v[i]) + 0.0;
        }
        return v;
    }

    /** {@link #losses(Metric, String)} of a trial result, the trial named by its job id and parameter id. */
    public double[] losses(TrialResult result) {
        return losses(result.metric(), describe(result));
    }

    /** A trial result's name for messages: {@code trial JOB (parameter id N)}. */
    public static String describe(TrialResult result) {
        return (result.trialJobId() == null ? "trial" : "trial " + result.trialJobId()) + " (parameter id " + result.parameterId() + ")";
    }

    private static double number(Object v, String trial, String key) {
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        if (v instanceof String s) {
            try {
                return Metric.fromReported(s).value();
            } catch (IllegalArgumentException e) {
                // fall through
            }
        }
        throw new IllegalArgumentException(trial + " reported " + JsonValues.describe(v) + " for the metric '" + key + "', not a number");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Objectives other && list.equals(other.list);
    }

    @Override
    public int hashCode() {
        return list.hashCode();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("[");
        for (Objective o : list) {
            sb.append(sb.length() > 1 ? ", " : "").append(o.mode().name().toLowerCase(Locale.ROOT)).append(' ').append(o.metric());
        }
        return sb.append(']').toString();
    }
}
