package org.tunekit.runner.manager;

import java.util.LinkedHashMap;
import java.util.Map;
import org.tunekit.dispatcher.protocol.JsonCodec;
import org.tunekit.dispatcher.protocol.ProtocolException;

/**
 * Parameter records, NNI's {@code {"parameter_id", "parameter_source", "parameters", "parameter_index"}}:
 * read from what the dispatcher sends and made for trials added by hand. Pure functions, usable on any thread.
 */
final class ParameterRecords {
    private ParameterRecords() {}

    /** The parameters of a parameter record, as plain JSON values (empty when it holds none or cannot be read). */
    @SuppressWarnings("unchecked")
    static Map<String, Object> parametersOf(String record) {
        try {
            Object r = JsonCodec.parse(record, "a parameter record");
            Object p = r instanceof Map<?, ?> m ? m.get("parameters") : null;
            return p instanceof Map<?, ?> pm ? new LinkedHashMap<>((Map<String, Object>) pm) : Map.of();
        } catch (ProtocolException e) {
            return Map.of();
        }
    }

    /**
     * A payload the dispatcher sent, read.
     *
     * @throws ManagerException when it is not JSON: the dispatcher is broken, and the run cannot go on
     */
    static Object readDispatcherPayload(String json) {
        try {
            return JsonCodec.parse(json, "a dispatcher payload");
        } catch (ProtocolException e) {
            throw new ManagerException("unreadable payload from the dispatcher: " + e.getMessage(), e);
        }
    }

    /** The record of parameters added by hand (NNI's customized trial), under the id the manager gave them. */
    static Map<String, Object> customized(long parameterId, Map<String, Object> parameters) {
        Map<String, Object> record = new LinkedHashMap<>();
        record.put("parameter_id", parameterId);
        record.put("parameter_source", "customized");
        record.put("parameters", parameters);
        record.put("parameter_index", 0L);
        return record;
    }
}
