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
import java.util.Set;
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
import org.tunekit.sdk.JsonValues;
import org.tunekit.sdk.space.InvalidSearchSpaceException;
import org.tunekit.sdk.space.SearchSpace;

/**
 * An NNI v2 experiment config for the local runner, read from YAML or JSON and checked before
 * anything starts. Relative paths resolve against the config file's folder, as NNI does. A bad value
 * is refused with a {@link ConfigException} naming its path ({@code tuner.classArgs}, {@code
 * searchSpace.lr}); keys that matter only to other training services are kept as warnings.
 *
 * @param configFile           the file it was read from, or {@code null} when it came from a stored copy
 * @param name                 {@code experimentName}, or {@code null}
 * @param searchSpace          the search space's definition (plain JSON values), already validated
 * @param trialCommand         {@code trialCommand}
 * @param trialCodeDirectory   {@code trialCodeDirectory}, absolute
 * @param trialConcurrency     {@code trialConcurrency}
 * @param maxTrialNumber       {@code maxTrialNumber}, or 0 for no limit
 * @param maxExperimentDuration {@code maxExperimentDuration}, or {@code null}
 * @param maxTrialDuration     {@code maxTrialDuration}, or {@code null}
 * @param algorithms           the {@code tuner}, {@code assessor} and {@code advisor} entries as given (paths made absolute)
 * @param workingDirectory     {@code experimentWorkingDirectory}, absolute, or {@code null} for the default
 * @param logLevel             {@code logLevel}, or {@code null}
 * @param maximize             true unless the tuner's (or advisor's) {@code optimize_mode} is {@code minimize} (without one: unless
 *                             the objective on the {@code default} key, else the first objective, is minimised)
 * @param warnings             what was accepted but is ignored here
 */
record ExperimentSpec(Path configFile, String name, Map<String, Object> searchSpace, String trialCommand, Path trialCodeDirectory,
                      int trialConcurrency, long maxTrialNumber, Duration maxExperimentDuration, Duration maxTrialDuration,
                      Map<String, Object> algorithms, Path workingDirectory, String logLevel, boolean maximize, List<String> warnings) {

    /** Keys of NNI's v2 experiment config that the local runner acts on. */
    private static final Set<String> USED = Set.of("experimentName", "searchSpace", "searchSpaceFile", "trialCommand",
            "trialCodeDirectory", "trialConcurrency", "maxTrialNumber", "maxExperimentDuration", "maxTrialDuration", "tuner",
            "assessor", "advisor", "experimentWorkingDirectory", "trainingService", "logLevel");
    /** Keys of NNI's v2 config that only matter to other training services, or to NNI's own manager. */
    private static final Set<String> IGNORED = Set.of("trialGpuNumber", "nniManagerIp", "debug", "tunerGpuIndices", "sharedStorage",
            "experimentType", "useAnnotation");
    /** Keys of a local training service entry. */
    private static final Set<String> LOCAL_KEYS = Set.of("platform", "useActiveGpu", "maxTrialNumberPerGpu", "gpuIndices", "reuseMode",
            "trialCommand", "trialCodeDirectory", "trialGpuNumber", "debug");
    /** Keys that mark NNI's v1 config format. */
    private static final Set<String> V1_KEYS = Set.of("authorName", "trial", "searchSpacePath", "trainingServicePlatform", "maxExecDuration",
            "maxTrialNum");
    private static final Pattern DURATION = Pattern.compile("\\s*([0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)\\s*([a-zA-Z]*)\\s*");

    ExperimentSpec {
        // in the config's order: the tuner sees the space as written, in every run alike
        searchSpace = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(searchSpace));
        algorithms = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(algorithms));
        warnings = List.copyOf(warnings);
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

    /** Reads a config already parsed, resolving relative paths against {@code base}. */
    static ExperimentSpec fromMap(Map<?, ?> raw, Path base, Path configFile) {
        Map<String, Object> c = stringKeys(raw, "");
        List<String> warnings = new ArrayList<>();
        for (String k : c.keySet()) {
            if (V1_KEYS.contains(k)) {
                throw new ConfigException("'" + k + "' is a key of NNI's v1 config format; tunekit run reads NNI's v2 format "
                        + "(trialCommand, trialCodeDirectory, trialConcurrency, searchSpace or searchSpaceFile, tuner, ...)");
            }
        }
        for (String k : c.keySet()) {
            if (!USED.contains(k) && !IGNORED.contains(k)) {
                throw new ConfigException("unknown key '" + k + "'" + suggestion(k, USED) + "; the keys tunekit run reads are "
                        + String.join(", ", new java.util.TreeSet<>(USED)));
            }
        }
        if (Boolean.TRUE.equals(c.get("useAnnotation"))) {
            throw new ConfigException("useAnnotation: NNI's code annotations are not supported; call the trial API "
                    + "(nni.get_next_parameter, nni.report_final_result) in the trial instead");
        }
        Object type = c.get("experimentType");
        if (type != null && !"hpo".equals(type)) {
            throw new ConfigException("experimentType: tunekit run runs hyperparameter experiments ('hpo'), got " + JsonValues.describe(type));
        }
        if (c.get("trialGpuNumber") instanceof Number n && n.doubleValue() > 0) {
            warnings.add("trialGpuNumber: GPUs are not scheduled by tunekit run; every trial sees every GPU of the machine");
        }
        for (String k : List.of("nniManagerIp", "tunerGpuIndices", "sharedStorage")) {
            if (c.containsKey(k)) {
                warnings.add(k + ": ignored (it matters only to NNI's manager or its remote training services)");
            }
        }

        Map<String, Object> service = trainingService(c.get("trainingService"), warnings);
        Object command = c.containsKey("trialCommand") ? c.get("trialCommand") : service.get("trialCommand");
        if (!(command instanceof String cmd) || cmd.isBlank()) {
            throw new ConfigException("trialCommand: required, the shell command that runs one trial (for example 'python3 train.py'), got "
                    + (command == null ? "nothing" : JsonValues.describe(command)));
        }
        Object codeDir = c.containsKey("trialCodeDirectory") ? c.get("trialCodeDirectory") : service.getOrDefault("trialCodeDirectory", ".");
        Path code = directory(codeDir, base, "trialCodeDirectory");
        if (!Files.isDirectory(code)) {
            throw new ConfigException("trialCodeDirectory: " + code + " is not a directory");
        }

        long concurrency = integer(c.get("trialConcurrency"), "trialConcurrency", 1, 10_000, -1);
        if (concurrency < 0) {
            throw new ConfigException("trialConcurrency: required, how many trials run at once (an integer of at least 1)");
        }
        long maxTrials = integer(c.get("maxTrialNumber"), "maxTrialNumber", 1, Long.MAX_VALUE, 0);
        Duration maxExperiment = duration(c.get("maxExperimentDuration"), "maxExperimentDuration");
        Duration maxTrial = duration(c.get("maxTrialDuration"), "maxTrialDuration");

        Map<String, Object> space = searchSpace(c, base);

        Map<String, Object> algorithms = new LinkedHashMap<>();
        for (AlgorithmKind kind : AlgorithmKind.values()) {
            Object entry = c.get(kind.label());
            if (entry == null) {
                continue;
            }
            if (!(entry instanceof Map<?, ?> m)) {
                throw new ConfigException(kind.label() + ": must be a mapping with 'name' (or 'className' and 'codeDirectory') and "
                        + "'classArgs', got " + JsonValues.describe(entry));
            }
            Map<String, Object> e = stringKeys(m, kind.label() + ".");
            Object dir = e.get("codeDirectory") != null ? e.get("codeDirectory") : e.get("codeDir");
            if (dir != null) {
                e.put(e.containsKey("codeDirectory") ? "codeDirectory" : "codeDir", directory(dir, base, kind.label() + ".codeDirectory").toString());
            }
            try {
                JsonCodec.write(e); // toJson stores it: NaN and infinities (YAML's .nan, .inf) cannot be written
            } catch (IllegalArgumentException notJson) {
                throw new ConfigException(kind.label() + ": " + notJson.getMessage());
            }
            algorithms.put(kind.label(), e);
        }
        ExperimentConfig algorithmConfig;
        try {
            algorithmConfig = ExperimentConfig.fromConfig(algorithms);
        } catch (PluginConfigurationException e) {
            throw new ConfigException(e.getMessage());
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

        Object name = c.get("experimentName");
        if (name != null && !(name instanceof String)) {
            throw new ConfigException("experimentName: must be a string, got " + JsonValues.describe(name));
        }
        Object wd = c.get("experimentWorkingDirectory");
        Path workDir = wd == null ? null : directory(wd, base, "experimentWorkingDirectory");
        Object level = c.get("logLevel");
        if (level != null && !(level instanceof String)) {
            throw new ConfigException("logLevel: must be a string (trace, debug, info, warning, error, fatal), got " + JsonValues.describe(level));
        }
        return new ExperimentSpec(configFile, (String) name, space, ((String) command).strip(), code, (int) concurrency, maxTrials,
                maxExperiment, maxTrial, algorithms, workDir, (String) level, !"minimize".equals(mode), warnings);
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
        return JsonCodec.write(m);
    }

    /** A duration as parseDuration reads it back: plain decimal seconds, never exponent notation (1.728E7s). */
    private static String seconds(Duration d) {
        return java.math.BigDecimal.valueOf(d.toMillis(), 3).stripTrailingZeros().toPlainString() + "s";
    }

    /** Reads a config stored by {@link #toJson}. */
    static ExperimentSpec fromJson(String json) {
        Object tree = parseYaml(json, "the stored experiment config");
        return fromMap((Map<?, ?>) tree, Path.of("/"), null);
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

    private static Map<String, Object> trainingService(Object ts, List<String> warnings) {
        if (ts == null) {
            return Map.of();
        }
        if (ts instanceof List<?>) {
            throw new ConfigException("trainingService: a list (hybrid mode) is not supported; tunekit run runs trials on this "
                    + "machine ('platform: local')");
        }
        if (!(ts instanceof Map<?, ?> m)) {
            throw new ConfigException("trainingService: must be a mapping such as {platform: local}, got " + JsonValues.describe(ts));
        }
        Map<String, Object> s = stringKeys(m, "trainingService.");
        Object platform = s.get("platform");
        if (!"local".equals(platform)) {
            throw new ConfigException("trainingService.platform: tunekit run runs trials on this machine only ('local'), got "
                    + JsonValues.describe(platform) + "; to run trials on other machines, run the experiment under NNI's manager "
                    + "with Tunekit as its tuner (see the README)");
        }
        for (String k : s.keySet()) {
            if (!LOCAL_KEYS.contains(k)) {
                throw new ConfigException("trainingService." + k + ": unknown key for the local training service" + suggestion(k, LOCAL_KEYS));
            }
        }
        for (String k : List.of("useActiveGpu", "maxTrialNumberPerGpu", "gpuIndices", "reuseMode")) {
            if (s.containsKey(k)) {
                warnings.add("trainingService." + k + ": ignored (GPUs are not scheduled by tunekit run)");
            }
        }
        return s;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> searchSpace(Map<String, Object> c, Path base) {
        Object inline = c.get("searchSpace");
        Object file = c.get("searchSpaceFile");
        String where = "searchSpace";
        if (inline != null && file != null) {
            throw new ConfigException("searchSpace and searchSpaceFile: give one of them, not both");
        }
        if (inline == null && file == null) {
            throw new ConfigException("searchSpace: required (or searchSpaceFile, the path of a JSON or YAML file holding it)");
        }
        Object def = inline;
        if (file != null) {
            if (!(file instanceof String f)) {
                throw new ConfigException("searchSpaceFile: must be a path, got " + JsonValues.describe(file));
            }
            Path p = base.resolve(f).normalize();
            where = "searchSpaceFile (" + p + ")";
            try {
                def = parseYaml(Files.readString(p, StandardCharsets.UTF_8), p.toString());
            } catch (IOException e) {
                throw new ConfigException("searchSpaceFile: cannot read " + p + ": " + e);
            }
        }
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

    private static Path directory(Object value, Path base, String key) {
        if (!(value instanceof String s) || s.isBlank()) {
            throw new ConfigException(key + ": must be a path, got " + JsonValues.describe(value));
        }
        String expanded = s.startsWith("~/") ? System.getProperty("user.home") + s.substring(1) : s;
        return base.resolve(expanded).toAbsolutePath().normalize();
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
                return parseDuration(s);
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

    /** " (did you mean 'x'?)" for a key within two edits of a known one, else "". */
    static String suggestion(String key, Set<String> known) {
        String best = null;
        int bestDistance = 3;
        for (String k : known) {
            int d = editDistance(key.toLowerCase(Locale.ROOT), k.toLowerCase(Locale.ROOT));
            if (d < bestDistance) {
                bestDistance = d;
                best = k;
            }
        }
        return best == null ? "" : " (did you mean '" + best + "'?)";
    }

    private static int editDistance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int sub = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(sub, Math.min(prev[j] + 1, cur[j - 1] + 1));
            }
            int[] t = prev;
            prev = cur;
            cur = t;
        }
        return prev[b.length()];
    }
}
