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
 * @param statsInterval              how often the handling figures go to the log ({@code TUNEKIT_STATS_INTERVAL_S}, default
 *                                   60 s; 0 only at the end)
 * @param slowCall                   a command whose handling (a plugin call) takes longer is logged with its payload
 *                                   ({@code TUNEKIT_SLOW_CALL_MS}, default 1 s)
 */
public record DispatcherSettings(boolean resume, Path checkpointDirectory, boolean includeIntermediateResults, Duration stopTimeout,
                                 Duration checkpointInterval, Duration statsInterval, Duration slowCall) {
    /** The default interval of the handling figures in the log. */
    public static final Duration STATS_INTERVAL = Duration.ofSeconds(60);
    /** The default threshold of a slow plugin call. */
    public static final Duration SLOW_CALL = Duration.ofSeconds(1);

    /** The default least time between two checkpoints of a plugin. */
    public static final Duration CHECKPOINT_INTERVAL = Duration.ofSeconds(1);

    /** Settings with the default checkpoint interval. */
    public DispatcherSettings(boolean resume, Path checkpointDirectory, boolean includeIntermediateResults, Duration stopTimeout) {
        this(resume, checkpointDirectory, includeIntermediateResults, stopTimeout, CHECKPOINT_INTERVAL, STATS_INTERVAL, SLOW_CALL);
    }

    /** Reads the settings from environment variables. */
    public static DispatcherSettings fromEnvironment(Map<String, String> env, Duration stopTimeout) {
        String ckpt = env.get("NNI_CHECKPOINT_DIRECTORY");
        return new DispatcherSettings(
                "resume".equalsIgnoreCase(env.getOrDefault("NNI_MODE", "")),
                ckpt == null || ckpt.isBlank() ? null : Path.of(ckpt),
                "true".equalsIgnoreCase(env.getOrDefault("NNI_INCLUDE_INTERMEDIATE_RESULTS", "false")),
                stopTimeout, duration(env, "TUNEKIT_CHECKPOINT_INTERVAL_MS", 1, CHECKPOINT_INTERVAL),
                duration(env, "TUNEKIT_STATS_INTERVAL_S", 1000, STATS_INTERVAL), duration(env, "TUNEKIT_SLOW_CALL_MS", 1, SLOW_CALL));
    }

    private static Duration duration(Map<String, String> env, String name, long millisPerUnit, Duration fallback) {
        String text = env.get(name);
        if (text == null || text.isBlank()) {
            return fallback;
        }
        try {
            return Duration.ofMillis(Math.max(0, Long.parseLong(text.strip())) * millisPerUnit);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number of " + (millisPerUnit == 1 ? "milliseconds" : "seconds")
                    + ", got '" + text + "'");
        }
    }
}
