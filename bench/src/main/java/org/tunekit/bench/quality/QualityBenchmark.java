package org.tunekit.bench.quality;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.tunekit.demo.TestFunction;
import org.tunekit.dispatcher.plugin.AlgorithmCatalog;
import org.tunekit.dispatcher.plugin.AlgorithmKind;
import org.tunekit.dispatcher.plugin.AlgorithmSpec;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.SearchSpace;

/**
 * Runs the quality benchmark: every (tuner, function, mode, seed) run, several at a time, then
 * writes {@code regret.csv}, {@code runs.csv}, {@code summary.md} and one
 * {@code convergence-FUNCTION.svg} per function into the output directory.
 */
final class QualityBenchmark {
    /** The {@code reference} value that shows the committed copy of NNI's figures. */
    public static final String BUILT_IN_REFERENCE = "built-in";
    /** The {@code reference} value that shows no NNI figures. */
    public static final String NO_REFERENCE = "none";

    private QualityBenchmark() {}

    /** Creates the tuner of one run. */
    @FunctionalInterface
    public interface TunerFactory {
        /**
         * Creates a fresh tuner for one run.
         *
         * @param setup which tuner, with its extra class arguments
         * @param seed  the run's seed
         */
        Tuner create(TunerSetup setup, long seed);
    }

    /**
     * What to run.
     *
     * @param tuners    the tuners, in the order the outputs list them
     * @param functions the functions
     * @param modes     the modes
     * @param seeds     the seeds
     * @param trials    the budget of each run
     * @param threads   how many runs at a time
     * @param out       the output directory (created if missing)
     * @param reference {@link #BUILT_IN_REFERENCE}, {@link #NO_REFERENCE}, or the path of an anchors CSV
     */
    public record Config(List<TunerSetup> tuners, List<TestFunction> functions, List<Mode> modes, List<Long> seeds, int trials, int threads,
            Path out, String reference) {
        /**
         * Checks and copies the lists.
         *
         * @throws IllegalArgumentException naming the setting that is wrong
         */
        public Config {
            tuners = List.copyOf(tuners);
            functions = List.copyOf(functions);
            modes = List.copyOf(modes);
            seeds = List.copyOf(seeds);
            if (tuners.isEmpty() || functions.isEmpty() || modes.isEmpty() || seeds.isEmpty()) {
                throw new IllegalArgumentException("at least one tuner, function, mode and seed are needed");
            }
            if (trials < 1) {
                throw new IllegalArgumentException("trials must be at least 1, got " + trials);
            }
            if (threads < 1) {
                throw new IllegalArgumentException("threads must be at least 1, got " + threads);
            }
            Set<String> labels = new HashSet<>();
            for (TunerSetup t : tuners) {
                if (!labels.add(t.label())) {
                    throw new IllegalArgumentException("tuner label '" + t.label() + "' is given twice; write label=Name to tell them apart");
                }
            }
            if (seeds.size() != new HashSet<>(seeds).size()) {
                throw new IllegalArgumentException("a seed is given twice: " + seeds);
            }
        }

        /** How many runs. */
        public int runCount() {
            return tuners.size() * functions.size() * modes.size() * seeds.size();
        }
    }

    /**
     * What a benchmark did.
     *
     * @param runs   how many runs
     * @param failed how many of them failed
     * @param files  the files written
     */
    public record Outcome(int runs, int failed, List<Path> files) {
        /** Copies the list. */
        public Outcome {
            files = List.copyOf(files);
        }
    }

    /**
     * Tuners made by the algorithm catalog, by name, with class arguments {@code optimize_mode: minimize}
     * and {@code seed} under the setup's own.
     */
    public static TunerFactory catalogFactory(AlgorithmCatalog catalog) {
        return (setup, seed) -> {
            AlgorithmSpec spec = new AlgorithmSpec(AlgorithmKind.TUNER, setup.name(), null, null,
                    ClassArguments.of(setup.classArguments(seed)));
            synchronized (catalog) {
                return catalog.create(spec, Tuner.class);
            }
        };
    }

    /**
     * Creates each tuner once (with the first seed) so that an unknown name or a bad class argument
     * stops the benchmark before it starts.
     *
     * @throws IllegalArgumentException naming the tuner and the problem
     */
    public static void checkTuners(Config config, TunerFactory factory) {
        for (TunerSetup t : config.tuners()) {
            try {
                if (factory.create(t, config.seeds().get(0)) == null) {
                    throw new IllegalArgumentException("tuner '" + t.label() + "': its factory returned null");
                }
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(e.getMessage() == null ? e.toString() : e.getMessage(), e);
            }
        }
    }

    /**
     * Runs every run and writes the outputs.
     *
     * @param progress where progress lines go (standard error on the command line)
     */
    public static Outcome run(Config config, TunerFactory factory, PrintWriter progress) throws IOException, InterruptedException {
        Map<String, SearchSpace> spaces = new LinkedHashMap<>();
        for (TestFunction o : config.functions()) {
            spaces.put(o.name(), SearchSpace.parse(o.space()));
        }
        NniReference reference = reference(config.reference());
        List<RunKey> keys = new ArrayList<>();
        Map<String, TunerSetup> setups = new LinkedHashMap<>();
        Map<String, TestFunction> objectives = new LinkedHashMap<>();
        config.tuners().forEach(t -> setups.put(t.label(), t));
        config.functions().forEach(o -> objectives.put(o.name(), o));
        for (TunerSetup t : config.tuners()) {
            for (TestFunction o : config.functions()) {
                for (Mode m : config.modes()) {
                    for (long seed : config.seeds()) {
                        keys.add(new RunKey(t.label(), o.name(), m, seed));
                    }
                }
            }
        }
        progress.printf("bench: %d runs (%d tuner(s) x %d function(s) x %d mode(s) x %d seed(s)), %d trials each, %d at a time%n",
                keys.size(), config.tuners().size(), config.functions().size(), config.modes().size(), config.seeds().size(),
                config.trials(), config.threads());
        progress.flush();
        Progress counter = new Progress(progress, keys.size(), System::nanoTime);
        long start = System.nanoTime();
        List<RunResult> results = new ArrayList<>(keys.size());
        ExecutorService pool = Executors.newFixedThreadPool(config.threads(), r -> {
            Thread th = new Thread(r, "bench-run");
            th.setDaemon(true);
            return th;
        });
        try {
            List<Future<RunResult>> futures = new ArrayList<>(keys.size());
            for (RunKey key : keys) {
                futures.add(pool.submit(() -> {
                    RunResult r = runOne(key, setups.get(key.tuner()), objectives.get(key.function()), spaces.get(key.function()),
                            config.trials(), factory);
                    counter.runDone(r.succeeded());
                    return r;
                }));
            }
            for (Future<RunResult> f : futures) {
                try {
                    results.add(f.get());
                } catch (ExecutionException e) {
                    throw new IllegalStateException("a benchmark run failed outside its tuner: " + e.getCause(), e.getCause());
                }
            }
        } finally {
            pool.shutdownNow();
        }
        double wall = (System.nanoTime() - start) / 1e9;
        Results table = new Results(config.tuners().stream().map(TunerSetup::label).toList(),
                config.functions().stream().map(TestFunction::name).toList(), config.modes(), config.trials(), results);
        List<Path> files = write(table, reference, config.out(), config.reference(), config.seeds(), config.threads(), wall, environment());
        int failed = (int) results.stream().filter(r -> !r.succeeded()).count();
        for (String tuner : table.tuners()) {
            for (String function : table.functions()) {
                for (Mode mode : table.modes()) {
                    Map<String, Integer> failures = table.failures(tuner, function, mode);
                    int n = failures.values().stream().mapToInt(Integer::intValue).sum();
                    if (n > 0) {
                        progress.println("bench: " + tuner + " on " + function + " (" + mode.label() + "): " + n + " of "
                                + config.seeds().size() + " runs failed: " + failures.keySet().iterator().next());
                    }
                }
            }
        }
        progress.flush();
        return new Outcome(results.size(), failed, files);
    }

    /** Runs one run; a tuner that throws gives a failed run, not a failed benchmark. */
    static RunResult runOne(RunKey key, TunerSetup setup, TestFunction objective, SearchSpace space, int trials, TunerFactory factory) {
        try {
            Tuner tuner = factory.create(setup, key.seed());
            return RunDriver.run(key, tuner, objective, space, trials);
        } catch (RuntimeException | LinkageError | StackOverflowError | AssertionError e) {
            return RunResult.failed(key, describe(e), 0);
        }
    }

    private static String describe(Throwable e) {
        StringBuilder sb = new StringBuilder(e.toString());
        for (Throwable c = e.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
            sb.append(" <- ").append(c);
        }
        return sb.toString();
    }

    private static String environment() {
        return "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + "), "
                + Runtime.getRuntime().availableProcessors() + " processor(s), " + System.getProperty("os.name") + " "
                + System.getProperty("os.arch") + "; finished " + java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
    }

    private static String builtInSource() throws IOException {
        StringBuilder sb = new StringBuilder("`bench/reference/" + NniReference.ANCHORS + "`");
        for (String extra : NniReference.builtInExtras()) {
            sb.append(", `bench/reference/").append(extra).append(".csv`");
        }
        return sb.toString();
    }

    private static final java.util.regex.Pattern RUN_LINE = java.util.regex.Pattern.compile("(\\d+) run\\(s\\) at a time, ([^ ]+) s in all\\.");
    private static final String MACHINE = "Machine: ";

    /**
     * Writes {@code summary.md} and the plots of a finished benchmark again from its
     * {@code regret.csv} and {@code runs.csv}, with the given reference figures: for figures
     * committed after the runs. The runs at a time, wall time and machine line are kept from the
     * old {@code summary.md} when it has them.
     *
     * @throws IOException naming the file and line that cannot be read
     */
    static Outcome resummarise(Path dir, String referenceOption) throws IOException {
        NniReference reference = reference(referenceOption);
        Results table = ResultsCsv.read(dir.resolve("regret.csv"), dir.resolve("runs.csv"));
        int threads = 0;
        double wall = Double.NaN;
        String environment = "";
        Path old = dir.resolve("summary.md");
        if (Files.isRegularFile(old)) {
            for (String line : Files.readAllLines(old, StandardCharsets.UTF_8)) {
                java.util.regex.Matcher m = RUN_LINE.matcher(line);
                if (m.find()) {
                    threads = Integer.parseInt(m.group(1));
                    wall = Double.parseDouble(m.group(2));
                }
                if (line.startsWith(MACHINE) && line.endsWith(".")) {
                    environment = line.substring(MACHINE.length(), line.length() - 1);
                }
            }
        }
        List<Long> seeds = table.runs().stream().map(r -> r.key().seed()).distinct().sorted().toList();
        List<Path> files = writeSummary(table, reference, dir, referenceOption, seeds, threads, wall, environment);
        int failed = (int) table.runs().stream().filter(r -> !r.succeeded()).count();
        return new Outcome(table.runs().size(), failed, files);
    }

    static NniReference reference(String option) throws IOException {
        if (option == null || option.equals(BUILT_IN_REFERENCE)) {
            return NniReference.builtIn();
        }
        if (option.equals(NO_REFERENCE)) {
            return NniReference.none();
        }
        return NniReference.load(Path.of(option));
    }

    private static List<Path> write(Results table, NniReference reference, Path out, String referenceOption, List<Long> seeds, int threads,
            double wall, String environment) throws IOException {
        Files.createDirectories(out);
        List<Path> files = new ArrayList<>();
        Path regret = out.resolve("regret.csv");
        try (Writer w = Files.newBufferedWriter(regret, StandardCharsets.UTF_8)) {
            CsvWriters.writeRegret(table, w);
        }
        files.add(regret);
        Path runs = out.resolve("runs.csv");
        try (Writer w = Files.newBufferedWriter(runs, StandardCharsets.UTF_8)) {
            CsvWriters.writeRuns(table, w);
        }
        files.add(runs);
        files.addAll(writeSummary(table, reference, out, referenceOption, seeds, threads, wall, environment));
        return files;
    }

    /** Writes {@code summary.md} and the convergence plots of {@code table}; returns the files. */
    private static List<Path> writeSummary(Results table, NniReference reference, Path out, String referenceOption, List<Long> seeds,
            int threads, double wall, String environment) throws IOException {
        List<Path> files = new ArrayList<>();
        List<String> plots = new ArrayList<>();
        for (String function : table.functions()) {
            Path svg = out.resolve(ConvergencePlots.fileName(function));
            Files.writeString(svg, ConvergencePlots.render(table, reference, function), StandardCharsets.UTF_8);
            files.add(svg);
            plots.add(svg.getFileName().toString());
        }
        String source = reference.anchors().isEmpty() ? null
                : referenceOption == null || referenceOption.equals(BUILT_IN_REFERENCE) ? builtInSource()
                : "`" + referenceOption + "`";
        Path summary = out.resolve("summary.md");
        Files.writeString(summary, SummaryMarkdown.render(table, reference,
                new SummaryMarkdown.RunInfo(seeds, threads, wall, source, plots, environment)), StandardCharsets.UTF_8);
        files.add(summary);
        return files;
    }
}
