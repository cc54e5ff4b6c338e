package org.tunekit.katib;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.tunekit.dispatcher.plugin.AlgorithmCatalog;
import org.tunekit.dispatcher.plugin.AlgorithmKind;
import org.tunekit.katib.api.EarlyStoppingRule;
import org.tunekit.katib.api.EarlyStoppingSpec;
import org.tunekit.katib.api.Experiment;
import org.tunekit.katib.api.Trial;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.spi.AssessorProvider;

/**
 * The early-stopping algorithm names this service answers to. Katib's {@code medianstop}, matched
 * exactly, is {@link MedianStop} with Katib's settings; Tunekit's assessors that a rule can carry
 * ({@link AssessorRules}) are matched by name ignoring case (any other spelling of
 * {@code Medianstop} is Tunekit's) and take their NNI class arguments. Every other name is refused
 * with INVALID_ARGUMENT: a built-in assessor no rule can carry with the reason, a plugin assessor as
 * one that cannot state a rule, anything else as unknown; each message lists the served names.
 */
final class StoppingAlgorithms {
    /** One resolved algorithm. */
    interface Algorithm {
        /** The rules for the experiment now. */
        List<EarlyStoppingRule> rules(Experiment experiment, List<Trial> trials, MedianStop.MetricLogs logs);
    }

    private final AlgorithmCatalog catalog;

    /** @param catalog the algorithms found (for plugin assessors' names, and to check built-ins' arguments), or {@code null} */
    StoppingAlgorithms(AlgorithmCatalog catalog) {
        this.catalog = catalog;
    }

    /** The names served: Katib's, then Tunekit's. */
    static List<String> served() {
        List<String> out = new ArrayList<>();
        out.add(MedianStop.NAME + " (Katib's)");
        out.addAll(AssessorRules.SERVED_NAMES);
        return out;
    }

    private static String servedText() {
        return "served: " + String.join(", ", served());
    }

    /**
     * Resolves the experiment's early-stopping spec.
     *
     * @throws KatibException (INVALID_ARGUMENT) for a name not served or a bad setting
     */
    Algorithm resolve(EarlyStoppingSpec spec) {
        String name = spec.getAlgorithmName();
        if (name.equals(MedianStop.NAME)) {
            MedianStop.Settings.of(spec);
            return (e, t, logs) -> MedianStop.rules(e, t, logs);
        }
        String key = name.trim().toLowerCase(Locale.ROOT);
        if (AssessorRules.SERVED.containsKey(key)) {
            AssessorRules.Served served = AssessorRules.of(key, spec);
            checkWithTheAssessor(served.name(), spec);
            return served::rules;
        }
        if (name.isBlank()) {
            throw KatibException.invalid("the experiment's earlyStopping names no algorithm; " + servedText());
        }
        String reason = AssessorRules.NOT_SERVED.get(key);
        if (reason != null) {
            throw KatibException.invalid("early-stopping algorithm " + name + " cannot be served as a Katib rule: " + reason + "; "
                    + servedText());
        }
        if (catalog != null) {
            for (AlgorithmCatalog.Entry e : catalog.entries()) {
                if (e.kind() == AlgorithmKind.ASSESSOR && answers(e, name)) {
                    throw KatibException.invalid("early-stopping algorithm " + name + " is the assessor " + e.provider().name() + " from "
                            + e.origin() + ", which cannot be served as a Katib rule: an assessor plugin judges one trial's history at a "
                            + "time and has no way to state a rule; " + servedText());
                }
            }
        }
        throw KatibException.invalid("unknown early-stopping algorithm \"" + name + "\"; " + servedText());
    }

    /** Lets the built-in assessor itself refuse arguments it would not take, when it is on the class path. */
    private void checkWithTheAssessor(String name, EarlyStoppingSpec spec) {
        if (catalog == null) {
            return;
        }
        for (AlgorithmCatalog.Entry e : catalog.entries()) {
            if (e.kind() == AlgorithmKind.ASSESSOR && e.provider().name().equals(name)
                    && e.provider().getClass().getName().startsWith("org.tunekit.assessors.")) {
                Map<String, Object> args = new java.util.LinkedHashMap<>();
                spec.getAlgorithmSettingsList().forEach(s -> args.put(s.getName(), Algorithms.settingValue(s.getValue())));
                try {
                    ((AssessorProvider) e.provider()).create(ClassArguments.of(args));
                } catch (InvalidClassArgumentException x) {
                    throw KatibException.invalid("early-stopping algorithm " + name + ": " + x.getMessage());
                }
                return;
            }
        }
    }

    private static boolean answers(AlgorithmCatalog.Entry e, String name) {
        return e.provider().name().equalsIgnoreCase(name) || e.provider().aliases().stream().anyMatch(a -> a.equalsIgnoreCase(name));
    }
}
