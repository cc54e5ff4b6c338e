package org.tunekit.nni;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import picocli.CommandLine.Option;

/** Options shared by the commands that start NNI's manager: where it is, and what it runs as its tuner. */
public final class ManagerOptions {
    @Option(names = "--nni-node", paramLabel = "DIR",
            description = "NNI's manager: the nni_node folder, the one holding main.js (default: $TUNEKIT_NNI_NODE, else the nni_node "
                    + "package that --python imports).")
    Path nniNode;

    @Option(names = "--python", paramLabel = "PYTHON",
            description = "The Python that has NNI installed, only used to find its nni_node package (default: ${DEFAULT-VALUE}).")
    String python = "python3";

    @Option(names = "--interpreter", paramLabel = "PATH",
            description = "What the manager runs as its Python interpreter (default: this tunekit). Its path must have no spaces.")
    Path interpreter;

    @Option(names = "--plugins", paramLabel = "DIR",
            description = "A directory of plugin jars for the tuner (repeatable); passed on as $TUNEKIT_PLUGIN_PATH.")
    List<Path> plugins = new ArrayList<>();

    @Option(names = "--timeout", paramLabel = "SECONDS",
            description = "How long to wait for the manager's web server (default: ${DEFAULT-VALUE}).")
    int timeoutSeconds = 30;

    /** The environment the manager (and so the tuner) gets: this one, with the plugin directories given added. */
    Map<String, String> environment() {
        return environment(plugins);
    }

    /**
     * The environment for launching the experiment kept in {@code experimentRoot} (create or resume): plugin folders given
     * now are remembered there; with none given, those remembered from its last launch are used again, and said so on
     * {@code err}.
     */
    Map<String, String> environment(Path experimentRoot, PrintWriter err) throws IOException {
        if (!plugins.isEmpty()) {
            RememberedPlugins.write(experimentRoot, plugins);
            return environment(plugins);
        }
        List<Path> remembered = RememberedPlugins.read(experimentRoot);
        if (!remembered.isEmpty()) {
            err.println("Plugins from the experiment's last launch: " + remembered.stream().map(Path::toString)
                    .collect(Collectors.joining(File.pathSeparator)) + " (--plugins replaces them)");
            for (Path d : remembered) {
                if (!Files.isDirectory(d)) {
                    err.println("WARNING: plugin folder " + d + " no longer exists; a tuner from it will not be found");
                }
            }
        }
        return environment(remembered);
    }

    private static Map<String, String> environment(List<Path> pluginDirs) {
        Map<String, String> env = new LinkedHashMap<>(System.getenv());
        if (!pluginDirs.isEmpty()) {
            List<String> dirs = new ArrayList<>(pluginDirs.stream().map(p -> p.toAbsolutePath().normalize().toString()).toList());
            String existing = env.get("TUNEKIT_PLUGIN_PATH");
            if (existing != null && !existing.isBlank()) {
                dirs.add(existing);
            }
            env.put("TUNEKIT_PLUGIN_PATH", String.join(File.pathSeparator, dirs));
        }
        return env;
    }

    /** The home directory NNI uses ({@code $HOME}). */
    static String home() {
        String home = System.getenv("HOME");
        return home != null && !home.isBlank() ? home : System.getProperty("user.home");
    }
}
