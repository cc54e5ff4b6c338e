package org.tunekit.assessors.support;

import java.util.List;
import org.tunekit.sdk.Metric;

/** Turns a trial's intermediate history into plain numbers. */
public final class MetricValues {
    private MetricValues() {}

    /** The values of {@code history}, in order. */
    public static double[] of(List<Metric> history) {
        double[] values = new double[history.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = history.get(i).value();
        }
        return values;
    }
}
