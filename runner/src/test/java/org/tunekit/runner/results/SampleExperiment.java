package org.tunekit.runner.results;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A made-up experiment like a small network's tuning: accuracy to maximise, 20 epochs reported one by one,
 * an assessor stopping trials that lag, a few failures, one trial still running.
 *
 * <p>Run {@link #main} to write a sample report (and its plots as separate PNG files, to look at) into a folder,
 * by default {@code /tmp/report-sample}.
 */
final class SampleExperiment {
    private SampleExperiment() {
    }

    static ExperimentResults create(int trials, long seed) {
        Random rnd = new Random(seed);
        Instant start = Instant.parse("2026-03-01T09:00:00Z");
        List<TrialRecord> records = new ArrayList<>();
        List<Double> atEpoch8 = new ArrayList<>();
        Instant clock = start;
        for (int seq = 0; seq < trials; seq++) {
            Map<String, Object> p = new LinkedHashMap<>();
            double lr = Math.pow(10, -5 + 4 * rnd.nextDouble());
            long batch = List.of(16L, 32L, 64L, 128L).get(rnd.nextInt(4));
            double dropout = 0.5 * rnd.nextDouble();
            String activation = List.of("relu", "tanh", "gelu").get(rnd.nextInt(3));
            Map<String, Object> optimizer = new LinkedHashMap<>();
            switch (rnd.nextInt(3)) {
                case 0 -> {
                    optimizer.put("_name", "adam");
                    optimizer.put("beta1", 0.85 + 0.14 * rnd.nextDouble());
                }
                case 1 -> {
                    optimizer.put("_name", "sgd");
                    optimizer.put("momentum", 0.5 + 0.49 * rnd.nextDouble());
                }
                default -> optimizer.put("_name", "rmsprop");
            }
            p.put("learning_rate", lr);
            p.put("batch_size", batch);
            p.put("dropout", dropout);
            p.put("activation", activation);
            p.put("optimizer", optimizer);

            double quality = 0.97 - 0.035 * Math.pow(Math.log10(lr) + 3, 2) - 0.15 * Math.pow(dropout - 0.2, 2)
                    + (activation.equals("tanh") ? -0.03 : 0) + (optimizer.get("_name").equals("sgd") ? -0.02 : 0)
                    + 0.01 * rnd.nextGaussian();
            double tau = 2 + 4 * rnd.nextDouble();
            List<Double> curve = new ArrayList<>();
            TrialStatus status = TrialStatus.SUCCEEDED;
            String message = null;
            Integer exit = 0;
            int epochs = 20;
            if (seq == 17 || seq == 41) {
                status = TrialStatus.FAILED;
                epochs = 3;
                exit = 1;
                message = "Traceback (most recent call last):\n  File \"train.py\", line 88, in <module>\n"
                        + "RuntimeError: CUDA out of memory, tried to allocate 2.00 GiB";
            } else if (seq == trials - 1) {
                status = TrialStatus.RUNNING;
                epochs = 6;
                exit = null;
            }
            for (int e = 1; e <= epochs; e++) {
                double v = Math.max(0.1, quality * (1 - Math.exp(-e / tau)) + 0.008 * rnd.nextGaussian());
                curve.add(v);
                if (e == 8 && status == TrialStatus.SUCCEEDED) {
                    atEpoch8.add(v);
                    double median = atEpoch8.stream().sorted().toList().get(atEpoch8.size() / 2);
                    if (atEpoch8.size() > 5 && v < median - 0.02) {
                        status = TrialStatus.EARLY_STOPPED;
                        exit = null;
                        message = "stopped by the assessor at epoch 8";
                        break;
                    }
                }
            }
            if (seq == 29) {
                curve.set(2, Double.NaN);
            }
            Double finalValue = status == TrialStatus.SUCCEEDED ? curve.get(curve.size() - 1) : null;
            if (seq == 23) {
                finalValue = Double.NaN;
            }
            Instant begun = clock;
            Instant ended = status == TrialStatus.RUNNING ? null : begun.plusSeconds(6L * curve.size() + 3);
            clock = clock.plusSeconds(40 + rnd.nextInt(80));
            records.add(new TrialRecord(seq, jobId(rnd), seq, p, status, finalValue,
                    finalValue == null ? null : Map.of("default", finalValue, "loss", 1 - finalValue),
                    curve, begun, ended, exit, message));
        }
        return new ExperimentResults("k3xq7w9a", "cifar10 <small> net & friends", true, start, clock, "STOPPED",
                records, List.of(), space());
    }

    /** The search space the trials were drawn from. */
    private static Map<String, Object> space() {
        Map<String, Object> space = new LinkedHashMap<>();
        space.put("learning_rate", Map.of("_type", "loguniform", "_value", List.of(1e-5, 0.1)));
        space.put("batch_size", Map.of("_type", "choice", "_value", List.of(16L, 32L, 64L, 128L)));
        space.put("dropout", Map.of("_type", "uniform", "_value", List.of(0.0, 0.5)));
        space.put("activation", Map.of("_type", "choice", "_value", List.of("relu", "tanh", "gelu")));
        space.put("optimizer", Map.of("_type", "choice", "_value", List.of(
                Map.of("_name", "adam", "beta1", Map.of("_type", "uniform", "_value", List.of(0.85, 0.99))),
                Map.of("_name", "sgd", "momentum", Map.of("_type", "uniform", "_value", List.of(0.5, 0.99))),
                Map.of("_name", "rmsprop"))));
        return space;
    }

    private static String jobId(Random rnd) {
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            sb.append(alphabet.charAt(rnd.nextInt(alphabet.length())));
        }
        return sb.toString();
    }

    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args.length > 0 ? args[0] : "/tmp/report-sample");
        int trials = args.length > 1 ? Integer.parseInt(args[1]) : 60;
        ExperimentResults r = create(trials, 7);
        long t0 = System.nanoTime();
        Path report = ResultsOutput.writeReport(r, dir);
        long t1 = System.nanoTime();
        ResultsOutput.writeCsv(r, dir);
        ResultsOutput.writeJson(r, dir.resolve("experiment.json"));
        Path plots = Files.createDirectories(dir.resolve("plots"));
        for (Plots.Plot p : Plots.all(r)) {
            Files.write(plots.resolve(p.id() + ".png"), p.png());
        }
        System.out.println(ResultsOutput.summaryLine(r, java.time.Clock.systemUTC()));
        System.out.println();
        System.out.println(ResultsOutput.bestTable(r, 10, 120));
        System.out.println();
        System.out.println(ResultsOutput.bestParameters(r));
        System.out.printf("%nreport: %s (%.0f ms)%n", report, (t1 - t0) / 1e6);
    }
}
