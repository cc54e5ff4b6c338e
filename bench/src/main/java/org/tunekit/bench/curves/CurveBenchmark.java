package org.tunekit.bench.curves;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.tunekit.dispatcher.plugin.AlgorithmCatalog;
import org.tunekit.dispatcher.plugin.AlgorithmKind;
import org.tunekit.dispatcher.plugin.AlgorithmSpec;
import org.tunekit.sdk.Advisor;
import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Tuner;

/**
 * The learning-curve benchmark: every configuration runs once per seed through the real dispatcher
 * ({@link CurveExperiment}); the tuner configurations start a fixed number of trials, the advisors get a
 * fixed epoch budget (a fraction of what the tuner without early stopping spends). Writes
 * {@code runs.csv}, {@code trials.csv}, {@code summary.md} and {@code regret-vs-epochs.svg}.
 */
final class CurveBenchmark {

    /**
     * What to run.
     *
     * @param setups         the configurations (the baseline {@link CurveSetup#BASELINE} is needed for the comparisons)
     * @param tuner          the tuner of the non-advisor configurations, by catalog name
     * @param seeds          the seeds
     * @param trials         trials per run of a tuner configuration
     * @param concurrency    trial slots
     * @param advisorBudget  an advisor's epoch budget, as a fraction of {@code trials × 50}
     * @param threads        runs at a time
     * @param out            the output directory
     * @param includeIntermediateResults whether a trial an assessor stops reaches the tuner with its last
     *                       intermediate value as its result ({@code NNI_INCLUDE_INTERMEDIATE_RESULTS})
     * @param pace           how fast the suite's curves progress
     * @param perfectRungs   whether an advisor's trials that stop at a budget below the full one report their true final
     *                       value (a bound on what a better ranking of partial trials could reach, not a real run)
     */
    public record Config(List<CurveSetup> setups, String tuner, List<Long> seeds, int trials, int concurrency, double advisorBudget,
            int threads, Path out, boolean includeIntermediateResults, SuitePace pace, boolean perfectRungs) {
        /** Checks the numbers. */
        public Config {
            java.util.Objects.requireNonNull(pace, "pace");
            setups = List.copyOf(setups);
            seeds = List.copyOf(seeds);
            if (setups.isEmpty() || seeds.isEmpty()) {
                throw new IllegalArgumentException("at least one configuration and one seed are needed");
            }
            if (trials < 1 || concurrency < 1 || threads < 1) {
                throw new IllegalArgumentException("--trials, --concurrency and --threads must be at least 1, got " + trials + ", "
                        + concurrency + " and " + threads);
            }
            if (!(advisorBudget > 0 && advisorBudget <= 10)) {
                throw new IllegalArgumentException("--advisor-budget must be in (0, 10], got " + advisorBudget);
            }
        }

        /** A configuration on the late-settling suite in which stopped trials do not reach the tuner. */
        public Config(List<CurveSetup> setups, String tuner, List<Long> seeds, int trials, int concurrency, double advisorBudget,
                      int threads, Path out) {
            this(setups, tuner, seeds, trials, concurrency, advisorBudget, threads, out, false, SuitePace.LATE_SETTLING, false);
        }

        /** What the simulated trials are like. */
        CurveExperiment.Simulation simulation() {
            return new CurveExperiment.Simulation(pace, includeIntermediateResults, perfectRungs);
        }

        /** The epoch budget of an advisor run. */
        public long advisorEpochs() {
            return Math.max(1, Math.round(advisorBudget * trials * CurveSuite.EPOCHS));
        }
    }

    /** Creates the algorithms of a run. */
    public interface Plugins {
        /** The tuner {@code name} with these class arguments. */
        Tuner tuner(String name, Map<String, Object> arguments);

        /** The assessor {@code name} with these class arguments. */
        Assessor assessor(String name, Map<String, Object> arguments);

        /** The advisor {@code name} with these class arguments. */
        Advisor advisor(String name, Map<String, Object> arguments);

        /** True when an algorithm of this kind answers to {@code name}. */
        boolean has(AlgorithmKind kind, String name);
    }

    /**
     * What was done.
     *
     * @param runs    runs done
     * @param failed  runs that failed
     * @param skipped configurations left out because their algorithm is not in the catalog, with the reason
     * @param files   the files written
     * @param summary the summary's markdown
     */
    public record Outcome(int runs, int failed, List<String> skipped, List<Path> files, String summary) {}

    private CurveBenchmark() {}

    /** {@link Plugins} backed by the catalog. */
    public static Plugins catalogPlugins(AlgorithmCatalog catalog) {
        return new Plugins() {
            @Override
            public Tuner tuner(String name, Map<String, Object> arguments) {
                return catalog.create(spec(AlgorithmKind.TUNER, name, arguments), Tuner.class);
            }

            @Override
            public Assessor assessor(String name, Map<String, Object> arguments) {
                return catalog.create(spec(AlgorithmKind.ASSESSOR, name, arguments), Assessor.class);
            }

            @Override
            public Advisor advisor(String name, Map<String, Object> arguments) {
                return catalog.create(spec(AlgorithmKind.ADVISOR, name, arguments), Advisor.class);
            }

            @Override
            public boolean has(AlgorithmKind kind, String name) {
                return catalog.entries().stream().anyMatch(e -> e.kind() == kind && (e.provider().name().equalsIgnoreCase(name)
                        || e.provider().aliases().stream().anyMatch(a -> a.equalsIgnoreCase(name))));
            }
        };
    }

    private static AlgorithmSpec spec(AlgorithmKind kind, String name, Map<String, Object> arguments) {
        return new AlgorithmSpec(kind, name, null, null, ClassArguments.of(arguments));
    }

    /** The configurations whose algorithms are missing from {@code plugins}, each with a sentence saying so. */
    public static Map<CurveSetup, String> missing(Config config, Plugins plugins) {
        Map<CurveSetup, String> missing = new LinkedHashMap<>();
        for (CurveSetup s : config.setups()) {
            if (s.isAdvisor() && !plugins.has(AlgorithmKind.ADVISOR, s.advisor())) {
                missing.put(s, "advisor '" + s.advisor() + "' is not present (no built-in or plugin provides it): " + s.label() + " skipped");
            } else if (s.assessor() != null && !plugins.has(AlgorithmKind.ASSESSOR, s.assessor())) {
                missing.put(s, "assessor '" + s.assessor() + "' is not present: " + s.label() + " skipped");
            }
        }
        if (config.setups().stream().anyMatch(x -> !x.isAdvisor()) && !plugins.has(AlgorithmKind.TUNER, config.tuner())) {
            throw new IllegalArgumentException("tuner '" + config.tuner() + "' is not present");
        }
        return missing;
    }

    /**
     * Runs every configuration that is present once per seed and writes the outputs.
     *
     * @param progress where a line per finished configuration and seed batch goes
     */
    public static Outcome run(Config config, Plugins plugins, PrintWriter progress) throws IOException, InterruptedException {
        Map<CurveSetup, String> missing = missing(config, plugins);
        missing.values().forEach(m -> {
            progress.println("bench-curves: " + m);
            progress.flush();
        });
        List<CurveSetup> present = config.setups().stream().filter(s -> !missing.containsKey(s)).toList();
        List<CurveRun> runs = runAll(config, present, plugins, progress);
        Files.createDirectories(config.out());
        List<Path> files = new ArrayList<>();
        files.add(write(config.out().resolve("runs.csv"), CurveOutputs.runsCsv(runs)));
        files.add(write(config.out().resolve("trials.csv"), CurveOutputs.trialsCsv(runs)));
        String summary = CurveOutputs.summary(config, present, runs, List.copyOf(missing.values()));
        files.add(write(config.out().resolve("summary.md"), summary));
        files.add(write(config.out().resolve("regret-vs-epochs.svg"), CurveOutputs.plot(config, present, runs)));
        int failed = (int) runs.stream().filter(r -> !r.succeeded()).count();
        return new Outcome(runs.size(), failed, List.copyOf(missing.values()), files, summary);
    }

    /** Runs each present configuration once per seed, in (configuration, seed) order whatever the threads. */
    static List<CurveRun> runAll(Config config, List<CurveSetup> setups, Plugins plugins, PrintWriter progress)
            throws InterruptedException {
        ExecutorService pool = Executors.newFixedThreadPool(config.threads(), r -> {
            Thread t = new Thread(r, "bench-curves-run");
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<CurveRun>> futures = new ArrayList<>();
            for (CurveSetup s : setups) {
                for (long seed : config.seeds()) {
                    futures.add(pool.submit(() -> runOne(config, s, seed, plugins)));
                }
            }
            List<CurveRun> runs = new ArrayList<>();
            int done = 0;
            long start = System.nanoTime();
            for (Future<CurveRun> f : futures) {
                try {
                    runs.add(f.get());
                } catch (ExecutionException e) {
                    throw new IllegalStateException("a run failed unexpectedly", e.getCause());
                }
                done++;
                if (done % config.seeds().size() == 0 || done == futures.size()) {
                    CurveRun last = runs.get(runs.size() - 1);
                    progress.printf(Locale.ROOT, "bench-curves: %d/%d runs (%s done), %.0f s elapsed%n", done, futures.size(),
                            last.setup().label(), (System.nanoTime() - start) / 1e9);
                    progress.flush();
                }
            }
            return runs;
        } finally {
            pool.shutdownNow();
        }
    }

    /** One run; a failure of the algorithm or of the dispatcher is recorded, not thrown. */
    static CurveRun runOne(Config config, CurveSetup setup, long seed, Plugins plugins) throws InterruptedException {
        try {
            CurveExperiment.RunTrace trace;
            if (setup.isAdvisor()) {
                Map<String, Object> args = new LinkedHashMap<>();
                args.put("seed", seed);
                args.putAll(setup.arguments());
                args.values().removeIf(v -> v == null);
                Advisor advisor = plugins.advisor(setup.advisor(), args);
                trace = CurveExperiment.runAdvisor(advisor, seed,
                        new CurveExperiment.Limits(config.concurrency(), 0, config.advisorEpochs()), config.simulation());
            } else {
                Tuner tuner = plugins.tuner(config.tuner(), Map.of("optimize_mode", "minimize", "seed", seed));
                Assessor assessor = setup.assessor() == null ? null : plugins.assessor(setup.assessor(), setup.arguments());
                trace = CurveExperiment.runTuner(tuner, assessor, seed, new CurveExperiment.Limits(config.concurrency(), config.trials(), 0),
                        config.simulation());
            }
            return new CurveRun(setup, seed, trace, null);
        } catch (RuntimeException e) {
            return new CurveRun(setup, seed, null, String.valueOf(e.getMessage()).lines().findFirst().orElse(e.toString()));
        }
    }

    private static Path write(Path file, String content) throws IOException {
        Files.writeString(file, content, StandardCharsets.UTF_8);
        return file;
    }
}
