package org.tunekit.study;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeSet;
import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.spi.AdvisorProvider;
import org.tunekit.sdk.spi.AlgorithmProvider;
import org.tunekit.sdk.spi.AssessorProvider;
import org.tunekit.sdk.spi.TunerProvider;

/**
 * Creates tuners and assessors by the names experiment configs use, from the providers on the class path (the
 * built-ins, and any plugin jar the program carries), found with {@link ServiceLoader} in the class loader of
 * the study library.
 */
final class Algorithms {
    private Algorithms() {}

    static Tuner tuner(String name, Map<String, Object> arguments) {
        TunerProvider p = find(TunerProvider.class, "tuner", name);
        try {
            return p.create(ClassArguments.of(arguments));
        } catch (InvalidClassArgumentException e) {
            throw new StudyException("tuner '" + p.name() + "': " + e.getMessage(), e);
        }
    }

    static Assessor assessor(String name, Map<String, Object> arguments) {
        AssessorProvider p = find(AssessorProvider.class, "assessor", name);
        try {
            return p.create(ClassArguments.of(arguments));
        } catch (InvalidClassArgumentException e) {
            throw new StudyException("assessor '" + p.name() + "': " + e.getMessage(), e);
        }
    }

    private static boolean isAdvisor(String name) {
        try {
            for (AdvisorProvider p : ServiceLoader.load(AdvisorProvider.class, Algorithms.class.getClassLoader())) {
                if (p.name().equalsIgnoreCase(name) || p.aliases().stream().anyMatch(a -> a.equalsIgnoreCase(name))) {
                    return true;
                }
            }
        } catch (ServiceConfigurationError e) {
            return false;
        }
        return false;
    }

    /** The provider of {@code kind} that answers to {@code name} (or an alias), ignoring case. */
    static <P extends AlgorithmProvider> P find(Class<P> type, String kind, String name) {
        List<P> found = new ArrayList<>();
        TreeSet<String> known = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        try {
            for (P p : ServiceLoader.load(type, Algorithms.class.getClassLoader())) {
                known.add(p.name());
                if (p.name().equalsIgnoreCase(name) || p.aliases().stream().anyMatch(a -> a.equalsIgnoreCase(name))) {
                    found.add(p);
                }
            }
        } catch (ServiceConfigurationError e) {
            throw new StudyException("a " + kind + " provider on the class path cannot be loaded: " + e.getMessage(), e);
        }
        if (found.isEmpty() && type == TunerProvider.class && isAdvisor(name)) {
            throw new StudyException("'" + name + "' is an advisor, which decides trials' budgets and stops them itself: a study runs a tuner "
                    + "and an assessor (for budgets cut short, an assessor such as SuccessiveHalving with a tuner such as TPE)");
        }
        if (found.isEmpty()) {
            String lower = name.toLowerCase(Locale.ROOT);
            String close = known.stream().filter(k -> k.toLowerCase(Locale.ROOT).startsWith(lower.substring(0, Math.min(2, lower.length()))))
                    .findFirst().orElse(null);
            throw new StudyException("no " + kind + " named '" + name + "'" + (close == null ? "" : " (did you mean '" + close + "'?)")
                    + "; on the class path: " + (known.isEmpty() ? "none (is tunekit-" + kind + "s on it?)" : String.join(", ", known)));
        }
        if (found.size() > 1) {
            throw new StudyException("two " + kind + "s answer to '" + name + "': " + found.get(0).getClass().getName() + " and "
                    + found.get(1).getClass().getName() + "; remove one of the jars from the class path");
        }
        return found.get(0);
    }
}
