package org.tunekit.tuners.tpe;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.space.SearchSpace;

/**
 * Quality and speed check of the TPE tuner on the HPO suite (branin, hartmann6, ackley5, mixed,
 * nested), run through the {@link Tuner} API in sequential and batch-8 mode; prints the median regret
 * after 25, 50 and 100 trials. Not a unit test: run its {@code main} by hand, optionally with the
 * number of seeds and extra class arguments as {@code key=value} (numbers, or tpe_args entries as
 * {@code tpe.gamma=0.3}).
 */
public final class TpeSuiteCheck {
    private TpeSuiteCheck() {}

    /** One benchmark function with its space and optimum. */
    record Problem(String name, SearchSpace space, ToDoubleFunction<Parameters> f, double optimum) {}

    /** Runs the suite. */
    public static void main(String[] args) throws Exception {
        if (args.length > 0 && "speed".equals(args[0])) {
            speed(args.length > 1 ? Integer.parseInt(args[1]) : 0);
            return;
        }
        int seeds = args.length > 0 ? Integer.parseInt(args[0]) : 30;
        Map<String, Object> classArgs = new LinkedHashMap<>();
        Map<String, Object> tpeArgs = new LinkedHashMap<>();
        for (int i = 1; i < args.length; i++) {
            String[] kv = args[i].split("=", 2);
            Object v = kv[1].equals("true") || kv[1].equals("false") ? (Object) Boolean.valueOf(kv[1])
                    : kv[1].matches("-?[0-9.eE+-]+") ? (Object) Double.valueOf(kv[1]) : kv[1];
            if (kv[0].startsWith("tpe.")) {
                tpeArgs.put(kv[0].substring(4), v instanceof Double d && d == Math.rint(d) && !kv[0].contains("weight")
                        && !kv[0].contains("gamma") ? (Object) d.longValue() : v);
            } else {
                classArgs.put(kv[0], v);
            }
        }
        if (!tpeArgs.isEmpty()) {
            classArgs.put("tpe_args", tpeArgs);
        }
        System.out.println("class arguments: " + classArgs + ", seeds 0.." + (seeds - 1));
        for (int batch : new int[] {1, 8}) {
            System.out.println(batch == 1 ? "sequential" : "batch of 8");
            for (Problem p : problems()) {
                double[][] regret = new double[3][seeds];
                long t0 = System.nanoTime();
                for (int seed = 0; seed < seeds; seed++) {
                    double[] r = run(p, seed, batch, classArgs);
                    regret[0][seed] = r[25 - 1];
                    regret[1][seed] = r[50 - 1];
                    regret[2][seed] = r[100 - 1];
                }
                long t1 = System.nanoTime();
                System.out.printf("  %-10s @25 %-10.3g @50 %-10.3g @100 %-10.3g [%.3g, %.3g] (%.1f ms per run)%n", p.name(),
                        median(regret[0]), median(regret[1]), median(regret[2]), quantile(regret[2], 0.25),
                        quantile(regret[2], 0.75), (t1 - t0) / 1e6 / seeds);
            }
        }
    }

    static double[] run(Problem p, long seed, int batch, Map<String, Object> classArgs) {
        Map<String, Object> a = new LinkedHashMap<>(classArgs);
        a.put("seed", seed);
        Tuner tuner = new TpeTunerProvider().create(ClassArguments.of(a));
        tuner.updateSearchSpace(p.space());
        double[] best = new double[100];
        double bestSoFar = Double.POSITIVE_INFINITY;
        int done = 0;
        long id = 0;
        while (done < 100) {
            int k = Math.min(batch, 100 - done);
            List<Long> ids = new ArrayList<>();
            for (int i = 0; i < k; i++) {
                ids.add(id++);
            }
            List<Parameters> ps;
            if (batch == 1) {
                try {
                    ps = List.of(tuner.generateParameters(ids.get(0)));
                } catch (NoMoreTrialsException e) {
                    ps = List.of();
                }
            } else {
                ps = tuner.generateMultipleParameters(ids);
            }
            if (ps.isEmpty()) {
                break;
            }
            for (int i = 0; i < ps.size(); i++) {
                double v = p.f().applyAsDouble(ps.get(i));
                tuner.receiveTrialResult(new TrialResult(ids.get(i), ps.get(i), Metric.of(v), false, null));
                tuner.trialEnd(ids.get(i), true);
                bestSoFar = Math.min(bestSoFar, v);
                best[done++] = bestSoFar - p.optimum();
            }
        }
        for (int i = done; i < 100; i++) {
            best[i] = bestSoFar - p.optimum();
        }
        return best;
    }

    /** The q-quantile with linear interpolation between order statistics. */
    static double quantile(double[] v, double q) {
        double[] s = v.clone();
        Arrays.sort(s);
        double pos = q * (s.length - 1);
        int lo = (int) Math.floor(pos);
        int hi = Math.min(s.length - 1, lo + 1);
        return s[lo] + (pos - lo) * (s[hi] - s[lo]);
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        int n = s.length;
        return n % 2 == 1 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
    }

    static void speed(int candidates) throws Exception {
        for (Problem h : List.of(problems().get(1), problems().get(3))) {
        for (int n : new int[] {100, 1000, 5000}) {
            Map<String, Object> a = new LinkedHashMap<>();
            a.put("seed", 1L);
            if (candidates > 0) {
                a.put("tpe_args", Map.of("n_ei_candidates", (long) candidates));
            }
            Tuner tuner = new TpeTunerProvider().create(ClassArguments.of(a));
            tuner.updateSearchSpace(h.space());
            java.util.SplittableRandom r = new java.util.SplittableRandom(5);
            List<org.tunekit.sdk.ImportedTrial> data = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                Parameters p = h.space().sample(r);
                data.add(new org.tunekit.sdk.ImportedTrial(p, Metric.of(h.f().applyAsDouble(p))));
            }
            tuner.importData(data);
            long id = 1_000_000;
            for (int i = 0; i < 2000; i++) { // warm-up, each result removed again
                tuner.generateParameters(id);
                tuner.trialEnd(id++, false);
            }
            int reps = 2000;
            java.lang.management.ThreadMXBean bean = java.lang.management.ManagementFactory.getThreadMXBean();
            long c0 = bean.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            for (int i = 0; i < reps; i++) {
                tuner.generateParameters(id);
                tuner.trialEnd(id++, false);
            }
            System.out.printf("%s n=%d: %.4f ms per suggestion (wall), %.4f ms (thread CPU)%n", h.name(), n,
                    (System.nanoTime() - t0) / 1e6 / reps, (bean.getCurrentThreadCpuTime() - c0) / 1e6 / reps);
        }
        }
    }

    static List<Problem> problems() {
        List<Problem> out = new ArrayList<>();
        out.add(new Problem("branin", SearchSpace.builder().uniform("x1", -5, 10).uniform("x2", 0, 15).build(), p -> {
            double x1 = p.getDouble("x1");
            double x2 = p.getDouble("x2");
            double b = 5.1 / (4 * Math.PI * Math.PI);
            double c = 5 / Math.PI;
            double t = 1 / (8 * Math.PI);
            double u = x2 - b * x1 * x1 + c * x1 - 6;
            return u * u + 10 * (1 - t) * Math.cos(x1) + 10;
        }, 0.397887357729738));
        double[] alpha = {1.0, 1.2, 3.0, 3.2};
        double[][] a = {{10, 3, 17, 3.5, 1.7, 8}, {0.05, 10, 17, 0.1, 8, 14}, {3, 3.5, 1.7, 10, 17, 8}, {17, 8, 0.05, 10, 0.1, 14}};
        double[][] pp = {{1312, 1696, 5569, 124, 8283, 5886}, {2329, 4135, 8307, 3736, 1004, 9991},
                {2348, 1451, 3522, 2883, 3047, 6650}, {4047, 8828, 8732, 5743, 1091, 381}};
        SearchSpace.Builder hb = SearchSpace.builder();
        for (int i = 1; i <= 6; i++) {
            hb.uniform("x" + i, 0, 1);
        }
        out.add(new Problem("hartmann6", hb.build(), p -> {
            double f = 0;
            for (int i = 0; i < 4; i++) {
                double s = 0;
                for (int j = 0; j < 6; j++) {
                    double d = p.getDouble("x" + (j + 1)) - pp[i][j] * 1e-4;
                    s += a[i][j] * d * d;
                }
                f -= alpha[i] * Math.exp(-s);
            }
            return f;
        }, -3.32236801141551));
        SearchSpace.Builder ab = SearchSpace.builder();
        for (int i = 1; i <= 5; i++) {
            ab.uniform("x" + i, -32.768, 32.768);
        }
        out.add(new Problem("ackley5", ab.build(), p -> {
            double sq = 0;
            double cs = 0;
            for (int i = 1; i <= 5; i++) {
                double x = p.getDouble("x" + i);
                sq += x * x;
                cs += Math.cos(2 * Math.PI * x);
            }
            return -20 * Math.exp(-0.2 * Math.sqrt(sq / 5)) - Math.exp(cs / 5) + 20 + Math.E;
        }, 0));
        SearchSpace mixed = SearchSpace.builder().loguniform("lr", 1e-5, 1).choice("batch_size", 16L, 32L, 64L, 128L, 256L)
                .randint("layers", 1, 9).choice("optimizer", "sgd", "adam", "rmsprop").quniform("dropout", 0, 0.8, 0.05).build();
        Map<String, Double> m = Map.of("sgd", -1.0, "adam", -3.0, "rmsprop", -2.5);
        Map<String, Double> pen = Map.of("sgd", 0.3, "adam", 0.0, "rmsprop", 0.1);
        out.add(new Problem("mixed", mixed, p -> {
            String opt = p.getString("optimizer");
            double lb = Math.log(p.getDouble("batch_size")) / Math.log(2) - 6;
            double u = Math.log10(p.getDouble("lr")) - m.get(opt) + 0.25 * lb;
            double dr = p.getDouble("dropout") - 0.25;
            double l = p.getLong("layers") - 5;
            return u * u + 0.1 * lb * lb + 0.05 * l * l + 4 * dr * dr + pen.get(opt);
        }, 0));
        Map<String, SearchSpace> options = new LinkedHashMap<>();
        options.put("linear", SearchSpace.builder().loguniform("alpha", 1e-4, 10).build());
        options.put("tree", SearchSpace.builder().randint("depth", 1, 16).qloguniform("min_leaf", 1, 100, 1).build());
        options.put("net", SearchSpace.builder().choice("width", 32L, 64L, 128L, 256L, 512L).loguniform("lr", 1e-5, 1e-1).build());
        SearchSpace nested = SearchSpace.builder().nestedChoice("model", options).build();
        out.add(new Problem("nested", nested, p -> {
            @SuppressWarnings("unchecked")
            Map<String, Object> model = (Map<String, Object>) p.get("model");
            Parameters q = Parameters.of(model);
            return switch (q.getString("_name")) {
                case "linear" -> {
                    double v = Math.log10(q.getDouble("alpha")) + 1;
                    yield 0.6 + 0.1 * v * v;
                }
                case "tree" -> {
                    double d = q.getLong("depth") - 9;
                    double l = Math.log10(q.getDouble("min_leaf")) - 1;
                    yield 0.3 + 0.02 * d * d + 0.05 * l * l;
                }
                default -> {
                    double w = Math.log(q.getDouble("width")) / Math.log(2) - 8;
                    double l = Math.log10(q.getDouble("lr")) + 3.5;
                    yield 0.05 * w * w + 0.3 * l * l;
                }
            };
        }, 0));
        return out;
    }
}
