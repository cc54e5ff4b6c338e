package org.tunekit.nniconfig;

/** An experiment config that NNI would refuse; the message starts with the path of the bad value. */
public final class ConfigException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** A problem with the value at {@code path} ({@code trainingService.platform}), or with the whole config when it is empty. */
    public ConfigException(String path, String message) {
        super(path == null || path.isEmpty() ? message : path + ": " + message);
    }
}
