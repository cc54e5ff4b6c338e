package org.tunekit.bench.quality;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The runs of one benchmark, grouped by (tuner, function, mode), with the order the outputs use:
 * tuners, functions and modes as they were asked for, seeds ascending.
 *
 * @param tuners    tuner labels in order
 * @param functions function names in order
 * @param modes     modes in order
 * @param trials    the budget of every run
 * @param runs      every run
 */
record Results(List<String> tuners, List<String> functions, List<Mode> modes, int trials, List<RunResult> runs) {

    Results {
        tuners = List.copyOf(tuners);
        functions = List.copyOf(functions);
        modes = List.copyOf(modes);
        runs = List.copyOf(runs);
    }

    /** The runs of one tuner on one function in one mode, by ascending seed. */
    List<RunResult> runs(String tuner, String function, Mode mode) {
        List<RunResult> out = new ArrayList<>();
        for (RunResult r : runs) {
            RunKey k = r.key();
            if (k.tuner().equals(tuner) && k.function().equals(function) && k.mode() == mode) {
                out.add(r);
            }
        }
        out.sort((a, b) -> Long.compare(a.key().seed(), b.key().seed()));
        return out;
    }

    /** The successful runs of one group. */
    List<RunResult> succeeded(String tuner, String function, Mode mode) {
        return runs(tuner, function, mode).stream().filter(RunResult::succeeded).toList();
    }

    /** Quartiles over seeds of the regret after {@code trials} trials, or {@code null} when no run succeeded. */
    Quantiles regretAfter(String tuner, String function, Mode mode, int trials) {
        List<RunResult> ok = succeeded(tuner, function, mode);
        if (ok.isEmpty()) {
            return null;
        }
        double[] v = new double[ok.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = ok.get(i).regretAfter(trials);
        }
        return Quantiles.of(v);
    }

    /** Quartiles over seeds after every trial 1..budget, or an empty list when no run succeeded. */
    List<Quantiles> curve(String tuner, String function, Mode mode) {
        List<RunResult> ok = succeeded(tuner, function, mode);
        List<Quantiles> out = new ArrayList<>(trials);
        if (ok.isEmpty()) {
            return out;
        }
        double[] v = new double[ok.size()];
        for (int t = 1; t <= trials; t++) {
            for (int i = 0; i < v.length; i++) {
                v[i] = ok.get(i).regretAfter(t);
            }
            out.add(Quantiles.of(v));
        }
        return out;
    }

    /** Mean seconds inside the tuner per successful run, or NaN when none succeeded. */
    double meanTunerSeconds(String tuner, String function, Mode mode) {
        return succeeded(tuner, function, mode).stream().mapToLong(RunResult::tunerNanos).average().orElse(Double.NaN) / 1e9;
    }

    /** Distinct failure messages of one group, with how many runs failed that way. */
    Map<String, Integer> failures(String tuner, String function, Mode mode) {
        Map<String, Integer> m = new LinkedHashMap<>();
        for (RunResult r : runs(tuner, function, mode)) {
            if (!r.succeeded()) {
                m.merge(r.failure(), 1, Integer::sum);
            }
        }
        return m;
    }

    /** The trial counts the summary reports: 25, 50 and 100 where within the budget, and the budget itself. */
    List<Integer> checkpoints() {
        List<Integer> c = new ArrayList<>();
        for (int t : new int[] {25, 50, 100}) {
            if (t < trials) {
                c.add(t);
            }
        }
        c.add(trials);
        return c;
    }
}
