package org.tunekit.dispatcher.curves;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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

    /** The argument that sets where each algorithm starts judging, by algorithm name. */
    private static final Map<String, String> FIRST_JUDGEMENT_ARGUMENT = Map.of(
            "Medianstop", "start_step",
            "Curvefitting", "start_step",
            "SuccessiveHalving", "min_resource",
            "Percentile", "n_warmup_steps",
            "Hyperband", "min_budget",
            "BOHB", "min_budget");

    /** The configurations compared by default, baseline first, each algorithm with its default arguments. */
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
     * This preset judging first after {@code epoch} epochs, labelled {@code label@epoch}: its
     * algorithm's argument for that ({@code start_step}, {@code min_resource}, {@code n_warmup_steps}
     * or {@code min_budget}) set to {@code epoch}; empty when the algorithm has no such argument.
     */
    public Optional<CurveSetup> judgingFrom(int epoch) {
        if (epoch < 1 || epoch > CurveSuite.EPOCHS) {
            throw new IllegalArgumentException("the first judgement must be at an epoch in [1, " + CurveSuite.EPOCHS + "], got " + epoch);
        }
        String argument = algorithm() == null ? null : FIRST_JUDGEMENT_ARGUMENT.get(algorithm());
        if (argument == null) {
            return Optional.empty();
        }
        Map<String, Object> merged = new LinkedHashMap<>(arguments);
        merged.put(argument, epoch);
        return Optional.of(new CurveSetup(label + "@" + epoch, assessor, advisor, merged));
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
        int epoch;
        try {
            epoch = Integer.parseInt(name.substring(at + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("configuration '" + label + "': after '@' comes the epoch of the first judgement, a whole number");
        }
        return base.judgingFrom(epoch).orElseThrow(() -> new IllegalArgumentException("configuration '" + label + "': "
                + base.label() + " has no argument for where it starts judging"));
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
