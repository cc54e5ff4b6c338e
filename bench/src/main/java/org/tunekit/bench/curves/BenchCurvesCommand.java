package org.tunekit.bench.curves;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.tunekit.bench.quality.BenchCommand;
import org.tunekit.dispatcher.cli.LoggingSetup;
import org.tunekit.dispatcher.plugin.AlgorithmCatalog;
import org.tunekit.dispatcher.plugin.PluginConfigurationException;
import org.tunekit.dispatcher.plugin.PluginPath;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tunekit-bench bench-curves}: the early-stopping benchmark of assessors and advisors on synthetic learning curves. */
@Command(name = "bench-curves", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run the learning-curve benchmark: synthetic trials report one value per epoch for 50 epochs, through the real "
                + "dispatcher in-process, with a manager of --concurrency trial slots that honours KI. Compares the tuner without early "
                + "stopping against the tuner with each assessor, and the advisors (given a fixed epoch budget) when present. Writes "
                + "runs.csv, trials.csv, summary.md (median [Q1, Q3] of epochs spent, as %% of no early stopping, and of regret) and "
                + "regret-vs-epochs.svg.",
            "Progress goes to standard error."})
public final class BenchCurvesCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--configs", split = ",", paramLabel = "NAME",
            description = "Configurations: none (no early stopping), Medianstop, Curvefitting, SuccessiveHalving, Percentile, Patience, "
                    + "Hyperband, BOHB, each optionally as NAME@EPOCH to start judging after EPOCH epochs, or NAME@auto (default: all, plus the "
                    + "--first-judgements variants; advisors that are not present are skipped with a note).")
    List<String> configs = new ArrayList<>();

    @Option(names = "--first-judgements", split = ",", paramLabel = "EPOCH",
            description = "Without --configs, also run each algorithm that has an argument for where it starts judging (start_step, "
                    + "min_resource, n_warmup_steps, min_budget) with that argument at each of these epochs, or 'auto' where the "
                    + "algorithm can find it itself, labelled NAME@EPOCH (default: ${DEFAULT-VALUE}).")
    List<String> firstJudgements = new ArrayList<>(List.of("auto", "10", "15", "20"));

    @Option(names = "--config-args", paramLabel = "LABEL=JSON",
            description = "Class arguments of one configuration's assessor or advisor over its defaults, as a JSON object (a null value "
                    + "removes one), e.g. 'Hyperband={\"R\": 60}'. Repeatable.")
    List<String> configArgs = new ArrayList<>();

    @Option(names = "--tuner", description = "The tuner of the non-advisor configurations (default: ${DEFAULT-VALUE}).")
    String tuner = "Random";

    @Option(names = "--seeds", paramLabel = "SEEDS", description = "Seeds: A..B (inclusive) or a comma list (default: ${DEFAULT-VALUE}).")
    String seeds = "0..199";

    @Option(names = "--trials", description = "Trials per run of a tuner configuration (default: ${DEFAULT-VALUE}).")
    int trials = 100;

    @Option(names = "--advisor-budget", paramLabel = "FRACTION",
            description = "An advisor's epoch budget as a fraction of trials x 50, what no early stopping spends (default: ${DEFAULT-VALUE}).")
    double advisorBudget = 0.5;

    @Option(names = "--include-intermediate-results",
            description = "Give the tuner a stopped trial's last intermediate value as its result, as NNI_INCLUDE_INTERMEDIATE_RESULTS=true "
                    + "does (default: stopped trials do not reach the tuner).")
    boolean includeIntermediateResults;

    @Option(names = "--suite", paramLabel = "PACE",
            description = "How fast the suite's curves progress: late-settling (slow starters overtake up to 30 epochs in; rank "
                    + "correlation with the final value 0.42 after 10 epochs) or early-settling (every time constant x 0.3; 0.76 after "
                    + "5 epochs). Final values are the same (default: ${DEFAULT-VALUE}).")
    String suite = SuitePace.LATE_SETTLING.label();

    @Option(names = "--perfect-rungs",
            description = "Analysis, not a real run: an advisor's trial that stops at a budget below 50 epochs reports its true final "
                    + "value, so every rung is ranked as with full knowledge (the bound of what a better ranking of partial trials "
                    + "could reach).")
    boolean perfectRungs;

    @Option(names = "--concurrency", description = "Trial slots of the manager (default: ${DEFAULT-VALUE}).")
    int concurrency = 4;

    @Option(names = "--threads", description = "Runs at a time (default: the number of processors, ${DEFAULT-VALUE} here).")
    int threads = Runtime.getRuntime().availableProcessors();

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: ${DEFAULT-VALUE}).")
    Path out = Path.of("bench", "results", "curves");

    @Option(names = "--plugins", paramLabel = "DIR", description = "Also look for algorithms in this plugin directory. Repeatable.")
    List<Path> plugins = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        LoggingSetup.configure(System.getenv(), "warn");
        var err = spec.commandLine().getErr();
        var stdout = spec.commandLine().getOut();
        CurveBenchmark.Config config;
        CurveBenchmark.Plugins found;
        try {
            AlgorithmCatalog catalog = AlgorithmCatalog.discover(PluginPath.directories(plugins, System.getenv()));
            found = CurveBenchmark.catalogPlugins(catalog);
            config = config();
            CurveBenchmark.missing(config, found);
        } catch (IllegalArgumentException | PluginConfigurationException e) {
            err.println("tunekit-bench bench-curves: " + e.getMessage());
            return 2;
        }
        CurveBenchmark.Outcome outcome;
        try {
            outcome = CurveBenchmark.run(config, found, err);
        } catch (IOException e) {
            err.println("tunekit-bench bench-curves: " + e.getMessage());
            return 1;
        }
        stdout.print(outcome.summary());
        stdout.printf("%n%d runs, %d failed; wrote:%n", outcome.runs(), outcome.failed());
        outcome.files().forEach(f -> stdout.println("  " + f));
        outcome.skipped().forEach(m -> stdout.println("note: " + m));
        stdout.flush();
        return outcome.runs() > 0 && outcome.failed() == outcome.runs() ? 1 : 0;
    }

    CurveBenchmark.Config config() {
        List<CurveSetup> setups = new ArrayList<>();
        if (configs.isEmpty()) {
            setups.addAll(CurveSetup.presets());
            for (String when : firstJudgements) {
                // a variant with the preset's own setting (SuccessiveHalving@auto) would only repeat it
                CurveSetup.presets().forEach(p -> p.judgingFrom(when).filter(v -> !v.arguments().equals(p.arguments()))
                        .ifPresent(setups::add));
            }
        } else {
            configs.stream().map(String::trim).distinct().forEach(c -> setups.add(CurveSetup.preset(c)));
        }
        Map<String, Map<String, Object>> extra = BenchCommand.labelledArguments(configArgs, "--config-args");
        for (String label : extra.keySet()) {
            if (setups.stream().noneMatch(s -> s.label().equalsIgnoreCase(label))) {
                throw new IllegalArgumentException("--config-args names configuration '" + label + "', which is not among "
                        + setups.stream().map(CurveSetup::label).toList());
            }
        }
        setups.replaceAll(s -> extra.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(s.label())).findFirst()
                .map(e -> s.withArguments(e.getValue())).orElse(s));
        return new CurveBenchmark.Config(setups, tuner, BenchCommand.parseSeeds(seeds), trials, concurrency, advisorBudget, threads, out,
                includeIntermediateResults, SuitePace.parse(suite), perfectRungs);
    }
}
