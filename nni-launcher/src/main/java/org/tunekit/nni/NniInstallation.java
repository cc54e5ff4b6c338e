package org.tunekit.nni;

import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * NNI's experiment manager on this machine: its {@code nni_node} folder (the one holding
 * {@code main.js}; in a pip install, the {@code nni_node} package next to {@code nni} in
 * site-packages; in a source build, {@code ts/nni_manager/dist}), the {@code node} that runs it (the
 * one NNI's wheel ships inside {@code nni_node}, else the one on {@code PATH}), and its version (from
 * {@code package.json} there, or in the folder above for a source build).
 *
 * @param nodeDir the folder of {@code main.js}
 * @param node    the Node.js executable
 * @param version NNI's version, or {@code null} if no {@code package.json} says
 * @param notes   what the user should know (an untested version, a development build)
 */
public record NniInstallation(Path nodeDir, Path node, String version, List<String> notes) {
    /** The NNI releases whose manager Tunekit's tests have driven. */
    public static final String TESTED = "NNI 3.0 (its manager built from source at the v3.0 release)";
    /** What pip users run to get a manager Tunekit can drive. */
    static final String INSTALL = "pip install 'nni>=3.0'";

    public NniInstallation {
        notes = List.copyOf(notes);
    }

    /**
     * Finds the manager: {@code option} ({@code --nni-node}), else {@code $TUNEKIT_NNI_NODE}, else the
     * {@code nni_node} package that {@code python} imports.
     *
     * @throws LaunchException saying what to do when there is none, or one Tunekit cannot drive
     */
    public static NniInstallation find(Path option, String python, Map<String, String> env) {
        Path dir;
        String from;
        if (option != null) {
            dir = option.toAbsolutePath().normalize();
            from = "--nni-node " + option;
        } else if (env.get("TUNEKIT_NNI_NODE") != null && !env.get("TUNEKIT_NNI_NODE").isBlank()) {
            dir = Path.of(env.get("TUNEKIT_NNI_NODE")).toAbsolutePath().normalize();
            from = "$TUNEKIT_NNI_NODE (" + env.get("TUNEKIT_NNI_NODE") + ")";
        } else {
            dir = fromPython(python, env);
            from = "the nni_node package of " + python;
        }
        if (!Files.isRegularFile(dir.resolve("main.js"))) {
            throw new LaunchException(from + ": " + dir + " has no main.js, so it is not NNI's nni_node folder. It is the nni_node "
                    + "package next to nni in site-packages (python3 -c 'import nni_node, os; print(os.path.dirname(nni_node.__file__))'), "
                    + "or ts/nni_manager/dist of NNI built from source.");
        }
        Path node = dir.resolve("node");
        if (!Files.isRegularFile(node) || !Files.isExecutable(node)) {
            node = onPath("node", env);
            if (node == null) {
                throw new LaunchException("Node.js not found: " + dir + " has no node of its own (NNI's pip package ships one "
                        + "there) and there is no node on PATH. Install Node.js 18 or later, or reinstall NNI: " + INSTALL);
            }
        }
        String version = version(dir);
        List<String> notes = new ArrayList<>();
        Path arguments = dir.resolve("common/globals/arguments.js");
        String args = null;
        try {
            args = Files.isRegularFile(arguments) ? Files.readString(arguments, StandardCharsets.UTF_8) : null;
        } catch (IOException e) {
            // treated as absent
        }
        if (args == null || !args.contains("pythonInterpreter")) {
            throw new LaunchException("the NNI manager in " + dir + (version != null ? " (NNI " + version + ")" : "")
                    + " cannot be told which program to start as its tuner: its --python-interpreter option came with NNI 2.8. "
                    + "Install NNI 3: " + INSTALL);
        }
        if (version == null || version.startsWith("999.")) {
            notes.add("NNI's manager in " + dir + " is a development build" + (version != null ? " (version " + version + ")" : "")
                    + "; Tunekit was tested with " + TESTED);
        } else if (!version.startsWith("3.")) {
            notes.add("NNI " + version + ": its manager takes the same arguments as NNI 3's, but Tunekit was tested with " + TESTED);
        }
        return new NniInstallation(dir, node, version, notes);
    }

    private static Path fromPython(String python, Map<String, String> env) {
        String hint = "Install NNI for it (" + INSTALL + "), activate the environment NNI is installed in, or say where NNI's "
                + "manager is: --nni-node DIR or $TUNEKIT_NNI_NODE (the nni_node folder, the one holding main.js).";
        List<String> cmd = List.of(python, "-c", "import nni_node, os; print(os.path.dirname(nni_node.__file__))");
        Process p;
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            pb.environment().clear();
            pb.environment().putAll(env);
            p = pb.start();
        } catch (IOException e) {
            throw new LaunchException("cannot find NNI: " + python + " cannot be run (" + e.getMessage() + "). " + hint);
        }
        try {
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes();
            byte[] err = p.getErrorStream().readAllBytes();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new LaunchException("cannot find NNI: " + python + " did not answer within 60 s. " + hint);
            }
            String stdout = new String(out, StandardCharsets.UTF_8).strip();
            String stderr = new String(err, StandardCharsets.UTF_8).strip();
            if (p.exitValue() != 0 || stdout.isEmpty()) {
                String why = stderr.contains("No module named") ? python + " has no NNI (no module nni_node)"
                        : python + " could not import nni_node: " + lastLine(stderr);
                throw new LaunchException("cannot find NNI's manager: " + why + ". " + hint);
            }
            return Path.of(lastLine(stdout));
        } catch (IOException e) {
            throw new LaunchException("cannot find NNI: " + e.getMessage() + ". " + hint);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new LaunchException("interrupted while looking for NNI");
        }
    }

    private static String lastLine(String text) {
        String[] lines = text.strip().split("\n");
        return lines[lines.length - 1].strip();
    }

    /** NNI's version from its manager's package.json: next to main.js (pip), or one folder up (a source build's dist). */
    static String version(Path dir) {
        for (Path candidate : List.of(dir.resolve("package.json"), dir.resolve("../package.json").normalize())) {
            try {
                if (Files.isRegularFile(candidate)) {
                    JsonObject o = JsonParser.parseString(Files.readString(candidate, StandardCharsets.UTF_8)).getAsJsonObject();
                    if (o.has("name") && "nni".equals(o.get("name").getAsString()) && o.has("version")) {
                        return o.get("version").getAsString();
                    }
                }
            } catch (IOException | RuntimeException e) {
                // not NNI's
            }
        }
        return null;
    }

    /** An executable on {@code PATH}, or {@code null}. */
    static Path onPath(String name, Map<String, String> env) {
        String path = env.getOrDefault("PATH", "");
        for (String dir : path.split(File.pathSeparator)) {
            if (dir.isEmpty()) {
                continue;
            }
            Path p = Path.of(dir, name);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }
}
