package org.tunekit.runner;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.tunekit.dispatcher.plugin.AlgorithmKind;
import org.tunekit.dispatcher.plugin.AlgorithmSpec;
import org.tunekit.dispatcher.plugin.ExperimentConfig;
import org.tunekit.dispatcher.plugin.PluginConfigurationException;
import org.tunekit.dispatcher.protocol.JsonCodec;
import org.tunekit.nniconfig.ConfigException;
import org.tunekit.nniconfig.NniConfig;
import org.tunekit.runner.manager.TrainingServiceProvider;
import org.tunekit.runner.manager.TrainingServices;
import org.tunekit.sdk.JsonValues;
import org.tunekit.sdk.space.InvalidSearchSpaceException;
import org.tunekit.sdk.space.SearchSpace;

/**
 * An NNI v2 experiment config for the local runner, read from YAML or JSON and checked before
 * anything starts. The config is read by NNI 3's rules, as {@code tunekit nni create} reads it
 * ({@link NniConfig}: keys match ignoring case and underscores, NNI's defaults, paths relative to the
 * config file's folder, the top-level shortcuts copied into the training service, every value checked);
 * a bad value is refused with a {@link ConfigException} naming its path ({@code trainingService.gpuIndices[1]},
 * {@code searchSpace.lr}), by its camelCase name whatever spelling the config used. What is particular to
 * running here comes after: the training service must be {@code local} (a config without one runs
 * locally), the search space must be one Tunekit's tuners read, and keys that matter only to NNI's
 * manager are kept as warnings.
 *
 * <p>One top-level key is Tunekit's own, which NNI's config does not have: {@code warmStart}, parameter
 * sets a new experiment runs first, before the tuner's own, as NNI's customized trials (what {@code
 * tunekit enqueue} adds to a running experiment). It is a list of mappings of parameter to value, or the
 * path (relative to the config file's folder) of a JSON or YAML file holding such a list (or one mapping,
 * as {@code tunekit enqueue} reads it):
 * <pre>
 * warmStart:
 *   - {lr: 0.01, batch_size: 64}
 *   - {lr: 0.001, batch_size: 128}
 * </pre>
 * It is taken out before NNI's reading and spelt as NNI's keys are (case and underscores ignored). Each
 * set must fit the search space, checked here: a set that does not is refused naming it and its
 * parameter ({@code warmStart[1]: does not fit the search space: parameter 'lr' (loguniform): 0.5 is not a
 * possible value ...}); so is a
 * list longer than {@code maxTrialNumber}, as the sets count towards it. The sets are not part of the
 * stored config ({@link #toJson}): a new experiment records them as its first {@code add-trial} requests
 * ({@link Steering}), which a resumed run does not make again.
 *
 * @param configFile           the file it was read from, or {@code null} when it came from a stored copy
 * @param name                 {@code experimentName}, or {@code null}
 * @param searchSpace          the search space's definition (plain JSON values), already validated
 * @param trialCommand         the local training service's {@code trialCommand}
 * @param trialCodeDirectory   the local training service's {@code trialCodeDirectory}, absolute
 * @param trialConcurrency     {@code trialConcurrency}
 * @param maxTrialNumber       {@code maxTrialNumber}, or 0 for no limit
 * @param maxExperimentDuration {@code maxExperimentDuration}, or {@code null}
 * @param maxTrialDuration     {@code maxTrialDuration}, or {@code null}
 * @param algorithms           the {@code tuner}, {@code assessor} and {@code advisor} entries (paths absolute); an
 *                             {@code advisor} stays under its own key, where NNI would move it to {@code tuner}
 * @param workingDirectory     {@code experimentWorkingDirectory}, absolute, or {@code null} when the config does not set it
 *                             (tunekit run's own default then, not NNI's {@code ~/nni-experiments})
 * @param logLevel             {@code logLevel} after NNI's default ({@code debug} with {@code debug: true}, else {@code info})
 * @param maximize             true unless the tuner's (or advisor's) {@code optimize_mode} is {@code minimize} (without one: unless
 *                             the objective on the {@code default} key, else the first objective, is minimised)
 * @param warnings             what was accepted but is ignored here
 * @param gpus                 the local training service's GPU settings
 * @param trainingService      the training service entry as NNI's reader made it ({@code platform} and its keys); for
 *                             {@code local}, just the platform (its GPU settings are {@code gpus})
 * @param warmStart            the parameter sets of {@code warmStart}, in order, checked against the search space (plain
 *                             JSON values); empty without the key, and for a config read back from the store
 */
record ExperimentSpec(Path configFile, String name, Map<String, Object> searchSpace, String trialCommand, Path trialCodeDirectory,
                      int trialConcurrency, long maxTrialNumber, Duration maxExperimentDuration, Duration maxTrialDuration,
                      Map<String, Object> algorithms, Path workingDirectory, String logLevel, boolean maximize, List<String> warnings,
                      GpuConfig gpus, Map<String, Object> trainingService, List<Map<String, Object>> warmStart) {

    /** Tunekit's own top-level key: parameter sets to run first. */
    static final String WARM_START = "warmStart";

    /** Top-level keys of NNI's v2 config that matter only to NNI's manager or its other training services. */
    private static final List<String> IGNORED = List.of("nniManagerIp", "tunerGpuIndices", "sharedStorage");
    /** NNI 2's names in an algorithm entry, which configs stored by earlier versions may hold, and NNI 3's. */
    private static final Map<String, String> OLD_ALGORITHM_KEYS = Map.of("codeDir", "codeDirectory", "builtinTunerName", "name",
            "builtinAssessorName", "name", "builtinAdvisorName", "name");
    private static final Pattern DURATION = Pattern.compile("\\s*([0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)\\s*([a-zA-Z]*)\\s*");

    ExperimentSpec {
        // in the config's order: the tuner sees the space as written, in every run alike
        searchSpace = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(searchSpace));
        algorithms = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(algorithms));
        warnings = List.copyOf(warnings);
        gpus = gpus == null ? GpuConfig.NONE : gpus;
        trainingService = trainingService == null ? Map.of("platform", "local")
                : java.util.Collections.unmodifiableMap(new LinkedHashMap<>(trainingService));
        warmStart = warmStart == null ? List.of() : warmStart.stream().map(p -> {
            @SuppressWarnings("unchecked")
            Map<String, Object> copy = (Map<String, Object>) JsonValues.immutableCopy(p);
            return copy;
        }).toList();
    }

    /** Where trials run: {@code trainingService.platform}. */
    String platform() {
        return (String) trainingService.get("platform");
    }

    /** Reads and checks a config file (YAML or JSON). */
    static ExperimentSpec load(Path file) {
        Path abs = file.toAbsolutePath().normalize();
        String text;
        try {
            text = Files.readString(abs, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new ConfigException("cannot read the experiment config " + file + ": " + e.getMessage());
        }
        Object tree = parseYaml(text, abs.toString());
        if (!(tree instanceof Map<?, ?> map)) {
            throw new ConfigException(file + ": an experiment config must be a mapping of keys (experimentName, searchSpace, "
                    + "trialCommand, ...), got " + kind(tree));
        }
        return fromMap(map, abs.getParent(), abs);
    }

    /**
     * Reads a config already parsed, resolving relative paths against {@code base}: NNI's reading first
     * ({@link NniConfig#convert}), then what running on this machine needs.
     */
    static ExperimentSpec fromMap(Map<?, ?> raw, Path base, Path configFile) {
        Map<Object, Object> config = new LinkedHashMap<>(raw);
        // Tunekit's own key, which NNI's reader would refuse as unknown
        Object warmStart = takeWarmStart(config);
        if (!NniConfig.hasKey(raw, "trainingService")) {
            // NNI requires one; tunekit run has only one place to run trials
            config.put("trainingService", Map.of("platform", "local"));
        }
        NniConfig.Result nni = NniConfig.convert(config, base, home());
        Map<String, Object> c = stringKeys(nni.json(), "");
        List<String> warnings = new ArrayList<>(nni.warnings());
        // NNI's manager is reached back by its trials; tunekit run's are not (they talk through files over SSH)
        warnings.removeIf(w -> w.startsWith("nniManagerIp is not set"));
        for (String k : IGNORED) {
            if (nni.given().contains(k)) {
                warnings.add(k + ": ignored (it matters only to NNI's manager or its remote training services)");
            }
        }
        Map<String, Object> service = service(c.get("trainingService"));
        if (Boolean.TRUE.equals(service.get("reuseMode"))) {
            warnings.add("trainingService.reuseMode: ignored (tunekit run starts every trial as a new process)");
        }

        String command = (String) service.get("trialCommand");
        if (command.isBlank()) {
            throw new ConfigException("trialCommand: required, the shell command that runs one trial (for example 'python3 train.py'), "
                    + "got '" + command + "'");
        }
        Path code = Path.of((String) service.get("trialCodeDirectory"));
        long concurrency = integer(c.get("trialConcurrency"), "trialConcurrency", 1, 10_000, -1);
        long maxTrials = integer(c.get("maxTrialNumber"), "maxTrialNumber", 1, Long.MAX_VALUE, 0);
        Duration maxExperiment = duration(c.get("maxExperimentDuration"), "maxExperimentDuration");
        Duration maxTrial = duration(c.get("maxTrialDuration"), "maxTrialDuration");

        Object file = c.get("searchSpaceFile");
        Map<String, Object> space = searchSpace(c.get("searchSpace"), file == null ? "searchSpace" : "searchSpaceFile (" + file + ")");

        Map<String, Object> algorithms = new LinkedHashMap<>();
        // NNI moves an advisor to "tuner" (and refuses both); the runner creates it as the advisor it was given as
        boolean advisor = nni.given().contains("advisor") && !nni.given().contains("tuner");
        for (AlgorithmKind kind : AlgorithmKind.values()) {
            if (c.get(kind.label()) instanceof Map<?, ?> entry) {
                String label = kind == AlgorithmKind.TUNER && advisor ? AlgorithmKind.ADVISOR.label() : kind.label();
                algorithms.put(label, entry);
            }
        }
        ExperimentConfig algorithmConfig;
        try {
            algorithmConfig = ExperimentConfig.fromConfig(algorithms);
        } catch (PluginConfigurationException e) {
            throw new ConfigException(e.getMessage(), e);
        }
        AlgorithmSpec optimiser = algorithmConfig.advisor() != null ? algorithmConfig.advisor() : algorithmConfig.tuner();
        Object mode = optimiser.arguments().asMap().get("optimize_mode");
        if (mode != null && !"maximize".equals(mode) && !"minimize".equals(mode)) {
            throw new ConfigException(optimiser.kind().label() + ".classArgs.optimize_mode: must be 'maximize' or 'minimize', got "
                    + JsonValues.describe(mode));
        }
        if (mode == null) {
            // a multi-objective tuner has no optimize_mode: the single value ranked in the tables is the default key,
            // in the direction of the objective on that key, else of the first objective (which a trial usually
            // repeats as its default)
            try {
                var objectives = org.tunekit.sdk.objectives.Objectives.from(optimiser.arguments()).list();
                var ranked = objectives.stream().filter(o -> o.metric().equals("default")).findFirst()
                        .or(() -> objectives.stream().findFirst());
                if (ranked.isPresent()) {
                    mode = ranked.get().mode() == org.tunekit.sdk.OptimizeMode.MINIMIZE ? "minimize" : "maximize";
                }
            } catch (IllegalArgumentException e) {
                // the tuner itself names a bad objectives argument when it is created
            }
        }

        Path workDir = nni.given().contains("experimentWorkingDirectory") ? nni.workingDirectory() : null;
        boolean local = "local".equals(service.get("platform"));
        GpuConfig gpus = local ? gpus(service) : GpuConfig.NONE;
        if (gpus.trialGpuNumber() != null && gpus.trialGpuNumber() > 0 && gpus.useActiveGpu() == null) {
            // what NNI's reader asks of a local training service, also when the config leaves the service out
            throw new ConfigException("trainingService.useActiveGpu: required with trialGpuNumber: true if the machine has a GUI (its GPUs "
                    + "always look busy), false if several experiments share the machine");
        }
        gpus.scheduling();
        if (gpus.trialGpuNumber() == null && gpus.gpuIndices() != null) {
            warnings.add("trainingService.gpuIndices: has no effect without trialGpuNumber (GPUs are not scheduled, trials see every GPU)");
        }
        List<Map<String, Object>> sets = warmStart(warmStart, base, space, maxTrials);
        return new ExperimentSpec(configFile, nni.experimentName(), space, command.strip(), code, (int) concurrency, maxTrials,
                maxExperiment, maxTrial, algorithms, workDir, nni.logLevel(), !"minimize".equals(mode), warnings, gpus,
                local ? Map.of("platform", "local") : service, sets);
    }

    /** Removes {@code warmStart} from the config, in any spelling NNI's keys allow, and returns its value (null without it). */
    private static Object takeWarmStart(Map<Object, Object> config) {
        String found = null;
        Object value = null;
        for (var it = config.entrySet().iterator(); it.hasNext(); ) {
            var e = it.next();
            if (e.getKey() instanceof String k && k.toLowerCase(Locale.ROOT).replace("_", "").equals("warmstart")) {
                if (found != null) {
                    throw new ConfigException(WARM_START + ": given twice, as '" + found + "' and '" + k + "' (case and underscores in keys "
                            + "are ignored)");
                }
                found = k;
                value = e.getValue();
                it.remove();
            }
        }
        return value;
    }

    /**
     * The parameter sets of {@code warmStart}: a list of mappings, or the path of a file holding one; each checked
     * against the search space, and no more of them than {@code maxTrialNumber}.
     */
    private static List<Map<String, Object>> warmStart(Object value, Path base, Map<String, Object> spaceDefinition, long maxTrials) {
        if (value == null) {
            return List.of();
        }
        String where = WARM_START;
        String in = "";
        List<?> sets;
        if (value instanceof String file) {
            Path path;
            String text;
            try {
                String expanded = file.equals("~") || file.startsWith("~/") ? home() + file.substring(1) : file;
                path = base.resolve(expanded).normalize();
                text = Files.readString(path, StandardCharsets.UTF_8);
            } catch (IOException | java.nio.file.InvalidPathException e) {
                throw new ConfigException(WARM_START + ": cannot read the parameter sets from '" + file + "': " + e.getMessage());
            }
            in = " (in " + file + ")";
            where = WARM_START + in;
            Object tree;
            try {
                tree = parseYaml(text, path.toString());
            } catch (ConfigException e) {
                throw new ConfigException(WARM_START + ": " + e.getMessage(), e);
            }
            // one set, as tunekit enqueue reads a file
            sets = tree instanceof Map<?, ?> ? java.util.Collections.singletonList(tree) : tree instanceof List<?> l ? l : null;
            if (sets == null) {
                throw new ConfigException(where + ": must hold a list of parameter sets ({\"lr\": 0.01, ...}), got " + kind(tree));
            }
        } else if (value instanceof List<?> l) {
            sets = l;
        } else {
            throw new ConfigException(WARM_START + ": must be a list of parameter sets ([{lr: 0.01, batch_size: 64}, ...]) or the path of "
                    + "a JSON file holding one, got " + kind(value));
        }
        if (maxTrials > 0 && sets.size() > maxTrials) {
            throw new ConfigException(where + ": " + sets.size() + " parameter sets, more than maxTrialNumber (" + maxTrials
                    + "): each runs as a trial, which counts towards it");
        }
        SearchSpace space = SearchSpace.parse(spaceDefinition);
        List<Map<String, Object>> out = new ArrayList<>();
        for (int i = 0; i < sets.size(); i++) {
            String at = WARM_START + "[" + i + "]" + in;
            if (!(sets.get(i) instanceof Map<?, ?> m) || m.isEmpty()) {
                throw new ConfigException(at + ": must be a mapping of parameter to value ({lr: 0.01, batch_size: 64}), got "
                        + (sets.get(i) instanceof Map<?, ?> ? "an empty mapping" : kind(sets.get(i))));
            }
            Map<String, Object> set = stringKeys(m, WARM_START + "[" + i + "].");
            Optional<String> wrong;
            try {
                wrong = space.violation(org.tunekit.sdk.Parameters.of(set));
            } catch (IllegalArgumentException e) {
                wrong = Optional.of(e.getMessage());
            }
            if (wrong.isPresent()) {
                throw new ConfigException(at + ": does not fit the search space: " + wrong.get());
            }
            out.add(set);
        }
        return out;
    }

    /** The training service: this machine's, or one a {@link TrainingServiceProvider} on the class path serves. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> service(Object ts) {
        if (ts instanceof List<?>) {
            throw new ConfigException("trainingService: a list of training services (NNI's hybrid mode) is a valid config, but "
                    + "tunekit run runs one kind of training service at a time and does not run hybrid experiments yet; "
                    + "to run it as it is, run it under NNI's manager (tunekit nni create --config FILE)");
        }
        Map<String, Object> s = (Map<String, Object>) ts;
        Object platform = s.get("platform");
        if ("local".equals(platform)) {
            return s;
        }
        java.util.Set<String> served = new java.util.TreeSet<>(TrainingServices.all().keySet());
        if (!served.contains(platform)) {
            served.add("local");
            throw new ConfigException("trainingService.platform: " + JsonValues.describe(platform) + " is a valid config, but tunekit run "
                    + "runs trials on " + String.join(", ", served) + "; to run it as it is, run the experiment under NNI's manager "
                    + "with Tunekit as its tuner (tunekit nni create --config FILE, see the README)");
        }
        return s;
    }

    /** The local training service's GPU settings, as NNI's reader left them (checked, indices as a list). */
    private static GpuConfig gpus(Map<String, Object> service) {
        Double perTrial = service.get("trialGpuNumber") instanceof Number n ? n.doubleValue() : null;
        List<Integer> indices = null;
        if (service.get("gpuIndices") instanceof List<?> l) {
            indices = new ArrayList<>();
            for (int i = 0; i < l.size(); i++) {
                indices.add((int) integer(l.get(i), "trainingService.gpuIndices[" + i + "]", 0, Integer.MAX_VALUE, 0));
            }
        }
        int perGpu = (int) integer(service.get("maxTrialNumberPerGpu"), "trainingService.maxTrialNumberPerGpu", 1, Integer.MAX_VALUE, 1);
        return new GpuConfig(perTrial, indices, perGpu, (Boolean) service.get("useActiveGpu"));
    }

    /** {@code $HOME}, which NNI's {@code ~} means. */
    private static String home() {
        String home = System.getenv("HOME");
        return home != null && !home.isBlank() ? home : System.getProperty("user.home");
    }

    /** The config as JSON, with every path absolute: what a resumed run reads again. */
    String toJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        if (name != null) {
            m.put("experimentName", name);
        }
        m.put("searchSpace", searchSpace);
        m.put("trialCommand", trialCommand);
        m.put("trialCodeDirectory", trialCodeDirectory.toString());
        m.put("trialConcurrency", (long) trialConcurrency);
        if (maxTrialNumber > 0) {
            m.put("maxTrialNumber", maxTrialNumber);
        }
        if (maxExperimentDuration != null) {
            m.put("maxExperimentDuration", seconds(maxExperimentDuration));
        }
        if (maxTrialDuration != null) {
            m.put("maxTrialDuration", seconds(maxTrialDuration));
        }
        m.putAll(algorithms);
        if (workingDirectory != null) {
            m.put("experimentWorkingDirectory", workingDirectory.toString());
        }
        if (logLevel != null) {
            m.put("logLevel", logLevel);
        }
        if (!"local".equals(platform())) {
            m.put("trainingService", trainingService);
            return JsonCodec.write(m);
        }
        Map<String, Object> service = new LinkedHashMap<>();
        service.put("platform", "local");
        if (gpus.trialGpuNumber() != null) {
            double n = gpus.trialGpuNumber();
            service.put("trialGpuNumber", n == Math.rint(n) ? (Object) (long) n : (Object) n);
        }
        if (gpus.useActiveGpu() != null) {
            service.put("useActiveGpu", gpus.useActiveGpu());
        }
        if (gpus.maxTrialNumberPerGpu() != 1) {
            service.put("maxTrialNumberPerGpu", (long) gpus.maxTrialNumberPerGpu());
        }
        if (gpus.gpuIndices() != null) {
            service.put("gpuIndices", gpus.gpuIndices().stream().map(Integer::longValue).toList());
        }
        m.put("trainingService", service);
        return JsonCodec.write(m);
    }

    /** A duration as parseDuration reads it back: plain decimal seconds, never exponent notation (1.728E7s). */
    private static String seconds(Duration d) {
        return java.math.BigDecimal.valueOf(d.toMillis(), 3).stripTrailingZeros().toPlainString() + "s";
    }

    /**
     * Reads a config stored by {@link #toJson}, also as earlier versions stored it: without a training
     * service (it was always this machine's, with no GPU settings kept), and with the algorithm entries
     * as given, which may use NNI 2's names ({@code codeDir}, {@code builtinTunerName}).
     */
    static ExperimentSpec fromJson(String json) {
        Object tree = parseYaml(json, "the stored experiment config");
        if (!(tree instanceof Map<?, ?> stored)) {
            throw new ConfigException("the stored experiment config is not a JSON object: " + kind(tree));
        }
        Map<Object, Object> config = new LinkedHashMap<>(stored);
        for (AlgorithmKind kind : AlgorithmKind.values()) {
            if (config.get(kind.label()) instanceof Map<?, ?> entry) {
                Map<Object, Object> renamed = new LinkedHashMap<>();
                entry.forEach((k, v) -> renamed.put(OLD_ALGORITHM_KEYS.getOrDefault(k, String.valueOf(k)), v));
                config.put(kind.label(), renamed);
            }
        }
        return fromMap(config, Path.of("/"), null);
    }

    /** The algorithm entries as the dispatcher reads them. */
    ExperimentConfig algorithmConfig() {
        return ExperimentConfig.fromConfig(algorithms);
    }

    /** Parses NNI's duration strings: a number and a unit among s, m, h, d (a bare number is seconds). */
    static Duration parseDuration(String text) {
        Matcher m = DURATION.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a duration: '" + text + "' (write a number and a unit: 30s, 10m, 1.5h, 2d)");
        }
        double n = Double.parseDouble(m.group(1));
        double seconds = switch (m.group(2).toLowerCase(Locale.ROOT)) {
            case "", "s", "sec", "secs", "second", "seconds" -> n;
            case "m", "min", "mins", "minute", "minutes" -> n * 60;
            case "h", "hr", "hrs", "hour", "hours" -> n * 3600;
            case "d", "day", "days" -> n * 86400;
            default -> throw new IllegalArgumentException("unknown unit '" + m.group(2) + "' in '" + text + "' (use s, m, h or d)");
        };
        if (seconds <= 0) {
            throw new IllegalArgumentException("a duration must be positive, got '" + text + "'");
        }
        return Duration.ofMillis(Math.round(seconds * 1000));
    }

    private static Object parseYaml(String text, String where) {
        try {
            return new Load(LoadSettings.builder().setLabel(where).setAllowDuplicateKeys(false).build()).loadFromString(text);
        } catch (YamlEngineException e) {
            throw new ConfigException(where + ": not valid YAML or JSON: " + e.getMessage());
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> searchSpace(Object def, String where) {
        if (!(def instanceof Map<?, ?> m)) {
            throw new ConfigException(where + ": must be a mapping of parameter names to {_type, _value}, got " + kind(def));
        }
        Map<String, Object> space = stringKeys(m, "searchSpace.");
        try {
            SearchSpace.parse(space);
        } catch (InvalidSearchSpaceException e) {
            String path = e.path().isEmpty() ? "" : "." + e.path().replace('/', '.');
            throw new ConfigException(where + path + ": " + e.getMessage().replaceFirst("^invalid search space: (parameter '[^']*': )?", ""));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(where + ": " + e.getMessage());
        }
        return (Map<String, Object>) JsonValues.immutableCopy(space);
    }

    private static long integer(Object value, String key, long min, long max, long absent) {
        if (value == null) {
            return absent;
        }
        long v;
        if (value instanceof Long || value instanceof Integer || value instanceof java.math.BigInteger) {
            v = ((Number) value).longValue();
        } else if (value instanceof Double d && d == Math.rint(d) && !d.isInfinite()) {
            v = d.longValue();
        } else {
            throw new ConfigException(key + ": must be an integer, got " + JsonValues.describe(value));
        }
        if (v < min || v > max) {
            throw new ConfigException(key + ": must be at least " + min + (max < Long.MAX_VALUE ? " and at most " + max : "") + ", got " + v);
        }
        return v;
    }

    private static Duration duration(Object value, String key) {
        if (value == null) {
            return null;
        }
        try {
            if (value instanceof Number n) {
                // NaN passed "<= 0" and became 0 ms; an infinity became a duration toJson could not write back
                if (!(n.doubleValue() > 0) || Double.isInfinite(n.doubleValue())) {
                    throw new IllegalArgumentException("a duration must be a positive finite number of seconds, got " + n);
                }
                return Duration.ofMillis(Math.round(n.doubleValue() * 1000));
            }
            if (value instanceof String s) {
                Duration d = parseDuration(s);
                if (d.isZero()) {
                    // NNI's reading rounds it up to a second; stored as 0s it would be refused when the run resumes
                    throw new IllegalArgumentException("'" + s + "' is shorter than a millisecond");
                }
                return d;
            }
        } catch (IllegalArgumentException e) {
            throw new ConfigException(key + ": " + e.getMessage());
        }
        throw new ConfigException(key + ": must be a duration such as '30m' or '2h', got " + JsonValues.describe(value));
    }

    private static Map<String, Object> stringKeys(Map<?, ?> m, String prefix) {
        Map<String, Object> out = new LinkedHashMap<>();
        m.forEach((k, v) -> {
            if (!(k instanceof String s)) {
                throw new ConfigException(prefix + k + ": keys must be strings");
            }
            out.put(s, normalise(v, prefix + s));
        });
        return out;
    }

    /** YAML's numbers as the JSON values the rest of Tunekit uses (Long, Double), checked. */
    private static Object normalise(Object v, String path) {
        if (v instanceof Map<?, ?> m) {
            return stringKeys(m, path + ".");
        }
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>(l.size());
            for (int i = 0; i < l.size(); i++) {
                out.add(normalise(l.get(i), path + "[" + i + "]"));
            }
            return out;
        }
        if (v instanceof java.math.BigInteger b) {
            if (b.bitLength() >= 64) {
                throw new ConfigException(path + ": integer out of range: " + b);
            }
            return b.longValue();
        }
        if (v instanceof Integer || v instanceof Long || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        if (v instanceof Float || v instanceof Double) {
            return ((Number) v).doubleValue();
        }
        if (v == null || v instanceof String || v instanceof Boolean) {
            return v;
        }
        throw new ConfigException(path + ": a " + v.getClass().getSimpleName() + " is not a JSON value (write it as a string)");
    }

    private static String kind(Object v) {
        return v == null ? "nothing" : v instanceof List ? "a list" : v instanceof Map ? "a mapping" : JsonValues.describe(v);
    }
}
