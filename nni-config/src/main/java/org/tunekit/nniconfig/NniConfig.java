package org.tunekit.nniconfig;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.tunekit.nniconfig.ConfigSchema.Field;
import org.tunekit.nniconfig.ConfigSchema.Kind;
import org.tunekit.nniconfig.ConfigSchema.Schema;

/**
 * An NNI v2 experiment config made into the JSON that {@code nnictl create} posts to the manager's
 * {@code /api/v1/nni/experiment}, by NNI 3's rules ({@code nni/experiment/config/}):
 *
 * <ul>
 *   <li>keys match ignoring case and underscores ({@code max_trial_number} is {@code maxTrialNumber});
 *       the JSON has them in camelCase, in the order NNI's config classes declare them, and leaves out
 *       every field that is {@code null};</li>
 *   <li>defaults are filled in ({@code experimentType: hpo}, {@code trialCodeDirectory: .},
 *       {@code useAnnotation}, {@code debug}, {@code logLevel} ({@code debug} when {@code debug} is set,
 *       else {@code info}), {@code experimentWorkingDirectory: ~/nni-experiments}, and each training
 *       service's own);</li>
 *   <li>paths are expanded ({@code ~}), made absolute against the config file's folder and resolved
 *       through symbolic links;</li>
 *   <li>{@code searchSpaceFile} is read (JSON or YAML) into {@code searchSpace} (the path stays too);</li>
 *   <li>{@code trialCommand}, {@code trialCodeDirectory}, {@code trialGpuNumber}, {@code nniManagerIp}
 *       and {@code debug} are copied into the training service when it does not set them (they stay
 *       at the top level too); the local training service drops {@code nniManagerIp};</li>
 *   <li>an {@code advisor} becomes the {@code tuner}; an algorithm named {@code _none_} is dropped;
 *       GPU indices given as {@code "0,1"} or {@code 0} become lists.</li>
 * </ul>
 *
 * A config NNI would refuse is refused here, with the path of the bad value ({@code
 * trainingService.gpuIndices[1]}); keys are named in camelCase, as NNI's classes name them, whatever
 * spelling the config used. What is left to the caller is what NNI's manager or Tunekit's own runner
 * make of a valid config (NNI's manager refuses {@code logLevel: fatal}, for one).
 */
public final class NniConfig {
    /** The {@code logLevel}s NNI's config accepts. */
    private static final List<String> LOG_LEVELS = List.of("fatal", "error", "warning", "info", "debug", "trace");
    /** Keys that mark NNI's v1 config format. */
    private static final Set<String> V1_KEYS = Set.of("trainingServicePlatform", "authorName", "trial", "searchSpacePath",
            "maxExecDuration", "maxTrialNum");

    /**
     * The converted config.
     *
     * @param json             what nnictl posts, in NNI's order
     * @param mode             the manager's {@code --mode}: the platform, or {@code hybrid} for a list of training services
     * @param experimentName   {@code experimentName}, or {@code null}
     * @param workingDirectory {@code experimentWorkingDirectory}, absolute (the manager's {@code --experiments-directory})
     * @param logLevel         {@code logLevel} after defaults
     * @param warnings         what NNI would warn about
     * @param given            the top-level keys the config itself set, by their camelCase names (not those filled in by
     *                         defaults): {@code experimentWorkingDirectory} is in {@code json} either way
     */
    public record Result(Map<String, Object> json, String mode, String experimentName, Path workingDirectory, String logLevel,
                         List<String> warnings, Set<String> given) {
        public Result {
            warnings = List.copyOf(warnings);
            given = Set.copyOf(given);
        }

        /**
         * The path of a {@code trialGpuNumber} that is a fraction of a GPU ({@code 0.5}), which Tunekit's
         * runner shares a GPU by but NNI's manager refuses; {@code null} when there is none.
         */
        /**
         * The path and value of a {@code platform} that is Tunekit's own ({@code trainingService.platform: 'slurm'}),
         * which {@code tunekit run} runs but NNI's manager has no training service for; {@code null} when there is none.
         */
        public String tunekitOnlyPlatform() {
            Object ts = json.get("trainingService");
            List<?> services = ts instanceof List<?> l ? l : ts == null ? List.of() : List.of(ts);
            for (int i = 0; i < services.size(); i++) {
                if (services.get(i) instanceof Map<?, ?> m && ConfigSchema.TUNEKIT_ONLY.contains(m.get("platform"))) {
                    return (ts instanceof List<?> ? "trainingService[" + i + "]" : "trainingService") + ".platform: '" + m.get("platform") + "'";
                }
            }
            return null;
        }

        public String fractionalGpus() {
            if (json.get("trialGpuNumber") instanceof Double) {
                return "trialGpuNumber";
            }
            Object ts = json.get("trainingService");
            List<?> services = ts instanceof List<?> l ? l : ts == null ? List.of() : List.of(ts);
            for (int i = 0; i < services.size(); i++) {
                if (services.get(i) instanceof Map<?, ?> m && m.get("trialGpuNumber") instanceof Double) {
                    return ts instanceof List<?> ? "trainingService[" + i + "].trialGpuNumber" : "trainingService.trialGpuNumber";
                }
            }
            return null;
        }
    }

    private final Path base;
    private final String home;
    private final List<String> warnings = new ArrayList<>();

    private NniConfig(Path base, String home) {
        this.base = base;
        this.home = home;
    }

    /**
     * Reads a config file (YAML or JSON) and converts it.
     *
     * @param file the config file; relative paths in it are relative to its folder
     * @param home the home directory that {@code ~} means ({@code $HOME}, as NNI uses)
     * @throws ConfigException naming the bad value
     */
    public static Result load(Path file, String home) {
        Path abs = file.toAbsolutePath().normalize();
        if (!Files.isRegularFile(abs)) {
            throw new ConfigException("", "\"" + file + "\" is not a file (give the experiment's YAML config: --config config.yml)");
        }
        String text;
        try {
            text = Files.readString(abs, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigException("", "cannot read " + file + ": " + e.getMessage());
        }
        Object tree;
        try {
            tree = new Load(LoadSettings.builder().setLabel(abs.toString()).setAllowDuplicateKeys(false).build()).loadFromString(text);
        } catch (YamlEngineException e) {
            throw new ConfigException("", abs + " is not valid YAML: " + e.getMessage());
        }
        if (!(tree instanceof Map<?, ?> map)) {
            throw new ConfigException("", abs + ": an experiment config is a mapping of keys (searchSpace, trialCommand, "
                    + "trialConcurrency, tuner, trainingService, ...), got " + describe(tree));
        }
        return convert(map, abs.getParent(), home);
    }

    /**
     * Converts a config already parsed.
     *
     * @param config the config's keys and values
     * @param base   the folder relative paths are relative to
     * @param home   the home directory that {@code ~} means
     */
    public static Result convert(Map<?, ?> config, Path base, String home) {
        for (Object k : config.keySet()) {
            if (k instanceof String key && V1_KEYS.contains(key)) { // (Set.of refuses to look up a null key: YAML allows one)
                throw new ConfigException(String.valueOf(k), "a key of NNI's v1 config format, which Tunekit does not read "
                        + "(nnictl converts it); write the v2 format: trialCommand, trialCodeDirectory, trialConcurrency, searchSpace or "
                        + "searchSpaceFile, tuner, trainingService: {platform: local} "
                        + "(https://nni.readthedocs.io/en/stable/reference/experiment_config.html)");
            }
            if (k instanceof String key && ConfigSchema.normalize(key).equals("warmstart")) {
                // tunekit run takes it out before this reading; NNI's manager would refuse it as unknown
                throw new ConfigException(key, "Tunekit's own key (parameter sets run before the tuner's), which tunekit run reads; "
                        + "NNI's manager has none: leave it out to run under NNI's manager, and add the sets there as "
                        + "customized trials once the experiment runs");
            }
        }
        Object type = valueOf(config, "experimentType");
        if (type != null && !"hpo".equals(type)) {
            throw new ConfigException("experimentType", "only hyperparameter tuning experiments ('hpo') run with Tunekit as the tuner, got "
                    + describe(type));
        }
        NniConfig c = new NniConfig(base, home);
        Node root = c.construct(ConfigSchema.EXPERIMENT, config, "");
        if (Boolean.TRUE.equals(root.get("useAnnotation"))) {
            // what nnictl says before anything else
            throw new ConfigException("useAnnotation", "specifying the search space with annotations is not supported since NNI v3.0; "
                    + "give searchSpace or searchSpaceFile and call nni.get_next_parameter() in the trial");
        }
        c.canonicalizeExperiment(root);
        c.validate(root);
        Object level = root.get("logLevel");
        Object ts = root.get("trainingService");
        String mode = ts instanceof Node n ? (String) n.get("platform") : "hybrid";
        @SuppressWarnings("unchecked")
        Map<String, Object> json = (Map<String, Object>) toJson(root, "");
        Set<String> given = new java.util.HashSet<>();
        for (Object k : config.keySet()) {
            Field f = ConfigSchema.EXPERIMENT.field((String) k);
            given.add(f.name());
        }
        return new Result(json, mode, (String) root.get("experimentName"), Path.of((String) root.get("experimentWorkingDirectory")),
                (String) level, c.warnings, given);
    }

    /**
     * Whether a config sets {@code key} in any spelling NNI accepts for it ({@code training_service},
     * {@code TrainingService} for {@code trainingService}).
     */
    public static boolean hasKey(Map<?, ?> config, String key) {
        return config.keySet().stream()
                .anyMatch(k -> k instanceof String s && ConfigSchema.normalize(s).equals(ConfigSchema.normalize(key)));
    }

    // ---- a config object: NNI's dataclass instance ------------------------------------------

    /** One config object: its class, its values by field (in order), and where each value came from. */
    private static final class Node {
        final Schema schema;
        final String path;
        final Map<String, Object> values = new LinkedHashMap<>();
        /** Fields whose value came from elsewhere (the top-level shortcuts): the path to name in messages. */
        final Map<String, String> sources = new HashMap<>();

        Node(Schema schema, String path) {
            this.schema = schema;
            this.path = path;
        }

        Object get(String field) {
            return values.get(field);
        }

        void set(String field, Object value) {
            values.put(field, value);
        }

        String pathOf(String field) {
            return sources.getOrDefault(field, join(path, field));
        }
    }

    private Node construct(Schema schema, Map<?, ?> raw, String path) {
        Node node = new Node(schema, path);
        for (Field f : schema.fields()) {
            node.set(f.name(), f.def());
        }
        Map<String, String> given = new HashMap<>();
        for (Map.Entry<?, ?> e : raw.entrySet()) {
            if (!(e.getKey() instanceof String key)) {
                throw new ConfigException(path, "keys must be strings, got " + describe(e.getKey()));
            }
            Field f = schema.field(key);
            if (f == null) {
                throw new ConfigException(join(path, key), "unknown key" + suggestion(key, schema) + "; the keys of "
                        + what(schema, path) + " are " + String.join(", ", schema.fields().stream().map(Field::name).toList()));
            }
            String before = given.put(f.name(), key);
            if (before != null) {
                throw new ConfigException(join(path, key), "given twice, as '" + before + "' and '" + key
                        + "' (NNI ignores case and underscores in keys)");
            }
            node.set(f.name(), build(f, e.getValue(), join(path, f.name())));
        }
        return node;
    }

    private Object build(Field f, Object v, String path) {
        switch (f.kind()) {
            case CONFIG -> {
                return v instanceof Map<?, ?> m ? construct(f.nested(), m, path) : v;
            }
            case CONFIG_LIST -> {
                if (v instanceof List<?> l && l.stream().allMatch(i -> i instanceof Map)) {
                    List<Object> out = new ArrayList<>();
                    for (int i = 0; i < l.size(); i++) {
                        out.add(construct(f.nested(), (Map<?, ?>) l.get(i), path + "[" + i + "]"));
                    }
                    return out;
                }
                return v;
            }
            case TRAINING_SERVICE -> {
                if (v instanceof Map<?, ?> m) {
                    return trainingService(m, path);
                }
                if (v instanceof List<?> l && !l.isEmpty() && l.stream().allMatch(i -> i instanceof Map)) {
                    List<Object> out = new ArrayList<>();
                    for (int i = 0; i < l.size(); i++) {
                        out.add(trainingService((Map<?, ?>) l.get(i), path + "[" + i + "]"));
                    }
                    return out;
                }
                return v;
            }
            default -> {
                return v;
            }
        }
    }

    private Node trainingService(Map<?, ?> raw, String path) {
        Object platform = valueOf(raw, "platform");
        String names = String.join(", ", ConfigSchema.TRAINING_SERVICES.keySet().stream().sorted().toList());
        if (platform == null) {
            throw new ConfigException(join(path, "platform"), "required: where trials run (" + names + "); 'local' is this machine");
        }
        Schema schema = platform instanceof String p ? ConfigSchema.TRAINING_SERVICES.get(p) : null;
        if (schema == null) {
            throw new ConfigException(join(path, "platform"), "unknown training service " + describe(platform)
                    + "; NNI's are " + names);
        }
        return construct(schema, raw, path);
    }

    // ---- canonicalization: what NNI's _canonicalize() methods do ----------------------------

    private void canonicalizeExperiment(Node e) {
        if (e.get("logLevel") == null) {
            e.set("logLevel", Boolean.TRUE.equals(e.get("debug")) ? "debug" : "info");
        }
        e.set("tunerGpuIndices", gpuIndices(e.get("tunerGpuIndices"), e.pathOf("tunerGpuIndices")));
        for (String algo : List.of("tuner", "assessor", "advisor")) {
            if (e.get(algo) instanceof Node a && "_none_".equals(a.get("name"))) {
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
        if (e.get("nniManagerIp") == null && e.get("trainingService") instanceof Node ts) {
            Object platform = ts.get("platform");
            // a Slurm job's trial talks to the runner through files on the shared folder, not over the network
            if (!"local".equals(platform) && !"slurm".equals(platform) && !(ts.get("nniManagerIp") instanceof String)) {
                warnings.add("nniManagerIp is not set: make sure the machines that run trials can reach this one at the address "
                        + "NNI's manager picks");
            }
        }
    }

    /** Resolves the paths of a config object and canonicalizes the objects inside it. */
    private void canonicalizeFields(Node node, List<Node> parents) {
        List<Node> inner = new ArrayList<>();
        inner.add(node);
        inner.addAll(parents);
        for (Field f : node.schema.fields()) {
            Object v = node.get(f.name());
            if (f.kind() == Kind.PATH && v instanceof String s) {
                node.set(f.name(), resolvePath(s, node.pathOf(f.name())));
            } else if (v instanceof Node child) {
                canonicalize(child, inner);
            } else if (v instanceof List<?> l) {
                for (Object item : l) {
                    if (item instanceof Node child) {
                        canonicalize(child, inner);
                    }
                }
            }
        }
    }

    private void canonicalize(Node node, List<Node> parents) {
        Schema s = node.schema;
        if (ConfigSchema.TRAINING_SERVICES.containsValue(s)) {
            Node experiment = parents.get(0);
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

    // ---- validation: what NNI's _validate_canonical() methods check --------------------------

    private void validate(Node node) {
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
            if (v instanceof Node child) {
                validate(child);
            } else if (v instanceof List<?> l) {
                for (Object item : l) {
                    if (item instanceof Node child) {
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
            case GPU_INDICES -> v instanceof List<?> l && l.stream().allMatch(NniConfig::isInteger);
            case STR_LIST -> v instanceof List<?> l && l.stream().allMatch(i -> i instanceof String);
            case DICT -> v instanceof Map;
            case CONFIG -> v instanceof Node;
            case CONFIG_LIST -> v instanceof List<?> l && l.stream().allMatch(i -> i instanceof Node);
            case TRAINING_SERVICE -> v instanceof Node || v instanceof List<?> l && l.stream().allMatch(i -> i instanceof Node);
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

    private void validateExperiment(Node e) {
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

    private static void validateAlgorithm(Node a) {
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

    private void validateTrainingService(Node ts) {
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
            if (noGpus && machines.stream().anyMatch(m -> ((Number) ((Node) m).get("maxTrialNumberPerGpu")).longValue() != 1)) {
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

    private void validateRemoteMachine(Node m) {
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

    private static void validateK8sStorage(Node s) {
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

    private static void positive(Node n, String field) {
        Object v = n.get(field);
        if (v != null && ((Number) v).longValue() <= 0) {
            throw new ConfigException(n.pathOf(field), "must be at least 1, got " + v);
        }
    }

    private static void positiveTime(Node n, String field) {
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

    /** NNI's {@code parse_time}: an integer is seconds; a string is a number and a unit among d, h, m, s. */
    static double parseTime(Object v) {
        if (!(v instanceof String text)) {
            return ((Number) v).doubleValue();
        }
        String s = text.toLowerCase(Locale.ROOT);
        for (Map.Entry<String, Long> unit : List.of(Map.entry("d", 86400L), Map.entry("h", 3600L), Map.entry("m", 60L), Map.entry("s", 1L))) {
            if (s.endsWith(unit.getKey())) {
                String number = s.substring(0, s.length() - 1).strip();
                try {
                    return Math.ceil(Double.parseDouble(number) * unit.getValue());
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException("'" + text + "' is not a duration such as 30s, 10m, 1h, 2d");
                }
            }
        }
        throw new IllegalArgumentException("bad unit in '" + text + "': write a number and a unit among d, h, m, s (such as 1h)");
    }

    private static void validateGpuIndices(Node n, String field) {
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

    /** A value as Python's {@code json.dumps} would write it after NNI's {@code json()}. */
    private static Object toJson(Object v, String path) {
        if (v instanceof Node n) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Field f : n.schema.fields()) {
                Object value = n.get(f.name());
                if (value != null) {
                    out.put(f.name(), toJson(value, n.pathOf(f.name())));
                }
            }
            return out;
        }
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : m.entrySet()) {
                String key = jsonKey(e.getKey(), path);
                out.put(key, toJson(e.getValue(), join(path, key)));
            }
            return out;
        }
        if (v instanceof Collection<?> c) {
            List<Object> out = new ArrayList<>();
            int i = 0;
            for (Object item : c) {
                out.add(toJson(item, path + "[" + i++ + "]"));
            }
            return out;
        }
        if (v instanceof Double d && (d.isNaN() || d.isInfinite())) {
            throw new ConfigException(path, d + " cannot be sent to NNI's manager (JSON has no such number)");
        }
        if (v == null || v instanceof String || v instanceof Boolean || v instanceof Number) {
            return v;
        }
        throw new ConfigException(path, "a " + v.getClass().getSimpleName() + " value cannot be written as JSON");
    }

    /** How Python's json module writes a mapping key. */
    private static String jsonKey(Object k, String path) {
        if (k instanceof String s) {
            return s;
        }
        if (k == null) {
            return "null";
        }
        if (k instanceof Boolean || k instanceof Number) {
            return String.valueOf(k);
        }
        throw new ConfigException(path, "a key of type " + k.getClass().getSimpleName() + " cannot be written as JSON");
    }

    // ---- helpers -----------------------------------------------------------------------------

    private static boolean isInteger(Object v) {
        return v instanceof Integer || v instanceof Long || v instanceof BigInteger || v instanceof Short || v instanceof Byte;
    }

    private static Object valueOf(Map<?, ?> m, String key) {
        for (Map.Entry<?, ?> e : m.entrySet()) {
            if (e.getKey() instanceof String k && ConfigSchema.normalize(k).equals(ConfigSchema.normalize(key))) {
                return e.getValue();
            }
        }
        return null;
    }

    private static String join(String path, String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    private static String what(Schema schema, String path) {
        return path.isEmpty() ? "an experiment config" : "'" + path + "' (" + schema.className() + ")";
    }

    private static String suggestion(String key, Schema schema) {
        String k = ConfigSchema.normalize(key);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (Field f : schema.fields()) {
            int d = distance(k, f.key());
            if (d < bestDistance) {
                bestDistance = d;
                best = f.name();
            }
        }
        return best != null && bestDistance <= Math.max(2, k.length() / 4) ? " (did you mean '" + best + "'?)" : "";
    }

    private static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                cur[j] = Math.min(Math.min(cur[j - 1] + 1, prev[j] + 1), prev[j - 1] + cost);
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }

    static String describe(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof String s) {
            return "'" + s + "' (a string)";
        }
        if (v instanceof Boolean) {
            return v + " (a boolean)";
        }
        if (v instanceof Double) {
            return v + " (a number with a fraction)";
        }
        if (v instanceof Number) {
            return v + " (an integer)";
        }
        if (v instanceof Map) {
            return "a mapping";
        }
        if (v instanceof List) {
            return "a list";
        }
        return v.toString();
    }
}
