package org.tunekit.bench.quality;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.tunekit.demo.TestFunction;
import org.tunekit.dispatcher.cli.LoggingSetup;
import org.tunekit.dispatcher.plugin.AlgorithmCatalog;
import org.tunekit.dispatcher.plugin.AlgorithmKind;
import org.tunekit.dispatcher.plugin.PluginConfigurationException;
import org.tunekit.dispatcher.plugin.PluginPath;
import org.tunekit.dispatcher.protocol.JsonCodec;
import org.tunekit.dispatcher.protocol.ProtocolException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tunekit-bench bench}: the quality benchmark of the tuners on the HPO suite. */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run the quality benchmark: each tuner minimises each function of the HPO suite for a fixed budget, "
                + "once per seed and mode, driven in-process the way the dispatcher drives it. Writes regret.csv (best-so-far "
                + "regret per trial), runs.csv (tuner time per run), summary.md (median [Q1, Q3] regret after 25/50/100 trials "
                + "beside NNI's figures) and convergence-FUNCTION.svg.",
            "Progress goes to standard error."})
public final class BenchCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--tuners", split = ",", paramLabel = "NAME",
            description = "Tuners to run, by catalog name (built-in or from --plugins); LABEL=NAME runs NAME under another label. "
                    + "Default: every tuner found that runs on optimize_mode and seed alone (not the multi-objective ones: see bench-mo).")
    List<String> tuners = new ArrayList<>();

    @Option(names = "--tuner-args", paramLabel = "LABEL=JSON",
            description = "Extra class arguments of one tuner as a JSON object, over optimize_mode=minimize and seed=the run's seed "
                    + "(a null value removes one of those), e.g. 'TPE={\"constant_liar_type\": \"worst\"}'. Repeatable.")
    List<String> tunerArgs = new ArrayList<>();

    @Option(names = "--functions", split = ",", paramLabel = "NAME",
            description = "Functions, by name from either suite (default: those of --suite).")
    List<String> functions = new ArrayList<>();

    @Option(names = "--suite", paramLabel = "SUITE",
            description = "The functions run when --functions is not given: classic (branin,hartmann6,ackley5,mixed,nested), "
                    + "highdim (rosenbrock8,ackley10,styblinski10,rastrigin10,schwefel10,levy20), all (both), or bayesmark (scikit-learn models "
                    + "on real data, MODEL-DATASET-METRIC such as RF-wine-nll: bench/realmodels/problems.py, Debian's python3-sklearn) "
                    + "(default: ${DEFAULT-VALUE}).")
    String suite = "classic";

    @Option(names = "--modes", split = ",", paramLabel = "MODE",
            description = "sequential (1 parameter set per request) and/or batch (8 per request) (default: sequential,batch).")
    List<String> modes = new ArrayList<>(List.of("sequential", "batch"));

    @Option(names = "--seeds", paramLabel = "SEEDS", description = "Seeds: A..B (inclusive) or a comma list of numbers and ranges (default: ${DEFAULT-VALUE}).")
    String seeds = "0..29";

    @Option(names = "--trials", description = "Trials per run (default: ${DEFAULT-VALUE}).")
    int trials = 100;

    @Option(names = "--threads", description = "Runs at a time (default: the number of processors, ${DEFAULT-VALUE} here).")
    int threads = Runtime.getRuntime().availableProcessors();

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: ${DEFAULT-VALUE}).")
    Path out = Path.of("bench", "results", "quality");

    @Option(names = "--reference", paramLabel = "CSV",
            description = "Other libraries' figures to show beside Tunekit's: 'built-in' (the committed bench/reference/nni-anchors.csv, "
                    + "nni-highdim.csv and optuna-highdim.csv), "
                    + "'none', or an anchors CSV of the same form (nni-tuner-time.csv beside it is read too) (default: ${DEFAULT-VALUE}).")
    String reference = QualityBenchmark.BUILT_IN_REFERENCE;

    @Option(names = "--plugins", paramLabel = "DIR", description = "Also look for tuners in this plugin directory. Repeatable.")
    List<Path> plugins = new ArrayList<>();

    @Option(names = "--summarise", paramLabel = "DIR",
            description = "Run nothing: write summary.md and the plots of the benchmark in DIR again from its regret.csv and runs.csv, "
                    + "with the figures of --reference (for reference figures committed after the runs).")
    Path summarise;

    @Override
    public Integer call() throws Exception {
        LoggingSetup.configure(System.getenv(), "warn");
        var err = spec.commandLine().getErr();
        var out = spec.commandLine().getOut();
        if (summarise != null) {
            try {
                QualityBenchmark.Outcome o = QualityBenchmark.resummarise(summarise, reference);
                out.printf("%d runs read; wrote:%n", o.runs());
                o.files().forEach(f -> out.println("  " + f));
                out.flush();
                return 0;
            } catch (IOException e) {
                err.println("tunekit-bench bench: " + e.getMessage());
                return 1;
            }
        }
        AlgorithmCatalog catalog;
        QualityBenchmark.Config config;
        try {
            catalog = AlgorithmCatalog.discover(PluginPath.directories(plugins, System.getenv()));
            config = config(catalog);
        } catch (IllegalArgumentException | PluginConfigurationException e) {
            err.println("tunekit-bench bench: " + e.getMessage());
            return 2;
        }
        QualityBenchmark.TunerFactory factory = QualityBenchmark.catalogFactory(catalog);
        try {
            QualityBenchmark.checkTuners(config, factory);
        } catch (IllegalArgumentException e) {
            err.println("tunekit-bench bench: " + e.getMessage());
            return 2;
        }
        QualityBenchmark.Outcome outcome;
        try {
            outcome = QualityBenchmark.run(config, factory, err);
        } catch (IOException e) {
            err.println("tunekit-bench bench: " + e.getMessage());
            return 1;
        }
        out.printf("%d runs, %d failed; wrote:%n", outcome.runs(), outcome.failed());
        outcome.files().forEach(f -> out.println("  " + f));
        out.flush();
        return outcome.failed() == outcome.runs() ? 1 : 0;
    }

    QualityBenchmark.Config config(AlgorithmCatalog catalog) {
        List<TunerSetup> setups = new ArrayList<>();
        if (tuners.isEmpty()) {
            // a tuner that needs more than optimize_mode and seed (MOTPE's and NSGA2's objectives) is not a default
            catalog.entries().stream().filter(e -> e.kind() == AlgorithmKind.TUNER && runsOnDefaults(e))
                    .forEach(e -> setups.add(TunerSetup.parse(e.provider().name())));
            if (setups.isEmpty()) {
                throw new IllegalArgumentException("no tuner found; name one with --tuners or add a plugin directory with --plugins");
            }
        } else {
            tuners.forEach(t -> setups.add(TunerSetup.parse(t)));
        }
        Map<String, Map<String, Object>> extra = tunerArguments(tunerArgs);
        for (String label : extra.keySet()) {
            if (setups.stream().noneMatch(s -> s.label().equals(label))) {
                throw new IllegalArgumentException("--tuner-args names tuner '" + label + "', which is not among the tuners "
                        + setups.stream().map(TunerSetup::label).toList());
            }
        }
        setups.replaceAll(s -> extra.containsKey(s.label()) ? s.withArguments(extra.get(s.label())) : s);
        Map<String, TestFunction> all = Suite.everything();
        if ("bayesmark".equals(suite.trim()) || functions.stream().anyMatch(f -> f.chars().filter(c -> c == '-').count() >= 2)) {
            all.putAll(RealModels.all());
        }
        List<TestFunction> objectives = new ArrayList<>();
        for (String f : functions.isEmpty() ? List.copyOf(suite(suite).keySet()) : functions.stream().map(String::trim).distinct().toList()) {
            TestFunction o = all.get(f.trim());
            if (o == null) {
                throw new IllegalArgumentException("unknown function '" + f + "'; available: " + String.join(", ", all.keySet()));
            }
            objectives.add(o);
        }
        List<Mode> modeList = modes.stream().map(Mode::parse).distinct().toList();
        return new QualityBenchmark.Config(setups, objectives, modeList, parseSeeds(seeds), trials, threads, out, reference);
    }

    private static boolean runsOnDefaults(AlgorithmCatalog.Entry e) {
        try {
            ((org.tunekit.sdk.spi.TunerProvider) e.provider()).create(org.tunekit.sdk.ClassArguments.of(Map.of("optimize_mode", "minimize", "seed", 0)));
            return true;
        } catch (RuntimeException | LinkageError x) {
            return false;
        }
    }

    /** The functions of a {@code --suite} name. */
    static Map<String, TestFunction> suite(String name) {
        return switch (name.trim()) {
            case "classic" -> Suite.classic();
            case "highdim" -> Suite.highDimensional();
            case "all" -> Suite.everything();
            case "bayesmark" -> RealModels.all();
            default -> throw new IllegalArgumentException("unknown --suite '" + name + "'; available: classic, highdim, all, bayesmark");
        };
    }

    /** Reads {@code LABEL=JSON} entries of {@code --tuner-args}. */
    static Map<String, Map<String, Object>> tunerArguments(List<String> entries) {
        return labelledArguments(entries, "--tuner-args");
    }

    /** Reads {@code LABEL=JSON} entries of the option {@code option}, naming it in errors. */
    public static Map<String, Map<String, Object>> labelledArguments(List<String> entries, String option) {
        Map<String, Map<String, Object>> m = new LinkedHashMap<>();
        for (String entry : entries) {
            int eq = entry.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException(option + " must be LABEL=JSON, got '" + entry + "'");
            }
            String label = entry.substring(0, eq).trim();
            m.computeIfAbsent(label, k -> new LinkedHashMap<>()).putAll(jsonObject(entry.substring(eq + 1), option + " of " + label));
        }
        return m;
    }

    /** Reads a JSON object of class arguments; {@code what} names it in errors. */
    public static Map<String, Object> jsonObject(String json, String what) {
        Object parsed;
        try {
            parsed = JsonCodec.parse(json, what);
        } catch (ProtocolException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        if (!(parsed instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException(what + " must be a JSON object, got " + json);
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> args = (Map<String, Object>) map;
        return args;
    }

    /** Reads {@code 0..29}, {@code 3}, or a comma list of those. */
    public static List<Long> parseSeeds(String text) {
        List<Long> out = new ArrayList<>();
        for (String part : text.split(",")) {
            String p = part.trim();
            try {
                int range = p.indexOf("..");
                if (range >= 0) {
                    long a = Long.parseLong(p.substring(0, range).trim());
                    long b = Long.parseLong(p.substring(range + 2).trim());
                    if (b < a || b - a > 1_000_000) {
                        throw new IllegalArgumentException("--seeds range '" + p + "' must go upwards and hold at most a million seeds");
                    }
                    for (long s = a; s <= b; s++) {
                        out.add(s);
                    }
                } else {
                    out.add(Long.parseLong(p));
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--seeds: '" + p + "' is not a number or a range A..B");
            }
        }
        return out;
    }
}
