package org.tunekit.bench.curves;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One compared configuration: the tuner with an assessor (or none), or an advisor alone.
 *
 * @param label     its name in the outputs
 * @param assessor  the assessor's catalog name, or {@code null}
 * @param advisor   the advisor's catalog name, or {@code null} (then the tuner runs)
 * @param arguments the assessor's or advisor's class arguments
 */
record CurveSetup(String label, String assessor, String advisor, Map<String, Object> arguments) {

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

    /** The argument that sets where each algorithm starts judging, by algorithm name. */
    private static final Map<String, String> FIRST_JUDGEMENT_ARGUMENT = Map.of(
            "Medianstop", "start_step",
            "Curvefitting", "start_step",
            "SuccessiveHalving", "min_resource",
            "Percentile", "n_warmup_steps",
            "Hyperband", "min_budget",
            "BOHB", "min_budget");
    /** The algorithms whose first-judgement argument also takes {@value #AUTO}: found from the first completed trials. */
    private static final Set<String> AUTO_CAPABLE = Set.of("SuccessiveHalving", "Percentile", "Medianstop", "Hyperband", "BOHB");
    /** The first judgement found by the algorithm itself. */
    public static final String AUTO = "auto";

    /** The configurations compared by default, baseline first, each algorithm with its default arguments. */
    public static List<CurveSetup> presets() {
        return List.of(
                new CurveSetup(BASELINE, null, null, Map.of()),
                new CurveSetup("Medianstop", "Medianstop", null, Map.of("optimize_mode", "minimize")),
                new CurveSetup("Curvefitting", "Curvefitting", null, args("optimize_mode", "minimize", "epoch_num", CurveSuite.EPOCHS)),
                new CurveSetup("SuccessiveHalving", "SuccessiveHalving", null, args("optimize_mode", "minimize", "min_resource", AUTO)),
                new CurveSetup("Percentile", "Percentile", null, Map.of("optimize_mode", "minimize")),
                new CurveSetup("Patience", "Patience", null, args("optimize_mode", "minimize", "patience", 5)),
                new CurveSetup("Hyperband", null, "Hyperband", args("optimize_mode", "minimize", "R", CurveSuite.EPOCHS, "eta", 3)),
                new CurveSetup("BOHB", null, "BOHB", args("optimize_mode", "minimize", "min_budget", 1, "max_budget", CurveSuite.EPOCHS,
                        "eta", 3)));
    }

    /**
     * This preset judging first after {@code when} epochs ({@value #AUTO}: where the algorithm finds
     * it), labelled {@code label@when}: its algorithm's argument for that ({@code start_step},
     * {@code min_resource}, {@code n_warmup_steps} or {@code min_budget}) set to {@code when}; empty
     * when the algorithm has no such argument, or {@code when} is {@value #AUTO} and it cannot find it itself.
     *
     * @throws IllegalArgumentException when {@code when} is neither {@value #AUTO} nor an epoch in [1, 50]
     */
    public Optional<CurveSetup> judgingFrom(String when) {
        Object value;
        if (AUTO.equalsIgnoreCase(when.trim())) {
            value = AUTO;
        } else {
            int epoch;
            try {
                epoch = Integer.parseInt(when.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("the first judgement is an epoch (a whole number) or '" + AUTO + "', got '" + when + "'");
            }
            if (epoch < 1 || epoch > CurveSuite.EPOCHS) {
                throw new IllegalArgumentException("the first judgement must be at an epoch in [1, " + CurveSuite.EPOCHS + "], got " + epoch);
            }
            value = epoch;
        }
        String argument = algorithm() == null ? null : FIRST_JUDGEMENT_ARGUMENT.get(algorithm());
        if (argument == null || value == AUTO && !AUTO_CAPABLE.contains(algorithm())) {
            return Optional.empty();
        }
        Map<String, Object> merged = new LinkedHashMap<>(arguments);
        merged.put(argument, value);
        return Optional.of(new CurveSetup(label + "@" + value, assessor, advisor, merged));
    }

    /**
     * The preset named {@code label}, ignoring case; {@code name@K} is preset {@code name} judging
     * first after K epochs (see {@link #judgingFrom}).
     *
     * @throws IllegalArgumentException listing the presets when there is none of that name
     */
    public static CurveSetup preset(String label) {
        String name = label.trim();
        int at = name.indexOf('@');
        CurveSetup base = presets().stream().filter(s -> s.label().equalsIgnoreCase(at < 0 ? name : name.substring(0, at))).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown configuration '" + label + "'; available: "
                        + String.join(", ", presets().stream().map(CurveSetup::label).toList()) + ", each optionally with @EPOCH"));
        if (at < 0) {
            return base;
        }
        String when = name.substring(at + 1);
        try {
            return base.judgingFrom(when).orElseThrow(() -> new IllegalArgumentException("configuration '" + label + "': "
                    + base.label() + (FIRST_JUDGEMENT_ARGUMENT.containsKey(String.valueOf(base.algorithm()))
                    ? " cannot find where to start judging itself" : " has no argument for where it starts judging")));
        } catch (IllegalArgumentException e) {
            throw e.getMessage().startsWith("configuration '") ? e : new IllegalArgumentException("configuration '" + label + "': " + e.getMessage());
        }
    }

    /** The assessor's or advisor's name, or {@code null} for the baseline. */
    public String algorithm() {
        return isAdvisor() ? advisor : assessor;
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
