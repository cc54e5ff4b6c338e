package org.tunekit.sdk.internal;

import java.nio.file.Path;

/**
 * The one rule for whether a plugin keeps a checkpoint of its own: its class implements
 * {@code loadCheckpoint(Path)} (itself or through a superclass) rather than inheriting the SPI's empty
 * default. The dispatcher saves and loads only such plugins and rebuilds every other tuner from the
 * results a manager replays; the test kit's {@code RESUME} check resumes a tuner the same way. Not
 * part of the plugin SPI.
 */
public final class OwnCheckpoint {
    private OwnCheckpoint() {}

    /** Whether {@code plugin} (a tuner, assessor or advisor) keeps a checkpoint of its own. */
    public static boolean kept(Object plugin) {
        try {
            return !plugin.getClass().getMethod("loadCheckpoint", Path.class).getDeclaringClass().isInterface();
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException(plugin.getClass().getName() + " has no loadCheckpoint(Path): it is not a plugin", e);
        }
    }
}
