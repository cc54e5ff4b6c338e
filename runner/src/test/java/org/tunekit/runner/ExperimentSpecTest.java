package org.tunekit.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.nniconfig.ConfigException;

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
        assertThat(s.warnings()).isEmpty();
        assertThat(s.algorithmConfig().assessor().name()).isEqualTo("Medianstop");
        assertThat(s.gpus()).isEqualTo(new GpuConfig(null, null, 1, false));
        assertThat(s.workingDirectory()).as("tunekit run's own default, not NNI's ~/nni-experiments").isNull();
        assertThat(s.logLevel()).isEqualTo("info");
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
        assertRefused(GOOD.replace("maxTrialNumber", "maxTrialNumbr"), "maxTrialNumbr: unknown key (did you mean 'maxTrialNumber'?)");
        assertRefused(GOOD.replace("maxTrialNumber", "max_trial_numbr"), "max_trial_numbr: unknown key (did you mean 'maxTrialNumber'?)");
        assertRefused(GOOD.replace("maxTrialNumber: 10", "max_trial_number: 0"), "maxTrialNumber: must be at least 1, got 0");
        assertRefused(GOOD.replace("useActiveGpu: false", "use_activ_gpu: false"),
                "trainingService.use_activ_gpu: unknown key (did you mean 'useActiveGpu'?)");
        assertRefused(GOOD.replace("trialCommand: python3 mnist.py\n", ""), "trialCommand: required");
        assertRefused(GOOD.replace("trialConcurrency: 2", "trialConcurrency: 0"), "trialConcurrency: must be at least 1, got 0");
        assertRefused(GOOD.replace("trialConcurrency: 2", "trialConcurrency: 10001"), "trialConcurrency: must be at least 1 and at most 10000");
        assertRefused(GOOD.replace("trialConcurrency: 2", "trialConcurrency: two"), "trialConcurrency: must be an integer, got 'two' (a string)");
        assertRefused(GOOD.replace("1.5h", "soon"), "maxExperimentDuration: bad unit in 'soon'");
        assertRefused(GOOD.replace("90s", "90y"), "maxTrialDuration: bad unit in '90y'");
        assertRefused(GOOD.replace("90s", "0.0001s"), "maxTrialDuration: '0.0001s' is shorter than a millisecond");
        assertRefused(GOOD.replace("  platform: local\n  useActiveGpu: false", "  {platform: aml, subscriptionId: s, resourceGroup: g, "
                + "workspaceName: w, computeTarget: c}"), "trainingService.platform: \"aml\" is a valid config, but tunekit run runs trials on ");
        assertRefused(GOOD.replace("trialCodeDirectory: code", "trialCodeDirectory: nowhere"), "trialCodeDirectory: \"" + tmp.resolve("nowhere") + "\" is not a directory");
        assertRefused(GOOD.replace("optimize_mode: maximize", "optimize_mode: up"), "tuner.classArgs.optimize_mode: must be 'maximize' or 'minimize'");
        assertRefused(GOOD.replace("tuner:\n  name: TPE", "advisor:\n  name: Hyperband"), "names an advisor and also a assessor");
        assertRefused("authorName: me\ntrial: {command: x}\n", "authorName: a key of NNI's v1 config format");
        assertRefused(GOOD + "useAnnotation: true\n", "useAnnotation: specifying the search space with annotations is not supported");
        assertRefused("trialCommand: [unclosed\n", "not valid YAML or JSON");
        assertRefused(GOOD.replace("searchSpaceFile: space.json", "searchSpace: {lr: {_type: loguniform, _value: [0, 1]}}"),
                "searchSpace.lr: ");
        assertRefused(GOOD.replace("searchSpaceFile: space.json", "searchSpace: {lr: {_type: uniformish, _value: [0, 1]}}"),
                "searchSpace.lr: ");
    }

    @Test
    void gpuSettingsComeFromTheLocalTrainingServiceAfterNnisShortcuts() throws Exception {
        ExperimentSpec s = ExperimentSpec.load(write(GOOD.replace("trialConcurrency: 2", "trialConcurrency: 2\ntrial_gpu_number: 2")
                .replace("  useActiveGpu: false", "  use_active_gpu: true\n  max_trial_number_per_gpu: 2\n  gpu_indices: '3,1'")));
        assertThat(s.gpus()).isEqualTo(new GpuConfig(2.0, java.util.List.of(3, 1), 2, true));
        assertThat(s.warnings()).isEmpty();
        // the training service's own value wins over the top level's, as in NNI
        ExperimentSpec own = ExperimentSpec.load(write(GOOD.replace("trialConcurrency: 2", "trialConcurrency: 2\ntrialGpuNumber: 2")
                .replace("  useActiveGpu: false", "  useActiveGpu: false\n  trialGpuNumber: 1\n  gpuIndices: 0")));
        assertThat(own.gpus()).isEqualTo(new GpuConfig(1.0, java.util.List.of(0), 1, false));
        ExperimentSpec none = ExperimentSpec.load(write(GOOD.replace("trainingService:\n  platform: local\n  useActiveGpu: false\n", "")));
        assertThat(none.gpus()).isEqualTo(GpuConfig.NONE);
    }

    @Test
    void gpuSettingsSurviveTheStoredForm() throws Exception {
        ExperimentSpec s = ExperimentSpec.load(write(GOOD.replace("  useActiveGpu: false",
                "  useActiveGpu: true\n  trialGpuNumber: 1\n  maxTrialNumberPerGpu: 3\n  gpuIndices: [2, 0]")));
        ExperimentSpec stored = ExperimentSpec.fromJson(s.toJson());
        assertThat(stored.gpus()).isEqualTo(new GpuConfig(1.0, java.util.List.of(2, 0), 3, true));
        assertThat(stored.toJson()).isEqualTo(s.toJson());
    }

    @Test
    void aConfigStoredByAnEarlierVersionIsReadAsBefore() throws Exception {
        Files.createDirectories(tmp.resolve("code"));
        Files.createDirectories(tmp.resolve("jars"));
        // what ExperimentStore.create kept before GPU settings were: no training service, the entries as given
        String old = """
                {"experimentName":"mnist","searchSpace":{"lr":{"_type":"loguniform","_value":[1.0E-4,0.1]}},\
                "trialCommand":"python3 mnist.py","trialCodeDirectory":"CODE","trialConcurrency":2,"maxTrialNumber":10,\
                "maxExperimentDuration":"5400s","maxTrialDuration":"0.5s","tuner":{"codeDir":"JARS","className":"my.Tuner",\
                "classArgs":{"optimize_mode":"minimize"}},"assessor":{"builtinAssessorName":"Medianstop"},\
                "experimentWorkingDirectory":"EXPS","logLevel":"fatal"}
                """.replace("CODE", tmp.resolve("code").toString()).replace("JARS", tmp.resolve("jars").toString())
                .replace("EXPS", tmp.resolve("exps").toString());
        ExperimentSpec s = ExperimentSpec.fromJson(old);
        assertThat(s.name()).isEqualTo("mnist");
        assertThat(s.trialCodeDirectory()).isEqualTo(tmp.resolve("code"));
        assertThat(s.trialConcurrency()).isEqualTo(2);
        assertThat(s.maxTrialNumber()).isEqualTo(10);
        assertThat(s.maxExperimentDuration()).isEqualTo(Duration.ofMinutes(90));
        assertThat(s.maxTrialDuration()).isEqualTo(Duration.ofMillis(500));
        assertThat(s.workingDirectory()).isEqualTo(tmp.resolve("exps"));
        assertThat(s.logLevel()).isEqualTo("fatal");
        assertThat(s.maximize()).isFalse();
        assertThat(s.algorithmConfig().tuner().className()).isEqualTo("my.Tuner");
        assertThat(s.algorithmConfig().tuner().codeDirectory()).isEqualTo(tmp.resolve("jars"));
        assertThat(s.algorithmConfig().assessor().name()).isEqualTo("Medianstop");
        assertThat(s.gpus()).isEqualTo(GpuConfig.NONE);
        assertThat(ExperimentSpec.fromJson(s.toJson()).toJson()).isEqualTo(s.toJson());
    }

    @Test
    void camelCaseSnakeCaseAndMixedCaseReadAsTheSameExperiment() throws Exception {
        ExperimentSpec camel = ExperimentSpec.load(write(GOOD.replace("  useActiveGpu: false", "  useActiveGpu: false\n  gpuIndices: [1]")));
        ExperimentSpec snake = ExperimentSpec.load(write("""
                experiment_name: mnist
                search_space_file: space.json
                trial_command: python3 mnist.py
                trial_code_directory: code
                trial_concurrency: 2
                max_trial_number: 10
                max_experiment_duration: 1.5h
                max_trial_duration: 90s
                tuner:
                  name: TPE
                  class_args:
                    optimize_mode: maximize
                assessor:
                  name: Medianstop
                training_service:
                  platform: local
                  use_active_gpu: false
                  gpu_indices: [1]
                """));
        ExperimentSpec mixed = ExperimentSpec.load(write("""
                ExperimentName: mnist
                searchSpace_File: space.json
                trialCommand: python3 mnist.py
                trial_codeDirectory: code
                TRIAL_CONCURRENCY: 2
                max_trialNumber: 10
                MaxExperimentDuration: 1.5h
                maxTrial_duration: 90s
                Tuner:
                  Name: TPE
                  ClassArgs:
                    optimize_mode: maximize
                assessor:
                  name: Medianstop
                TrainingService:
                  platform: local
                  useActive_GPU: false
                  GpuIndices: [1]
                """));
        assertThat(snake).isEqualTo(camel);
        assertThat(mixed).isEqualTo(camel);
        assertThat(camel.gpus()).isEqualTo(new GpuConfig(null, java.util.List.of(1), 1, false));
    }

    @Test
    void aRemoteOrHybridConfigIsReadInFullThenRefusedWhenNoTrainingServiceOnTheClassPathServesIt() throws Exception {
        Files.writeString(tmp.resolve("key"), "k");
        String remote = GOOD.replace("  platform: local\n  useActiveGpu: false\n", """
                  platform: remote
                  machineList:
                    - {host: 10.0.0.2, port: 2222, user: bob, ssh_key_file: key, ssh_passphrase: s, python_path: /opt/py,
                       use_active_gpu: true, gpu_indices: [0, 1]}
                """);
        // the runner's tests run without the remote module (tunekit's class path has it: RunnerIT, RemoteIT)
        assertRefused(remote, "trainingService.platform: \"remote\" is a valid config, but tunekit run runs trials on local;");
        // fully checked first: a bad machine is named as tunekit nni create names it
        assertRefused(remote.replace("gpu_indices: [0, 1]", "gpu_indices: [0, x]"), "trainingService.machineList[0].gpuIndices[1]: ");
        assertRefused(remote.replace("ssh_key_file: key", "ssh_key_file: nokey"), "trainingService.machineList[0].sshKeyFile: ");
        assertRefused(GOOD.replace("trainingService:\n  platform: local\n  useActiveGpu: false\n",
                "trainingService: [{platform: local}, {platform: remote, machineList: [{host: h, user: u, password: p}]}]\n"),
                "trainingService: a list of training services (NNI's hybrid mode) is a valid config, but tunekit run");
    }

    @Test
    void badGpuSettingsAreNamedByTheirPath() throws Exception {
        assertRefused(GOOD.replace("  useActiveGpu: false", "  useActiveGpu: false\n  trialGpuNumber: 1\n  gpuIndices: [0, -1]"),
                "trainingService.gpuIndices[1]: GPU indices cannot be negative, got -1");
        assertRefused(GOOD.replace("  useActiveGpu: false", "  trial_gpu_number: 1"), "trainingService.useActiveGpu: required with trialGpuNumber");
    }

    @Test
    void theExperimentsFolderIsNnisOnlyWhenTheConfigNamesOne() throws Exception {
        ExperimentSpec s = ExperimentSpec.load(write(GOOD + "experiment_working_directory: exps\n"));
        assertThat(s.workingDirectory()).isEqualTo(tmp.resolve("exps"));
    }

    @Test
    void anAdvisorStaysTheAdvisor() throws Exception {
        ExperimentSpec s = ExperimentSpec.load(write(GOOD.replace("tuner:\n  name: TPE", "advisor:\n  name: Hyperband")
                .replace("assessor:\n  name: Medianstop\n", "")));
        assertThat(s.algorithms()).containsOnlyKeys("advisor");
        assertThat(s.algorithmConfig().advisor().name()).isEqualTo("Hyperband");
        assertThat(ExperimentSpec.fromJson(s.toJson()).algorithms()).containsOnlyKeys("advisor");
    }

    /** GOOD with an inline search space of two parameters, and the text given after it. */
    private static String warm(String more) {
        return GOOD.replace("searchSpaceFile: space.json\n", """
                searchSpace:
                  lr: {_type: loguniform, _value: [0.0001, 0.1]}
                  batch_size: {_type: choice, _value: [16, 32, 64]}
                """) + more;
    }

    @Test
    void warmStartSetsAreReadInOrderCheckedAndLeftOutOfTheStoredConfig() throws Exception {
        ExperimentSpec s = ExperimentSpec.load(write(warm("""
                warmStart:
                  - {lr: 0.01, batch_size: 64}
                  - {batch_size: 16, lr: 0.001}
                """)));
        assertThat(s.warmStart()).containsExactly(Map.of("lr", 0.01, "batch_size", 64L), Map.of("batch_size", 16L, "lr", 0.001));
        // a new experiment records them apart (as its first requests): a resumed run reads none
        assertThat(s.toJson()).doesNotContainIgnoringCase("warm");
        assertThat(ExperimentSpec.fromJson(s.toJson()).warmStart()).isEmpty();
        assertThat(ExperimentSpec.load(write(warm(""))).warmStart()).isEmpty();

        // spelt as NNI's keys are; a file beside the config holding a list, or one set as tunekit enqueue reads it
        Files.writeString(tmp.resolve("sets.json"), "[{\"lr\": 0.05, \"batch_size\": 32}, {\"lr\": 0.0002, \"batch_size\": 16}]");
        assertThat(ExperimentSpec.load(write(warm("warm_start: sets.json\n"))).warmStart())
                .containsExactly(Map.of("lr", 0.05, "batch_size", 32L), Map.of("lr", 0.0002, "batch_size", 16L));
        Files.writeString(tmp.resolve("one.json"), "{\"lr\": 0.05, \"batch_size\": 32}");
        assertThat(ExperimentSpec.load(write(warm("WarmStart: one.json\n"))).warmStart()).containsExactly(Map.of("lr", 0.05, "batch_size", 32L));
    }

    @Test
    void aBadWarmStartIsRefusedNamingTheSetAndItsParameter() throws Exception {
        assertRefused(warm("warmStart:\n  - {lr: 0.01, batch_size: 64}\n  - {lr: 0.5, batch_size: 64}\n"),
                "warmStart[1]: does not fit the search space: parameter 'lr' (loguniform): 0.5 is not a possible value");
        assertRefused(warm("warmStart:\n  - {lr: 0.01, batch_size: 48}\n"),
                "warmStart[0]: does not fit the search space: parameter 'batch_size' (choice): 48 is not a possible value");
        assertRefused(warm("warmStart:\n  - {lr: 0.01}\n"), "warmStart[0]: does not fit the search space: parameter 'batch_size' is missing");
        assertRefused(warm("warmStart:\n  - {lr: 0.01, batch_size: 64, momentum: 0.9}\n"),
                "warmStart[0]: does not fit the search space: 'momentum' is not a parameter of the space");
        assertRefused(warm("warmStart:\n  - [0.01, 64]\n"), "warmStart[0]: must be a mapping of parameter to value");
        assertRefused(warm("warmStart:\n  - {}\n"), "warmStart[0]: must be a mapping of parameter to value ({lr: 0.01, batch_size: 64}), "
                + "got an empty mapping");
        assertRefused(warm("warmStart: {lr: 0.01, batch_size: 64}\n"), "warmStart: must be a list of parameter sets");
        assertRefused(warm("warmStart: nosuch.json\n"), "warmStart: cannot read the parameter sets from 'nosuch.json'");
        Files.writeString(tmp.resolve("sets.json"), "[{\"lr\": 0.01, \"batch_size\": 64}, {\"lr\": 0.01, \"batch_size\": 65}]");
        assertRefused(warm("warmStart: sets.json\n"), "warmStart[1] (in sets.json): does not fit the search space: parameter 'batch_size'");
        Files.writeString(tmp.resolve("sets.json"), "7");
        assertRefused(warm("warmStart: sets.json\n"), "warmStart (in sets.json): must hold a list of parameter sets");
        // each set runs as a trial, which counts towards maxTrialNumber (10)
        assertRefused(warm("warmStart:\n" + "  - {lr: 0.01, batch_size: 64}\n".repeat(11)),
                "warmStart: 11 parameter sets, more than maxTrialNumber (10)");
        assertRefused(warm("warmStart: [{lr: 0.01, batch_size: 64}]\nwarm_start: []\n"),
                "warmStart: given twice, as 'warmStart' and 'warm_start'");
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
