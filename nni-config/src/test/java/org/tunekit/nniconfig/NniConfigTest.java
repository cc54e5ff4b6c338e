package org.tunekit.nniconfig;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The config conversion against what NNI 3.0 itself makes of the same files: each expected JSON is the
 * output of NNI's {@code ExperimentConfig.load(file).json()} (what {@code nnictl create} posts), with
 * the folder of the files written as {@code DIR} and {@code $HOME} as {@code HOME}. Equal means equal
 * values and the same key order.
 */
class NniConfigTest {
    @TempDir
    Path tmp;
    Path dir;
    Path home;

    @BeforeEach
    void files() throws IOException {
        dir = tmp.resolve("exp").toAbsolutePath();
        home = tmp.resolve("home").toAbsolutePath();
        Files.createDirectories(dir.resolve("code"));
        Files.createDirectories(dir.resolve("sub"));
        Files.createDirectories(dir.resolve("jars"));
        Files.createDirectories(home);
        Files.writeString(dir.resolve("sub/space.json"),
                "{\"lr\": {\"_type\": \"loguniform\", \"_value\": [0.0001, 0.1]}, \"units\": {\"_type\": \"choice\", \"_value\": [16, 32]}}");
    }

    private NniConfig.Result convert(String yaml) throws IOException {
        Path file = dir.resolve("config.yml");
        Files.writeString(file, yaml);
        return NniConfig.load(file, home.toString());
    }

    private void assertJson(NniConfig.Result r, String expected) {
        String want = expected.replace("DIR", dir.toString()).replace("HOME", home.toString());
        JsonElement actual = new GsonBuilder().serializeNulls().create().toJsonTree(r.json());
        JsonElement wanted = JsonParser.parseString(want);
        assertThat(actual).isEqualTo(wanted);
        assertThat(keyOrder(actual)).as("key order").isEqualTo(keyOrder(wanted));
    }

    /** The keys of every object, in order, depth first. */
    private static List<String> keyOrder(JsonElement e) {
        List<String> keys = new ArrayList<>();
        if (e.isJsonObject()) {
            for (Map.Entry<String, JsonElement> m : e.getAsJsonObject().entrySet()) {
                keys.add(m.getKey());
                keys.addAll(keyOrder(m.getValue()));
            }
        } else if (e.isJsonArray()) {
            e.getAsJsonArray().forEach(item -> keys.addAll(keyOrder(item)));
        }
        return keys;
    }

    @Test
    void aLocalExperimentWithASearchSpaceFileBecomesWhatNnictlPosts() throws IOException {
        NniConfig.Result r = convert("""
                experimentName: mnist
                searchSpaceFile: sub/space.json
                trialCommand: python3 mnist.py
                trialCodeDirectory: code
                trialConcurrency: 2
                max_trial_number: 50
                maxExperimentDuration: 1h
                tuner:
                  name: TPE
                  classArgs: {optimize_mode: maximize, seed: 7}
                assessor:
                  name: Medianstop
                  classArgs: {optimize_mode: maximize}
                trainingService:
                  platform: local
                """);
        assertJson(r, """
                {"experimentName": "mnist", "experimentType": "hpo", "searchSpaceFile": "DIR/sub/space.json",
                 "searchSpace": {"lr": {"_type": "loguniform", "_value": [0.0001, 0.1]}, "units": {"_type": "choice", "_value": [16, 32]}},
                 "trialCommand": "python3 mnist.py", "trialCodeDirectory": "DIR/code", "trialConcurrency": 2,
                 "maxExperimentDuration": "1h", "maxTrialNumber": 50, "useAnnotation": false, "debug": false, "logLevel": "info",
                 "experimentWorkingDirectory": "HOME/nni-experiments",
                 "tuner": {"name": "TPE", "classArgs": {"optimize_mode": "maximize", "seed": 7}},
                 "assessor": {"name": "Medianstop", "classArgs": {"optimize_mode": "maximize"}},
                 "trainingService": {"platform": "local", "trialCommand": "python3 mnist.py", "trialCodeDirectory": "DIR/code",
                                     "debug": false, "maxTrialNumberPerGpu": 1, "reuseMode": false}}
                """);
        assertThat(r.mode()).isEqualTo("local");
        assertThat(r.experimentName()).isEqualTo("mnist");
        assertThat(r.workingDirectory()).isEqualTo(home.resolve("nni-experiments"));
        assertThat(r.logLevel()).isEqualTo("info");
        assertThat(r.warnings()).isEmpty();
    }

    @Test
    void anAdvisorBecomesTheTunerAndDefaultsShortcutsAndGpuIndicesAreFilledIn() throws IOException {
        NniConfig.Result r = convert("""
                searchSpace:
                  x: {_type: uniform, _value: [0, 1]}
                trialCommand: sh run.sh
                trialConcurrency: 1
                debug: true
                trialGpuNumber: 0
                tunerGpuIndices: "0,1"
                experimentWorkingDirectory: ~/exps
                advisor:
                  className: my.Advisor
                  codeDirectory: jars
                  classArgs: {R: 9, x: null}
                trainingService:
                  platform: local
                  trialCodeDirectory: code
                  gpuIndices: 0
                  useActiveGpu: false
                """);
        assertJson(r, """
                {"experimentType": "hpo", "searchSpace": {"x": {"_type": "uniform", "_value": [0, 1]}}, "trialCommand": "sh run.sh",
                 "trialCodeDirectory": "DIR", "trialConcurrency": 1, "trialGpuNumber": 0, "useAnnotation": false, "debug": true,
                 "logLevel": "debug", "experimentWorkingDirectory": "HOME/exps", "tunerGpuIndices": [0, 1],
                 "tuner": {"className": "my.Advisor", "codeDirectory": "DIR/jars", "classArgs": {"R": 9, "x": null}},
                 "trainingService": {"platform": "local", "trialCommand": "sh run.sh", "trialCodeDirectory": "DIR/code",
                                     "trialGpuNumber": 0, "debug": true, "useActiveGpu": false, "maxTrialNumberPerGpu": 1,
                                     "gpuIndices": [0], "reuseMode": false}}
                """);
        assertThat(r.workingDirectory()).isEqualTo(home.resolve("exps"));
        assertThat(r.logLevel()).isEqualTo("debug");
    }

    @Test
    void remoteMachinesGetTheirDefaultsAndAPasswordReplacesTheKeyFile() throws IOException {
        NniConfig.Result r = convert("""
                searchSpace: {x: {_type: choice, _value: [1, 2]}}
                trialCommand: python3 t.py
                trialConcurrency: 3
                nniManagerIp: 10.0.0.1
                tuner: {name: Random}
                trainingService:
                  platform: remote
                  machineList:
                    - host: 10.0.0.2
                      user: bob
                      password: pw
                    - host: 10.0.0.3
                      user: alice
                      sshKeyFile: sub/space.json
                      gpuIndices: "1"
                """);
        assertJson(r, """
                {"experimentType": "hpo", "searchSpace": {"x": {"_type": "choice", "_value": [1, 2]}}, "trialCommand": "python3 t.py",
                 "trialCodeDirectory": "DIR", "trialConcurrency": 3, "nniManagerIp": "10.0.0.1", "useAnnotation": false,
                 "debug": false, "logLevel": "info", "experimentWorkingDirectory": "HOME/nni-experiments", "tuner": {"name": "Random"},
                 "trainingService": {"platform": "remote", "trialCommand": "python3 t.py", "trialCodeDirectory": "DIR",
                   "nniManagerIp": "10.0.0.1", "debug": false,
                   "machineList": [{"host": "10.0.0.2", "port": 22, "user": "bob", "password": "pw", "useActiveGpu": false,
                                    "maxTrialNumberPerGpu": 1},
                                   {"host": "10.0.0.3", "port": 22, "user": "alice", "sshKeyFile": "DIR/sub/space.json",
                                    "useActiveGpu": false, "maxTrialNumberPerGpu": 1, "gpuIndices": [1]}],
                   "reuseMode": false}}
                """);
        assertThat(r.mode()).isEqualTo("remote");
        assertThat(r.warnings()).singleElement().asString().startsWith("trainingService.machineList[0].password:");
    }

    @Test
    void everyFieldOfARemoteMachineIsRead() throws IOException {
        Files.writeString(dir.resolve("id_ed25519"), "key");
        NniConfig.Result r = convert("""
                searchSpace: {x: {_type: choice, _value: [1, 2]}}
                trial_command: python3 t.py
                trial_concurrency: 4
                trial_gpu_number: 1
                nni_manager_ip: 10.0.0.1
                tuner: {name: Random}
                training_service:
                  platform: remote
                  machine_list:
                    - host: 10.0.0.2
                      port: 2222
                      user: bob
                      ssh_key_file: id_ed25519
                      ssh_passphrase: secret
                      python_path: /opt/py/bin
                      use_active_gpu: true
                      max_trial_number_per_gpu: 2
                      gpu_indices: [0, 2]
                    - {host: 10.0.0.3, user: alice, password: pw, gpuIndices: "1,3"}
                """);
        assertJson(r, """
                {"experimentType": "hpo", "searchSpace": {"x": {"_type": "choice", "_value": [1, 2]}}, "trialCommand": "python3 t.py",
                 "trialCodeDirectory": "DIR", "trialConcurrency": 4, "trialGpuNumber": 1, "nniManagerIp": "10.0.0.1",
                 "useAnnotation": false, "debug": false, "logLevel": "info", "experimentWorkingDirectory": "HOME/nni-experiments",
                 "tuner": {"name": "Random"},
                 "trainingService": {"platform": "remote", "trialCommand": "python3 t.py", "trialCodeDirectory": "DIR",
                   "trialGpuNumber": 1, "nniManagerIp": "10.0.0.1", "debug": false,
                   "machineList": [{"host": "10.0.0.2", "port": 2222, "user": "bob", "sshKeyFile": "DIR/id_ed25519",
                                    "sshPassphrase": "secret", "useActiveGpu": true, "maxTrialNumberPerGpu": 2, "gpuIndices": [0, 2],
                                    "pythonPath": "/opt/py/bin"},
                                   {"host": "10.0.0.3", "port": 22, "user": "alice", "password": "pw", "useActiveGpu": false,
                                    "maxTrialNumberPerGpu": 1, "gpuIndices": [1, 3]}],
                   "reuseMode": false}}
                """);
        assertThat(r.mode()).isEqualTo("remote");
        assertThat(r.given()).containsExactlyInAnyOrder("searchSpace", "trialCommand", "trialConcurrency", "trialGpuNumber",
                "nniManagerIp", "tuner", "trainingService");
    }

    @Test
    void camelCaseSnakeCaseAndMixedCaseAreTheSameConfig() throws IOException {
        String camel = """
                experimentName: same
                searchSpace: {x: {_type: choice, _value: [1, 2]}}
                trialCommand: sh t.sh
                trialConcurrency: 2
                maxTrialNumber: 8
                maxTrialDuration: 1m
                trialGpuNumber: 1
                experimentWorkingDirectory: ~/exps
                tuner: {name: TPE, classArgs: {optimize_mode: minimize}}
                trainingService: {platform: local, useActiveGpu: false, maxTrialNumberPerGpu: 2, gpuIndices: [1, 0]}
                """;
        String snake = """
                experiment_name: same
                search_space: {x: {_type: choice, _value: [1, 2]}}
                trial_command: sh t.sh
                trial_concurrency: 2
                max_trial_number: 8
                max_trial_duration: 1m
                trial_gpu_number: 1
                experiment_working_directory: ~/exps
                tuner: {name: TPE, class_args: {optimize_mode: minimize}}
                training_service: {platform: local, use_active_gpu: false, max_trial_number_per_gpu: 2, gpu_indices: [1, 0]}
                """;
        String mixed = """
                ExperimentName: same
                search_space: {x: {_type: choice, _value: [1, 2]}}
                trialCommand: sh t.sh
                TRIAL_CONCURRENCY: 2
                max_trialNumber: 8
                maxTrial_Duration: 1m
                trialgpunumber: 1
                experiment_WorkingDirectory: ~/exps
                Tuner: {Name: TPE, classArgs: {optimize_mode: minimize}}
                TrainingService: {Platform: local, use_activeGpu: false, MaxTrialNumberPerGPU: 2, gpuindices: [1, 0]}
                """;
        Map<String, Object> expected = convert(camel).json();
        assertThat(convert(snake).json()).isEqualTo(expected);
        assertThat(convert(mixed).json()).isEqualTo(expected);
        assertThat(convert(mixed).given()).isEqualTo(convert(camel).given());
        // classArgs belong to the algorithm: their keys are passed as written
        assertThat(new Gson().toJson(expected.get("tuner"))).isEqualTo("{\"name\":\"TPE\",\"classArgs\":{\"optimize_mode\":\"minimize\"}}");
        assertThat(NniConfig.hasKey(Map.of("training_service", 1), "trainingService")).isTrue();
        assertThat(NniConfig.hasKey(Map.of("trainingServices", 1), "trainingService")).isFalse();
    }

    @Test
    void aListOfTrainingServicesIsHybrid() throws IOException {
        NniConfig.Result r = convert("""
                searchSpace: {x: {_type: choice, _value: [1, 2]}}
                trialCommand: t
                trialConcurrency: 1
                tuner: {name: Random}
                trainingService:
                  - platform: local
                  - {platform: remote, machineList: [{host: h, user: u, password: p}]}
                """);
        assertThat(r.mode()).isEqualTo("hybrid");
        assertThat(new Gson().toJson(r.json().get("trainingService"))).startsWith("[{\"platform\":\"local\"");
    }

    @Test
    void pathsAreResolvedThroughSymbolicLinksAndTheSearchSpaceFileMayBeYaml() throws IOException {
        // as Python's realpath: "link" is resolved before ".." applies, so link/.. is the folder above real-code
        Path real = Files.createDirectories(tmp.resolve("real-code"));
        Files.createSymbolicLink(dir.resolve("link"), real);
        Files.writeString(dir.resolve("space.yml"), "x: {_type: quniform, _value: [1, 10, 1]}\n");
        NniConfig.Result r = convert("""
                searchSpaceFile: space.yml
                trialCommand: t
                trialCodeDirectory: link/../exp/link/.
                trialConcurrency: 1
                tuner: {name: Random}
                trainingService: {platform: local}
                """);
        assertThat(r.json().get("trialCodeDirectory")).isEqualTo(real.toRealPath().toString());
        assertThat(new Gson().toJson(r.json().get("searchSpace"))).isEqualTo("{\"x\":{\"_type\":\"quniform\",\"_value\":[1,10,1]}}");
    }

    // ---- refusals, each naming the bad value ---------------------------------------------------

    private static final String GOOD_REST = """
            trialCommand: t
            trialConcurrency: 1
            searchSpace: {x: {_type: choice, _value: [1]}}
            tuner: {name: TPE}
            trainingService: {platform: local}
            """;

    private void assertRefused(String yaml, String message) {
        assertThatThrownBy(() -> convert(yaml)).isInstanceOf(ConfigException.class).hasMessageContaining(message);
    }

    @Test
    void aMisspeltKeyIsNamedWithTheKeyItResembles() {
        assertRefused(GOOD_REST + "maxTrialNumbr: 3\n", "maxTrialNumbr: unknown key (did you mean 'maxTrialNumber'?)");
        assertRefused(GOOD_REST.replace("tuner: {name: TPE}", "tuner: {name: TPE, clasArgs: {}}"),
                "tuner.clasArgs: unknown key (did you mean 'classArgs'?)");
        assertRefused(GOOD_REST.replace("{platform: local}", "{platform: local, useActivGpu: true}"),
                "trainingService.useActivGpu: unknown key (did you mean 'useActiveGpu'?)");
    }

    @Test
    void tunekitRunsWarmStartIsNamedAsTunekitsOwnNotAsAMisspeltKey() {
        assertRefused(GOOD_REST + "warmStart: [{x: 1}]\n", "warmStart: Tunekit's own key (parameter sets run before the tuner's), "
                + "which tunekit run reads; NNI's manager has none");
        assertRefused(GOOD_REST + "warm_start: sets.json\n", "warm_start: Tunekit's own key");
    }

    @Test
    void wrongTypesAreNamedWithTheirPath() {
        assertRefused(GOOD_REST.replace("tuner: {name: TPE}", "tuner: {name: TPE, classArgs: maximize}"),
                "tuner.classArgs: must be a mapping, got 'maximize' (a string)");
        assertRefused(GOOD_REST.replace("trialConcurrency: 1", "trialConcurrency: 1.5"), "trialConcurrency: must be an integer");
        assertRefused(GOOD_REST.replace("trialConcurrency: 1", "trialConcurrency: 0"), "trialConcurrency: must be at least 1");
        assertRefused(GOOD_REST + "maxExperimentDuration: 2 weeks\n", "maxExperimentDuration: '2 weeks' is not a duration such as 30s, 10m, 1h, 2d");
        assertRefused(GOOD_REST + "logLevel: loud\n", "logLevel: must be one of fatal, error, warning, info, debug, trace");
    }

    @Test
    void aFractionOfAGpuIsReadAndNamedForTheDoorsThatTakeWholeGpusOnly() throws Exception {
        String local = GOOD_REST.replace("{platform: local}", "{platform: local, useActiveGpu: true}");
        NniConfig.Result half = convert(local + "trial_gpu_number: 0.5\n");
        assertThat(half.json().get("trialGpuNumber")).isEqualTo(0.5);
        assertThat(half.fractionalGpus()).isEqualTo("trialGpuNumber");
        NniConfig.Result own = convert(GOOD_REST.replace("{platform: local}", "{platform: local, useActiveGpu: true, trialGpuNumber: 0.25}"));
        assertThat(own.fractionalGpus()).isEqualTo("trainingService.trialGpuNumber");
        assertThat(convert(local + "trialGpuNumber: 2\n").fractionalGpus()).isNull();
    }

    @Test
    @SuppressWarnings("unchecked")
    void slurmIsTunekitsOwnServiceWithItsDefaultsAndWholeGpusOnly() throws Exception {
        NniConfig.Result r = convert(GOOD_REST.replace("{platform: local}",
                "{platform: slurm, partition: debug, sbatch_options: ['--mem=1G', '--qos=low'], poll_interval: 2s}") + "trialGpuNumber: 1\n");
        assertThat(r.mode()).isEqualTo("slurm");
        Map<String, Object> ts = (Map<String, Object>) r.json().get("trainingService");
        assertThat(ts).containsEntry("partition", "debug").doesNotContainKeys("account", "sharedDirectory")
                .containsEntry("sbatchOptions", List.of("--mem=1G", "--qos=low")).containsEntry("pollInterval", 2L)
                .containsEntry("trialCommand", "t");
        assertThat(r.tunekitOnlyPlatform()).isEqualTo("trainingService.platform: 'slurm'");
        assertThat(r.warnings()).noneMatch(w -> w.contains("nniManagerIp"));
        assertThat(convert(GOOD_REST).tunekitOnlyPlatform()).isNull();
        NniConfig.Result defaults = convert(GOOD_REST.replace("{platform: local}", "{platform: slurm}"));
        assertThat((Map<String, Object>) defaults.json().get("trainingService")).containsEntry("sbatchOptions", List.of()).containsEntry("pollInterval", 1L);
        assertRefused(GOOD_REST.replace("{platform: local}", "{platform: slurm, sbatchOptions: ['--mem=1G', 3]}"),
                "trainingService.sbatchOptions[1]: must be a string, got 3");
        assertRefused(GOOD_REST.replace("{platform: local}", "{platform: slurm, sbatchOptions: '--mem=1G'}"),
                "trainingService.sbatchOptions: must be a list of strings");
        assertRefused(GOOD_REST.replace("{platform: local}", "{platform: slurm}") + "trialGpuNumber: 0.5\n",
                "trialGpuNumber: Slurm gives whole GPUs");
        assertRefused(GOOD_REST.replace("{platform: local}", "{platform: slurm, pollInterval: 0}"),
                "trainingService.pollInterval: must be longer than 0");
    }

    @Test
    void badGpuSettingsAreNamedWithTheirPath() {
        String local = "{platform: local, useActiveGpu: false, gpuIndices: GPUS}";
        String gpus = GOOD_REST.replace("{platform: local}", local) + "trialGpuNumber: 1\n";
        assertRefused(gpus.replace("GPUS", "[0, x]"), "trainingService.gpuIndices[1]: must be a GPU index (an integer), got 'x' (a string)");
        assertRefused(gpus.replace("GPUS", "[0, 0]"), "trainingService.gpuIndices[1]: GPU index 0 appears twice in [0, 0]");
        assertRefused(gpus.replace("GPUS", "[-1]"), "trainingService.gpuIndices[0]: GPU indices cannot be negative, got -1");
        assertRefused(gpus.replace("GPUS", "'0,one'"), "trainingService.gpuIndices: '0,one' is not a list of GPU indices");
        // a whole number, or (Tunekit's own) a fraction below 1; NNI's config classes take an integer only
        assertRefused(gpus.replace("GPUS", "[0]").replace("trialGpuNumber: 1", "trial_gpu_number: 1.5"),
                "trialGpuNumber: must be a number of GPUs: a whole number, or a fraction below 1 to share a GPU, got 1.5");
        assertRefused(GOOD_REST.replace("{platform: local}", "{platform: local, trialGpuNumber: 1}"),
                "trainingService.useActiveGpu: required with trialGpuNumber");
        assertRefused(GOOD_REST.replace("{platform: local}", "{platform: local, max_trial_number_per_gpu: 2}"),
                "trainingService.maxTrialNumberPerGpu: does not work without trialGpuNumber");
        assertRefused(GOOD_REST.replace("{platform: local}", "{platform: remote, machineList: [{host: h, user: u, password: p, port: 0}]}"),
                "trainingService.machineList[0].port: must be a port number");
        assertRefused(GOOD_REST.replace("{platform: local}", "{platform: remote, machineList: [{host: h, user: u, sshKeyFile: nokey}]}"),
                "trainingService.machineList[0].sshKeyFile: give a password or a valid SSH key file");
        assertRefused(GOOD_REST.replace("{platform: local}", "{platform: remote, machineList: [{host: h, user: u, password: p, "
                + "gpuIndices: [1, y]}]}"), "trainingService.machineList[0].gpuIndices[1]: must be a GPU index");
    }

    @Test
    void snakeCaseKeysAreNamedInCamelCaseInMessages() {
        assertRefused(GOOD_REST + "max_trial_number: 0\n", "maxTrialNumber: must be at least 1, got 0");
        assertRefused(GOOD_REST.replace("{platform: local}", "{platform: local, gpu_indices: [a]}"), "trainingService.gpuIndices[0]: ");
    }

    @Test
    void missingValuesAreNamed() {
        assertRefused(GOOD_REST.replace("trialConcurrency: 1\n", ""), "trialConcurrency: required");
        assertRefused(GOOD_REST.replace("trialCommand: t\n", ""), "trialCommand: required, at the top level or in the training service");
        assertRefused(GOOD_REST.replace("searchSpace: {x: {_type: choice, _value: [1]}}\n", ""), "searchSpace: required");
        assertRefused(GOOD_REST.replace("tuner: {name: TPE}\n", ""), "tuner: required");
        assertRefused(GOOD_REST.replace("trainingService: {platform: local}\n", ""), "trainingService: required");
        assertRefused(GOOD_REST.replace("{platform: local}", "{platform: locall}"), "trainingService.platform: unknown training service 'locall'");
        assertRefused(GOOD_REST.replace("{platform: local}", "{platform: remote}"), "trainingService.machineList: required");
    }

    @Test
    void pathsThatDoNotExistAreNamed() {
        assertRefused(GOOD_REST + "trialCodeDirectory: nowhere\n", "trialCodeDirectory: \"" + dir.resolve("nowhere") + "\" is not a directory");
        assertRefused(GOOD_REST.replace("searchSpace: {x: {_type: choice, _value: [1]}}", "searchSpaceFile: none.json"),
                "searchSpaceFile: cannot read the search space file " + dir.resolve("none.json"));
        assertRefused(GOOD_REST.replace("tuner: {name: TPE}", "tuner: {className: a.B}"), "tuner.codeDirectory: required with 'className'");
    }

    @Test
    void formatsAndFeaturesNniWouldRefuseAreRefused() {
        assertRefused("trainingServicePlatform: local\n" + GOOD_REST, "trainingServicePlatform: a key of NNI's v1 config format");
        assertRefused(GOOD_REST + "trialCodeDirectory: \"a\\0b\"\n", "trialCodeDirectory: 'a\0b' (a string) is not a path");
        assertRefused(GOOD_REST + "useAnnotation: true\n", "useAnnotation: specifying the search space with annotations is not supported");
        assertRefused(GOOD_REST + "experimentType: nas\n", "experimentType: only hyperparameter tuning experiments");
        assertRefused(GOOD_REST + "advisor: {name: Hyperband}\n", "advisor: \"advisor\" is deprecated");
        assertRefused(GOOD_REST + "trial_concurrency: 2\n", "trial_concurrency: given twice, as 'trialConcurrency' and 'trial_concurrency'");
    }

    @Test
    void aKeyThatIsNotAStringIsRefused() {
        assertRefused(GOOD_REST + "? \n: 1\n", "keys must be strings, got null");
        assertRefused(GOOD_REST + "1: 1\n", "keys must be strings, got 1 (an integer)");
    }

    @Test
    void yamlErrorsSayWhere() {
        assertThatThrownBy(() -> convert("trialCommand: t\ntuner: {name: TPE\n")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("is not valid YAML").hasMessageContaining("line");
        assertThatThrownBy(() -> convert("- a\n- b\n")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("an experiment config is a mapping of keys");
        assertThatThrownBy(() -> NniConfig.load(dir.resolve("absent.yml"), home.toString())).isInstanceOf(ConfigException.class)
                .hasMessageContaining("is not a file");
    }

    @Test
    void durationsReadAsNniReadsThem() {
        assertThat(ConfigValues.parseTime("1h")).isEqualTo(3600);
        assertThat(ConfigValues.parseTime("1.5M")).isEqualTo(90);
        assertThat(ConfigValues.parseTime("2d")).isEqualTo(172800);
        assertThat(ConfigValues.parseTime(30L)).isEqualTo(30);
        assertThatThrownBy(() -> ConfigValues.parseTime("30")).hasMessageContaining("bad unit");
    }
}
