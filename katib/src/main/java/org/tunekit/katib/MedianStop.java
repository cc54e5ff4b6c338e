package org.tunekit.katib;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.tunekit.katib.api.ComparisonType;
import org.tunekit.katib.api.EarlyStoppingRule;
import org.tunekit.katib.api.EarlyStoppingSetting;
import org.tunekit.katib.api.EarlyStoppingSpec;
import org.tunekit.katib.api.Experiment;
import org.tunekit.katib.api.Trial;
import org.tunekit.katib.api.TrialStatus;

/**
 * Katib's {@code medianstop} early-stopping algorithm, computed from the request alone.
 *
 * <p>For every succeeded trial, the mean of its objective metric over its first {@code start_step}
 * reports is taken (from the metrics store); once at least {@code min_trials_required} trials have
 * one, the rule is: stop a running trial whose objective, from report {@code start_step} on, is worse
 * than the median of those means ({@code GREATER} for a minimised objective, {@code LESS} for a
 * maximised one). Settings: {@code min_trials_required} (default 3, at least 1), {@code start_step}
 * (default 4, at least 1). (Katib's own service takes the mean of the means under the same name;
 * the median is what the median stopping rule is, and a single bad trial cannot move it.)
 */
final class MedianStop {
    /** The algorithm name Katib's experiments give. */
    static final String NAME = "medianstop";

    /** Where trials' metric reports come from. */
    interface MetricLogs {
        /** The values the trial reported for the metric, in order of report. */
        List<Double> values(String trialName, String metric);
    }

    /** The two settings. */
    record Settings(int minTrialsRequired, int startStep) {
        /**
         * Reads and checks the experiment's early-stopping spec.
         *
         * @throws KatibException (INVALID_ARGUMENT) naming an unknown algorithm or setting, or a bad value
         */
        static Settings of(EarlyStoppingSpec spec) {
            if (!spec.getAlgorithmName().equals(NAME)) {
                throw KatibException.invalid("unknown early-stopping algorithm \"" + spec.getAlgorithmName() + "\"; known: " + NAME);
            }
            int min = 3;
            int start = 4;
            java.util.Set<String> given = new java.util.HashSet<>();
            for (EarlyStoppingSetting s : spec.getAlgorithmSettingsList()) {
                if (!given.add(s.getName())) {
                    throw KatibException.invalid("medianstop: setting " + s.getName() + " is given twice");
                }
                switch (s.getName()) {
                    case "min_trials_required" -> min = positive(s);
                    case "start_step" -> start = positive(s);
                    default -> throw KatibException.invalid("medianstop has no setting " + s.getName()
                            + "; its settings are: min_trials_required, start_step (Tunekit's Medianstop, named with any other "
                            + "spelling such as \"Medianstop\", takes NNI's class arguments optimize_mode and start_step)");
                }
            }
            return new Settings(min, start);
        }

        private static int positive(EarlyStoppingSetting s) {
            try {
                int v = Integer.parseInt(s.getValue().trim());
                if (v >= 1) {
                    return v;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw KatibException.invalid("medianstop: setting " + s.getName() + " must be an integer of at least 1, got \"" + s.getValue() + "\"");
        }
    }

    private MedianStop() {}

    /**
     * The rules for the experiment now: none until enough trials have succeeded, then one.
     *
     * @throws KatibException (INVALID_ARGUMENT) for bad settings or an objective without a metric name
     */
    static List<EarlyStoppingRule> rules(Experiment experiment, List<Trial> trials, MetricLogs logs) {
        Settings settings = Settings.of(experiment.getSpec().getEarlyStopping());
        KatibObjective objective = KatibObjective.of(experiment.getSpec());
        String metric = objective.metric();
        List<Double> means = new ArrayList<>();
        for (Trial t : trials) {
            if (t.getStatus().getCondition() != TrialStatus.TrialConditionType.SUCCEEDED) {
                continue;
            }
            mean(logs.values(t.getName(), metric), settings.startStep()).ifPresent(means::add);
        }
        if (means.size() < settings.minTrialsRequired()) {
            return List.of();
        }
        return List.of(EarlyStoppingRule.newBuilder()
                .setName(metric)
                .setValue(KatibSpace.format(median(means)))
                .setComparison(objective.maximize() ? ComparisonType.LESS : ComparisonType.GREATER)
                .setStartStep(settings.startStep())
                .build());
    }

    /** The mean of the first {@code steps} finite values, or empty when there is none. */
    static Optional<Double> mean(List<Double> values, int steps) {
        double sum = 0;
        int n = 0;
        for (int i = 0; i < values.size() && i < steps; i++) {
            double v = values.get(i);
            if (Double.isFinite(v)) {
                sum += v;
                n++;
            }
        }
        return n == 0 ? Optional.empty() : Optional.of(sum / n);
    }

    static double median(List<Double> values) {
        double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(v);
        int m = v.length / 2;
        return v.length % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
    }
}
