package org.tunekit.nniconfig;

import static org.tunekit.nniconfig.ConfigValues.describe;
import static org.tunekit.nniconfig.ConfigValues.isInteger;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.tunekit.nniconfig.ConfigSchema.Field;
import org.tunekit.nniconfig.ConfigSchema.Kind;
import org.tunekit.nniconfig.ConfigSchema.Schema;

/**
 * What NNI's {@code _canonicalize()} methods do to a config's objects, in place: defaults that depend on
 * other values, paths expanded and resolved against the config's folder, the search space file read,
 * the top-level shortcuts copied into the training service, GPU indices made lists.
 */
final class Canonicalizer {
    private final Path base;
    private final String home;
    private final List<String> warnings;

    /**
     * @param base     the folder relative paths are relative to
     * @param home     the home directory that {@code ~} means
     * @param warnings where what NNI would warn about is added
     */
    Canonicalizer(Path base, String home, List<String> warnings) {
        this.base = base;
        this.home = home;
        this.warnings = warnings;
    }

    /**
     * Canonicalizes the experiment object in place: defaults that depend on other values, the advisor
     * made the tuner, paths resolved, the search space file read, the shortcuts copied into the training
     * service; what NNI would warn about goes to the warnings.
     *
     * @throws ConfigException naming the bad value
     */
    void canonicalizeExperiment(ConfigObject e) {
        if (e.get("logLevel") == null) {
            e.set("logLevel", Boolean.TRUE.equals(e.get("debug")) ? "debug" : "info");
        }
        e.set("tunerGpuIndices", gpuIndices(e.get("tunerGpuIndices"), e.pathOf("tunerGpuIndices")));
        for (String algo : List.of("tuner", "assessor", "advisor")) {
            if (e.get(algo) instanceof ConfigObject a && "_none_".equals(a.get("name"))) {
                e.set(algo, null);
            }
        }
        if (e.get("advisor") != null) {
            if (e.get("tuner") != null) {
                throw new ConfigException("advisor", "\"advisor\" is deprecated: set only \"tuner\" (an advisor such as Hyperband "
                        + "or BOHB goes there), not both");
            }
            e.set("tuner", e.get("advisor"));
            e.set("advisor", null);
        }
        canonicalizeFields(e, List.of());
        if (e.get("searchSpaceFile") instanceof String file) {
            e.set("searchSpace", loadSearchSpace(Path.of(file), e.pathOf("searchSpaceFile")));
        }
        if (e.get("nniManagerIp") == null && e.get("trainingService") instanceof ConfigObject ts) {
            Object platform = ts.get("platform");
            // a Slurm job's trial talks to the runner through files on the shared folder, not over the network
            if (!"local".equals(platform) && !"slurm".equals(platform) && !(ts.get("nniManagerIp") instanceof String)) {
                warnings.add("nniManagerIp is not set: make sure the machines that run trials can reach this one at the address "
                        + "NNI's manager picks");
            }
        }
    }

    /** Resolves the paths of a config object and canonicalizes the objects inside it. */
    private void canonicalizeFields(ConfigObject node, List<ConfigObject> parents) {
        List<ConfigObject> inner = new ArrayList<>();
        inner.add(node);
        inner.addAll(parents);
        for (Field f : node.schema.fields()) {
            Object v = node.get(f.name());
            if (f.kind() == Kind.PATH && v instanceof String s) {
                node.set(f.name(), resolvePath(s, node.pathOf(f.name())));
            } else if (v instanceof ConfigObject child) {
                canonicalize(child, inner);
            } else if (v instanceof List<?> l) {
                for (Object item : l) {
                    if (item instanceof ConfigObject child) {
                        canonicalize(child, inner);
                    }
                }
            }
        }
    }

    private void canonicalize(ConfigObject node, List<ConfigObject> parents) {
        Schema s = node.schema;
        if (ConfigSchema.TRAINING_SERVICES.containsValue(s)) {
            ConfigObject experiment = parents.get(0);
            for (Field shortcut : ConfigSchema.SHORTCUT_FIELDS) {
                if (node.get(shortcut.name()) == ConfigSchema.MISSING) {
                    node.set(shortcut.name(), experiment.get(shortcut.name()));
                    node.sources.put(shortcut.name(), experiment.pathOf(shortcut.name()));
                }
            }
            canonicalizeFields(node, parents);
            if (s == ConfigSchema.LOCAL) {
                node.set("gpuIndices", gpuIndices(node.get("gpuIndices"), node.pathOf("gpuIndices")));
                node.set("nniManagerIp", null);
            } else if (s == ConfigSchema.OPENPAI && node.get("host") instanceof String host && !host.contains("://")) {
                node.set("host", "https://" + host);
            } else if (s == ConfigSchema.KUBEFLOW || s == ConfigSchema.FRAMEWORKCONTROLLER) {
                if (node.get("trialCommand") == null) {
                    node.set("trialCommand", "");
                }
                if (s == ConfigSchema.KUBEFLOW && node.get("trialCodeDirectory") == null) {
                    node.set("trialCodeDirectory", "");
                }
            }
        } else if (s == ConfigSchema.REMOTE_MACHINE) {
            canonicalizeFields(node, parents);
            if (node.get("password") != null) {
                node.set("sshKeyFile", null);
            }
            node.set("gpuIndices", gpuIndices(node.get("gpuIndices"), node.pathOf("gpuIndices")));
        } else {
            canonicalizeFields(node, parents);
        }
    }

    private static Object gpuIndices(Object v, String path) {
        if (v instanceof String s) {
            List<Object> out = new ArrayList<>();
            for (String part : s.split(",", -1)) {
                try {
                    out.add(Long.parseLong(part.strip()));
                } catch (NumberFormatException e) {
                    throw new ConfigException(path, "'" + s + "' is not a list of GPU indices such as '0,1'");
                }
            }
            return out;
        }
        if (isInteger(v)) {
            return new ArrayList<>(List.of(v));
        }
        return v;
    }

    /** NNI's {@code resolve_path}: {@code ~} expanded, relative to the config's folder, symbolic links resolved. */
    private String resolvePath(String p, String where) {
        String expanded = p;
        if (p.equals("~")) {
            expanded = home;
        } else if (p.startsWith("~/")) {
            expanded = home + p.substring(1);
        }
        Path path;
        try {
            path = Path.of(expanded);
        } catch (InvalidPathException e) {
            throw new ConfigException(where, describe(p) + " is not a path: " + e.getReason());
        }
        if (!path.isAbsolute()) {
            path = base.resolve(path);
        }
        return realPath(path).toString();
    }

    /** Like Python's {@code os.path.realpath}: links resolved where the path exists, the rest taken as written. */
    static Path realPath(Path path) {
        Path current = path.getRoot();
        for (Path part : path) {
            String name = part.toString();
            if (name.equals(".")) {
                continue;
            }
            if (name.equals("..")) {
                current = current.getParent() == null ? current : current.getParent();
                continue;
            }
            current = current.resolve(name);
            if (Files.isSymbolicLink(current)) {
                try {
                    current = current.toRealPath();
                } catch (IOException e) {
                    // a dangling link: keep it as written, as realpath does
                }
            }
        }
        return current;
    }

    private Object loadSearchSpace(Path file, String path) {
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigException(path, "cannot read the search space file " + file + ": " + e);
        }
        try {
            return new Load(LoadSettings.builder().setLabel(file.toString()).build()).loadFromString(text);
        } catch (YamlEngineException e) {
            throw new ConfigException(path, "the search space file " + file + " is neither JSON nor YAML: " + e.getMessage());
        }
    }
}
