package org.tunekit.bench.multiobjective;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.hipparchus.special.Gamma;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.objectives.Hypervolume;
import org.tunekit.sdk.objectives.Pareto;
import org.tunekit.sdk.space.SearchSpace;

/**
 * The benchmark's problems. ZDT1, ZDT2 and ZDT3 are Zitzler, Deb and Thiele's (2000) with
 * {@value #ZDT_VARIABLES} variables (the paper has 30), DTLZ2 is Deb, Thiele, Laumanns and
 * Zitzler's (2002) with 3 objectives and 12 variables and with 4 objectives and 13 (k = 10, the
 * paper's setting), all variables {@code uniform} on [0, 1]. {@code mixed} is this benchmark's own:
 * a model {@code choice}, a {@code randint} depth, a {@code loguniform} learning rate and a
 * {@code quniform} dropout, trading error against cost; its front is a finite set of points,
 * computed exactly.
 */
final class Problems {
    static final int ZDT_VARIABLES = 10;
    static final int DTLZ_K = 10;
    /** Points per unit of f1 used to measure the continuous ZDT fronts (their hypervolume is then exact to about 1e-6). */
    private static final int FRONT_SAMPLES = 200_000;

    private Problems() {}

    /** Every problem, by name, in the order of the results. */
    static Map<String, Problem> all() {
        Map<String, Problem> m = new LinkedHashMap<>();
        for (Problem p : List.of(zdt(1), zdt(2), zdt(3), dtlz2(), dtlz2(4), mixed())) {
            m.put(p.name(), p);
        }
        return m;
    }

    private static SearchSpace unitCube(int n) {
        Map<String, Object> def = new LinkedHashMap<>();
        for (int i = 1; i <= n; i++) {
            def.put("x" + i, Map.of("_type", "uniform", "_value", List.of(0, 1)));
        }
        return SearchSpace.parse(def);
    }

    private static double[] vector(Parameters p, int n) {
        double[] x = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = p.getDouble("x" + (i + 1));
        }
        return x;
    }

    /** ZDT1, 2 or 3: f1 = x1, g = 1 + 9 mean(x2..xn), f2 = g h(f1, g); the front is g = 1. */
    static Problem zdt(int which) {
        int n = ZDT_VARIABLES;
        double[] reference = {1.1, 10};
        // the true front: f2 = h(f1, 1) for f1 in [0, 1], non-dominated part (ZDT3's is disconnected)
        double[][] front = new double[FRONT_SAMPLES + 1][];
        for (int i = 0; i <= FRONT_SAMPLES; i++) {
            double f1 = (double) i / FRONT_SAMPLES;
            front[i] = new double[] {f1, h(which, f1, 1)};
        }
        double trueHv = Hypervolume.of(front, reference);
        String shape = switch (which) {
            case 1 -> "convex front f2 = 1 - sqrt(f1)";
            case 2 -> "concave front f2 = 1 - f1^2";
            default -> "front of five disconnected pieces of f2 = 1 - sqrt(f1) - f1 sin(10 pi f1)";
        };
        return new Problem("zdt" + which, "ZDT" + which + ", " + n + " variables uniform on [0, 1], " + shape,
                unitCube(n), List.of("f1", "f2"), p -> {
                    double[] x = vector(p, n);
                    double s = 0;
                    for (int i = 1; i < n; i++) {
                        s += x[i];
                    }
                    double g = 1 + 9 * s / (n - 1);
                    return new double[] {x[0], g * h(which, x[0], g)};
                }, reference, trueHv);
    }

    private static double h(int which, double f1, double g) {
        double r = f1 / g;
        return switch (which) {
            case 1 -> 1 - Math.sqrt(r);
            case 2 -> 1 - r * r;
            default -> 1 - Math.sqrt(r) - r * Math.sin(10 * Math.PI * f1);
        };
    }

    /** DTLZ2 with 3 objectives: the front is the positive octant of the unit sphere. */
    static Problem dtlz2() {
        return dtlz2(3);
    }

    /**
     * DTLZ2 with {@code m} objectives and {@code m + k - 1} variables: f_i = (1 + g) times a product of
     * cosines and a sine of the first {@code m - 1} variables (times pi / 2), g the squared distance of
     * the others from 0.5; the front is the part of the unit sphere where every objective is positive.
     * Named {@code dtlz2} for 3 objectives, {@code dtlz2-m} for others.
     */
    static Problem dtlz2(int m) {
        int n = m + DTLZ_K - 1;
        double[] reference = new double[m];
        Arrays.fill(reference, 2);
        // the region the front dominates inside the box [0, 2]^m is the box less the unit ball's positive orthant
        double ballOrthant = Math.pow(Math.PI, m / 2.0) / Gamma.gamma(m / 2.0 + 1) / Math.pow(2, m);
        double trueHv = Math.pow(2, m) - ballOrthant;
        List<String> names = new ArrayList<>();
        for (int i = 1; i <= m; i++) {
            names.add("f" + i);
        }
        String name = m == 3 ? "dtlz2" : "dtlz2-" + m;
        return new Problem(name, "DTLZ2, " + m + " objectives, " + n + " variables uniform on [0, 1], front the unit sphere's positive "
                + (m == 3 ? "octant" : "orthant"), unitCube(n), names, p -> {
                    double[] x = vector(p, n);
                    double g = 0;
                    for (int i = m - 1; i < n; i++) {
                        g += (x[i] - 0.5) * (x[i] - 0.5);
                    }
                    double[] f = new double[m];
                    for (int i = 0; i < m; i++) {
                        double v = 1 + g;
                        for (int j = 0; j < m - 1 - i; j++) {
                            v *= Math.cos(x[j] * Math.PI / 2);
                        }
                        if (i > 0) {
                            v *= Math.sin(x[m - 1 - i] * Math.PI / 2);
                        }
                        f[i] = v;
                    }
                    return f;
                }, reference, trueHv);
    }

    static final List<String> MODELS = List.of("small", "medium", "large");
    private static final double[] MODEL_ERROR = {0.5, 0.35, 0.25};
    private static final double[] MODEL_COST = {1, 2, 4};

    /**
     * A model-selection stand-in: error = base(model) + 0.3 / depth + 0.04 (log10 lr + 2.5)^2 +
     * (dropout - 0.2)^2, cost = cost(model) depth / 32, with depth a randint in [1, 8]. The best
     * error of each (model, depth) is at lr = 10^-2.5, dropout = 0.2 (both reachable), so the front
     * is the non-dominated subset of those 24 (error, cost) points.
     */
    static Problem mixed() {
        Map<String, Object> def = new LinkedHashMap<>();
        def.put("model", Map.of("_type", "choice", "_value", MODELS));
        def.put("depth", Map.of("_type", "randint", "_value", List.of(1, 9)));
        def.put("lr", Map.of("_type", "loguniform", "_value", List.of(1e-5, 1e-1)));
        def.put("dropout", Map.of("_type", "quniform", "_value", List.of(0, 0.6, 0.05)));
        double[] reference = {1.3, 1.1};
        List<double[]> best = new ArrayList<>();
        for (int model = 0; model < MODELS.size(); model++) {
            for (int depth = 1; depth <= 8; depth++) {
                best.add(new double[] {MODEL_ERROR[model] + 0.3 / depth, MODEL_COST[model] * depth / 32});
            }
        }
        double[][] points = best.toArray(new double[0][]);
        double[][] front = new double[Pareto.nondominated(points).length][];
        int k = 0;
        for (int i : Pareto.nondominated(points)) {
            front[k++] = points[i];
        }
        double trueHv = Hypervolume.of(front, reference);
        return new Problem("mixed", "mixed: model choice of 3, depth randint [1, 8], lr loguniform [1e-5, 0.1], dropout quniform [0, 0.6] step 0.05; "
                + "error against cost, front of " + front.length + " points", SearchSpace.parse(def), List.of("error", "cost"), p -> {
                    int model = MODELS.indexOf(p.getString("model"));
                    long depth = p.getLong("depth");
                    double lr = p.getDouble("lr");
                    double dropout = p.getDouble("dropout");
                    double l = Math.log10(lr) + 2.5;
                    double error = MODEL_ERROR[model] + 0.3 / depth + 0.04 * l * l + (dropout - 0.2) * (dropout - 0.2);
                    return new double[] {error, MODEL_COST[model] * depth / 32};
                }, reference, trueHv);
    }
}
