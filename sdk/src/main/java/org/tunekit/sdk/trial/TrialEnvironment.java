package org.tunekit.sdk.trial;

import java.nio.file.Path;
import java.util.Map;

/**
 * What a trial learns from its environment variables, as NNI's managers set them.
 *
 * @param channelUrl           {@code NNI_TRIAL_COMMAND_CHANNEL}, the HTTP channel's URL (NNI 3), or {@code null}
 * @param platform             {@code NNI_PLATFORM}, e.g. {@code local}, or {@code null}
 * @param trialJobId           {@code NNI_TRIAL_JOB_ID}, or {@code null}
 * @param sysDir               {@code NNI_SYS_DIR}, where the file channel's files are, or {@code null}
 * @param outputDir            {@code NNI_OUTPUT_DIR}, or {@code null}
 * @param multiPhase           {@code MULTI_PHASE} is {@code true}: the file channel may hand out more than one parameter set
 * @param reuseMode            {@code REUSE_MODE} is {@code true}: the file channel sends metrics on standard output
 * @param standaloneParameters {@code TUNEKIT_TRIAL_PARAMETERS}, the JSON object a standalone trial runs with, or {@code null}
 */
record TrialEnvironment(String channelUrl, String platform, String trialJobId, Path sysDir, Path outputDir,
                        boolean multiPhase, boolean reuseMode, String standaloneParameters) {

    /** The variable that gives a standalone trial its parameters. */
    static final String STANDALONE_PARAMETERS = "TUNEKIT_TRIAL_PARAMETERS";

    /** How the trial talks to its manager. */
    enum Kind {
        /** NNI 3's HTTP channel, {@code NNI_TRIAL_COMMAND_CHANNEL}. */
        HTTP,
        /** The parameter files and metrics file of NNI 2 (kept by NNI 3 for its legacy platforms). */
        FILE,
        /** No manager. */
        STANDALONE
    }

    /** Reads the variables; an empty value counts as unset. */
    static TrialEnvironment of(Map<String, String> env) {
        String sysDir = value(env, "NNI_SYS_DIR");
        String outputDir = value(env, "NNI_OUTPUT_DIR");
        return new TrialEnvironment(
                value(env, "NNI_TRIAL_COMMAND_CHANNEL"),
                value(env, "NNI_PLATFORM"),
                value(env, "NNI_TRIAL_JOB_ID"),
                sysDir == null ? null : Path.of(sysDir),
                outputDir == null ? null : Path.of(outputDir),
                "true".equalsIgnoreCase(value(env, "MULTI_PHASE")),
                "true".equalsIgnoreCase(value(env, "REUSE_MODE")),
                value(env, STANDALONE_PARAMETERS));
    }

    /**
     * The channel, chosen as NNI's trial side chooses it: the HTTP channel when there is a channel
     * URL, else the file channel when there is a platform (other than NNI's own {@code unittest}),
     * else none.
     */
    Kind kind() {
        if (channelUrl != null) {
            return Kind.HTTP;
        }
        if (platform != null && !platform.equals("unittest")) {
            return Kind.FILE;
        }
        return Kind.STANDALONE;
    }

    /**
     * Whether the file channel writes metrics to the metrics file; otherwise it prints them on
     * standard output, as NNI's trial side does on its remote platforms and in reuse mode.
     */
    boolean metricsToFile() {
        return "local".equals(platform) && !reuseMode;
    }

    /** The trial's output directory: {@code NNI_OUTPUT_DIR}, else {@code NNI_SYS_DIR}, else the working directory. */
    Path outputDirectory() {
        if (outputDir != null) {
            return outputDir;
        }
        if (sysDir != null) {
            return sysDir;
        }
        return Path.of("").toAbsolutePath();
    }

    /** The trial job id, which a trial under a manager must have. */
    String requireTrialJobId() {
        if (trialJobId == null) {
            throw new IllegalStateException("NNI_TRIAL_JOB_ID is not set, though "
                    + (kind() == Kind.HTTP ? "NNI_TRIAL_COMMAND_CHANNEL" : "NNI_PLATFORM")
                    + " says this trial runs under a manager");
        }
        return trialJobId;
    }

    private static String value(Map<String, String> env, String name) {
        String v = env.get(name);
        return v == null || v.isEmpty() ? null : v;
    }
}
