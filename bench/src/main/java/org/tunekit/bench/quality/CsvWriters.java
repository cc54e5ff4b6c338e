package org.tunekit.bench.quality;

import java.io.IOException;
import java.util.Locale;

/** The two CSV outputs: best-so-far regret per trial ({@code regret.csv}) and one line per run ({@code runs.csv}). */
public final class CsvWriters {
    static final String REGRET_HEADER = "tuner,function,mode,seed,trial,best_so_far_regret";
    static final String RUNS_HEADER = "tuner,function,mode,seed,evaluated,tuner_seconds,failure";

    private CsvWriters() {}

    /**
     * One row per successful run and trial (1-based), runs in the order of {@code results}. The regret
     * is written with {@link Double#toString(double)}, which reads back to the same double.
     */
    static void writeRegret(Results results, Appendable out) throws IOException {
        out.append(REGRET_HEADER).append('\n');
        for (String tuner : results.tuners()) {
            for (String function : results.functions()) {
                for (Mode mode : results.modes()) {
                    for (RunResult r : results.succeeded(tuner, function, mode)) {
                        String prefix = field(tuner) + ',' + field(function) + ',' + mode.label() + ',' + r.key().seed() + ',';
                        for (int t = 1; t <= results.trials(); t++) {
                            out.append(prefix).append(Integer.toString(t)).append(',').append(Double.toString(r.regretAfter(t))).append('\n');
                        }
                    }
                }
            }
        }
    }

    /** One row per run, failed ones included: how many trials it evaluated, its tuner time and any failure. */
    static void writeRuns(Results results, Appendable out) throws IOException {
        out.append(RUNS_HEADER).append('\n');
        for (String tuner : results.tuners()) {
            for (String function : results.functions()) {
                for (Mode mode : results.modes()) {
                    for (RunResult r : results.runs(tuner, function, mode)) {
                        out.append(field(tuner)).append(',').append(field(function)).append(',').append(mode.label()).append(',')
                                .append(Long.toString(r.key().seed())).append(',').append(Integer.toString(r.evaluated())).append(',')
                                .append(String.format(Locale.ROOT, "%.6f", r.tunerNanos() / 1e9)).append(',')
                                .append(r.failure() == null ? "" : field(r.failure())).append('\n');
                    }
                }
            }
        }
    }

    /** A CSV field, quoted (RFC 4180) when it holds a comma, a quote or a line break. */
    public static String field(String s) {
        if (s.indexOf(',') < 0 && s.indexOf('"') < 0 && s.indexOf('\n') < 0 && s.indexOf('\r') < 0) {
            return s;
        }
        return '"' + s.replace("\"", "\"\"") + '"';
    }
}
