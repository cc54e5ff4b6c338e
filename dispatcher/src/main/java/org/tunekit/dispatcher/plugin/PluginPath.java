package org.tunekit.dispatcher.plugin;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Where plugins are looked for: the directories a command was given, then those of
 * {@code $TUNEKIT_PLUGIN_PATH}. Every command that builds an {@link AlgorithmCatalog} reads the path
 * the same way.
 */
public final class PluginPath {
    /** The environment variable that adds plugin directories, separated by {@code :}. */
    public static final String VARIABLE = "TUNEKIT_PLUGIN_PATH";

    private PluginPath() {}

    /** The directories of {@code given} (a command's {@code --plugins} options), then those of {@code $TUNEKIT_PLUGIN_PATH} in {@code env}. */
    public static List<Path> directories(List<Path> given, Map<String, String> env) {
        List<Path> dirs = new ArrayList<>(given);
        String path = env.get(VARIABLE);
        if (path != null) {
            for (String p : path.split(":")) {
                if (!p.isBlank()) {
                    dirs.add(Path.of(p));
                }
            }
        }
        return dirs;
    }
}
