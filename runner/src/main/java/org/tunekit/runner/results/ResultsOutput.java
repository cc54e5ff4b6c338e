package org.tunekit.runner.results;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a person reads of an experiment's results: text for the terminal, CSV and JSON exports, and an HTML
 * report with plots.
 *
 * <p>The text methods are pure functions of the results; numbers in them have at most 6 significant digits.
 * Parameter values that are nested choices (a map with a {@code _name} key and the chosen option's sub-values)
 * show as {@code adam(lr=0.01)}. "Best" follows the experiment's direction ({@link ExperimentResults#maximize()});
 * trials whose final value is missing or NaN are never ranked, nor LOST trials (their parameters ran again in a
 * later trial); equal values rank in order of sequence.
 */
public final class ResultsOutput {
    private ResultsOutput() {
    }

    /**
     * The best trials as an aligned plain-text table, its lines separated by {@code \n} (none at the end).
     *
     * <p>Columns: rank, trial job id, final value, status, duration, then one per top-level parameter of the
     * trials shown, by name. Rows: the {@code limit} best trials, best first. Numbers align right, text left.
     * Each line fits {@code width} characters: the widest of the trial id and parameter columns is cut first,
     * with an ellipsis, down to 5 characters each; then parameter columns are left out from the right and a last
     * line names them. Lines exceed the width only when rank, value, status, duration and a 5-character trial
     * id alone do. With no ranked trial it is a single line saying so.
     *
     * @param limit how many trials at most, at least 1
     * @param width the widest a line may be, in characters, at least 1
     * @throws IllegalArgumentException if limit or width is less than 1
     */
    public static String bestTable(ExperimentResults r, int limit, int width) {
        if (limit < 1 || width < 1) {
            throw new IllegalArgumentException("limit and width must be at least 1, got " + limit + " and " + width);
        }
        List<TrialRecord> best = Values.ranking(r);
        if (best.isEmpty()) {
            return "No trial has a final value.";
        }
        best = best.subList(0, Math.min(limit, best.size()));
        List<String> names = Values.parameterNames(best);
        List<TextTable.Column> columns = new ArrayList<>(List.of(
                new TextTable.Column("#", true, false, false),
                new TextTable.Column("trial", false, true, false),
                new TextTable.Column("value", true, false, false),
                new TextTable.Column("status", false, false, false),
                new TextTable.Column("duration", true, false, false)));
        for (String name : names) {
            boolean numeric = best.stream().map(t -> t.parameters().get(name))
                    .allMatch(v -> v == null || v instanceof Number);
            columns.add(new TextTable.Column(name, numeric, true, true));
        }
        List<List<String>> rows = new ArrayList<>(best.size());
        for (int i = 0; i < best.size(); i++) {
            TrialRecord t = best.get(i);
            List<String> row = new ArrayList<>(columns.size());
            row.add(Integer.toString(i + 1));
            row.add(t.trialJobId());
            row.add(Values.number(t.finalValue()));
            row.add(t.status().name());
            row.add(Values.duration(t).map(Values::duration).orElse(""));
            for (String name : names) {
                Object v = t.parameters().get(name);
                row.add(v == null ? "" : Values.compact(v));
            }
            rows.add(row);
        }
        return String.join("\n", TextTable.render(columns, rows, width));
    }

    /**
     * The Pareto front of a multi-objective experiment (one whose tuner names {@code objectives}) as an aligned
     * plain-text table, its lines separated by {@code \n} (none at the end); empty for a single-objective
     * experiment. A heading line names the objectives and the front's size; then columns: the front's position,
     * trial job id, one column per objective (headed {@code metric (max)} or {@code metric (min)}), status, and one
     * per top-level parameter; rows: the front's trials by the first objective from best to worst. Lines fit
     * {@code width} as in {@link #bestTable}. Then a line with the hypervolume and the reference point, saying
     * where each coordinate came from ({@code config}: the objective's {@code reference}; otherwise the front's
     * worst value plus 10% of the front's range), and, when some final metrics lack an objective's value, a line
     * saying how many. A trial is on the front when no other trial with every objective's value is at least as
     * good in all objectives and better in one.
     *
     * @throws IllegalArgumentException if width is less than 1
     */
    public static Optional<String> paretoTable(ExperimentResults r, int width) {
        if (width < 1) {
            throw new IllegalArgumentException("width must be at least 1, got " + width);
        }
        if (r.objectives().isEmpty()) {
            return Optional.empty();
        }
        Optional<ParetoFront> found = ParetoFront.of(r);
        if (found.isEmpty()) {
            return Optional.of("Pareto front: no trial has reported every objective ("
                    + String.join(", ", r.objectives().stream().map(o -> String.valueOf(o.get("metric"))).toList()) + ") yet.");
        }
        ParetoFront front = found.get();
        List<String> names = Values.parameterNames(front.trials());
        List<TextTable.Column> columns = new ArrayList<>(List.of(
                new TextTable.Column("#", true, false, false),
                new TextTable.Column("trial", false, true, false)));
        for (var o : front.objectives()) {
            columns.add(new TextTable.Column(o.metric() + (o.mode() == org.tunekit.sdk.OptimizeMode.MAXIMIZE ? " (max)" : " (min)"),
                    true, false, false));
        }
        columns.add(new TextTable.Column("status", false, false, false));
        for (String name : names) {
            boolean numeric = front.trials().stream().map(t -> t.parameters().get(name)).allMatch(v -> v == null || v instanceof Number);
            columns.add(new TextTable.Column(name, numeric, true, true));
        }
        List<List<String>> rows = new ArrayList<>();
        for (int i = 0; i < front.trials().size(); i++) {
            TrialRecord t = front.trials().get(i);
            List<String> row = new ArrayList<>();
            row.add(Integer.toString(i + 1));
            row.add(t.trialJobId());
            for (double v : front.values().get(i)) {
                row.add(Values.number(v));
            }
            row.add(t.status().name());
            for (String name : names) {
                Object v = t.parameters().get(name);
                row.add(v == null ? "" : Values.compact(v));
            }
            rows.add(row);
        }
        List<String> lines = new ArrayList<>();
        lines.add("Pareto front (" + front.objectivesText() + "): " + front.trials().size() + " of " + front.counted() + " trials");
        lines.addAll(TextTable.render(columns, rows, width));
        lines.add("Hypervolume " + Values.number(front.hypervolume()) + ", reference point " + front.referenceText());
        if (front.lacking() > 0) {
            lines.add(front.lacking() + (front.lacking() == 1 ? " final metric lacks" : " final metrics lack")
                    + " an objective's value and " + (front.lacking() == 1 ? "is" : "are") + " left out.");
        }
        return Optional.of(String.join("\n", lines));
    }

    /**
     * The best trial's parameters, one {@code name  value} line per parameter by name, values aligned in one
     * column, lines separated by {@code \n} (none at the end). A nested choice shows the option chosen on its
     * line and its sub-values on the lines under it, indented by two spaces; a plain map shows its entries so.
     * With no ranked trial it is a single line saying so.
     */
    public static String bestParameters(ExperimentResults r) {
        Optional<TrialRecord> best = Values.ranking(r).stream().findFirst();
        if (best.isEmpty()) {
            return "No trial has a final value.";
        }
        List<String[]> lines = Values.parameterLines(best.get().parameters());
        if (lines.isEmpty()) {
            return "The best trial has no parameters.";
        }
        int nameWidth = lines.stream().mapToInt(l -> Values.width(l[0])).max().orElse(0);
        List<String> out = new ArrayList<>(lines.size());
        for (String[] l : lines) {
            out.add((l[0] + " ".repeat(nameWidth - Values.width(l[0])) + "  " + l[1]).stripTrailing());
        }
        return String.join("\n", out);
    }

    /**
     * One line: the experiment's status, the number of trials in each status, the best final value and its
     * trial, and the time elapsed. Elapsed is to the experiment's end; while it is {@code RUNNING}, to the
     * clock's now; with no end otherwise (it crashed), to the last start or end of a trial; {@code unknown}
     * when nothing says. For example {@code DONE: 60 trials: 45 succeeded, 15 early stopped; best 0.981234
     * (trial Ab3xZ); elapsed 12m03s}. A multi-objective experiment adds the size and hypervolume of its Pareto
     * front before the elapsed time (see {@link #paretoTable}).
     */
    public static String summaryLine(ExperimentResults r, Clock clock) {
        StringBuilder sb = new StringBuilder();
        sb.append(r.status() == null ? "UNKNOWN" : Values.oneLine(r.status())).append(": ");
        sb.append(Values.countsSentence(r)).append("; ");
        Optional<TrialRecord> best = Values.ranking(r).stream().findFirst();
        if (best.isPresent()) {
            sb.append("best ").append(Values.number(best.get().finalValue()))
                    .append(" (trial ").append(Values.oneLine(String.valueOf(best.get().trialJobId()))).append(')');
        } else {
            sb.append("no final value");
        }
        ParetoFront.of(r).ifPresent(front -> sb.append("; Pareto front ").append(front.trials().size())
                .append(front.trials().size() == 1 ? " trial" : " trials").append(", hypervolume ").append(Values.number(front.hypervolume())));
        sb.append("; elapsed ").append(Values.elapsed(r, clock).map(Values::duration).orElse("unknown"));
        return sb.toString();
    }

    /**
     * Writes {@code trials.csv} and {@code intermediate.csv} into the folder (created if missing), in UTF-8, as
     * RFC 4180 describes: a header line, CRLF line ends, a field quoted (its quotes doubled) when it holds a comma,
     * a quote or a line break. Each file is replaced atomically: a temporary file in the folder moved over it.
     *
     * <p>{@code trials.csv}: one row per trial in order of sequence with {@code sequence, trial_job_id,
     * parameter_id, status, final_value, started, ended, duration_s, exit_code, message}, then one column per
     * parameter any trial has, by name, nested choices flattened: {@code optimizer} (the option chosen),
     * {@code optimizer.lr} (its sub-value), empty where a trial has no such value; a parameter named like a
     * fixed column is headed {@code param.NAME}. Numbers in full precision, {@code NaN} and {@code Infinity}
     * spelled so; times ISO-8601 in UTC; lists as JSON; a missing value is an empty field.
     *
     * <p>{@code intermediate.csv}: {@code trial_job_id, step, value}, one row per intermediate result, trials in
     * order of sequence, steps from 1 within each trial.
     *
     * <p>{@code pareto.csv}, for a multi-objective experiment with a trial that reported every objective: the
     * Pareto front's trials (see {@link #paretoTable}) with {@code sequence, trial_job_id, parameter_id}, one column
     * per objective's metric and the parameters as in {@code trials.csv}.
     */
    public static void writeCsv(ExperimentResults r, Path dir) throws IOException {
        Csv.write(r, dir);
    }

    /**
     * Writes the whole results as JSON to the file (its folder created if missing), in UTF-8, replacing it
     * atomically. The object has the components of {@link ExperimentResults} by name, its {@code trials} those of
     * {@link TrialRecord} (parameters, final metric and intermediate values as they are, map entries by key, so
     * the same results always give the same file); times are ISO-8601 text
     * in UTC; a missing value is {@code null}; a number JSON cannot hold (NaN, an infinity) is written as
     * {@code null} too. A multi-objective experiment's file also has a {@code pareto} object: the reference point
     * by objective, where each coordinate came from ({@code config} or {@code front}), the hypervolume, and the
     * front's trial job ids (see {@link #paretoTable}).
     */
    public static void writeJson(ExperimentResults r, Path file) throws IOException {
        Json.write(r, file);
    }

    /**
     * Writes {@code report.html} into the folder (created if missing) and returns its path: one self-contained
     * page, its plots embedded as PNG images in data URIs, replaced atomically. It holds the experiment's id,
     * name, status, direction, trial counts, elapsed time (as {@link #summaryLine} takes it, to now from the
     * system clock), best value and best parameters; a table of the 20 best trials; plots of the final value
     * over trials with the best so far, of the intermediate curves coloured by whether the trial was stopped
     * early, and of each parameter against the final value; and a table of every trial, with exit codes and
     * messages. All text from the results is escaped. Plots draw headless (this sets {@code java.awt.headless}
     * to true unless it is set) and leave out values that are not finite; a plot with nothing to show is left
     * out, so the report of an experiment with no trials is still a valid page.
     */
    public static Path writeReport(ExperimentResults r, Path dir) throws IOException {
        return writeReport(r, dir, Clock.systemUTC());
    }

    static Path writeReport(ExperimentResults r, Path dir, Clock clock) throws IOException {
        Path file = dir.resolve(HtmlReport.FILE);
        String html = HtmlReport.render(r, clock);
        AtomicFiles.write(file, out -> out.write(html));
        return file;
    }
}
