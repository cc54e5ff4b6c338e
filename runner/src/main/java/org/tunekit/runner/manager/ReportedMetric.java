package org.tunekit.runner.manager;

import java.util.Map;
import org.tunekit.dispatcher.protocol.JsonCodec;
import org.tunekit.dispatcher.protocol.Payloads;
import org.tunekit.dispatcher.protocol.ProtocolException;

/**
 * A metric as a trial reported it, read once from the text of NNI's {@code ME} payload where it reaches
 * the manager: the record the dispatcher is handed as it is, and the value's text as the trial wrote it,
 * which the store keeps.
 *
 * @param data      the metric, of the trial whose channel it came through
 * @param valueText the {@code value} as the trial wrote it: the JSON string's text, or the JSON of any other value
 */
record ReportedMetric(Payloads.MetricData data, String valueText) {
    /**
     * Reads a trial's {@code ME} text (see {@link Payloads#trialMetric}).
     *
     * @param trialJobId  the trial whose channel it came through, whatever the text says
     * @param parameterId the trial's parameter id, for a text that names none
     * @throws ProtocolException naming what is wrong with it
     */
    static ReportedMetric read(String text, String trialJobId, long parameterId) throws ProtocolException {
        Object parsed = JsonCodec.parse(text, "the metric");
        if (!(parsed instanceof Map<?, ?>)) {
            throw new ProtocolException("a metric must be a JSON object, got " + text);
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> fields = (Map<String, Object>) parsed;
        Payloads.MetricData data = Payloads.trialMetric(fields, trialJobId, parameterId);
        Object value = fields.get("value");
        return new ReportedMetric(data, value instanceof String s ? s : JsonCodec.write(value));
    }
}
