package org.tunekit.assessors;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.AssessResult;
import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.spi.AssessorProvider;

/**
 * Every built-in assessor judges the {@code default} metric of a metric object: trials that report
 * {@code {"default": v, "latency": ..., "accuracy": ...}} get the same verdicts as trials that report v.
 */
class SeveralObjectivesTest {

    /** Arguments each assessor needs beyond its defaults. */
    private static final Map<String, Map<String, Object>> ARGUMENTS = Map.of(
            "Threshold", Map.of("optimize_mode", "minimize", "upper", 2.0),
            "Curvefitting", Map.of("optimize_mode", "minimize", "epoch_num", 12),
            "Patience", Map.of("optimize_mode", "minimize", "patience", 2));

    private static List<AssessResult> verdicts(AssessorProvider provider, boolean objects) {
        Map<String, Object> args = ARGUMENTS.getOrDefault(provider.name(), Map.of("optimize_mode", "minimize"));
        Assessor a = provider.create(ClassArguments.of(args));
        List<AssessResult> out = new ArrayList<>();
        for (int trial = 0; trial < 12; trial++) {
            String id = "t" + trial;
            List<Metric> history = new ArrayList<>();
            for (int step = 0; step < 12; step++) {
                // decreasing curves, some much worse than others
                double v = (1 + (trial * 7 % 5)) * Math.exp(-0.2 * step) + 0.05 * trial;
                history.add(objects ? Metric.fromReported(Map.of("default", v, "latency", 100.0 - v, "accuracy", -v))
                        : Metric.of(v));
                AssessResult r = a.assessTrial(id, List.copyOf(history));
                out.add(r);
                if (r == AssessResult.BAD) {
                    break;
                }
            }
            a.trialEnd(id, true);
        }
        return out;
    }

    @Test
    void metricObjectsWithSeveralKeysAreJudgedByTheirDefault() {
        int checked = 0;
        int stopped = 0;
        for (AssessorProvider p : ServiceLoader.load(AssessorProvider.class)) {
            List<AssessResult> plain = verdicts(p, false);
            assertThat(verdicts(p, true)).as(p.name()).isEqualTo(plain);
            checked++;
            stopped += plain.contains(AssessResult.BAD) ? 1 : 0;
        }
        assertThat(checked).isGreaterThanOrEqualTo(5);
        assertThat(stopped).as("assessors that stopped a trial").isGreaterThanOrEqualTo(3);
    }
}
