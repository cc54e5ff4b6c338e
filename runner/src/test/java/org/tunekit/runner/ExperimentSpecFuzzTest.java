package org.tunekit.runner;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.tunekit.nniconfig.ConfigException;

/**
 * Coverage-guided fuzzing of the experiment config: YAML text from the fuzzer, loaded with
 * snakeyaml-engine as {@link ExperimentSpec#load} loads it, is read by {@link ExperimentSpec#fromMap}
 * or refused with a {@link ConfigException}; and a config it reads survives what a resumed run does,
 * {@code fromJson(toJson())}.
 */
class ExperimentSpecFuzzTest {
    /** The relative paths of a fuzzed config resolve here: an empty directory. */
    private static final Path BASE;

    static {
        try {
            BASE = Files.createTempDirectory("tunekit-spec-fuzz");
            BASE.toFile().deleteOnExit();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @FuzzTest(maxDuration = "60s")
    void readsOrRefuses(FuzzedDataProvider data) {
        String text = data.consumeRemainingAsString();
        Object tree;
        try {
            tree = new Load(LoadSettings.builder().setLabel("fuzzed").setAllowDuplicateKeys(false).build()).loadFromString(text);
        } catch (YamlEngineException notYaml) {
            return; // ExperimentSpec.load turns this into a ConfigException; the YAML parser is not the target
        }
        if (!(tree instanceof Map<?, ?> map)) {
            return;
        }
        ExperimentSpec spec;
        try {
            spec = ExperimentSpec.fromMap(map, BASE, BASE.resolve("config.yml"));
        } catch (ConfigException refused) {
            return;
        }
        String json = spec.toJson();
        try {
            ExperimentSpec.fromJson(json);
        } catch (ConfigException e) {
            throw new AssertionError("a config that was accepted is refused when resumed: " + e.getMessage() + "\nconfig:\n" + text
                    + "\nstored: " + json, e);
        }
    }
}
