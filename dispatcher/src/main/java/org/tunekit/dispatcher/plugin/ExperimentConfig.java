package org.tunekit.dispatcher.plugin;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import org.tunekit.dispatcher.protocol.JsonCodec;
import org.tunekit.dispatcher.protocol.ProtocolException;

/**
 * The algorithm entries of an experiment config, as the manager passes it in {@code --exp_params}
 * (base64 of the config's JSON).
 *
 * @param tuner    the tuner entry, or {@code null}
 * @param assessor the assessor entry, or {@code null}
 * @param advisor  the advisor entry, or {@code null}
 */
public record ExperimentConfig(AlgorithmSpec tuner, AlgorithmSpec assessor, AlgorithmSpec advisor) {

    /**
     * Decodes {@code --exp_params}.
     *
     * @throws PluginConfigurationException saying what is wrong with it
     */
    public static ExperimentConfig decode(String base64) {
        byte[] bytes;
        String text = base64.trim();
        try {
            bytes = text.indexOf('-') >= 0 || text.indexOf('_') >= 0
                    ? Base64.getUrlDecoder().decode(text) : Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException e) {
            throw new PluginConfigurationException("--exp_params is not base64: " + e.getMessage());
        }
        Object json;
        try {
            json = JsonCodec.parse(new String(bytes, StandardCharsets.UTF_8), "the experiment config in --exp_params");
        } catch (ProtocolException e) {
            throw new PluginConfigurationException(e.getMessage(), e);
        }
        if (!(json instanceof Map<?, ?> config)) {
            throw new PluginConfigurationException("--exp_params must hold a JSON object (the experiment config)");
        }
        return fromConfig(config);
    }

    /** Reads the entries of a parsed experiment config. */
    public static ExperimentConfig fromConfig(Map<?, ?> config) {
        AlgorithmSpec tuner = entry(config, AlgorithmKind.TUNER);
        AlgorithmSpec assessor = entry(config, AlgorithmKind.ASSESSOR);
        AlgorithmSpec advisor = entry(config, AlgorithmKind.ADVISOR);
        if (advisor != null && (tuner != null || assessor != null)) {
            throw new PluginConfigurationException("the experiment config names an advisor and also a "
                    + (tuner != null ? "tuner" : "assessor") + "; an advisor replaces both");
        }
        if (advisor == null && tuner == null) {
            throw new PluginConfigurationException("the experiment config names no tuner and no advisor");
        }
        return new ExperimentConfig(tuner, assessor, advisor);
    }

    private static AlgorithmSpec entry(Map<?, ?> config, AlgorithmKind kind) {
        Object e = config.get(kind.label());
        if (e == null) {
            return null;
        }
        if (!(e instanceof Map<?, ?> m)) {
            throw new PluginConfigurationException("the experiment config's \"" + kind.label() + "\" must be an object, got " + e);
        }
        return AlgorithmSpec.fromConfig(kind, m);
    }

    /** Encodes a config object as {@code --exp_params} does (base64 of its JSON). */
    public static String encode(Map<String, ?> config) {
        return Base64.getEncoder().encodeToString(JsonCodec.write(config).getBytes(StandardCharsets.UTF_8));
    }
}
