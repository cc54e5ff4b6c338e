package org.tunekit.katib;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Set;
import org.tunekit.katib.api.ComparisonType;
import org.tunekit.katib.api.EarlyStoppingRule;
import org.tunekit.katib.api.EarlyStoppingSetting;
import org.tunekit.katib.api.EarlyStoppingSpec;
import org.tunekit.katib.api.Experiment;
import org.tunekit.katib.api.Trial;
import org.tunekit.katib.api.TrialStatus;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.OptimizeMode;

/**
 * Tunekit's assessors whose decision a Katib early-stopping rule can carry, under their Tunekit names
 * and with their NNI class arguments as settings.
 *
 * <p>What a rule can say. Katib's metrics collector keeps, for the objective metric, the best value a
 * trial has reported so far and compares it with the rule's fixed value ({@code LESS}, {@code GREATER},
 * {@code EQUAL}), stopping the trial once the comparison holds (when there are several rules, once each
 * has held). With {@code start_step} 0 it compares at every report; with {@code start_step} k it
 * compares at the k-th report (Katib's file collector counts down to it and then, as its source
 * stands, compares no more; the stated intent, and the katib-lab driver, compare at every report from
 * the k-th on). The values below are chosen to be right under either reading. A trial gets the rules
 * of the moment it is created. So a rule is one fixed bar for one trial's best-so-far, computed from the
 * trials that had completed when it was asked for. Each assessor gives at most one rule: two would
 * have to hold both (not either), and the collector counts the reports towards the start step per
 * metric, not per rule.
 *
 * <p>Served:
 * <ul>
 *   <li>{@code Medianstop} ({@code optimize_mode}, {@code start_step}, default 0). Medianstop stops a trial
 *   at report {@code s >= start_step} when its best-so-far is strictly worse than the median, over the
 *   completed trials that reached report {@code s}, of their running averages at {@code s} (the lower
 *   median when maximising, the upper when minimising). The rule's value is the most lenient of those
 *   medians over the reports {@code max(1, start_step)} up to the longest completed curve (the smallest
 *   when maximising, the largest when minimising), from report {@code max(1, start_step)}.</li>
 *   <li>{@code Percentile} ({@code percentile}, default 50; {@code n_startup_trials}, default 5;
 *   {@code n_warmup_steps}, default 0; {@code interval_steps}, only 1; {@code optimize_mode}). Percentile
 *   stops a trial at 0-based step {@code t >= n_warmup_steps} when its best-so-far is strictly worse than
 *   the {@code percentile}-th best of the completed trials' values at step {@code t}. No rule until
 *   {@code n_startup_trials} trials have completed; then the value is the most lenient of those
 *   references over the reports {@code n_warmup_steps + 1} up to the longest completed curve, from
 *   report {@code n_warmup_steps + 1}.</li>
 *   <li>{@code Threshold} ({@code lower} or {@code upper}, one of them; {@code n_warmup_steps}, default 0;
 *   {@code optimize_mode}). The rule is that bound ({@code LESS} for {@code lower}, {@code GREATER} for
 *   {@code upper}) from report {@code n_warmup_steps + 1}. The bound on the good side of the objective
 *   ({@code upper} when maximising, {@code lower} when minimising) only with {@code n_warmup_steps} 0.</li>
 * </ul>
 *
 * <p>"From report 1" is start step 0, "from report k" (k &gt; 1) start step k. What that guarantees.
 * For the first two, against the same completed trials: since the best-so-far only improves and the
 * bar is the most lenient of the per-report bars, a trial whose finite curve the rule stops at report
 * {@code s} is one the assessor stops at report {@code s} or earlier, whether Katib compares at every
 * report or only at the first; the rule stops fewer trials, never others. For {@code Threshold}: past
 * the bad-side bound, the best-so-far is past it only when every value so far is; past the good-side
 * bound (no warm-up), from the first value past it on; either way the latest value is past it then,
 * so each stop is one Threshold makes at the same report. Threshold also stops a trial whose latest
 * value goes past the bad-side bound after one that was not, or is NaN, and the rule does not. Values
 * that are not finite are left out: a completed trial has no running average from its first such
 * value on, and no value at that report.
 *
 * <p>Not served, each refused with the reason in {@link #NOT_SERVED}: {@code Curvefitting},
 * {@code Patience}, {@code SuccessiveHalving} ({@code ASHA}), and plugin assessors (an assessor plugin
 * judges one history at a time and has no way to state a rule).
 */
final class AssessorRules {
    /** The served assessors, by lower-case name, with the class arguments each takes. */
    static final Map<String, List<String>> SERVED;

    static {
        Map<String, List<String>> m = new LinkedHashMap<>();
        m.put("medianstop", List.of("optimize_mode", "start_step"));
        m.put("percentile", List.of("percentile", "n_startup_trials", "n_warmup_steps", "interval_steps", "optimize_mode"));
        m.put("threshold", List.of("lower", "upper", "n_warmup_steps", "optimize_mode"));
        SERVED = java.util.Collections.unmodifiableMap(m);
    }

    /** The served assessors' names as Tunekit spells them, in the order of {@link #SERVED}. */
    static final List<String> SERVED_NAMES = List.of("Medianstop", "Percentile", "Threshold");

    /** Tunekit's built-in assessors that no rule can carry, by lower-case name (aliases too), with why. */
    static final Map<String, String> NOT_SERVED;

    static {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("curvefitting", "Curvefitting extrapolates each running trial's own curve to epoch_num and stops it when the prediction "
                + "(with its uncertainty) cannot reach threshold x the best final value; that depends on the shape of the trial's curve, "
                + "not on a bar its best value so far crosses: a trial however poor its values so far is kept while its curve still "
                + "rises steeply enough, so the only bar that never stops a trial Curvefitting keeps is one no trial crosses");
        m.put("patience", "Patience stops a trial that has not beaten its own earlier values for `patience` reports; that bar moves "
                + "with each trial's own history, while a Katib rule holds one fixed value for the trial");
        String asha = "SuccessiveHalving judges only at its rungs (min_resource x reduction_factor^k reports), each rung with its own "
                + "bar from the values recorded there so far, running trials included; a Katib rule has one value and compares at every "
                + "report from its start step on (the closest served rule is Percentile with percentile 100/reduction_factor and "
                + "n_warmup_steps at the first rung)";
        m.put("successivehalving", asha);
        m.put("asha", asha);
        NOT_SERVED = java.util.Collections.unmodifiableMap(m);
    }

    /** A served assessor with its arguments read. */
    interface Served {
        /** The assessor's name as Tunekit spells it. */
        String name();

        /**
         * The rules for the experiment now (none while the completed trials give no bar).
         *
         * @throws KatibException (INVALID_ARGUMENT) when the arguments do not fit the experiment's objective
         */
        List<EarlyStoppingRule> rules(Experiment experiment, List<Trial> trials, MedianStop.MetricLogs logs);
    }

    private AssessorRules() {}

    /**
     * Reads the settings of a served assessor: each value as JSON where it is JSON, else as a string.
     *
     * @param key  the lower-case name, a key of {@link #SERVED}
     * @throws KatibException (INVALID_ARGUMENT) naming an unknown, repeated or bad setting
     */
    static Served of(String key, EarlyStoppingSpec spec) {
        String name = SERVED_NAMES.stream().filter(n -> n.equalsIgnoreCase(key)).findFirst().orElseThrow();
        Map<String, Object> args = new LinkedHashMap<>();
        Set<String> given = new HashSet<>();
        for (EarlyStoppingSetting s : spec.getAlgorithmSettingsList()) {
            if (!given.add(s.getName())) {
                throw KatibException.invalid("early-stopping algorithm " + name + ": setting " + s.getName() + " is given twice");
            }
            args.put(s.getName(), Algorithms.settingValue(s.getValue()));
        }
        ClassArguments a = ClassArguments.of(args);
        try {
            a.requireOnly(SERVED.get(key).toArray(String[]::new));
            OptimizeMode mode = a.has("optimize_mode") ? OptimizeMode.from(a, OptimizeMode.MAXIMIZE) : null;
            return switch (key) {
                case "medianstop" -> {
                    refuseAuto(a, "start_step");
                    yield new MedianstopRule(mode, Math.max(1, a.getInt("start_step", 0, 0)));
                }
                case "percentile" -> {
                    refuseAuto(a, "n_warmup_steps");
                    if (a.getInt("interval_steps", 1, 1) != 1) {
                        throw new InvalidClassArgumentException("class argument 'interval_steps' must be 1 here, got "
                                + a.get("interval_steps") + ": a Katib rule cannot skip reports");
                    }
                    yield new PercentileRule(mode, a.getDouble("percentile", 50, 0, 100), a.getInt("n_startup_trials", 5, 0),
                            a.getInt("n_warmup_steps", 0, 0) + 1);
                }
                case "threshold" -> threshold(a, mode);
                default -> throw new IllegalStateException("no rule for " + key);
            };
        } catch (InvalidClassArgumentException e) {
            throw KatibException.invalid("early-stopping algorithm " + name + ": " + e.getMessage());
        }
    }

    private static void refuseAuto(ClassArguments a, String argument) {
        if ("auto".equals(a.get(argument))) {
            throw new InvalidClassArgumentException("class argument '" + argument + "' \"auto\" is not served as a Katib rule "
                    + "(it waits for the first trials to settle, in the order they completed); give a number");
        }
    }

    private static ThresholdRule threshold(ClassArguments a, OptimizeMode mode) {
        if (a.has("lower") == a.has("upper")) {
            throw new InvalidClassArgumentException(a.has("lower")
                    ? "give 'lower' or 'upper', not both: Katib stops a trial only once every rule has held, so two bounds would "
                    + "mean both, not either"
                    : "class argument 'lower' (for a maximised objective) or 'upper' (for a minimised one) is required");
        }
        boolean lower = a.has("lower");
        double bound = a.getDouble(lower ? "lower" : "upper", 0);
        if (!Double.isFinite(bound)) {
            throw new InvalidClassArgumentException("class argument '" + (lower ? "lower" : "upper") + "' must be a finite number, got " + bound);
        }
        ThresholdRule rule = new ThresholdRule(mode, lower, bound, a.getInt("n_warmup_steps", 0, 0) + 1);
        if (mode != null) {
            rule.check(mode == OptimizeMode.MAXIMIZE);
        }
        return rule;
    }

    // ------------------------------------------------------------------------------- the objective

    /** The experiment's objective, checked against the rule's {@code optimize_mode} when one is given. */
    private static KatibObjective objective(Experiment experiment, OptimizeMode mode, String name) {
        KatibObjective objective = KatibObjective.of(experiment.getSpec());
        if (mode != null && mode != objective.mode()) {
            throw KatibException.invalid("early-stopping algorithm " + name + ": setting optimize_mode "
                    + mode.name().toLowerCase(Locale.ROOT) + " contradicts the objective type "
                    + experiment.getSpec().getObjective().getType() + " (leave it out: it follows the objective)");
        }
        return objective;
    }

    /** The rule that stops a trial whose objective, from report {@code firstReport} on, is worse than {@code value}. */
    private static EarlyStoppingRule rule(KatibObjective objective, double value, int firstReport) {
        return EarlyStoppingRule.newBuilder()
                .setName(objective.metric())
                .setValue(KatibSpace.format(value))
                .setComparison(objective.maximize() ? ComparisonType.LESS : ComparisonType.GREATER)
                .setStartStep(katibStartStep(firstReport))
                .build();
    }

    /**
     * The {@code start_step} that makes Katib compare from report {@code firstReport} on: 0 for the
     * first report, as Katib's collector compares at every report only for start step 0 (for another
     * value it compares once, at that report).
     */
    static int katibStartStep(int firstReport) {
        return firstReport <= 1 ? 0 : firstReport;
    }

    /** The objective's reports of every succeeded trial that reported at least once. */
    static List<double[]> completedCurves(List<Trial> trials, MedianStop.MetricLogs logs, String metric) {
        List<double[]> out = new ArrayList<>();
        for (Trial t : trials) {
            if (t.getStatus().getCondition() == TrialStatus.TrialConditionType.SUCCEEDED) {
                double[] c = logs.values(t.getName(), metric).stream().mapToDouble(Double::doubleValue).toArray();
                if (c.length > 0) {
                    out.add(c);
                }
            }
        }
        return out;
    }

    /** A per-report bar from the completed trials' samples at that report, sorted ascending (never empty). */
    private interface Bar {
        double of(double[] sorted);
    }

    /** What the completed trials give at report {@code s} (1-based): the samples, in any order, NaN for none. */
    private interface Sampler {
        double sample(double[] curve, double[] prefixSums, int s);
    }

    /**
     * The most lenient bar over the reports {@code first} up to the longest curve: the smallest when
     * maximising, the largest when minimising; empty when no report there has a sample.
     */
    static OptionalDouble mostLenient(List<double[]> curves, int first, boolean maximize, Sampler sampler, Bar bar) {
        int longest = 0;
        List<double[]> sums = new ArrayList<>(curves.size());
        for (double[] c : curves) {
            longest = Math.max(longest, c.length);
            double[] p = new double[c.length];
            double sum = 0;
            for (int i = 0; i < c.length; i++) {
                sum += c[i];
                p[i] = Double.isFinite(c[i]) ? sum : Double.NaN;
                if (!Double.isFinite(c[i])) {
                    sum = Double.NaN;
                }
            }
            sums.add(p);
        }
        boolean found = false;
        double lenient = 0;
        double[] samples = new double[curves.size()];
        for (int s = first; s <= longest; s++) {
            int n = 0;
            for (int k = 0; k < curves.size(); k++) {
                if (curves.get(k).length >= s) {
                    double v = sampler.sample(curves.get(k), sums.get(k), s);
                    if (Double.isFinite(v)) {
                        samples[n++] = v;
                    }
                }
            }
            if (n == 0) {
                continue;
            }
            double[] sorted = Arrays.copyOf(samples, n);
            Arrays.sort(sorted);
            double b = bar.of(sorted);
            if (!found || (maximize ? b < lenient : b > lenient)) {
                lenient = b;
                found = true;
            }
        }
        return found ? OptionalDouble.of(lenient) : OptionalDouble.empty();
    }

    // ------------------------------------------------------------------------------- the three rules

    /** {@code Medianstop}: the most lenient median of running averages from report {@code startStep} on. */
    record MedianstopRule(OptimizeMode mode, int startStep) implements Served {
        @Override
        public String name() {
            return "Medianstop";
        }

        @Override
        public List<EarlyStoppingRule> rules(Experiment experiment, List<Trial> trials, MedianStop.MetricLogs logs) {
            KatibObjective o = objective(experiment, mode, name());
            OptionalDouble v = mostLenient(completedCurves(trials, logs, o.metric()), startStep, o.maximize(),
                    (curve, sums, s) -> sums[s - 1] / s,
                    sorted -> o.maximize() ? sorted[(sorted.length - 1) / 2] : sorted[sorted.length / 2]);
            return v.isPresent() ? List.of(rule(o, v.getAsDouble(), startStep)) : List.of();
        }
    }

    /** {@code Percentile}: the most lenient percentile of values at each report from {@code startStep} on. */
    record PercentileRule(OptimizeMode mode, double percentile, int startupTrials, int startStep) implements Served {
        @Override
        public String name() {
            return "Percentile";
        }

        @Override
        public List<EarlyStoppingRule> rules(Experiment experiment, List<Trial> trials, MedianStop.MetricLogs logs) {
            KatibObjective o = objective(experiment, mode, name());
            List<double[]> curves = completedCurves(trials, logs, o.metric());
            if (curves.size() < startupTrials) {
                return List.of();
            }
            double q = o.maximize() ? 100 - percentile : percentile;
            OptionalDouble v = mostLenient(curves, startStep, o.maximize(), (curve, sums, s) -> curve[s - 1], sorted -> {
                double rank = q / 100.0 * (sorted.length - 1);
                int below = (int) Math.floor(rank);
                int above = Math.min(below + 1, sorted.length - 1);
                return sorted[below] + (rank - below) * (sorted[above] - sorted[below]);
            });
            return v.isPresent() ? List.of(rule(o, v.getAsDouble(), startStep)) : List.of();
        }
    }

    /** {@code Threshold}: its one bound, from report {@code startStep} on. */
    record ThresholdRule(OptimizeMode mode, boolean lower, double bound, int startStep) implements Served {
        @Override
        public String name() {
            return "Threshold";
        }

        /** The bound on the good side of the objective is served only without a warm-up. */
        void check(boolean maximize) {
            if (lower != maximize && startStep > 1) {
                String b = lower ? "lower" : "upper";
                throw KatibException.invalid("early-stopping algorithm Threshold: for a " + (maximize ? "maximised" : "minimised")
                        + " objective '" + b + "' is served only with n_warmup_steps 0: Katib compares the best value so far, which is "
                        + "past '" + b + "' from the first value past it on, so after a warm-up the rule would also stop a trial that "
                        + "crossed it during the warm-up and came back, which Threshold keeps");
            }
        }

        @Override
        public List<EarlyStoppingRule> rules(Experiment experiment, List<Trial> trials, MedianStop.MetricLogs logs) {
            KatibObjective o = objective(experiment, mode, name());
            check(o.maximize());
            return List.of(EarlyStoppingRule.newBuilder().setName(o.metric()).setValue(KatibSpace.format(bound))
                    .setComparison(lower ? ComparisonType.LESS : ComparisonType.GREATER).setStartStep(katibStartStep(startStep)).build());
        }
    }
}
