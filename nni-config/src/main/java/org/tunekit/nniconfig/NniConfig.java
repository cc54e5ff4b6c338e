package org.tunekit.nniconfig;

import static org.tunekit.nniconfig.ConfigValues.describe;
import static org.tunekit.nniconfig.ConfigValues.valueOf;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.tunekit.nniconfig.ConfigSchema.Field;

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
 *
 * <p>The steps are NNI's: the mapping is read into config objects ({@link ConfigObjectReader}),
 * canonicalized ({@link Canonicalizer}), validated ({@link ConfigValidator}) and written as JSON
 * ({@link NniJson}).
 */
public final class NniConfig {
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

        /**
         * The path of a {@code trialGpuNumber} that is a fraction of a GPU ({@code 0.5}), which Tunekit's
         * runner shares a GPU by but NNI's manager refuses; {@code null} when there is none.
         */
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

    private NniConfig() {
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
        List<String> warnings = new ArrayList<>();
        ConfigObject root = ConfigObjectReader.construct(ConfigSchema.EXPERIMENT, config, "");
        if (Boolean.TRUE.equals(root.get("useAnnotation"))) {
            // what nnictl says before anything else
            throw new ConfigException("useAnnotation", "specifying the search space with annotations is not supported since NNI v3.0; "
                    + "give searchSpace or searchSpaceFile and call nni.get_next_parameter() in the trial");
        }
        new Canonicalizer(base, home, warnings).canonicalizeExperiment(root);
        new ConfigValidator(warnings).validate(root);
        Object level = root.get("logLevel");
        Object ts = root.get("trainingService");
        String mode = ts instanceof ConfigObject n ? (String) n.get("platform") : "hybrid";
        @SuppressWarnings("unchecked")
        Map<String, Object> json = (Map<String, Object>) NniJson.toJson(root, "");
        Set<String> given = new java.util.HashSet<>();
        for (Object k : config.keySet()) {
            Field f = ConfigSchema.EXPERIMENT.field((String) k);
            given.add(f.name());
        }
        return new Result(json, mode, (String) root.get("experimentName"), Path.of((String) root.get("experimentWorkingDirectory")),
                (String) level, warnings, given);
    }

    /**
     * Whether a config sets {@code key} in any spelling NNI accepts for it ({@code training_service},
     * {@code TrainingService} for {@code trainingService}).
     */
    public static boolean hasKey(Map<?, ?> config, String key) {
        return config.keySet().stream()
                .anyMatch(k -> k instanceof String s && ConfigSchema.normalize(s).equals(ConfigSchema.normalize(key)));
    }
}
