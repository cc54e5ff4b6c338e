package org.tunekit.tuners.unitcube;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.sdk.spi.TunerProvider;

/**
 * Not a test: runs the unit-cube tuners on a few functions of the HPO suite for a handful of seeds
 * and prints median regret after 25/50/100 trials and CPU seconds per run. Arguments: tuner names
 * (default all three), then optionally {@code seeds=N} and {@code batch=B}.
 */
final class UnitCubeSuiteLoop {
    private UnitCubeSuiteLoop() {}

    record Problem(String name, SearchSpace space, ToDoubleFunction<Parameters> f, double optimum) {}

    static List<Problem> problems() {
        List<Problem> out = new ArrayList<>();
        out.add(new Problem("branin", SearchSpace.builder().uniform("x1", -5, 10).uniform("x2", 0, 15).build(), p -> {
            double x1 = p.getDouble("x1");
            double x2 = p.getDouble("x2");
            double b = 5.1 / (4 * Math.PI * Math.PI);
            double c = 5 / Math.PI;
            double t = 1 / (8 * Math.PI);
            double v = x2 - b * x1 * x1 + c * x1 - 6;
            return v * v + 10 * (1 - t) * Math.cos(x1) + 10;
        }, 0.397887357729738));
        SearchSpace.Builder h = SearchSpace.builder();
        for (int i = 1; i <= 6; i++) {
            h.uniform("x" + i, 0, 1);
        }
        double[] alpha = {1.0, 1.2, 3.0, 3.2};
        double[][] a = {{10, 3, 17, 3.5, 1.7, 8}, {0.05, 10, 17, 0.1, 8, 14}, {3, 3.5, 1.7, 10, 17, 8}, {17, 8, 0.05, 10, 0.1, 14}};
        double[][] pp = {{1312, 1696, 5569, 124, 8283, 5886}, {2329, 4135, 8307, 3736, 1004, 9991},
                {2348, 1451, 3522, 2883, 3047, 6650}, {4047, 8828, 8732, 5743, 1091, 381}};
        out.add(new Problem("hartmann6", h.build(), p -> {
            double s = 0;
            for (int i = 0; i < 4; i++) {
                double e = 0;
                for (int j = 0; j < 6; j++) {
                    double d = p.getDouble("x" + (j + 1)) - 1e-4 * pp[i][j];
                    e += a[i][j] * d * d;
                }
                s += alpha[i] * Math.exp(-e);
            }
            return -s;
        }, -3.32236801141551));
        SearchSpace mixed = SearchSpace.builder().loguniform("lr", 1e-5, 1).choice("batch_size", 16, 32, 64, 128, 256)
                .randint("layers", 1, 9).choice("optimizer", "sgd", "adam", "rmsprop").quniform("dropout", 0, 0.8, 0.05).build();
        Map<String, Double> m = Map.of("sgd", -1.0, "adam", -3.0, "rmsprop", -2.5);
        Map<String, Double> pen = Map.of("sgd", 0.3, "adam", 0.0, "rmsprop", 0.1);
        out.add(new Problem("mixed", mixed, p -> {
            String o = p.getString("optimizer");
            double lb = Math.log(p.getDouble("batch_size")) / Math.log(2) - 6;
            double u = Math.log10(p.getDouble("lr")) - m.get(o) + 0.25 * lb;
            double layers = p.getDouble("layers") - 5;
            double d = p.getDouble("dropout") - 0.25;
            return u * u + 0.1 * lb * lb + 0.05 * layers * layers + 4 * d * d + pen.get(o);
        }, 0));
        Map<String, SearchSpace> options = new LinkedHashMap<>();
        options.put("linear", SearchSpace.builder().loguniform("alpha", 1e-4, 10).build());
        options.put("tree", SearchSpace.builder().randint("depth", 1, 16).qloguniform("min_leaf", 1, 100, 1).build());
        options.put("net", SearchSpace.builder().choice("width", 32, 64, 128, 256, 512).loguniform("lr", 1e-5, 1e-1).build());
        out.add(new Problem("nested", SearchSpace.builder().nestedChoice("model", options).build(), p -> {
            Map<?, ?> v = (Map<?, ?>) p.get("model");
            Parameters q = Parameters.of((Map<String, Object>) v);
            return switch (q.getString("_name")) {
                case "linear" -> 0.6 + 0.1 * Math.pow(Math.log10(q.getDouble("alpha")) + 1, 2);
                case "tree" -> 0.3 + 0.02 * Math.pow(q.getDouble("depth") - 9, 2) + 0.05 * Math.pow(Math.log10(q.getDouble("min_leaf")) - 1, 2);
                default -> 0.05 * Math.pow(Math.log(q.getDouble("width")) / Math.log(2) - 8, 2) + 0.3 * Math.pow(Math.log10(q.getDouble("lr")) + 3.5, 2);
            };
        }, 0));
        return out;
    }

    public static void main(String[] args) throws Exception {
        List<String> names = new ArrayList<>();
        int seeds = 5;
        int batch = 1;
        for (String s : args) {
            if (s.startsWith("seeds=")) {
                seeds = Integer.parseInt(s.substring(6));
            } else if (s.startsWith("batch=")) {
                batch = Integer.parseInt(s.substring(6));
            } else {
                names.add(s);
            }
        }
        if (names.isEmpty()) {
            names = List.of("GPTuner", "CMAES", "Sobol");
        }
        Map<String, TunerProvider> providers = new LinkedHashMap<>();
        java.util.ServiceLoader.load(TunerProvider.class).forEach(p -> providers.put(p.name(), p));
        java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
        for (String name : names) {
            for (Problem problem : problems()) {
                List<Double> r25 = new ArrayList<>();
                List<Double> r50 = new ArrayList<>();
                List<Double> r100 = new ArrayList<>();
                double cpuTotal = 0;
                for (int seed = 0; seed < seeds; seed++) {
                    Tuner t = providers.get(name).create(ClassArguments.of(Map.of("seed", (long) seed, "optimize_mode", "minimize")));
                    long c0 = cpu.getCurrentThreadCpuTime();
                    long evalNanos = 0;
                    t.updateSearchSpace(problem.space());
                    double best = Double.POSITIVE_INFINITY;
                    long id = 0;
                    while (id < 100) {
                        List<Long> ids = new ArrayList<>();
                        for (int k = 0; k < batch && id + k < 100; k++) {
                            ids.add(id + k);
                        }
                        List<Parameters> ps = t.generateMultipleParameters(ids);
                        if (ps.isEmpty()) {
                            break;
                        }
                        for (int k = 0; k < ps.size(); k++) {
                            long e0 = cpu.getCurrentThreadCpuTime();
                            double f = problem.f().applyAsDouble(ps.get(k));
                            evalNanos += cpu.getCurrentThreadCpuTime() - e0;
                            best = Math.min(best, f);
                            long trial = ids.get(k);
                            if (trial + 1 == 25) r25.add(best - problem.optimum());
                            if (trial + 1 == 50) r50.add(best - problem.optimum());
                            if (trial + 1 == 100) r100.add(best - problem.optimum());
                        }
                        for (int k = 0; k < ps.size(); k++) {
                            t.receiveTrialResult(new TrialResult(ids.get(k), ps.get(k),
                                    Metric.of(problem.f().applyAsDouble(ps.get(k))), false, null));
                            t.trialEnd(ids.get(k), true);
                        }
                        id += ps.size();
                    }
                    cpuTotal += (cpu.getCurrentThreadCpuTime() - c0 - 2 * evalNanos) / 1e9;
                }
                System.out.printf("%-8s %-10s batch %d: regret@25 %.3g  @50 %.3g  @100 %.3g   cpu/run %.2f s%n", name, problem.name(), batch,
                        UnitCubeTunerContract.median(r25), UnitCubeTunerContract.median(r50), UnitCubeTunerContract.median(r100), cpuTotal / seeds);
            }
        }
    }
}
