package org.tunekit.nni;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code tunekit nni create --dry-run}: what would be posted to NNI's manager, and what is refused before. */
class CreateCommandTest {
    @TempDir
    Path tmp;

    /** Exit status, stdout, stderr. */
    record Run(int status, String out, String err) {}

    private Run create(String yaml, String name) throws Exception {
        Path dir = Files.createDirectories(tmp.resolve(name));
        Files.createDirectories(dir.resolve("code"));
        Path file = dir.resolve("config.yml");
        Files.writeString(file, yaml);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cl = new CommandLine(new CreateCommand());
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int status = cl.execute("--config", file.toString(), "--dry-run");
        return new Run(status, out.toString().replace(dir.toString(), "DIR"), err.toString());
    }

    @Test
    void camelCaseSnakeCaseAndMixedCasePostTheSameConfig() throws Exception {
        Run camel = create("""
                experimentName: same
                searchSpace: {x: {_type: choice, _value: [1, 2]}}
                trialCommand: sh t.sh
                trialCodeDirectory: code
                trialConcurrency: 2
                maxTrialNumber: 8
                trialGpuNumber: 1
                tuner: {name: TPE, classArgs: {optimize_mode: minimize}}
                trainingService: {platform: local, useActiveGpu: false, maxTrialNumberPerGpu: 2, gpuIndices: "0,1"}
                """, "camel");
        Run snake = create("""
                experiment_name: same
                search_space: {x: {_type: choice, _value: [1, 2]}}
                trial_command: sh t.sh
                trial_code_directory: code
                trial_concurrency: 2
                max_trial_number: 8
                trial_gpu_number: 1
                tuner: {name: TPE, class_args: {optimize_mode: minimize}}
                training_service: {platform: local, use_active_gpu: false, max_trial_number_per_gpu: 2, gpu_indices: "0,1"}
                """, "snake");
        Run mixed = create("""
                ExperimentName: same
                search_space: {x: {_type: choice, _value: [1, 2]}}
                trialCommand: sh t.sh
                trial_codeDirectory: code
                TRIAL_CONCURRENCY: 2
                max_trialNumber: 8
                trialgpunumber: 1
                Tuner: {name: TPE, classArgs: {optimize_mode: minimize}}
                TrainingService: {platform: local, use_activeGpu: false, MaxTrialNumberPerGPU: 2, gpuindices: "0,1"}
                """, "mixed");
        assertThat(camel.status()).as(camel.err()).isZero();
        assertThat(camel.out()).contains("\"maxTrialNumber\": 8").contains("\"trialCodeDirectory\": \"DIR/code\"")
                .contains("\"gpuIndices\": [\n      0,\n      1\n    ]");
        assertThat(snake.out()).isEqualTo(camel.out());
        assertThat(mixed.out()).isEqualTo(camel.out());
    }

    @Test
    void aFractionOfAGpuIsRefusedBecauseNnisManagerTakesWholeGpus() throws Exception {
        Run r = create("""
                searchSpace: {x: {_type: choice, _value: [1, 2]}}
                trialCommand: sh t.sh
                trialCodeDirectory: code
                trialConcurrency: 2
                tuner: {name: TPE}
                trainingService: {platform: local, useActiveGpu: false, trialGpuNumber: 0.5}
                """, "half");
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).contains("trainingService.trialGpuNumber: NNI's manager takes a whole number of GPUs")
                .contains("maxTrialNumberPerGpu: 2");
    }

    @Test
    void slurmIsRefusedBecauseNnisManagerHasNoSlurmService() throws Exception {
        Run r = create("""
                searchSpace: {x: {_type: choice, _value: [1, 2]}}
                trialCommand: sh t.sh
                trialCodeDirectory: code
                trialConcurrency: 2
                tuner: {name: TPE}
                trainingService: {platform: slurm, partition: debug}
                """, "slurm");
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).contains("trainingService.platform: 'slurm' is Tunekit's own training service: NNI's manager has none "
                + "for it; run the experiment with tunekit run");
    }

    @Test
    void aBadValueIsNamedByItsPathAndNothingIsPrinted() throws Exception {
        Run r = create("""
                search_space: {x: {_type: choice, _value: [1, 2]}}
                trial_command: sh t.sh
                trial_concurrency: 1
                tuner: {name: TPE}
                training_service: {platform: local, gpu_indices: [0, zero]}
                """, "bad");
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).contains("trainingService.gpuIndices[1]: must be a GPU index (an integer), got 'zero' (a string)");
    }

    @Test
    void fatalPassesTheConfigCheckButNotNnisManager() throws Exception {
        Run r = create("""
                searchSpace: {x: {_type: choice, _value: [1]}}
                trialCommand: t
                trialConcurrency: 1
                logLevel: fatal
                tuner: {name: TPE}
                trainingService: {platform: local}
                """, "fatal");
        assertThat(r.status()).isEqualTo(1);
        assertThat(r.err()).contains("logLevel: 'fatal' passes NNI's config check, but NNI's manager refuses it");
    }
}
