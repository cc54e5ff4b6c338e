package org.tunekit.bench.quality;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.tunekit.demo.TestFunction;

/**
 * {@code summary.md}: per mode, one table of the regret quartiles after 25, 50 and 100 trials for
 * each function and tuner, NNI's rows beside Tunekit's, and the mean tuner time per run.
 */
final class SummaryMarkdown {
    private static final int MAX_MESSAGE = 160;

    /**
     * What the summary says about how the benchmark ran.
     *
     * @param seeds           the seeds asked for
     * @param threads         how many runs ran at once
     * @param wallSeconds     wall time of the whole benchmark
     * @param referenceSource where NNI's figures came from, or {@code null} when none are shown
     * @param plotFiles       the convergence plots, relative to the summary
     * @param environment     the Java version and machine, or empty
     */
    record RunInfo(List<Long> seeds, int threads, double wallSeconds, String referenceSource, List<String> plotFiles, String environment) {
        RunInfo {
            seeds = List.copyOf(seeds);
            plotFiles = List.copyOf(plotFiles);
        }
    }

    private SummaryMarkdown() {}

    static String render(Results results, NniReference reference, RunInfo info) {
        StringBuilder sb = new StringBuilder();
        sb.append("# Tunekit quality benchmark\n\n");
        sb.append("Functions of the HPO suite (`hpo-suite.md`), all minimised; regret = best value found so far minus the known optimum f*.\n");
        sb.append("Runs: ").append(results.tuners().size()).append(" tuner(s) (").append(String.join(", ", results.tuners()))
                .append(") × ").append(results.functions().size()).append(" function(s) × ").append(results.modes().size())
                .append(" mode(s) × seeds ").append(Numbers.seeds(info.seeds())).append(", ").append(results.trials())
                .append(" trials each; batch mode asks for ").append(Mode.BATCH.batchSize()).append(" parameter sets per request. ")
                .append(Double.isNaN(info.wallSeconds()) ? "Summary written again from regret.csv and runs.csv.\n"
                        : info.threads() + " run(s) at a time, " + Numbers.sig3(info.wallSeconds()) + " s in all.\n");
        if (!info.environment().isEmpty()) {
            sb.append("Machine: ").append(info.environment()).append(".\n");
        }
        sb.append(functions(results.functions()));
        sb.append('\n');
        sb.append("Cells: median [Q1, Q3] over the seeds. Quartiles interpolate linearly between order statistics ")
                .append("(numpy's default `percentile`, Hyndman and Fan type 7). Bold: the lowest median of the column for that function.\n");
        sb.append("Tuner s/run: mean seconds spent inside the tuner per run (updateSearchSpace, generateParameters / ")
                .append("generateMultipleParameters, receiveTrialResult, trialEnd), objective evaluation excluded.\n");
        if (info.referenceSource() != null && !reference.anchors().isEmpty()) {
            sb.append("\nRows in italics are other libraries' tuners (NNI's own, and Optuna's samplers where shown), from ")
                    .append(info.referenceSource()).append(":\n\n");
            for (String note : reference.notes()) {
                sb.append("> ").append(note).append("  \n");
            }
        }
        for (Mode mode : results.modes()) {
            sb.append('\n');
            appendMode(sb, results, reference, mode);
        }
        appendBest(sb, results, reference);
        if (!info.plotFiles().isEmpty()) {
            sb.append("\n## Convergence\n\n");
            for (String f : info.plotFiles()) {
                sb.append("![").append(f).append("](").append(f).append(")\n\n");
            }
        }
        return sb.toString();
    }

    private record Row(String function, String tuner, boolean nni, String seeds, List<Double> medians, List<String> cells, String tunerSeconds) {}

    private static void appendMode(StringBuilder sb, Results results, NniReference reference, Mode mode) {
        List<Integer> checkpoints = results.checkpoints();
        sb.append("## ").append(Character.toUpperCase(mode.label().charAt(0))).append(mode.label().substring(1)).append(" mode");
        sb.append(mode == Mode.BATCH ? " (" + Mode.BATCH.batchSize() + " parameter sets per request)\n\n" : " (one parameter set per request)\n\n");
        sb.append("| function | tuner | seeds |");
        for (int c : checkpoints) {
            sb.append(" after ").append(c).append(" |");
        }
        sb.append(" tuner s/run |\n|---|---|---|");
        sb.append("---|".repeat(checkpoints.size())).append("---|\n");
        for (String function : results.functions()) {
            List<Row> rows = new ArrayList<>();
            for (String tuner : results.tuners()) {
                rows.add(tunekitRow(results, function, tuner, mode, checkpoints));
            }
            for (String nni : reference.tuners(mode)) {
                nniRow(reference, function, nni, mode, checkpoints).ifPresent(rows::add);
            }
            double[] best = new double[checkpoints.size()];
            java.util.Arrays.fill(best, Double.POSITIVE_INFINITY);
            for (Row r : rows) {
                for (int i = 0; i < best.length; i++) {
                    Double m = r.medians().get(i);
                    if (m != null && m < best[i]) {
                        best[i] = m;
                    }
                }
            }
            for (Row r : rows) {
                sb.append("| ").append(function).append(" | ").append(italicIf(r.nni(), escape(r.nni() ? NniReference.display(r.tuner()) : r.tuner())))
                        .append(" | ").append(italicIf(r.nni(), escape(r.seeds()))).append(" |");
                for (int i = 0; i < r.cells().size(); i++) {
                    Double m = r.medians().get(i);
                    String cell = escape(r.cells().get(i));
                    if (m != null && m == best[i]) {
                        cell = "**" + cell + "**";
                    }
                    sb.append(' ').append(italicIf(r.nni(), cell)).append(" |");
                }
                sb.append(' ').append(italicIf(r.nni(), r.tunerSeconds())).append(" |\n");
            }
        }
    }

    /**
     * A line naming each function's parameters and known optimum (definitions: {@link Suite} and
     * {@code hpo-suite.md}); empty when none of them is a suite function.
     */
    static String functions(List<String> names) {
        List<String> parts = new ArrayList<>();
        Map<String, TestFunction> all = Suite.everything();
        for (String name : names) {
            TestFunction o = all.get(name);
            if (o == null) {
                continue;
            }
            String box = "";
            java.util.Set<Object> specs = new java.util.HashSet<>(o.space().values());
            if (specs.size() == 1 && specs.iterator().next() instanceof Map<?, ?> spec && "uniform".equals(spec.get("_type"))) {
                List<?> v = (List<?>) spec.get("_value");
                box = ", uniform on [" + Numbers.sig3(((Number) v.get(0)).doubleValue()) + ", " + Numbers.sig3(((Number) v.get(1)).doubleValue())
                        + "]^" + o.space().size();
            }
            parts.add(name + " (" + o.space().size() + " parameter(s)" + box + ", f* = " + Double.toString(o.optimum()) + ")");
        }
        return parts.isEmpty() ? "" : "Functions: " + String.join("; ", parts) + ".\n";
    }

    /** Regret below which a function counts as solved by a tuner. */
    static final double SOLVED = 1e-4;

    /**
     * Per mode and function, the best Tunekit tuner's median after the full budget beside the best
     * NNI and the best Optuna tuner's, with the ratio to the best NNI tuner's; only for functions
     * with reference figures at that budget.
     */
    private static void appendBest(StringBuilder sb, Results results, NniReference reference, Mode mode, int trials, List<String> functions) {
        sb.append("\n### ").append(Character.toUpperCase(mode.label().charAt(0))).append(mode.label().substring(1))
                .append(" mode, after ").append(trials).append(" trials\n\n");
        sb.append("| function | best Tunekit tuner | median | best NNI tuner | median | best Optuna sampler | median | Tunekit / NNI |\n");
        sb.append("|---|---|---|---|---|---|---|---|\n");
        for (String function : functions) {
            String bestTuner = null;
            double best = Double.POSITIVE_INFINITY;
            for (String tuner : results.tuners()) {
                Quantiles q = results.regretAfter(tuner, function, mode, trials);
                if (q != null && q.median() < best) {
                    best = q.median();
                    bestTuner = tuner;
                }
            }
            String[] nni = bestReference(reference, mode, function, trials, false);
            String[] optuna = bestReference(reference, mode, function, trials, true);
            String ratio = "";
            if (bestTuner != null && nni != null) {
                double n = Double.parseDouble(nni[1]);
                ratio = best < SOLVED && n < SOLVED ? "both solved" : n > 0 ? Numbers.sig3(best / n) : "";
            }
            sb.append("| ").append(function).append(" | ").append(bestTuner == null ? "" : escape(bestTuner)).append(" | ")
                    .append(bestTuner == null ? "" : Numbers.sig3(best)).append(" | ")
                    .append(nni == null ? "" : escape(NniReference.display(nni[0]))).append(" | ")
                    .append(nni == null ? "" : Numbers.sig3(Double.parseDouble(nni[1]))).append(" | ")
                    .append(optuna == null ? "" : escape(NniReference.display(optuna[0]))).append(" | ")
                    .append(optuna == null ? "" : Numbers.sig3(Double.parseDouble(optuna[1]))).append(" | ")
                    .append(ratio).append(" |\n");
        }
    }

    private static void appendBest(StringBuilder sb, Results results, NniReference reference) {
        int trials = results.trials();
        boolean header = false;
        for (Mode mode : results.modes()) {
            List<String> functions = results.functions().stream()
                    .filter(f -> bestReference(reference, mode, f, trials, false) != null || bestReference(reference, mode, f, trials, true) != null)
                    .toList();
            if (functions.isEmpty()) {
                continue;
            }
            if (!header) {
                sb.append("\n## Best of each library\n\nThe lowest median regret of the Tunekit tuners run here, of NNI's tuners and of "
                        + "Optuna's samplers in the reference figures; the ratio is Tunekit's best over NNI's best (a function counts as solved "
                        + "by a tuner below " + Numbers.sig3(SOLVED) + ").\n");
                header = true;
            }
            appendBest(sb, results, reference, mode, trials, functions);
        }
    }

    /** {label, median} of the reference tuner (Optuna's or NNI's) with the lowest median, or {@code null}. */
    private static String[] bestReference(NniReference reference, Mode mode, String function, int trials, boolean optuna) {
        String label = null;
        double best = Double.POSITIVE_INFINITY;
        for (String tuner : reference.tuners(mode)) {
            if (tuner.startsWith(NniReference.OPTUNA_PREFIX) != optuna) {
                continue;
            }
            Optional<NniReference.Anchor> a = reference.anchor(tuner, mode, function, trials);
            if (a.isPresent() && a.get().median() != null && a.get().median() < best) {
                best = a.get().median();
                label = tuner;
            }
        }
        return label == null ? null : new String[] {label, Double.toString(best)};
    }

    private static String italicIf(boolean italic, String text) {
        return italic && !text.isEmpty() ? "*" + text + "*" : text;
    }

    private static Row tunekitRow(Results results, String function, String tuner, Mode mode, List<Integer> checkpoints) {
        int ok = results.succeeded(tuner, function, mode).size();
        Map<String, Integer> failures = results.failures(tuner, function, mode);
        int failed = failures.values().stream().mapToInt(Integer::intValue).sum();
        List<Double> medians = new ArrayList<>();
        List<String> cells = new ArrayList<>();
        if (ok == 0) {
            String why = failures.isEmpty() ? "not run" : "failed: " + shorten(failures.keySet().iterator().next());
            for (int i = 0; i < checkpoints.size(); i++) {
                medians.add(null);
                cells.add(i == 0 ? why : "");
            }
            return new Row(function, tuner, false, "0", medians, cells, "");
        }
        for (int c : checkpoints) {
            Quantiles q = results.regretAfter(tuner, function, mode, c);
            medians.add(q.median());
            cells.add(Numbers.quartiles(q));
        }
        String seeds = failed == 0 ? Integer.toString(ok)
                : ok + " (" + failed + " failed: " + shorten(failures.keySet().iterator().next()) + ")";
        return new Row(function, tuner, false, seeds, medians, cells, Numbers.seconds(results.meanTunerSeconds(tuner, function, mode)));
    }

    private static Optional<Row> nniRow(NniReference reference, String function, String tuner, Mode mode, List<Integer> checkpoints) {
        List<Double> medians = new ArrayList<>();
        List<String> cells = new ArrayList<>();
        String seeds = null;
        boolean any = false;
        for (int c : checkpoints) {
            Optional<NniReference.Anchor> a = reference.anchor(tuner, mode, function, c);
            if (a.isEmpty()) {
                medians.add(null);
                cells.add("");
                continue;
            }
            any = true;
            NniReference.Anchor anchor = a.get();
            if (anchor.median() == null) {
                medians.add(null);
                cells.add(anchor.note());
                continue;
            }
            seeds = anchor.seeds();
            medians.add(anchor.median());
            cells.add(anchor.q1() == null ? Numbers.sig3(anchor.median())
                    : Numbers.sig3(anchor.median()) + " [" + Numbers.sig3(anchor.q1()) + ", " + Numbers.sig3(anchor.q3()) + "]");
        }
        if (!any) {
            return Optional.empty();
        }
        String time = reference.tunerSeconds(tuner, mode, function).map(Numbers::seconds).orElse("");
        return Optional.of(new Row(function, tuner, true, seeds == null ? "" : seeds, medians, cells, time));
    }

    private static String shorten(String message) {
        String m = message.replace('\n', ' ').replace('\r', ' ');
        return m.length() <= MAX_MESSAGE ? m : m.substring(0, MAX_MESSAGE - 1) + "…";
    }

    private static String escape(String s) {
        return s.replace("|", "\\|");
    }
}
