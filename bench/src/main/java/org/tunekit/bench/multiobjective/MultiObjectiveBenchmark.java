package org.tunekit.bench.multiobjective;

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
import java.util.function.BiFunction;
import org.tunekit.bench.quality.Numbers;
import org.tunekit.bench.quality.Quantiles;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.internal.TrialRequests;
import org.tunekit.sdk.objectives.Hypervolume;

/**
 * Runs every tuner on every problem, once per seed and mode, in process and the way the dispatcher
 * drives a tuner (a batch of suggestions asked by the dispatcher's rule, {@link TrialRequests}, then
 * their results and ends), and measures the
 * hypervolume of all results so far every {@value #EVERY} trials, divided by the true front's.
 */
final class MultiObjectiveBenchmark {
    static final int EVERY = 10;
    /** The tuners that are baselines, not compared with Random in the summary's checks. */
    static final java.util.Set<String> BASELINES = java.util.Set.of("Random", "Sobol");
    /** The trial counts the summary reports. */
    static final List<Integer> REPORTED = List.of(100, 200);

    /**
     * What to run.
     *
     * @param tuners   label to tuner name
     * @param extra    label to extra class arguments (over objectives and seed)
     * @param problems the problems
     * @param batches  the batch sizes (1: sequential)
     * @param seeds    the seeds
     * @param trials   trials per run, a multiple of {@value #EVERY}
     * @param threads  runs at a time
     * @param out      the output folder
     */
    record Config(Map<String, String> tuners, Map<String, Map<String, Object>> extra, List<Problem> problems, List<Integer> batches,
                  List<Long> seeds, int trials, int threads, Path out) {}

    /** One run's result: the normalised hypervolume after EVERY, 2 EVERY, ... trials, and the tuner's time. */
    record Run(String problem, String tuner, int batch, long seed, double[] hv, double tunerSeconds, String error) {}

    /** Creates a tuner by name with the given class arguments. */
    interface TunerFactory extends BiFunction<String, Map<String, Object>, Tuner> {}

    static Map<String, Object> arguments(Problem p, long seed, Map<String, Object> extra) {
        Map<String, Object> args = new LinkedHashMap<>();
        List<Object> objectives = new ArrayList<>();
        for (String m : p.metrics()) {
            objectives.add(Map.of("metric", m, "mode", "minimize"));
        }
        args.put("objectives", objectives);
        args.put("seed", seed);
        args.putAll(extra);
        args.values().removeIf(java.util.Objects::isNull);
        return args;
    }

    /** Drives one tuner through one run. */
    static Run run(Problem p, String label, Tuner tuner, int batch, long seed, int trials) {
        long tunerNanos = 0;
        double[] hv = new double[trials / EVERY];
        List<double[]> results = new ArrayList<>();
        long t0 = System.nanoTime();
        tuner.updateSearchSpace(p.space());
        tunerNanos += System.nanoTime() - t0;
        long[] nextId = {0};
        TrialRequests requests = new TrialRequests(tuner, () -> nextId[0]++);
        while (results.size() < trials) {
            List<TrialRequests.Trial> got;
            t0 = System.nanoTime();
            try {
                got = requests.request(Math.min(batch, trials - results.size())).trials();
            } catch (TrialRequests.TunerFailure f) {
                // the run's error names what the tuner threw, or how it broke the contract
                throw f.getCause() instanceof RuntimeException e ? e : f;
            }
            tunerNanos += System.nanoTime() - t0;
            if (got.isEmpty()) {
                return new Run(p.name(), label, batch, seed, hv, tunerNanos / 1e9, "the tuner stopped after " + results.size() + " trials");
            }
            for (int i = 0; i < got.size(); i++) {
                long id = got.get(i).parameterId();
                double[] f = p.evaluate(got.get(i).parameters());
                Map<String, Object> metric = new LinkedHashMap<>();
                metric.put("default", f[0]);
                for (int m = 0; m < f.length; m++) {
                    metric.put(p.metrics().get(m), f[m]);
                }
                t0 = System.nanoTime();
                tuner.receiveTrialResult(new TrialResult(id, got.get(i).parameters(), Metric.fromReported(metric), false, "trial-" + id));
                tuner.trialEnd(id, true);
                tunerNanos += System.nanoTime() - t0;
                results.add(f);
                if (results.size() % EVERY == 0) {
                    hv[results.size() / EVERY - 1] = Hypervolume.of(results.toArray(new double[0][]), p.reference()) / p.trueHypervolume();
                }
            }
        }
        return new Run(p.name(), label, batch, seed, hv, tunerNanos / 1e9, null);
    }

    /** Runs everything and writes hypervolume.csv, runs.csv, summary.md and one SVG per problem; returns the files. */
    static List<Path> runAll(Config config, TunerFactory factory, PrintWriter progress) throws IOException {
        List<Future<Run>> futures = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(config.threads());
        long start = System.nanoTime();
        int total = config.problems().size() * config.tuners().size() * config.batches().size() * config.seeds().size();
        java.util.concurrent.atomic.AtomicInteger done = new java.util.concurrent.atomic.AtomicInteger();
        for (Problem p : config.problems()) {
            for (Map.Entry<String, String> t : config.tuners().entrySet()) {
                for (int batch : config.batches()) {
                    for (long seed : config.seeds()) {
                        futures.add(pool.submit(() -> {
                            Run r;
                            try {
                                Tuner tuner = factory.apply(t.getValue(), arguments(p, seed, config.extra().getOrDefault(t.getKey(), Map.of())));
                                r = run(p, t.getKey(), tuner, batch, seed, config.trials());
                            } catch (RuntimeException e) {
                                r = new Run(p.name(), t.getKey(), batch, seed, new double[config.trials() / EVERY], 0, e.toString());
                            }
                            int n = done.incrementAndGet();
                            if (n % 20 == 0 || n == total) {
                                synchronized (progress) {
                                    progress.printf(Locale.ROOT, "%d/%d runs, %.0f s%n", n, total, (System.nanoTime() - start) / 1e9);
                                    progress.flush();
                                }
                            }
                            return r;
                        }));
                    }
                }
            }
        }
        pool.shutdown();
        List<Run> runs = new ArrayList<>();
        try {
            for (Future<Run> f : futures) {
                runs.add(f.get());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IOException(e.getCause());
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        for (Run r : runs) {
            if (r.error() != null) {
                progress.println("run failed: " + r.problem() + " " + r.tuner() + " batch " + r.batch() + " seed " + r.seed() + ": " + r.error());
            }
        }
        Files.createDirectories(config.out());
        List<Path> files = new ArrayList<>();
        files.add(writeCsv(config, runs));
        files.add(writeRunsCsv(config, runs));
        files.add(writeSummary(config, runs, seconds));
        for (Problem p : config.problems()) {
            files.add(HypervolumePlot.write(config, p, runs));
        }
        return files;
    }

    private static String modeName(int batch) {
        return batch == 1 ? "sequential" : "batch" + batch;
    }

    private static Path writeCsv(Config config, List<Run> runs) throws IOException {
        Path file = config.out().resolve("hypervolume.csv");
        StringBuilder sb = new StringBuilder("problem,tuner,mode,seed,trials,normalised_hypervolume\n");
        for (Run r : runs) {
            for (int i = 0; i < r.hv().length; i++) {
                sb.append(r.problem()).append(',').append(r.tuner()).append(',').append(modeName(r.batch())).append(',').append(r.seed())
                        .append(',').append((i + 1) * EVERY).append(',').append(r.error() == null ? Double.toString(r.hv()[i]) : "").append('\n');
            }
        }
        Files.writeString(file, sb.toString(), StandardCharsets.UTF_8);
        return file;
    }

    private static Path writeRunsCsv(Config config, List<Run> runs) throws IOException {
        Path file = config.out().resolve("runs.csv");
        StringBuilder sb = new StringBuilder("problem,tuner,mode,seed,tuner_seconds,error\n");
        for (Run r : runs) {
            sb.append(r.problem()).append(',').append(r.tuner()).append(',').append(modeName(r.batch())).append(',').append(r.seed())
                    .append(',').append(String.format(Locale.ROOT, "%.4f", r.tunerSeconds())).append(',')
                    .append(r.error() == null ? "" : '"' + r.error().replace("\"", "\"\"") + '"').append('\n');
        }
        Files.writeString(file, sb.toString(), StandardCharsets.UTF_8);
        return file;
    }

    /** The normalised hypervolumes of one tuner, problem and mode after {@code trials} trials, over the seeds (failed runs left out). */
    static double[] values(List<Run> runs, String problem, String tuner, int batch, int trials) {
        return runs.stream().filter(r -> r.error() == null && r.problem().equals(problem) && r.tuner().equals(tuner) && r.batch() == batch)
                .mapToDouble(r -> r.hv()[trials / EVERY - 1]).toArray();
    }

    static String four(double v) {
        return Double.isNaN(v) ? "n/a" : String.format(Locale.ROOT, "%.4f", v);
    }

    private static Path writeSummary(Config config, List<Run> runs, double seconds) throws IOException {
        Path file = config.out().resolve("summary.md");
        StringBuilder sb = new StringBuilder();
        sb.append("# Multi-objective benchmark\n\n");
        sb.append("Made by `").append(commandLine(config)).append("`.\n\n");
        sb.append("Hypervolume of all results so far, divided by the hypervolume of the true Pareto front (1 = the true front; "
                + "more is better), median [Q1, Q3] over ").append(config.seeds().size()).append(" seeds (").append(Numbers.seeds(config.seeds()))
                .append("). Sequential: one suggestion at a time; batch8: 8 suggestions before their results. ")
                .append(runs.size()).append(" runs in ").append(Math.round(seconds)).append(" s with ").append(config.threads())
                .append(config.threads() == 1 ? " thread" : " threads").append(".\n\n");
        sb.append("| problem | reference point | true front's hypervolume | what it is |\n|---|---|---|---|\n");
        for (Problem p : config.problems()) {
            sb.append("| ").append(p.name()).append(" | ").append(java.util.Arrays.toString(p.reference())).append(" | ")
                    .append(String.format(Locale.ROOT, "%.6f", p.trueHypervolume())).append(" | ").append(p.description()).append(" |\n");
        }
        List<String> checks = new ArrayList<>();
        for (Problem p : config.problems()) {
            sb.append("\n## ").append(p.name()).append("\n\n| tuner |");
            List<String> columns = new ArrayList<>();
            for (int batch : config.batches()) {
                for (int t : REPORTED) {
                    if (t <= config.trials()) {
                        columns.add(modeName(batch) + " " + t);
                        sb.append(' ').append(modeName(batch)).append(", ").append(t).append(" trials |");
                    }
                }
            }
            sb.append("\n|---|").append("---|".repeat(columns.size())).append('\n');
            for (String tuner : config.tuners().keySet()) {
                sb.append("| ").append(tuner).append(" |");
                for (int batch : config.batches()) {
                    for (int t : REPORTED) {
                        if (t > config.trials()) {
                            continue;
                        }
                        double[] v = values(runs, p.name(), tuner, batch, t);
                        if (v.length == 0) {
                            sb.append(" n/a |");
                            continue;
                        }
                        Quantiles q = Quantiles.of(v);
                        sb.append(' ').append(four(q.median())).append(" [").append(four(q.q1())).append(", ").append(four(q.q3())).append("] |");
                        if (!BASELINES.contains(config.tuners().get(tuner)) && config.tuners().containsKey("Random")) {
                            double[] rv = values(runs, p.name(), "Random", batch, t);
                            if (rv.length > 0) {
                                double random = Quantiles.of(rv).median();
                                checks.add((q.median() > random ? "holds" : "FAILS") + ": " + p.name() + ", " + modeName(batch) + ", " + t
                                        + " trials: " + tuner + " " + four(q.median()) + " against Random " + four(random));
                            }
                        }
                    }
                }
                sb.append('\n');
            }
            sb.append("\n![").append(p.name()).append("](hv-").append(p.name()).append(".svg)\n");
        }
        long fails = checks.stream().filter(c -> c.startsWith("FAILS")).count();
        sb.append("\n## Median above Random's\n\n").append(fails == 0 ? "Every non-baseline tuner's median is above Random's in every cell"
                : fails + " of " + checks.size() + " comparisons are not above Random's").append(".\n\n");
        for (String c : checks) {
            sb.append("- ").append(c).append('\n');
        }
        sb.append("\n## Published figures\n\nNone are compared. Deb et al. (2002) measure NSGA-II on ZDT1-3 with a population of 100 "
                + "for 25,000 evaluations and report convergence and spread metrics, not hypervolume after 100-200 trials; Ozaki et al. "
                + "(2020) measure MOTPE with their own budgets and reference points, which this benchmark does not reproduce. "
                + "Variables: ZDT with " + Problems.ZDT_VARIABLES + " (the paper's 30 make a 200-trial budget mostly a search for "
                + "g = 1), DTLZ2 with k = " + Problems.DTLZ_K + " as in the paper.\n");
        sb.append("\n## Tuner time\n\nMedian seconds of tuner calls per run (all trials):\n\n| tuner | sequential | batch |\n|---|---|---|\n");
        for (String tuner : config.tuners().keySet()) {
            sb.append("| ").append(tuner).append(" |");
            for (int batch : new int[] {1, 8}) {
                double[] s = runs.stream().filter(r -> r.tuner().equals(tuner) && r.batch() == batch && r.error() == null)
                        .mapToDouble(Run::tunerSeconds).toArray();
                sb.append(' ').append(s.length == 0 ? "n/a" : String.format(Locale.ROOT, "%.3f", Quantiles.of(s).median())).append(" |");
            }
            sb.append('\n');
        }
        Files.writeString(file, sb.toString(), StandardCharsets.UTF_8);
        return file;
    }

    static String commandLine(Config config) {
        StringBuilder sb = new StringBuilder("nice ./tunekit-bench bench-mo");
        sb.append(" --tuners ").append(String.join(",", config.tuners().entrySet().stream()
                .map(e -> e.getKey().equals(e.getValue()) ? e.getKey() : e.getKey() + "=" + e.getValue()).toList()));
        sb.append(" --problems ").append(String.join(",", config.problems().stream().map(Problem::name).toList()));
        sb.append(" --modes ").append(String.join(",", config.batches().stream().map(b -> b == 1 ? "sequential" : "batch").toList()));
        sb.append(" --seeds ").append(Numbers.seeds(config.seeds())).append(" --trials ").append(config.trials())
                .append(" --threads ").append(config.threads());
        config.extra().forEach((k, v) -> sb.append(" --tuner-args '").append(k).append('=').append(org.tunekit.dispatcher.protocol.JsonCodec.write(v)).append('\''));
        return sb.toString();
    }
}
