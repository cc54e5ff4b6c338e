package org.tunekit.sdk.trial;

import org.tunekit.sdk.internal.Json;
import java.io.PrintStream;
import java.util.Map;
import java.util.Optional;
import org.tunekit.sdk.ParameterRecord;
import org.tunekit.sdk.Parameters;

/**
 * No manager: the trial runs by hand. Its one parameter set is the JSON object in
 * {@code TUNEKIT_TRIAL_PARAMETERS}, or empty; its results are printed on standard error.
 */
final class StandaloneTrialChannel implements TrialChannel {
    private final Parameters parameters;
    private final PrintStream stderr;

    /**
     * @throws IllegalArgumentException when {@code TUNEKIT_TRIAL_PARAMETERS} is not a JSON object
     */
    StandaloneTrialChannel(TrialEnvironment env, PrintStream stderr) {
        this.parameters = parse(env.standaloneParameters());
        this.stderr = stderr;
    }

    @Override
    public Optional<ParameterRecord> requestParameters(int index) {
        return index == 0 ? Optional.of(new ParameterRecord(null, null, parameters)) : Optional.empty();
    }

    @Override
    public void sendMetric(MetricMessage message) {
        String value = Json.write(message.value());
        stderr.println(message.type() == MetricMessage.Type.FINAL
                ? "[trial] final result: " + value
                : "[trial] intermediate result " + message.sequence() + ": " + value);
        stderr.flush();
    }

    @Override
    public String describe() {
        return "standalone (no manager)";
    }

    private static Parameters parse(String json) {
        if (json == null) {
            return Parameters.of(Map.of());
        }
        Object value;
        try {
            value = Json.parse(json);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(TrialEnvironment.STANDALONE_PARAMETERS + " is not JSON: " + e.getMessage(), e);
        }
        if (!(value instanceof Map<?, ?> map)) {
            throw new IllegalArgumentException(TrialEnvironment.STANDALONE_PARAMETERS
                    + " must be a JSON object of parameter names to values, got " + json);
        }
        @SuppressWarnings("unchecked")
        Map<String, ?> typed = (Map<String, ?>) map;
        return Parameters.of(typed);
    }
}
