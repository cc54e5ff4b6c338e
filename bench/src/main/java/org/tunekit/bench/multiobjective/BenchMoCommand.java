package org.tunekit.bench.multiobjective;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.tunekit.bench.quality.BenchCommand;
import org.tunekit.dispatcher.cli.LoggingSetup;
import org.tunekit.dispatcher.plugin.AlgorithmCatalog;
import org.tunekit.dispatcher.plugin.AlgorithmKind;
import org.tunekit.dispatcher.plugin.AlgorithmSpec;
import org.tunekit.dispatcher.plugin.PluginConfigurationException;
import org.tunekit.dispatcher.plugin.PluginPath;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Tuner;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tunekit-bench bench-mo}: the multi-objective benchmark. */
@Command(name = "bench-mo", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run the multi-objective benchmark: each tuner minimises each problem's objectives (ZDT1, ZDT2, ZDT3, DTLZ2 with "
                + "3 and with 4 objectives, a mixed discrete/continuous problem) for a fixed budget, once per seed and mode, driven in-process. "
                + "Writes hypervolume.csv (normalised hypervolume every 10 trials), runs.csv (tuner time per run), summary.md "
                + "(median [Q1, Q3] after 100 and 200 trials) and hv-PROBLEM.svg.",
            "Progress goes to standard error."})
public final class BenchMoCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--tuners", split = ",", paramLabel = "NAME",
            description = "Tuners by catalog name; LABEL=NAME runs NAME under another label (default: ${DEFAULT-VALUE}).")
    List<String> tuners = new ArrayList<>(List.of("MOTPE", "NSGA2", "Random", "Sobol"));

    @Option(names = "--tuner-args", paramLabel = "LABEL=JSON",
            description = "Extra class arguments of one tuner as a JSON object, over objectives and seed. Repeatable.")
    List<String> tunerArgs = new ArrayList<>();

    @Option(names = "--problems", split = ",", paramLabel = "NAME", description = "Problems (default: every one: zdt1,zdt2,zdt3,dtlz2,dtlz2-4,mixed).")
    List<String> problems = new ArrayList<>();

    @Option(names = "--modes", split = ",", paramLabel = "MODE",
            description = "sequential (1 parameter set per request) and/or batch (8 per request) (default: sequential,batch).")
    List<String> modes = new ArrayList<>(List.of("sequential", "batch"));

    @Option(names = "--seeds", paramLabel = "SEEDS", description = "Seeds: A..B (inclusive) or a comma list (default: ${DEFAULT-VALUE}).")
    String seeds = "0..29";

    @Option(names = "--trials", description = "Trials per run, a multiple of 10 (default: ${DEFAULT-VALUE}).")
    int trials = 200;

    @Option(names = "--threads", description = "Runs at a time (default: ${DEFAULT-VALUE}).")
    int threads = 1;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: ${DEFAULT-VALUE}).")
    Path out = Path.of("bench", "results", "multiobjective");

    @Override
    public Integer call() throws Exception {
        LoggingSetup.configure(System.getenv(), "warn");
        var err = spec.commandLine().getErr();
        var stdout = spec.commandLine().getOut();
        AlgorithmCatalog catalog;
        MultiObjectiveBenchmark.Config config;
        try {
            catalog = AlgorithmCatalog.discover(PluginPath.directories(List.of(), System.getenv()));
            config = config();
        } catch (IllegalArgumentException | PluginConfigurationException e) {
            err.println("tunekit-bench bench-mo: " + e.getMessage());
            return 2;
        }
        MultiObjectiveBenchmark.TunerFactory factory = (name, args) -> {
            synchronized (catalog) {
                return catalog.create(new AlgorithmSpec(AlgorithmKind.TUNER, name, null, null, ClassArguments.of(args)), Tuner.class);
            }
        };
        // an unknown tuner or a bad argument stops the benchmark before it starts
        for (Map.Entry<String, String> t : config.tuners().entrySet()) {
            try {
                factory.apply(t.getValue(), MultiObjectiveBenchmark.arguments(config.problems().get(0), config.seeds().get(0),
                        config.extra().getOrDefault(t.getKey(), Map.of())));
            } catch (RuntimeException e) {
                err.println("tunekit-bench bench-mo: tuner " + t.getKey() + ": " + e.getMessage());
                return 2;
            }
        }
        List<Path> files = MultiObjectiveBenchmark.runAll(config, factory, err);
        stdout.println("wrote:");
        files.forEach(f -> stdout.println("  " + f));
        stdout.flush();
        return 0;
    }

    MultiObjectiveBenchmark.Config config() {
        Map<String, String> labels = new LinkedHashMap<>();
        for (String t : tuners) {
            int eq = t.indexOf('=');
            labels.put(eq < 0 ? t.trim() : t.substring(0, eq).trim(), eq < 0 ? t.trim() : t.substring(eq + 1).trim());
        }
        Map<String, Map<String, Object>> extra = BenchCommand.labelledArguments(tunerArgs, "--tuner-args");
        for (String label : extra.keySet()) {
            if (!labels.containsKey(label)) {
                throw new IllegalArgumentException("--tuner-args names tuner '" + label + "', which is not among the tuners " + labels.keySet());
            }
        }
        Map<String, Problem> all = Problems.all();
        List<Problem> chosen = new ArrayList<>();
        for (String p : problems.isEmpty() ? List.copyOf(all.keySet()) : problems) {
            Problem problem = all.get(p.trim());
            if (problem == null) {
                throw new IllegalArgumentException("unknown problem '" + p + "'; available: " + String.join(", ", all.keySet()));
            }
            chosen.add(problem);
        }
        List<Integer> batches = new ArrayList<>();
        for (String m : modes) {
            switch (m.trim()) {
                case "sequential" -> batches.add(1);
                case "batch" -> batches.add(8);
                default -> throw new IllegalArgumentException("--modes: unknown mode '" + m + "'; known: sequential, batch");
            }
        }
        if (trials < 10 || trials % MultiObjectiveBenchmark.EVERY != 0) {
            throw new IllegalArgumentException("--trials must be a positive multiple of 10, got " + trials);
        }
        if (threads < 1) {
            throw new IllegalArgumentException("--threads must be at least 1, got " + threads);
        }
        return new MultiObjectiveBenchmark.Config(labels, extra, chosen, batches, BenchCommand.parseSeeds(seeds), trials, threads, out);
    }
}
