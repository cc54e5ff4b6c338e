package org.tunekit.sdk;

import java.util.Map;

/**
 * A result from elsewhere (an earlier experiment, or data the user imports): parameters and metric,
 * plus any further fields the record carried (such as {@code trialJobId}).
 *
 * @param parameters the parameter set
 * @param metric     its metric
 * @param extra      other fields of the imported record, in order; often empty
 */
public record ImportedTrial(Parameters parameters, Metric metric, Map<String, Object> extra) {
    /** Copies the extra fields. */
    @SuppressWarnings("unchecked")
    public ImportedTrial {
        extra = (Map<String, Object>) JsonValues.immutableCopy(extra == null ? Map.of() : extra);
    }

    /** An imported result with no extra fields. */
    public ImportedTrial(Parameters parameters, Metric metric) {
        this(parameters, metric, Map.of());
    }
}
