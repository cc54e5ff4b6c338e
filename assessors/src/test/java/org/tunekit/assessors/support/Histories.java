package org.tunekit.assessors.support;

import java.util.ArrayList;
import java.util.List;
import org.tunekit.sdk.Metric;

/** Test histories written as numbers. */
public final class Histories {
    private Histories() {}

    /** A history of the given values. */
    public static List<Metric> of(double... values) {
        List<Metric> h = new ArrayList<>();
        for (double v : values) {
            h.add(Metric.of(v));
        }
        return h;
    }
}
