package org.tunekit.tuners.smac;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.ToDoubleFunction;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.space.SearchSpace;

/**
 * Not a test: a loop that prints how long one {@code SMAC} suggestion takes with n = 100, 1000
 * and 5000 results already known, on hartmann6 and on the mixed space of the benchmark suite (run
 * it with {@code java -cp ... org.tunekit.tuners.smac.SmacTimingLoop}). The results are imported,
 * so the first suggestion grows the forest on all of them; the following ones run as in an
 * experiment (each result reported before the next suggestion).
 */
final class SmacTimingLoop {
    private SmacTimingLoop() {}

    private static final double[] ALPHA = {1.0, 1.2, 3.0, 3.2};
    private static final double[][] A = {{10, 3, 17, 3.5, 1.7, 8}, {0.05, 10, 17, 0.1, 8, 14}, {3, 3.5, 1.7, 10, 17, 8}, {17, 8, 0.05, 10, 0.1, 14}};
    private static final double[][] P = {{1312, 1696, 5569, 124, 8283, 5886}, {2329, 4135, 8307, 3736, 1004, 9991},
        {2348, 1451, 3522, 2883, 3047, 6650}, {4047, 8828, 8732, 5743, 1091, 381}};

    static double hartmann6(Parameters p) {
        double f = 0;
        for (int i = 0; i < 4; i++) {
            double s = 0;
            for (int j = 0; j < 6; j++) {
                double d = p.getDouble("x" + (j + 1)) - 1e-4 * P[i][j];
                s += A[i][j] * d * d;
            }
            f -= ALPHA[i] * Math.exp(-s);
        }
        return f;
    }

    static double mixed(Parameters p) {
        String opt = (String) p.values().get("optimizer");
        double m = opt.equals("sgd") ? -1 : opt.equals("adam") ? -3 : -2.5;
        double pen = opt.equals("sgd") ? 0.3 : opt.equals("adam") ? 0 : 0.1;
        double lb = Math.log(((Number) p.values().get("batch_size")).doubleValue()) / Math.log(2) - 6;
        double u = Math.log10(p.getDouble("lr")) - m + 0.25 * lb;
        double layers = ((Number) p.values().get("layers")).doubleValue();
        double dropout = p.getDouble("dropout");
        return u * u + 0.1 * lb * lb + 0.05 * (layers - 5) * (layers - 5) + 4 * (dropout - 0.25) * (dropout - 0.25) + pen;
    }

    public static void main(String[] args) throws Exception {
        SearchSpace.Builder h = SearchSpace.builder();
        for (int i = 1; i <= 6; i++) {
            h.uniform("x" + i, 0, 1);
        }
        SearchSpace mixedSpace = SearchSpace.builder()
                .loguniform("lr", 1e-5, 1)
                .choice("batch_size", 16L, 32L, 64L, 128L, 256L)
                .randint("layers", 1, 9)
                .choice("optimizer", "sgd", "adam", "rmsprop")
                .quniform("dropout", 0, 0.8, 0.05)
                .build();
        for (int round = 0; round < 2; round++) {
            System.out.println(round == 0 ? "warm-up round:" : "measured round:");
            for (int n : new int[] {100, 1000, 5000}) {
                time("hartmann6", h.build(), SmacTimingLoop::hartmann6, n);
                time("mixed", mixedSpace, SmacTimingLoop::mixed, n);
            }
        }
    }

    private static void time(String name, SearchSpace space, ToDoubleFunction<Parameters> f, int n) throws Exception {
        SmacTuner t = SmacTuner.create(ClassArguments.of(Map.of("seed", 1L, "optimize_mode", "minimize", "random_interleave", 0L)));
        t.updateSearchSpace(space);
        SplittableRandom rng = new SplittableRandom(n);
        List<ImportedTrial> data = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Parameters p = space.sample(rng);
            data.add(new ImportedTrial(p, Metric.of(f.applyAsDouble(p))));
        }
        t.importData(data);
        long s0 = System.nanoTime();
        Parameters first = t.generateParameters(0);
        long firstNanos = System.nanoTime() - s0;
        t.receiveTrialResult(new TrialResult(0, first, Metric.of(f.applyAsDouble(first)), false, null));
        int reps = 30;
        long[] each = new long[reps];
        for (int k = 0; k < reps; k++) {
            long s = System.nanoTime();
            Parameters p = t.generateParameters(k + 1);
            each[k] = System.nanoTime() - s;
            t.receiveTrialResult(new TrialResult(k + 1, p, Metric.of(f.applyAsDouble(p)), false, null));
        }
        Arrays.sort(each);
        System.out.printf("%-9s n=%5d: first suggestion (grows the forest) %8.1f ms; then median %6.1f ms, max %6.1f ms%n",
                name, n, firstNanos / 1e6, each[reps / 2] / 1e6, each[reps - 1] / 1e6);
    }
}
