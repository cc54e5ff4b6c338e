package org.tunekit.dispatcher.curves;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One compared configuration: the tuner with an assessor (or none), or an advisor alone.
 *
 * @param label     its name in the outputs
 * @param assessor  the assessor's catalog name, or {@code null}
 * @param advisor   the advisor's catalog name, or {@code null} (then the tuner runs)
 * @param arguments the assessor's or advisor's class arguments
 */
public record CurveSetup(String label, String assessor, String advisor, Map<String, Object> arguments) {

    /** The label of the configuration without early stopping, the baseline of every comparison. */
    public static final String BASELINE = "none";

    /** Copies the arguments. */
    public CurveSetup {
        arguments = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(arguments));
    }

    /** True for an advisor. */
    public boolean isAdvisor() {
        return advisor != null;
    }

    /** The configurations compared by default, baseline first. */
    public static List<CurveSetup> presets() {
        return List.of(
                new CurveSetup(BASELINE, null, null, Map.of()),
                new CurveSetup("Medianstop", "Medianstop", null, Map.of("optimize_mode", "minimize")),
                new CurveSetup("Curvefitting", "Curvefitting", null, args("optimize_mode", "minimize", "epoch_num", CurveSuite.EPOCHS)),
                new CurveSetup("SuccessiveHalving", "SuccessiveHalving", null, Map.of("optimize_mode", "minimize")),
                new CurveSetup("Percentile", "Percentile", null, Map.of("optimize_mode", "minimize")),
                new CurveSetup("Patience", "Patience", null, args("optimize_mode", "minimize", "patience", 5)),
                new CurveSetup("Hyperband", null, "Hyperband", args("optimize_mode", "minimize", "R", CurveSuite.EPOCHS, "eta", 3)),
                new CurveSetup("BOHB", null, "BOHB", args("optimize_mode", "minimize", "min_budget", 1, "max_budget", CurveSuite.EPOCHS,
                        "eta", 3)));
    }

    /**
     * The preset named {@code label}, ignoring case.
     *
     * @throws IllegalArgumentException listing the presets when there is none of that name
     */
    public static CurveSetup preset(String label) {
        return presets().stream().filter(s -> s.label().equalsIgnoreCase(label.trim())).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown configuration '" + label + "'; available: "
                        + String.join(", ", presets().stream().map(CurveSetup::label).toList())));
    }

    /** This setup with {@code extra} arguments over its own; a {@code null} value removes one. */
    public CurveSetup withArguments(Map<String, Object> extra) {
        Map<String, Object> merged = new LinkedHashMap<>(arguments);
        merged.putAll(extra);
        merged.values().removeIf(v -> v == null);
        return new CurveSetup(label, assessor, advisor, merged);
    }

    /** What the configuration runs, for the summary. */
    public String describe() {
        if (isAdvisor()) {
            return advisor + " " + arguments;
        }
        return assessor == null ? "Random, no assessor" : "Random + " + assessor + " " + arguments;
    }

    private static Map<String, Object> args(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }
}
