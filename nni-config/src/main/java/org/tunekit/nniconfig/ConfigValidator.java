package org.tunekit.nniconfig;

import static org.tunekit.nniconfig.ConfigValues.describe;
import static org.tunekit.nniconfig.ConfigValues.isInteger;
import static org.tunekit.nniconfig.ConfigValues.parseTime;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.tunekit.nniconfig.ConfigSchema.Field;
import org.tunekit.nniconfig.ConfigSchema.Kind;
import org.tunekit.nniconfig.ConfigSchema.Schema;

/**
 * What NNI's {@code _validate_canonical()} methods check of a canonical config: types, choices, required
 * values, numbers in range, files and folders that must exist. The first bad value is refused with its
 * path; what NNI would only warn about goes to the warnings.
 */
final class ConfigValidator {
    /** The {@code logLevel}s NNI's config accepts. */
    private static final List<String> LOG_LEVELS = List.of("fatal", "error", "warning", "info", "debug", "trace");

    private final List<String> warnings;

    /** @param warnings where what NNI would warn about is added */
    ConfigValidator(List<String> warnings) {
        this.warnings = warnings;
    }

    /**
     * Checks a canonical config object and the objects inside it.
     *
     * @throws ConfigException naming the first bad value
     */
    void validate(ConfigObject node) {
        for (Field f : node.schema.fields()) {
            Object v = node.get(f.name());
            String path = node.pathOf(f.name());
            if (v == ConfigSchema.MISSING) {
                throw new ConfigException(path, "required (" + f.kind().description + ")");
            }
            if (v == null) {
                if (!f.nullable()) {
                    throw new ConfigException(path, f.name().equals("trialCommand")
                            ? "required, at the top level or in the training service: the command that runs one trial, such as 'python3 train.py'"
                            : "must be " + f.kind().description + ", got null");
                }
                continue;
            }
            checkType(f, v, path);
            if (v instanceof ConfigObject child) {
                validate(child);
            } else if (v instanceof List<?> l) {
                for (Object item : l) {
                    if (item instanceof ConfigObject child) {
                        validate(child);
                    }
                }
            }
        }
        Schema s = node.schema;
        if (s == ConfigSchema.EXPERIMENT) {
            validateExperiment(node);
        } else if (s == ConfigSchema.ALGORITHM) {
            validateAlgorithm(node);
        } else if (s == ConfigSchema.REMOTE_MACHINE) {
            validateRemoteMachine(node);
        } else if (s == ConfigSchema.K8S_STORAGE) {
            validateK8sStorage(node);
        } else if (ConfigSchema.TRAINING_SERVICES.containsValue(s)) {
            validateTrainingService(node);
        }
    }

    private static void checkType(Field f, Object v, String path) {
        boolean ok = switch (f.kind()) {
            case STR, PATH -> v instanceof String;
            case INT -> isInteger(v);
            case GPU_NUMBER -> isInteger(v) || v instanceof Double d && d > 0 && d < 1;
            case BOOL -> v instanceof Boolean;
            case ANY -> true;
            case TIME, MEMORY -> v instanceof String || isInteger(v);
            case GPU_INDICES -> v instanceof List<?> l && l.stream().allMatch(ConfigValues::isInteger);
            case STR_LIST -> v instanceof List<?> l && l.stream().allMatch(i -> i instanceof String);
            case DICT -> v instanceof Map;
            case CONFIG -> v instanceof ConfigObject;
            case CONFIG_LIST -> v instanceof List<?> l && l.stream().allMatch(i -> i instanceof ConfigObject);
            case TRAINING_SERVICE -> v instanceof ConfigObject || v instanceof List<?> l && l.stream().allMatch(i -> i instanceof ConfigObject);
        };
        if (!ok && f.kind() == Kind.GPU_INDICES && v instanceof List<?> l) {
            for (int i = 0; i < l.size(); i++) {
                if (!isInteger(l.get(i))) {
                    throw new ConfigException(path + "[" + i + "]", "must be a GPU index (an integer), got " + describe(l.get(i)));
                }
            }
        }
        if (!ok && f.kind() == Kind.STR_LIST && v instanceof List<?> l) {
            for (int i = 0; i < l.size(); i++) {
                if (!(l.get(i) instanceof String)) {
                    throw new ConfigException(path + "[" + i + "]", "must be a string, got " + describe(l.get(i)));
                }
            }
        }
        if (!ok) {
            throw new ConfigException(path, "must be " + f.kind().description + ", got " + describe(v));
        }
        if (!f.choices().isEmpty() && !f.choices().contains(v)) {
            throw new ConfigException(path, "must be " + String.join(" or ", f.choices().stream().map(c -> "'" + c + "'").toList())
                    + ", got " + describe(v));
        }
    }

    private void validateExperiment(ConfigObject e) {
        if (e.get("searchSpace") == null && e.get("searchSpaceFile") == null) {
            throw new ConfigException("searchSpace", "required: give searchSpace (a mapping of parameter name to {_type, _value}) "
                    + "or searchSpaceFile (a JSON or YAML file of it)");
        }
        positive(e, "trialConcurrency");
        positive(e, "maxTrialNumber");
        positiveTime(e, "maxExperimentDuration");
        positiveTime(e, "maxTrialDuration");
        if (!LOG_LEVELS.contains((String) e.get("logLevel"))) {
            throw new ConfigException(e.pathOf("logLevel"), "must be one of " + String.join(", ", LOG_LEVELS) + ", got "
                    + describe(e.get("logLevel")));
        }
        validateGpuIndices(e, "tunerGpuIndices");
        if (e.get("tuner") == null) {
            throw new ConfigException("tuner", "required: the tuning algorithm, such as {name: TPE, classArgs: {optimize_mode: maximize}}");
        }
    }

    private static void validateAlgorithm(ConfigObject a) {
        String path = a.path;
        if (a.get("className") == null) {
            if (!(a.get("name") instanceof String n) || n.isEmpty()) {
                throw new ConfigException(path, "needs 'name' (a built-in algorithm, such as TPE) or 'className' and 'codeDirectory' "
                        + "(your own)");
            }
            if (a.get("codeDirectory") != null) {
                throw new ConfigException(a.pathOf("codeDirectory"), "goes with 'className', not with 'name'");
            }
        } else {
            if (a.get("name") != null) {
                throw new ConfigException(path, "give 'name' (a built-in) or 'className' (your own), not both");
            }
            if (((String) a.get("className")).isEmpty()) {
                throw new ConfigException(a.pathOf("className"), "must not be empty");
            }
            if (a.get("codeDirectory") == null) {
                throw new ConfigException(a.pathOf("codeDirectory"), "required with 'className': the folder of the algorithm's code "
                        + "(for Tunekit, of its jars)");
            }
            if (!Files.isDirectory(Path.of((String) a.get("codeDirectory")))) {
                throw new ConfigException(a.pathOf("codeDirectory"), "\"" + a.get("codeDirectory") + "\" is not a directory");
            }
        }
    }

    private void validateTrainingService(ConfigObject ts) {
        String dir = (String) ts.get("trialCodeDirectory");
        if (!Files.isDirectory(Path.of(dir))) {
            throw new ConfigException(ts.pathOf("trialCodeDirectory"), "\"" + dir + "\" is not a directory");
        }
        Object gpus = ts.get("trialGpuNumber");
        if (gpus != null && ((Number) gpus).longValue() < 0) {
            throw new ConfigException(ts.pathOf("trialGpuNumber"), "must be 0 or more, got " + gpus);
        }
        boolean noGpus = gpus == null || ((Number) gpus).doubleValue() == 0;
        Schema s = ts.schema;
        if (s == ConfigSchema.LOCAL) {
            validateGpuIndices(ts, "gpuIndices");
            if (!noGpus && ts.get("useActiveGpu") == null) {
                throw new ConfigException(ts.pathOf("useActiveGpu"), "required with trialGpuNumber: true if the machine has a GUI "
                        + "(its GPUs always look busy), false if several experiments share the machine");
            }
            if (noGpus && ((Number) ts.get("maxTrialNumberPerGpu")).longValue() != 1) {
                throw new ConfigException(ts.pathOf("maxTrialNumberPerGpu"), "does not work without trialGpuNumber");
            }
        } else if (s == ConfigSchema.SLURM) {
            if (gpus instanceof Double) {
                throw new ConfigException(ts.pathOf("trialGpuNumber"), "Slurm gives whole GPUs: give a whole number of GPUs per trial, got "
                        + gpus);
            }
            positiveTime(ts, "pollInterval");
            ts.set("pollInterval", (long) parseTime(ts.get("pollInterval")));
        } else if (s == ConfigSchema.REMOTE) {
            List<?> machines = (List<?>) ts.get("machineList");
            if (machines.isEmpty()) {
                throw new ConfigException(ts.pathOf("machineList"), "must list at least one machine");
            }
            if (noGpus && machines.stream().anyMatch(m -> ((Number) ((ConfigObject) m).get("maxTrialNumberPerGpu")).longValue() != 1)) {
                throw new ConfigException(ts.pathOf("machineList"), "maxTrialNumberPerGpu does not work without trialGpuNumber");
            }
        } else if (s == ConfigSchema.OPENPAI) {
            if (gpus == null) {
                throw new ConfigException(ts.pathOf("trialGpuNumber"), "required for openpai");
            }
            String mount = (String) ts.get("localStorageMountPoint");
            if (!Files.isDirectory(Path.of(mount))) {
                throw new ConfigException(ts.pathOf("localStorageMountPoint"), "\"" + mount + "\" is not a directory");
            }
            if (ts.get("openpaiConfig") != null && ts.get("openpaiConfigFile") != null) {
                throw new ConfigException(ts.path, "give openpaiConfig or openpaiConfigFile, not both");
            }
            if (ts.get("openpaiConfigFile") instanceof String f && !Files.isRegularFile(Path.of(f))) {
                throw new ConfigException(ts.pathOf("openpaiConfigFile"), "\"" + f + "\" is not a file");
            }
        } else if (s == ConfigSchema.KUBEFLOW) {
            Object op = ts.get("operator");
            if (!"tf-operator".equals(op) && !"pytorch-operator".equals(op)) {
                throw new ConfigException(ts.pathOf("operator"), "must be 'tf-operator' or 'pytorch-operator', got " + describe(op));
            }
        }
    }

    private void validateRemoteMachine(ConfigObject m) {
        long port = ((Number) m.get("port")).longValue();
        if (port <= 0 || port >= 65536) {
            throw new ConfigException(m.pathOf("port"), "must be a port number (1 to 65535), got " + port);
        }
        if (((Number) m.get("maxTrialNumberPerGpu")).longValue() <= 0) {
            throw new ConfigException(m.pathOf("maxTrialNumberPerGpu"), "must be at least 1");
        }
        validateGpuIndices(m, "gpuIndices");
        if (m.get("password") != null) {
            warnings.add(m.pathOf("password") + ": the SSH password will show in the web UI as plain text; an SSH key file is safer");
        } else if (!(m.get("sshKeyFile") instanceof String key) || !Files.isRegularFile(Path.of(key))) {
            throw new ConfigException(m.pathOf("sshKeyFile"), "give a password or a valid SSH key file; \"" + m.get("sshKeyFile")
                    + "\" is not a file");
        }
    }

    private static void validateK8sStorage(ConfigObject s) {
        Object type = s.get("storageType");
        if ("azureStorage".equals(type)) {
            if (s.get("server") != null || s.get("path") != null) {
                throw new ConfigException(s.path, "server and path are for storageType nfs, not azureStorage");
            }
        } else if ("nfs".equals(type)) {
            for (String k : List.of("azureAccount", "azureShare", "keyVaultName", "keyVaultKey")) {
                if (s.get(k) != null) {
                    throw new ConfigException(s.pathOf(k), "is for storageType azureStorage, not nfs");
                }
            }
        } else {
            throw new ConfigException(s.pathOf("storageType"), "must be 'azureStorage' or 'nfs', got " + describe(type));
        }
    }

    private static void positive(ConfigObject n, String field) {
        Object v = n.get(field);
        if (v != null && ((Number) v).longValue() <= 0) {
            throw new ConfigException(n.pathOf(field), "must be at least 1, got " + v);
        }
    }

    private static void positiveTime(ConfigObject n, String field) {
        Object v = n.get(field);
        if (v == null) {
            return;
        }
        double seconds;
        try {
            seconds = parseTime(v);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(n.pathOf(field), e.getMessage());
        }
        if (!(seconds > 0)) {
            throw new ConfigException(n.pathOf(field), "must be longer than 0, got " + describe(v));
        }
    }

    private static void validateGpuIndices(ConfigObject n, String field) {
        if (n.get(field) instanceof List<?> l) {
            Set<Long> seen = new java.util.HashSet<>();
            for (int i = 0; i < l.size(); i++) {
                long index = ((Number) l.get(i)).longValue();
                if (!seen.add(index)) {
                    throw new ConfigException(n.pathOf(field) + "[" + i + "]", "GPU index " + index + " appears twice in " + l);
                }
                if (index < 0) {
                    throw new ConfigException(n.pathOf(field) + "[" + i + "]", "GPU indices cannot be negative, got " + index);
                }
            }
        }
    }

    // ---- the JSON ----------------------------------------------------------------------------
}
