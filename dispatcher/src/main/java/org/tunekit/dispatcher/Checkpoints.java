package org.tunekit.dispatcher;

import java.nio.file.Path;

/**
 * Which plugins keep a checkpoint of their own. A plugin keeps one when its class implements
 * {@code loadCheckpoint(Path)} rather than inheriting the SPI's empty default; only then does the
 * dispatcher save and load its state. Every other plugin is rebuilt on resume from what the manager
 * replays (a tuner from the earlier results it imports), so it needs no file format of its own.
 */
final class Checkpoints {
    private Checkpoints() {}

    /**
     * Whether {@code plugin} implements {@code loadCheckpoint} itself (or inherits it from a class)
     * instead of taking the default method of {@code spi}.
     */
    static boolean kept(Object plugin, Class<?> spi) {
        try {
            return !plugin.getClass().getMethod("loadCheckpoint", Path.class).getDeclaringClass().isInterface();
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException(plugin.getClass().getName() + " is not a " + spi.getSimpleName(), e);
        }
    }
}
