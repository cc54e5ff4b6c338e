package org.tunekit.sdk.trial;

import org.tunekit.sdk.internal.Json;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One result a trial reports, as NNI's managers read it.
 *
 * @param parameterId the id of the parameter record the result is for, or {@code null} before any
 * @param trialJobId  the trial job id, or {@code null} (standalone)
 * @param type        intermediate or final
 * @param sequence    the intermediate result's number, from 0; 0 for a final result
 * @param value       the metric: a {@code Double}, or a map of JSON values holding a numeric {@code "default"}
 */
record MetricMessage(Long parameterId, String trialJobId, Type type, int sequence, Object value) {

    /** The kind of result, named as on the wire. */
    enum Type {
        /** An intermediate result. */
        PERIODICAL,
        /** The final result. */
        FINAL
    }

    /**
     * The metric as JSON text: {@code parameter_id}, {@code trial_job_id}, {@code type}, {@code sequence}
     * and {@code value}, where the value is itself JSON text in a string (the metric is encoded twice).
     */
    String toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("parameter_id", parameterId);
        m.put("trial_job_id", trialJobId);
        m.put("type", type.name());
        m.put("sequence", sequence);
        m.put("value", Json.write(value));
        return Json.write(m);
    }
}
