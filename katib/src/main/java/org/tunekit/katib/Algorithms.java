package org.tunekit.katib;

import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import com.google.gson.Strictness;
import com.google.gson.stream.JsonReader;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import org.tunekit.dispatcher.plugin.AlgorithmCatalog;
import org.tunekit.dispatcher.plugin.AlgorithmKind;
import org.tunekit.katib.api.AlgorithmSetting;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.spi.TunerProvider;

/**
 * The algorithm names a Katib experiment may give, and how each becomes a Tunekit tuner.
 *
 * <p>Two sets of names. Katib's own names, matched exactly as Katib spells them ({@code random},
 * {@code tpe}, {@code multivariate-tpe}, {@code cmaes}, {@code grid}, {@code sobol},
 * {@code bayesianoptimization}), take Katib's settings and run the Tunekit tuner that does the same
 * job. Katib's {@code hyperband} (settings {@code resource_name}, {@code eta}, {@code r_l}) is no
 * tuner: {@link Suggester} hands it to {@link KatibHyperband}, which schedules Katib's brackets from
 * the trials of each request; it is listed by {@link #names()} but never resolved here. Katib's
 * {@code pbt}, {@code enas} and {@code darts} are not served and are refused naming the known
 * algorithms. Every other name is a Tunekit tuner's name or alias, built-in or from a plugin folder,
 * matched ignoring case ({@code TPE}, {@code GPTuner}, {@code SMAC}, ...), and takes that tuner's NNI
 * class arguments as settings; a setting's value is read as JSON when it is JSON (a number,
 * {@code true}, an object) and as a string otherwise. {@code optimize_mode} comes from the
 * experiment's objective.
 */
final class Algorithms {
    /** Katib's names, with the settings each takes. */
    static final Map<String, List<String>> KATIB_NAMES;

    static {
        Map<String, List<String>> m = new LinkedHashMap<>();
        m.put("random", List.of("random_state"));
        List<String> tpe = List.of("gamma", "prior_weight", "n_EI_candidates", "n_ei_candidates", "n_startup_trials",
                "random_state", "seed");
        m.put("tpe", tpe);
        m.put("multivariate-tpe", tpe);
        m.put("cmaes", List.of("restart_strategy", "sigma", "random_state", "seed"));
        m.put("grid", List.of());
        m.put("sobol", List.of("random_state", "seed"));
        m.put("bayesianoptimization", List.of("base_estimator", "n_initial_points", "acq_func", "random_state"));
        KATIB_NAMES = java.util.Collections.unmodifiableMap(m);
    }

    /**
     * The prior's weight in the Parzen estimators of Katib's {@code tpe} and {@code multivariate-tpe}
     * when the experiment gives no {@code prior_weight}. With {@link #KATIB_TPE_BANDWIDTH_FACTOR} it
     * focuses the search that Katib's small budgets (its examples run 12 to 30 trials, 10 of them at
     * random) leave to the model: over 300 simulated 30-trial runs (parallel 3) per objective, drawing
     * whole parameter sets, the median best is 0.29 against 0.57 on branin, 0.73 against 0.74 on
     * rosenbrock, 113 against 142 on the six-parameter rosenbrock and 0.0074 against 0.0086 on sphere
     * without them (bench/results/katib/budget.md, made by {@code bench/katib/budget.sh 300}).
     * Tunekit's NNI-named {@code TPE} keeps NNI's defaults.
     */
    static final double KATIB_TPE_PRIOR_WEIGHT = 0.5;

    /**
     * Whether Katib's {@code tpe} draws whole parameter sets, as {@code multivariate-tpe} does: in the
     * budget comparison (300 runs per objective) one parameter at a time ended behind Katib's own
     * {@code tpe} on rosenbrock (median 0.87 against 0.78) and the six-parameter rosenbrock (152
     * against 121); whole sets end ahead of it on all four objectives (branin 0.38, rosenbrock 0.64,
     * rosenbrock6 117, sphere 0.0073, against 0.61, 0.78, 121, 0.0079).
     */
    static final boolean KATIB_TPE_MULTIVARIATE = true;

    /** The {@code bandwidth_factor} (a Tunekit TPE extension) of Katib's {@code tpe} and {@code multivariate-tpe}; see {@link #KATIB_TPE_PRIOR_WEIGHT}. */
    static final double KATIB_TPE_BANDWIDTH_FACTOR = 0.4;

    /** CMA-ES's initial step size for Katib's {@code cmaes} without a {@code sigma} setting (1 = a parameter's whole range). */
    static final double KATIB_CMAES_SIGMA0 = 0.1;
    /**
     * CMA-ES's first population for Katib's {@code cmaes} over {@code n} parameters: two fewer than
     * CMA-ES's usual {@code 4 + floor(3 ln n)}, and at least 4 (4 for Katib's two-parameter examples,
     * 8 for ten parameters, 10 for twenty). Katib's experiments are short, and a smaller population
     * adapts in more generations of the same budget.
     */
    static int katibCmaesPopulation(int n) {
        return Math.max(4, 2 + (int) Math.floor(3 * Math.log(Math.max(1, n))));
    }

    /**
     * The recipe for an experiment of {@code n} parameters: Katib's {@code cmaes} gets its first
     * population ({@link #katibCmaesPopulation}); every other recipe is returned as it is.
     */
    static Recipe forParameters(Recipe recipe, int n) {
        if (!recipe.name().equals("cmaes") || !recipe.provider().name().equals("CMAES") || recipe.arguments().containsKey("popsize")) {
            return recipe;
        }
        Map<String, Object> args = new LinkedHashMap<>(recipe.arguments());
        args.put("popsize", (long) katibCmaesPopulation(n));
        return new Recipe(recipe.name(), recipe.provider(), args, recipe.seed(), recipe.sequence());
    }

    /** Katib's algorithms that this service does not run (population-based training, architecture search). */
    static final List<String> NOT_SERVED = List.of("pbt", "enas", "darts");

    /**
     * What one experiment's algorithm resolved to.
     *
     * @param name      the name as the experiment gave it
     * @param provider  the Tunekit tuner's provider
     * @param arguments its class arguments, without {@code seed} and {@code optimize_mode}
     * @param seed      the seed the settings gave, or {@code null}
     * @param sequence  true for tuners whose seed must not change from call to call: those that walk a
     *                  fixed sequence (grid, Sobol), which would otherwise start over on another
     *                  sequence, and CMA-ES, which rebuilds its generations from the trials and draws
     *                  member k of generation g from (seed, g, k), so that a rebuilt tuner goes on
     *                  with the next members of the generation instead of new random ones
     */
    record Recipe(String name, TunerProvider provider, Map<String, Object> arguments, Long seed, boolean sequence) {
        /**
         * Creates the tuner with the settings' class arguments plus {@code optimize_mode} and
         * {@code seed}. A plugin tuner that takes no {@code seed} (or not even {@code optimize_mode})
         * refuses them as unknown class arguments; it is then created without them (and is only as
         * reproducible as it makes itself).
         */
        Tuner create(OptimizeMode mode, long seed) {
            Map<String, Object> args = new LinkedHashMap<>(arguments);
            args.put("optimize_mode", mode == OptimizeMode.MAXIMIZE ? "maximize" : "minimize");
            args.put("seed", seed);
            InvalidClassArgumentException first = null;
            for (int attempt = 0; attempt < 3; attempt++) {
                try {
                    return provider.create(ClassArguments.of(args));
                } catch (InvalidClassArgumentException e) {
                    if (first == null) {
                        first = e;
                    }
                    String m = String.valueOf(e.getMessage());
                    String drop = attempt == 0 ? "seed" : "optimize_mode";
                    if (attempt == 2 || arguments.containsKey(drop) || !m.contains("'" + drop + "'")) {
                        throw KatibException.invalid("algorithm " + name + ": " + first.getMessage());
                    }
                    args.remove(drop);
                }
            }
            throw KatibException.invalid("algorithm " + name + ": " + first.getMessage());
        }
    }

    private final AlgorithmCatalog catalog;

    Algorithms(AlgorithmCatalog catalog) {
        this.catalog = catalog;
    }

    /** The names this service answers to: Katib's (with {@code hyperband}), then the Tunekit tuners'. */
    List<String> names() {
        List<String> out = new ArrayList<>(KATIB_NAMES.keySet());
        out.add(KatibHyperband.NAME);
        for (AlgorithmCatalog.Entry e : catalog.entries()) {
            if (e.kind() == AlgorithmKind.TUNER) {
                out.add(e.provider().name());
            }
        }
        return out;
    }

    /**
     * Resolves an algorithm name and its settings.
     *
     * @throws KatibException (INVALID_ARGUMENT) for an unknown name (listing the known ones), an
     *                        unknown setting (listing the known ones) or a bad value
     */
    Recipe resolve(String name, List<AlgorithmSetting> settings) {
        Map<String, String> given = new LinkedHashMap<>();
        for (AlgorithmSetting s : settings) {
            if (given.put(s.getName(), s.getValue()) != null) {
                throw KatibException.invalid("algorithm " + name + ": setting " + s.getName() + " is given twice");
            }
        }
        if (KATIB_NAMES.containsKey(name)) {
            List<String> known = KATIB_NAMES.get(name);
            for (String s : given.keySet()) {
                if (!known.contains(s)) {
                    throw KatibException.invalid("algorithm " + name + " has no setting " + s + "; its settings are: "
                            + (known.isEmpty() ? "(none)" : String.join(", ", known)));
                }
            }
            return katib(name, new Settings(name, given));
        }
        if (NOT_SERVED.contains(name)) {
            throw KatibException.invalid("Katib's algorithm " + name + " is not served by Tunekit's suggestion service; known algorithms: "
                    + String.join(", ", names()));
        }
        if (name.isBlank()) {
            throw KatibException.invalid("the experiment names no algorithm; known algorithms: " + String.join(", ", names()));
        }
        List<AlgorithmCatalog.Entry> matches = new ArrayList<>();
        for (AlgorithmCatalog.Entry e : catalog.entries()) {
            if (e.kind() == AlgorithmKind.TUNER && answers(e, name)) {
                matches.add(e);
            }
        }
        if (matches.isEmpty()) {
            for (AlgorithmCatalog.Entry e : catalog.entries()) {
                if (e.kind() != AlgorithmKind.TUNER && answers(e, name)) {
                    throw KatibException.invalid("algorithm " + name + " is a Tunekit " + e.kind().label()
                            + ", which this service cannot run as a Katib suggestion; known algorithms: " + String.join(", ", names()));
                }
            }
            throw KatibException.invalid("unknown algorithm " + name + "; known algorithms: " + String.join(", ", names()));
        }
        if (matches.size() > 1) {
            TreeSet<String> origins = new TreeSet<>();
            matches.forEach(e -> origins.add(e.provider().getClass().getName() + " from " + e.origin()));
            throw KatibException.invalid("algorithm " + name + " is ambiguous: it names " + String.join(", ", origins));
        }
        TunerProvider provider = (TunerProvider) matches.get(0).provider();
        Map<String, Object> args = new LinkedHashMap<>();
        Long seed = null;
        for (Map.Entry<String, String> e : given.entrySet()) {
            Object v = settingValue(e.getValue());
            switch (e.getKey()) {
                case "optimize_mode" -> throw KatibException.invalid("algorithm " + name
                        + ": setting optimize_mode is not taken; it follows the experiment's objective type");
                case "seed" -> seed = new Settings(name, given).longValue("seed");
                default -> args.put(e.getKey(), v);
            }
        }
        String n = provider.name().toLowerCase(Locale.ROOT);
        return new Recipe(name, provider, args, seed, n.equals("gridsearch") || n.equals("sobol") || n.equals("cmaes"));
    }

    private static boolean answers(AlgorithmCatalog.Entry e, String name) {
        return e.provider().name().equalsIgnoreCase(name) || e.provider().aliases().stream().anyMatch(a -> a.equalsIgnoreCase(name));
    }

    /** A setting's value: JSON where it is JSON, else the string itself. */
    static Object settingValue(String text) {
        String t = text.trim();
        if (t.isEmpty()) {
            return text;
        }
        char c = t.charAt(0);
        boolean jsonish = c == '{' || c == '[' || c == '"' || c == '-' || Character.isDigit(c)
                || t.equals("true") || t.equals("false") || t.equals("null");
        if (!jsonish) {
            return text;
        }
        try {
            JsonReader reader = new JsonReader(new StringReader(t));
            reader.setStrictness(Strictness.STRICT);
            return plain(JsonParser.parseReader(reader));
        } catch (JsonParseException | IllegalStateException | IllegalArgumentException e) {
            return text;
        }
    }

    private static Object plain(com.google.gson.JsonElement e) {
        if (e.isJsonNull()) {
            return null;
        }
        if (e.isJsonObject()) {
            Map<String, Object> m = new LinkedHashMap<>();
            e.getAsJsonObject().entrySet().forEach(x -> m.put(x.getKey(), plain(x.getValue())));
            return m;
        }
        if (e.isJsonArray()) {
            List<Object> l = new ArrayList<>();
            e.getAsJsonArray().forEach(x -> l.add(plain(x)));
            return l;
        }
        com.google.gson.JsonPrimitive p = e.getAsJsonPrimitive();
        if (p.isBoolean()) {
            return p.getAsBoolean();
        }
        if (p.isString()) {
            return p.getAsString();
        }
        java.math.BigDecimal b = p.getAsBigDecimal();
        if (b.stripTrailingZeros().scale() <= 0 && b.abs().compareTo(java.math.BigDecimal.valueOf(Long.MAX_VALUE)) <= 0) {
            return b.longValueExact();
        }
        return b.doubleValue();
    }

    // ----------------------------------------------------------------------------- Katib's names

    private Recipe katib(String name, Settings s) {
        Long seed = s.has("random_state") ? s.longValue("random_state") : s.has("seed") ? s.longValue("seed") : null;
        if (s.has("random_state") && s.has("seed") && !s.longValue("random_state").equals(s.longValue("seed"))) {
            throw KatibException.invalid("algorithm " + name + ": settings random_state and seed disagree");
        }
        Map<String, Object> args = new LinkedHashMap<>();
        switch (name) {
            case "random" -> {
                return new Recipe(name, tuner("Random"), args, seed, false);
            }
            case "grid" -> {
                return new Recipe(name, tuner("GridSearch"), args, seed, true);
            }
            case "sobol" -> {
                return new Recipe(name, tuner("Sobol"), args, seed, true);
            }
            case "tpe", "multivariate-tpe" -> {
                Map<String, Object> tpe = new LinkedHashMap<>();
                if (s.has("gamma")) {
                    tpe.put("gamma", s.doubleValue("gamma", 0, 1));
                }
                tpe.put("prior_weight", s.has("prior_weight") ? s.doubleValue("prior_weight", 0, Double.MAX_VALUE) : KATIB_TPE_PRIOR_WEIGHT);
                if (s.has("n_EI_candidates") && s.has("n_ei_candidates")) {
                    throw KatibException.invalid("algorithm " + name + ": give n_EI_candidates or n_ei_candidates, not both");
                }
                for (String k : List.of("n_EI_candidates", "n_ei_candidates")) {
                    if (s.has(k)) {
                        tpe.put("n_ei_candidates", s.intValue(k, 1));
                    }
                }
                // Katib's TPE draws its first 10 trials at random unless told otherwise
                tpe.put("n_startup_jobs", s.has("n_startup_trials") ? s.intValue("n_startup_trials", 0) : 10);
                tpe.put("bandwidth_factor", KATIB_TPE_BANDWIDTH_FACTOR);
                args.put("tpe_args", tpe);
                // both names draw whole parameter sets: over the budget comparison's 300 runs per objective
                // that beat drawing one parameter at a time on all four objectives (see KATIB_TPE_MULTIVARIATE)
                args.put("multivariate", KATIB_TPE_MULTIVARIATE);
                return new Recipe(name, tuner("TPE"), args, seed, false);
            }
            case "cmaes" -> {
                if (s.has("restart_strategy")) {
                    String r = s.text("restart_strategy");
                    switch (r) {
                        case "ipop" -> { }
                        case "None", "none" -> args.put("restarts", 0);
                        default -> throw KatibException.invalid("algorithm cmaes: restart_strategy \"" + r
                                + "\" is not supported; Tunekit's CMA-ES takes: ipop, None (bipop is not implemented)");
                    }
                }
                // Katib's experiments are short (its examples run 12 trials): without a sigma setting the
                // strategy starts with a small step, and with a small population set for the experiment's
                // number of parameters (forParameters), which adapt within a few generations
                // (bench/results/katib/budget.md); IPOP restarts still double the population
                args.put("sigma0", s.has("sigma") ? s.doubleValue("sigma", 0, 10) : KATIB_CMAES_SIGMA0);
                return new Recipe(name, tuner("CMAES"), args, seed, true);
            }
            case "bayesianoptimization" -> {
                String estimator = s.has("base_estimator") ? s.text("base_estimator") : "GP";
                String acq = s.has("acq_func") ? s.text("acq_func") : "gp_hedge";
                int initial = s.has("n_initial_points") ? s.intValue("n_initial_points", 1) : 10;
                switch (estimator) {
                    case "GP" -> {
                        String utility = switch (acq) {
                            case "gp_hedge", "EI" -> "ei";
                            case "PI" -> "poi";
                            case "LCB" -> "ucb";
                            default -> throw KatibException.invalid("algorithm bayesianoptimization: acq_func \"" + acq
                                    + "\" is not known; known: gp_hedge, EI, PI, LCB");
                        };
                        args.put("utility", utility);
                        args.put("cold_start_num", initial);
                        return new Recipe(name, tuner("GPTuner"), args, seed, false);
                    }
                    case "RF", "ET" -> {
                        if (!List.of("gp_hedge", "EI", "PI", "LCB").contains(acq)) {
                            throw KatibException.invalid("algorithm bayesianoptimization: acq_func \"" + acq
                                    + "\" is not known; known: gp_hedge, EI, PI, LCB");
                        }
                        args.put("n_startup_jobs", initial);
                        return new Recipe(name, tuner("SMAC"), args, seed, false);
                    }
                    default -> throw KatibException.invalid("algorithm bayesianoptimization: base_estimator \"" + estimator
                            + "\" is not supported; Tunekit takes: GP (a Gaussian process), RF and ET (a random forest, as SMAC)");
                }
            }
            default -> throw new IllegalStateException("no recipe for " + name);
        }
    }

    private TunerProvider tuner(String tunekitName) {
        // a built-in first: a plugin of the same name does not take over Katib's names
        TunerProvider found = null;
        for (AlgorithmCatalog.Entry e : catalog.entries()) {
            if (e.kind() == AlgorithmKind.TUNER && e.provider().name().equalsIgnoreCase(tunekitName)) {
                if (e.provider().getClass().getClassLoader() == Algorithms.class.getClassLoader()) {
                    return (TunerProvider) e.provider();
                }
                found = found == null ? (TunerProvider) e.provider() : found;
            }
        }
        if (found != null) {
            return found;
        }
        throw new KatibException(io.grpc.Status.Code.UNIMPLEMENTED,
                "Tunekit's " + tunekitName + " tuner is not on this service's class path");
    }

    /** Katib settings, read with messages that name the setting. */
    private record Settings(String algorithm, Map<String, String> values) {
        boolean has(String name) {
            return values.containsKey(name);
        }

        String text(String name) {
            return values.get(name).trim();
        }

        Long longValue(String name) {
            try {
                return Long.parseLong(text(name));
            } catch (NumberFormatException e) {
                throw KatibException.invalid("algorithm " + algorithm + ": setting " + name + " must be an integer, got \"" + values.get(name) + "\"");
            }
        }

        int intValue(String name, int min) {
            long v = longValue(name);
            if (v < min || v > Integer.MAX_VALUE) {
                throw KatibException.invalid("algorithm " + algorithm + ": setting " + name + " must be an integer of at least " + min
                        + ", got \"" + values.get(name) + "\"");
            }
            return (int) v;
        }

        double doubleValue(String name, double above, double atMost) {
            double v;
            try {
                v = Double.parseDouble(text(name));
            } catch (NumberFormatException e) {
                v = Double.NaN;
            }
            if (!(v > above && v <= atMost)) {
                throw KatibException.invalid("algorithm " + algorithm + ": setting " + name + " must be a number in (" + above + ", "
                        + (atMost == Double.MAX_VALUE ? "inf" : atMost) + "], got \"" + values.get(name) + "\"");
            }
            return v;
        }
    }
}
