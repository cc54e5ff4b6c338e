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
 * @param checkpointInterval         the least time between two checkpoints of a plugin while the experiment runs
 *                                   ({@code TUNEKIT_CHECKPOINT_INTERVAL_MS}, default 1 s); one is also written at the stop
 */
public record DispatcherSettings(boolean resume, Path checkpointDirectory, boolean includeIntermediateResults, Duration stopTimeout,
                                 Duration checkpointInterval) {
    /** The default least time between two checkpoints of a plugin. */
    public static final Duration CHECKPOINT_INTERVAL = Duration.ofSeconds(1);

    /** Settings with the default checkpoint interval. */
    public DispatcherSettings(boolean resume, Path checkpointDirectory, boolean includeIntermediateResults, Duration stopTimeout) {
        this(resume, checkpointDirectory, includeIntermediateResults, stopTimeout, CHECKPOINT_INTERVAL);
    }

    /** Reads the settings from environment variables. */
    public static DispatcherSettings fromEnvironment(Map<String, String> env, Duration stopTimeout) {
        String ckpt = env.get("NNI_CHECKPOINT_DIRECTORY");
        return new DispatcherSettings(
                "resume".equalsIgnoreCase(env.getOrDefault("NNI_MODE", "")),
                ckpt == null || ckpt.isBlank() ? null : Path.of(ckpt),
                "true".equalsIgnoreCase(env.getOrDefault("NNI_INCLUDE_INTERMEDIATE_RESULTS", "false")),
                stopTimeout, interval(env.get("TUNEKIT_CHECKPOINT_INTERVAL_MS")));
    }

    private static Duration interval(String millis) {
        if (millis == null || millis.isBlank()) {
            return CHECKPOINT_INTERVAL;
        }
        try {
            return Duration.ofMillis(Math.max(0, Long.parseLong(millis.strip())));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("TUNEKIT_CHECKPOINT_INTERVAL_MS must be a number of milliseconds, got '" + millis + "'");
        }
    }
}
