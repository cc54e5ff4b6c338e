package org.tunekit.bench.quality;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One tuner of a benchmark.
 *
 * @param label     how the outputs name it (the catalog name unless given as {@code label=Name})
 * @param name      the name the algorithm catalog knows it by
 * @param arguments class arguments added to (or, for the same key, replacing) the run's
 *                  {@code optimize_mode} and {@code seed}; a {@code null} value removes that argument
 */
record TunerSetup(String label, String name, Map<String, Object> arguments) {

    /** Copies the arguments (keeping {@code null} values, which mean "remove"). */
    public TunerSetup {
        if (label == null || label.isBlank() || name == null || name.isBlank()) {
            throw new IllegalArgumentException("a tuner needs a name and a label, got label '" + label + "' and name '" + name + "'");
        }
        arguments = Collections.unmodifiableMap(new LinkedHashMap<>(arguments == null ? Map.of() : arguments));
    }

    /**
     * Reads one entry of {@code --tuners}: {@code Name}, or {@code label=Name} to run the same
     * algorithm twice under different labels (with different {@code --tuner-args}).
     */
    public static TunerSetup parse(String entry) {
        String e = entry.trim();
        int eq = e.indexOf('=');
        if (eq < 0) {
            return new TunerSetup(e, e, Map.of());
        }
        return new TunerSetup(e.substring(0, eq).trim(), e.substring(eq + 1).trim(), Map.of());
    }

    /** This setup with {@code extra} class arguments merged over its own. */
    public TunerSetup withArguments(Map<String, Object> extra) {
        Map<String, Object> merged = new LinkedHashMap<>(arguments);
        merged.putAll(extra);
        return new TunerSetup(label, name, merged);
    }

    /**
     * The class arguments of one run: {@code optimize_mode: minimize} and {@code seed}, then this
     * setup's own arguments over them, then the {@code null}-valued ones removed.
     */
    public Map<String, Object> classArguments(long seed) {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("optimize_mode", "minimize");
        args.put("seed", seed);
        args.putAll(arguments);
        args.values().removeIf(v -> v == null);
        return args;
    }
}
