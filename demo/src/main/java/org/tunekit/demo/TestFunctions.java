package org.tunekit.demo;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tunekit.sdk.Parameters;

/**
 * The functions {@code tunekit demo} minimises: branin, hartmann6, ackley5, mixed and nested, with the
 * standard definitions and search boxes of the test-function literature (Surjanovic and Bingham's
 * Virtual Library of Simulation Experiments). They are also the classic five of the quality
 * benchmark, whose suite ({@code org.tunekit.bench.quality.Suite} in the bench module) adds functions
 * of 8 to 20 dimensions built with {@link #box} and {@link #coordinates}.
 */
public final class TestFunctions {
    private TestFunctions() {}

    /** The five functions, by name, in the order {@code tunekit demo --help} lists them. */
    public static Map<String, TestFunction> all() {
        return byName(List.of(branin(), hartmann6(), ackley5(), mixed(), nested()));
    }

    /** The functions by name, in their order. */
    public static Map<String, TestFunction> byName(List<TestFunction> functions) {
        Map<String, TestFunction> m = new LinkedHashMap<>();
        for (TestFunction o : functions) {
            m.put(o.name(), o);
        }
        return m;
    }

    /** A box {@code [low, high]^d} of uniform parameters {@code x1 .. xd}. */
    public static Map<String, Object> box(int d, double low, double high) {
        Map<String, Object> space = new LinkedHashMap<>();
        for (int j = 1; j <= d; j++) {
            space.put("x" + j, spec("uniform", low, high));
        }
        return space;
    }

    /** The values of {@code x1 .. xd}, the point in a {@link #box}. */
    public static double[] coordinates(Parameters p, int d) {
        double[] x = new double[d];
        for (int j = 0; j < d; j++) {
            x[j] = p.getDouble("x" + (j + 1));
        }
        return x;
    }

    private static Map<String, Object> spec(String type, Object... values) {
        return Map.of("_type", type, "_value", List.of(values));
    }

    /** Branin on x1 in [-5, 10], x2 in [0, 15]; minimum 0.397887357729738. */
    public static TestFunction branin() {
        Map<String, Object> space = new LinkedHashMap<>();
        space.put("x1", spec("uniform", -5.0, 10.0));
        space.put("x2", spec("uniform", 0.0, 15.0));
        return new TestFunction("branin", space, 0.397887357729738, p -> {
            double x1 = p.getDouble("x1");
            double x2 = p.getDouble("x2");
            double b = 5.1 / (4 * Math.PI * Math.PI);
            double c = 5 / Math.PI;
            double t = 1 / (8 * Math.PI);
            double u = x2 - b * x1 * x1 + c * x1 - 6;
            return u * u + 10 * (1 - t) * Math.cos(x1) + 10;
        });
    }

    private static final double[] H_ALPHA = {1.0, 1.2, 3.0, 3.2};
    private static final double[][] H_A = {
        {10, 3, 17, 3.5, 1.7, 8}, {0.05, 10, 17, 0.1, 8, 14}, {3, 3.5, 1.7, 10, 17, 8}, {17, 8, 0.05, 10, 0.1, 14}};
    private static final double[][] H_P = {
        {1312, 1696, 5569, 124, 8283, 5886}, {2329, 4135, 8307, 3736, 1004, 9991},
        {2348, 1451, 3522, 2883, 3047, 6650}, {4047, 8828, 8732, 5743, 1091, 381}};

    /** Hartmann 6-d on the unit cube; minimum -3.32236801141551. */
    public static TestFunction hartmann6() {
        Map<String, Object> space = new LinkedHashMap<>();
        for (int j = 1; j <= 6; j++) {
            space.put("x" + j, spec("uniform", 0.0, 1.0));
        }
        return new TestFunction("hartmann6", space, -3.32236801141551, p -> {
            double f = 0;
            for (int i = 0; i < 4; i++) {
                double s = 0;
                for (int j = 0; j < 6; j++) {
                    double d = p.getDouble("x" + (j + 1)) - H_P[i][j] * 1e-4;
                    s += H_A[i][j] * d * d;
                }
                f -= H_ALPHA[i] * Math.exp(-s);
            }
            return f;
        });
    }

    /** Ackley 5-d on [-32.768, 32.768]^5; minimum 0. */
    public static TestFunction ackley5() {
        return ackley(5);
    }

    /** Ackley on [-32.768, 32.768]^d with a = 20, b = 0.2, c = 2 pi; minimum 0 at the origin. */
    public static TestFunction ackley(int d) {
        return new TestFunction("ackley" + d, box(d, -32.768, 32.768), 0, p -> {
            double[] x = coordinates(p, d);
            double sq = 0;
            double cs = 0;
            for (double v : x) {
                sq += v * v;
                cs += Math.cos(2 * Math.PI * v);
            }
            return -20 * Math.exp(-0.2 * Math.sqrt(sq / d)) - Math.exp(cs / d) + 20 + Math.E;
        });
    }

    /** A 5-d space mixing log, categorical, integer and quantised parameters; minimum 0. */
    public static TestFunction mixed() {
        Map<String, Object> space = new LinkedHashMap<>();
        space.put("lr", spec("loguniform", 1e-5, 1.0));
        space.put("batch_size", spec("choice", 16L, 32L, 64L, 128L, 256L));
        space.put("layers", spec("randint", 1L, 9L));
        space.put("optimizer", spec("choice", "sgd", "adam", "rmsprop"));
        space.put("dropout", spec("quniform", 0.0, 0.8, 0.05));
        Map<String, Double> m = Map.of("sgd", -1.0, "adam", -3.0, "rmsprop", -2.5);
        Map<String, Double> pen = Map.of("sgd", 0.3, "adam", 0.0, "rmsprop", 0.1);
        return new TestFunction("mixed", space, 0, p -> {
            String opt = p.getString("optimizer");
            double lb = Math.log(p.getDouble("batch_size")) / Math.log(2) - 6;
            double u = Math.log10(p.getDouble("lr")) - m.get(opt) + 0.25 * lb;
            double d = p.getDouble("dropout") - 0.25;
            double l = p.getDouble("layers") - 5;
            return u * u + 0.1 * lb * lb + 0.05 * l * l + 4 * d * d + pen.get(opt);
        });
    }

    /** A conditional space (nested choice of three models); minimum 0. */
    public static TestFunction nested() {
        Map<String, Object> linear = new LinkedHashMap<>();
        linear.put("_name", "linear");
        linear.put("alpha", spec("loguniform", 1e-4, 10.0));
        Map<String, Object> tree = new LinkedHashMap<>();
        tree.put("_name", "tree");
        tree.put("depth", spec("randint", 1L, 16L));
        tree.put("min_leaf", spec("qloguniform", 1.0, 100.0, 1.0));
        Map<String, Object> net = new LinkedHashMap<>();
        net.put("_name", "net");
        net.put("width", spec("choice", 32L, 64L, 128L, 256L, 512L));
        net.put("lr", spec("loguniform", 1e-5, 1e-1));
        Map<String, Object> space = new LinkedHashMap<>();
        space.put("model", Map.of("_type", "choice", "_value", List.of(linear, tree, net)));
        return new TestFunction("nested", space, 0, p -> {
            @SuppressWarnings("unchecked")
            Parameters m = Parameters.of((Map<String, Object>) p.get("model"));
            switch (m.getString("_name")) {
                case "linear": {
                    double a = Math.log10(m.getDouble("alpha")) + 1;
                    return 0.6 + 0.1 * a * a;
                }
                case "tree": {
                    double d = m.getDouble("depth") - 9;
                    double l = Math.log10(m.getDouble("min_leaf")) - 1;
                    return 0.3 + 0.02 * d * d + 0.05 * l * l;
                }
                default: {
                    double w = Math.log(m.getDouble("width")) / Math.log(2) - 8;
                    double r = Math.log10(m.getDouble("lr")) + 3.5;
                    return 0.05 * w * w + 0.3 * r * r;
                }
            }
        });
    }
}
