package org.tunekit.sdk;

import java.util.Locale;

/** Whether a larger or a smaller metric is better (NNI's {@code optimize_mode} class argument). */
public enum OptimizeMode {
    /** Larger metrics are better. */
    MAXIMIZE,
    /** Smaller metrics are better. */
    MINIMIZE;

    /**
     * Reads {@code optimize_mode} from class arguments ({@code "maximize"} or {@code "minimize"}).
     *
     * @param arguments the class arguments
     * @param fallback  the mode when the argument is absent
     */
    public static OptimizeMode from(ClassArguments arguments, OptimizeMode fallback) {
        String v = arguments.getString("optimize_mode", null);
        if (v == null) {
            return fallback;
        }
        return switch (v.toLowerCase(Locale.ROOT)) {
            case "maximize" -> MAXIMIZE;
            case "minimize" -> MINIMIZE;
            default -> throw new InvalidClassArgumentException(
                    "class argument 'optimize_mode' must be \"maximize\" or \"minimize\", got \"" + v + "\"");
        };
    }

    /** The metric turned into a loss: smaller is always better. */
    public double toLoss(double metric) {
        return this == MAXIMIZE ? -metric : metric;
    }

    /** True when {@code a} is strictly better than {@code b}. */
    public boolean isBetter(double a, double b) {
        return this == MAXIMIZE ? a > b : a < b;
    }
}
