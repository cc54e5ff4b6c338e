package org.tunekit.sdk.trial;

import org.tunekit.sdk.internal.Json;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import org.tunekit.sdk.JsonValues;
import org.tunekit.sdk.ParameterRecord;
import org.tunekit.sdk.Parameters;

/** How a trial gets its parameters from its manager and sends it results. */
sealed interface TrialChannel permits HttpTrialChannel, FileTrialChannel, StandaloneTrialChannel {

    /**
     * Asks for parameter set number {@code index} (0 for the first) and waits for it.
     *
     * @return the record, or empty when the manager will not hand out that set
     * @throws ChannelClosedException when the manager has closed the channel
     * @throws IOException            when the channel fails, naming where and how
     */
    Optional<ParameterRecord> requestParameters(int index) throws IOException;

    /** Sends one result. */
    void sendMetric(MetricMessage message) throws IOException;

    /** Where the channel is, for messages. */
    String describe();

    /**
     * Reads a parameter record as managers write it: a JSON object with {@code parameter_id} (an
     * integer or null), optionally {@code parameter_source}, and the {@code parameters} object.
     *
     * @param record the record, as JSON text or already read
     * @param where  where it came from, for messages
     * @throws IOException naming {@code where} when it is not such a record
     */
    static ParameterRecord parseRecord(Object record, String where) throws IOException {
        if (record instanceof String text) {
            try {
                record = Json.parse(text);
            } catch (IllegalArgumentException e) {
                throw new IOException(where + " is not a parameter record: " + e.getMessage(), e);
            }
        }
        if (!(record instanceof Map<?, ?> map)) {
            throw new IOException(where + " is not a parameter record: expected a JSON object, got " + JsonValues.describe(record));
        }
        Object id = map.get("parameter_id");
        if (id != null && !(id instanceof Long)) {
            throw new IOException(where + ": \"parameter_id\" must be an integer or null, got " + JsonValues.describe(id));
        }
        Object parameters = map.get("parameters");
        if (!(parameters instanceof Map<?, ?> values)) {
            throw new IOException(where + ": \"parameters\" must be a JSON object, got "
                    + (map.containsKey("parameters") ? JsonValues.describe(parameters) : "nothing"));
        }
        Object source = map.get("parameter_source");
        @SuppressWarnings("unchecked")
        Map<String, ?> typed = (Map<String, ?>) values;
        return new ParameterRecord((Long) id, source instanceof String s ? s : null, Parameters.of(typed));
    }

    /** The manager has closed the channel: nothing more will come, nothing more is taken. */
    final class ChannelClosedException extends IOException {
        ChannelClosedException(String message) {
            super(message);
        }
    }
}
