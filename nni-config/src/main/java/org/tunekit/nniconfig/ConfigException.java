package org.tunekit.nniconfig;

/**
 * An experiment config, or a value given in its place (a search space, a command-line option, an
 * experiment's id), that cannot be used: NNI would refuse it, or Tunekit cannot run it as given. The
 * message starts with the path of the bad value ({@code trainingService.gpuIndices[1]: ...}) when
 * there is one, and says what is wrong.
 */
public final class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** A problem with the value at {@code path} ({@code trainingService.platform}), or with the whole config when it is empty. */
    public ConfigException(String path, String message) {
        super(path == null || path.isEmpty() ? message : path + ": " + message);
    }

    /** A problem whose message names the bad value itself. */
    public ConfigException(String message) {
        super(message);
    }

    /** A problem whose message names the bad value itself, found as {@code cause}. */
    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
