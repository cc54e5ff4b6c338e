package org.tunekit.tuners.gp;

import java.util.Map;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.space.SearchSpace;

/**
 * Not a test: a quick loop that prints how long {@code GPTuner} takes per suggestion and per
 * 100-trial run (run it with {@code java -cp ... org.tunekit.tuners.gp.GpTimingLoop}).
 */
final class GpTimingLoop {
    private GpTimingLoop() {}

    static double hartmannLike(Parameters p) {
        double s = 0;
        for (int i = 0; i < 6; i++) {
            double v = p.getDouble("x" + i) - 0.1 * (i + 1);
            s += (i + 1) * v * v;
        }
        return s + 0.1 * Math.sin(10 * p.getDouble("x0"));
    }

    public static void main(String[] args) throws Exception {
        SearchSpace.Builder b = SearchSpace.builder();
        for (int i = 0; i < 6; i++) {
            b.uniform("x" + i, 0, 1);
        }
        SearchSpace space = b.build();
        java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
        for (int rep = 0; rep < 4; rep++) {
            long cpuStart = cpu.getCurrentThreadCpuTime();
            GpTuner t = GpTuner.create(ClassArguments.of(Map.of("seed", (long) rep, "optimize_mode", "minimize")));
            long start = System.nanoTime();
            t.updateSearchSpace(space);
            long suggestNanos = 0;
            for (long id = 0; id < 100; id++) {
                long s0 = System.nanoTime();
                Parameters p = t.generateParameters(id);
                suggestNanos += System.nanoTime() - s0;
                t.receiveTrialResult(new TrialResult(id, p, Metric.of(hartmannLike(p)), false, null));
                t.trialEnd(id, true);
            }
            long run = System.nanoTime() - start;
            long runCpu = cpu.getCurrentThreadCpuTime() - cpuStart;
            // per-suggestion time with n = 100 observations
            int reps = 20;
            long s1 = System.nanoTime();
            long c1 = cpu.getCurrentThreadCpuTime();
            for (int k = 0; k < reps; k++) {
                Parameters p = t.generateParameters(1000 + k);
                t.trialEnd(1000 + k, false);
            }
            long per = (System.nanoTime() - s1) / reps;
            long perCpu = (cpu.getCurrentThreadCpuTime() - c1) / reps;
            System.out.printf("run %d: 100-trial run %.2f s wall, %.2f s cpu (suggestions %.2f s wall); at n=100 one suggestion %.1f ms wall, %.1f ms cpu%n",
                    rep, run / 1e9, runCpu / 1e9, suggestNanos / 1e9, per / 1e6, perCpu / 1e6);
        }
    }
}
