package org.tunekit.dispatcher;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * Settings of one dispatcher run, read from the environment the manager sets.
 *
 * @param resume                     {@code NNI_MODE=resume}: load checkpoints at start
 * @param checkpointDirectory        {@code NNI_CHECKPOINT_DIRECTORY}, or {@code null}
 * @param includeIntermediateResults {@code NNI_INCLUDE_INTERMEDIATE_RESULTS=true}
 * @param stopTimeout                how long queued work may take to finish after {@code TE}
 */
public record DispatcherSettings(boolean resume, Path checkpointDirectory, boolean includeIntermediateResults, Duration stopTimeout) {

    /** Reads the settings from environment variables. */
    public static DispatcherSettings fromEnvironment(Map<String, String> env, Duration stopTimeout) {
        String ckpt = env.get("NNI_CHECKPOINT_DIRECTORY");
        return new DispatcherSettings(
                "resume".equalsIgnoreCase(env.getOrDefault("NNI_MODE", "")),
                ckpt == null || ckpt.isBlank() ? null : Path.of(ckpt),
                "true".equalsIgnoreCase(env.getOrDefault("NNI_INCLUDE_INTERMEDIATE_RESULTS", "false")),
                stopTimeout);
    }
}
