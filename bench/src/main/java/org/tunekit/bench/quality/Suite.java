package org.tunekit.bench.quality;

import static org.tunekit.demo.TestFunctions.box;
import static org.tunekit.demo.TestFunctions.coordinates;

import java.util.List;
import java.util.Map;
import org.tunekit.demo.TestFunction;
import org.tunekit.demo.TestFunctions;

/**
 * The functions of Tunekit's quality benchmark suite: the classic five (branin, hartmann6, ackley5,
 * mixed, nested: {@code tunekit demo}'s {@link TestFunctions}) and the high-dimensional set (rosenbrock8,
 * ackley10, styblinski10, rastrigin10, schwefel10, levy20), all with the standard definitions and
 * search boxes of the test-function literature (Surjanovic and Bingham's Virtual Library of
 * Simulation Experiments).
 */
public final class Suite {
    private Suite() {}

    /** The classic five functions of the suite, by name (the default of {@code tunekit-bench bench}). */
    public static Map<String, TestFunction> classic() {
        return TestFunctions.all();
    }

    /** The functions of 8 to 20 dimensions, by name: {@code tunekit-bench bench --suite highdim}. */
    public static Map<String, TestFunction> highDimensional() {
        return TestFunctions.byName(List.of(rosenbrock(8), TestFunctions.ackley(10), styblinskiTang(10), rastrigin(10), schwefel(10), levy(20)));
    }

    /** Every function of either set, by name: the classic five first. */
    public static Map<String, TestFunction> everything() {
        Map<String, TestFunction> m = classic();
        m.putAll(highDimensional());
        return m;
    }

    /**
     * Rosenbrock on the wide box [-5, 10]^d: sum over i &lt; d of 100 (x_{i+1} - x_i^2)^2 + (x_i - 1)^2;
     * minimum 0 at x = (1, ..., 1), at the bottom of a long curved valley.
     */
    public static TestFunction rosenbrock(int d) {
        return new TestFunction("rosenbrock" + d, box(d, -5, 10), 0, p -> {
            double[] x = coordinates(p, d);
            double f = 0;
            for (int i = 0; i + 1 < d; i++) {
                double a = x[i + 1] - x[i] * x[i];
                double b = x[i] - 1;
                f += 100 * a * a + b * b;
            }
            return f;
        });
    }

    /** The minimiser of one term of Styblinski-Tang, the negative root of 4 x^3 - 32 x + 5 = 0. */
    static final double STYBLINSKI_TANG_X = -2.903534027771177;

    /**
     * Styblinski-Tang on [-5, 5]^d: (1/2) sum x_i^4 - 16 x_i^2 + 5 x_i; minimum
     * -39.16616570377141 d at x_i = -2.903534027771177 (the value of one term computed in double precision).
     */
    public static TestFunction styblinskiTang(int d) {
        double x0 = STYBLINSKI_TANG_X;
        double term = 0.5 * (x0 * x0 * x0 * x0 - 16 * x0 * x0 + 5 * x0);
        return new TestFunction("styblinski" + d, box(d, -5, 5), d * term, p -> {
            double f = 0;
            for (double v : coordinates(p, d)) {
                f += v * v * v * v - 16 * v * v + 5 * v;
            }
            return 0.5 * f;
        });
    }

    /** Rastrigin on [-5.12, 5.12]^d: 10 d + sum x_i^2 - 10 cos(2 pi x_i); minimum 0 at the origin. */
    public static TestFunction rastrigin(int d) {
        return new TestFunction("rastrigin" + d, box(d, -5.12, 5.12), 0, p -> {
            double f = 10 * d;
            for (double v : coordinates(p, d)) {
                f += v * v - 10 * Math.cos(2 * Math.PI * v);
            }
            return f;
        });
    }

    /** The minimiser of one Schwefel term, x sin(sqrt|x|) at its maximum on [-500, 500]. */
    static final double SCHWEFEL_X = 420.968746359982;
    /** The maximum of x sin(sqrt|x|) on [-500, 500], attained at {@link #SCHWEFEL_X}. */
    static final double SCHWEFEL_TERM = SCHWEFEL_X * Math.sin(Math.sqrt(SCHWEFEL_X));

    /**
     * Schwefel on [-500, 500]^d: 418.9828872724337 d - sum x_i sin(sqrt|x_i|); minimum 0 at
     * x_i = 420.968746359982, near the edge of the box and far from the second-best local minima.
     * The constant is the maximum of one term computed in double precision, and values are clamped
     * at 0 so that rounding cannot give a negative regret.
     */
    public static TestFunction schwefel(int d) {
        return new TestFunction("schwefel" + d, box(d, -500, 500), 0, p -> {
            double f = 0;
            for (double v : coordinates(p, d)) {
                f += SCHWEFEL_TERM - v * Math.sin(Math.sqrt(Math.abs(v)));
            }
            return Math.max(0, f);
        });
    }

    /**
     * Levy on [-10, 10]^d with w_i = 1 + (x_i - 1) / 4: sin^2(pi w_1) + sum over i &lt; d of
     * (w_i - 1)^2 (1 + 10 sin^2(pi w_i + 1)) + (w_d - 1)^2 (1 + sin^2(2 pi w_d)); minimum 0 at x = (1, ..., 1).
     */
    public static TestFunction levy(int d) {
        return new TestFunction("levy" + d, box(d, -10, 10), 0, p -> {
            double[] x = coordinates(p, d);
            double[] w = new double[d];
            for (int i = 0; i < d; i++) {
                w[i] = 1 + (x[i] - 1) / 4;
            }
            double s0 = Math.sin(Math.PI * w[0]);
            double f = s0 * s0;
            for (int i = 0; i + 1 < d; i++) {
                double s = Math.sin(Math.PI * w[i] + 1);
                f += (w[i] - 1) * (w[i] - 1) * (1 + 10 * s * s);
            }
            double sd = Math.sin(2 * Math.PI * w[d - 1]);
            f += (w[d - 1] - 1) * (w[d - 1] - 1) * (1 + sd * sd);
            return f;
        });
    }
}
