package org.tunekit.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExperimentSpecTest {
    @TempDir
    Path tmp;

    private static final String GOOD = """
            experimentName: mnist
            searchSpaceFile: space.json
            trialCommand: python3 mnist.py
            trialCodeDirectory: code
            trialConcurrency: 2
            maxTrialNumber: 10
            maxExperimentDuration: 1.5h
            maxTrialDuration: 90s
            tuner:
              name: TPE
              classArgs:
                optimize_mode: maximize
            assessor:
              name: Medianstop
            trainingService:
              platform: local
              useActiveGpu: false
            """;

    private Path write(String config) throws Exception {
        Files.createDirectories(tmp.resolve("code"));
        Files.writeString(tmp.resolve("space.json"), "{\"lr\": {\"_type\": \"loguniform\", \"_value\": [0.0001, 0.1]}}");
        Path c = tmp.resolve("config.yml");
        Files.writeString(c, config);
        return c;
    }

    @Test
    void readsNnisV2ConfigWithPathsRelativeToTheConfigFile() throws Exception {
        ExperimentSpec s = ExperimentSpec.load(write(GOOD));
        assertThat(s.name()).isEqualTo("mnist");
        assertThat(s.trialCodeDirectory()).isEqualTo(tmp.resolve("code"));
        assertThat(s.searchSpace()).containsKey("lr");
        assertThat(s.trialConcurrency()).isEqualTo(2);
        assertThat(s.maxTrialNumber()).isEqualTo(10);
        assertThat(s.maxExperimentDuration()).isEqualTo(Duration.ofMinutes(90));
        assertThat(s.maxTrialDuration()).isEqualTo(Duration.ofSeconds(90));
        assertThat(s.maximize()).isTrue();
        assertThat(s.warnings()).singleElement().asString().contains("trainingService.useActiveGpu");
        assertThat(s.algorithmConfig().assessor().name()).isEqualTo("Medianstop");
    }

    @Test
    void theSameConfigAsJsonReadsTheSameAndSurvivesItsStoredForm() throws Exception {
        ExperimentSpec yaml = ExperimentSpec.load(write(GOOD));
        Path json = tmp.resolve("config.json");
        Files.writeString(json, """
                {"experimentName": "mnist", "searchSpaceFile": "space.json", "trialCommand": "python3 mnist.py",
                 "trialCodeDirectory": "code", "trialConcurrency": 2, "maxTrialNumber": 10, "maxExperimentDuration": "1.5h",
                 "maxTrialDuration": "90s", "tuner": {"name": "TPE", "classArgs": {"optimize_mode": "maximize"}},
                 "assessor": {"name": "Medianstop"}, "trainingService": {"platform": "local", "useActiveGpu": false}}
                """);
        ExperimentSpec fromJson = ExperimentSpec.load(json);
        assertThat(fromJson.toJson()).isEqualTo(yaml.toJson());
        ExperimentSpec stored = ExperimentSpec.fromJson(yaml.toJson());
        assertThat(stored.toJson()).isEqualTo(yaml.toJson());
        assertThat(stored.trialCodeDirectory()).isEqualTo(yaml.trialCodeDirectory());
    }

    @Test
    void trialCommandInsideTheTrainingServiceIsReadAsNni3WritesIt() throws Exception {
        ExperimentSpec s = ExperimentSpec.load(write(GOOD.replace("trialCommand: python3 mnist.py\n", "")
                .replace("  useActiveGpu: false", "  trialCommand: python3 other.py")));
        assertThat(s.trialCommand()).isEqualTo("python3 other.py");
    }

    @Test
    void badConfigsAreRefusedWithThePathOfTheBadValue() throws Exception {
        assertRefused(GOOD.replace("maxTrialNumber", "maxTrialNumbr"), "unknown key 'maxTrialNumbr' (did you mean 'maxTrialNumber'?)");
        assertRefused(GOOD.replace("trialCommand: python3 mnist.py\n", ""), "trialCommand: required");
        assertRefused(GOOD.replace("trialConcurrency: 2", "trialConcurrency: 0"), "trialConcurrency: must be at least 1 and at most 10000, got 0");
        assertRefused(GOOD.replace("trialConcurrency: 2", "trialConcurrency: two"), "trialConcurrency: must be an integer, got \"two\"");
        assertRefused(GOOD.replace("1.5h", "soon"), "maxExperimentDuration: not a duration: 'soon'");
        assertRefused(GOOD.replace("90s", "90y"), "maxTrialDuration: unknown unit 'y'");
        assertRefused(GOOD.replace("platform: local", "platform: remote"), "trainingService.platform: tunekit run runs trials on this machine only");
        assertRefused(GOOD.replace("trialCodeDirectory: code", "trialCodeDirectory: nowhere"), "trialCodeDirectory: " + tmp.resolve("nowhere") + " is not a directory");
        assertRefused(GOOD.replace("optimize_mode: maximize", "optimize_mode: up"), "tuner.classArgs.optimize_mode: must be 'maximize' or 'minimize'");
        assertRefused(GOOD.replace("tuner:\n  name: TPE", "advisor:\n  name: Hyperband"), "names an advisor and also a assessor");
        assertRefused("authorName: me\ntrial: {command: x}\n", "'authorName' is a key of NNI's v1 config format");
        assertRefused("trialCommand: [unclosed\n", "not valid YAML or JSON");
        assertRefused(GOOD.replace("searchSpaceFile: space.json", "searchSpace: {lr: {_type: loguniform, _value: [0, 1]}}"),
                "searchSpace.lr: ");
        assertRefused(GOOD.replace("searchSpaceFile: space.json", "searchSpace: {lr: {_type: uniformish, _value: [0, 1]}}"),
                "searchSpace.lr: ");
    }

    private void assertRefused(String config, String message) throws Exception {
        Path c = write(config);
        assertThatThrownBy(() -> ExperimentSpec.load(c)).isInstanceOf(ConfigException.class).hasMessageContaining(message);
    }

    @Test
    void durationsAreNnisNumberAndUnit() {
        assertThat(ExperimentSpec.parseDuration("30s")).isEqualTo(Duration.ofSeconds(30));
        assertThat(ExperimentSpec.parseDuration("10m")).isEqualTo(Duration.ofMinutes(10));
        assertThat(ExperimentSpec.parseDuration("2d")).isEqualTo(Duration.ofDays(2));
        assertThat(ExperimentSpec.parseDuration("0.5h")).isEqualTo(Duration.ofMinutes(30));
        assertThat(ExperimentSpec.parseDuration("45")).isEqualTo(Duration.ofSeconds(45));
        assertThatThrownBy(() -> ExperimentSpec.parseDuration("0s")).hasMessageContaining("positive");
    }
}
