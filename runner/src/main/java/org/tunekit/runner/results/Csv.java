package org.tunekit.runner.results;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import java.io.IOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The results as CSV (RFC 4180): trials.csv and intermediate.csv. */
final class Csv {
    static final String TRIALS = "trials.csv";
    static final String INTERMEDIATE = "intermediate.csv";

    static final List<String> TRIAL_COLUMNS = List.of("sequence", "trial_job_id", "parameter_id", "status",
            "final_value", "started", "ended", "duration_s", "exit_code", "message", "gpus");

    private static final Gson GSON = new GsonBuilder().serializeSpecialFloatingPointValues().create();

    private Csv() {
    }

    /** Writes both files into the folder, each atomically. */
    static void write(ExperimentResults r, Path dir) throws IOException {
        AtomicFiles.write(dir.resolve(TRIALS), out -> trials(r, out));
        AtomicFiles.write(dir.resolve(INTERMEDIATE), out -> intermediate(r, out));
        java.util.Optional<ParetoFront> front = ParetoFront.of(r);
        if (front.isPresent()) {
            AtomicFiles.write(dir.resolve(PARETO), out -> pareto(front.get(), out));
        }
    }

    /** The Pareto front's file, written when the experiment has objectives and a trial reported them. */
    static final String PARETO = "pareto.csv";

    /**
     * One row per trial of the Pareto front, in the front's order: {@code sequence, trial_job_id, parameter_id},
     * one column per objective headed by its metric, then the parameters as in {@code trials.csv}.
     */
    static void pareto(ParetoFront front, Writer out) throws IOException {
        List<List<String>> paths = Values.parameterPaths(front.trials());
        List<String> header = new ArrayList<>(List.of("sequence", "trial_job_id", "parameter_id"));
        Set<String> taken = new java.util.HashSet<>(header);
        for (var o : front.objectives()) {
            header.add(taken.add(o.metric()) ? o.metric() : "metric." + o.metric());
        }
        for (List<String> path : paths) {
            String name = Values.pathName(path);
            header.add(taken.add(name) ? name : "param." + name);
        }
        row(out, header);
        for (int i = 0; i < front.trials().size(); i++) {
            TrialRecord t = front.trials().get(i);
            List<String> row = new ArrayList<>(header.size());
            row.add(Integer.toString(t.sequence()));
            row.add(t.trialJobId());
            row.add(Long.toString(t.parameterId()));
            for (double v : front.values().get(i)) {
                row.add(Double.toString(v));
            }
            Map<List<String>, Object> flat = Values.flatten(t.parameters());
            for (List<String> path : paths) {
                row.add(field(flat.get(path)));
            }
            row(out, row);
        }
    }

    /**
     * One row per trial in order of sequence: {@link #TRIAL_COLUMNS}, then one column per parameter path of any
     * trial ({@code optimizer}, {@code optimizer.lr}; see {@link Values#flatten}); a parameter column named as a
     * fixed column is headed {@code param.NAME}. Numbers in full precision ({@code NaN}, {@code Infinity});
     * times in ISO-8601 UTC; a missing value is an empty field; a list, or a map under a path, is JSON.
     */
    static void trials(ExperimentResults r, Writer out) throws IOException {
        List<List<String>> paths = Values.parameterPaths(r.trials());
        List<String> header = new ArrayList<>(TRIAL_COLUMNS);
        Set<String> fixed = Set.copyOf(TRIAL_COLUMNS);
        for (List<String> path : paths) {
            String name = Values.pathName(path);
            header.add(fixed.contains(name) ? "param." + name : name);
        }
        row(out, header);
        for (TrialRecord t : r.trials()) {
            List<String> row = new ArrayList<>(header.size());
            row.add(Integer.toString(t.sequence()));
            row.add(t.trialJobId());
            row.add(Long.toString(t.parameterId()));
            row.add(t.status().name());
            row.add(t.finalValue() == null ? "" : t.finalValue().toString());
            row.add(t.started() == null ? "" : t.started().toString());
            row.add(t.ended() == null ? "" : t.ended().toString());
            row.add(Values.duration(t).map(d -> BigDecimal.valueOf(d.toMillis(), 3).toPlainString()).orElse(""));
            row.add(t.exitCode() == null ? "" : t.exitCode().toString());
            row.add(t.message());
            // as CUDA_VISIBLE_DEVICES had them: "0,2"; empty when none were given or GPUs were not scheduled
            row.add(t.gpus() == null ? "" : String.join(",", t.gpus().stream().map(String::valueOf).toList()));
            Map<List<String>, Object> flat = Values.flatten(t.parameters());
            for (List<String> path : paths) {
                row.add(field(flat.get(path)));
            }
            row(out, row);
        }
    }

    /** One row per intermediate result: trial_job_id, step (from 1 within its trial), value. */
    static void intermediate(ExperimentResults r, Writer out) throws IOException {
        row(out, List.of("trial_job_id", "step", "value"));
        for (TrialRecord t : r.trials()) {
            List<Double> values = t.intermediate();
            for (int i = 0; i < values.size(); i++) {
                row(out, List.of(t.trialJobId(), Integer.toString(i + 1), String.valueOf(values.get(i))));
            }
        }
    }

    private static String field(Object v) {
        if (v == null) {
            return "";
        }
        if (v instanceof String || v instanceof Number || v instanceof Boolean) {
            return v.toString();
        }
        return GSON.toJson(v);
    }

    /** A record: fields separated by commas, a field quoted when it holds a comma, a quote, CR or LF, CRLF after. */
    static void row(Writer out, List<String> fields) throws IOException {
        for (int i = 0; i < fields.size(); i++) {
            if (i > 0) {
                out.write(',');
            }
            out.write(quote(fields.get(i)));
        }
        out.write("\r\n");
    }

    static String quote(String field) {
        if (field == null) {
            return "";
        }
        for (int i = 0; i < field.length(); i++) {
            char c = field.charAt(i);
            if (c == ',' || c == '"' || c == '\r' || c == '\n') {
                return '"' + field.replace("\"", "\"\"") + '"';
            }
        }
        return field;
    }
}
