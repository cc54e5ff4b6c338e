package org.tunekit.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.tunekit.runner.results.ExperimentResults;

/** Runs real experiments in a temporary folder: a config and trial scripts in {@code code/}, the experiment in {@code experiments/}. */
final class RunnerFixture {
    /** Trial scripts shared by the tests; each reads x from its parameters. */
    static final String FILE_TRIAL_HELPERS = """
            p=$(cat "$NNI_SYS_DIR/parameter.cfg")
            x=$(printf '%s' "$p" | sed -n 's/.*"x": *\\([-0-9.eE+]*\\).*/\\1/p')
            id=$(printf '%s' "$p" | sed -n 's/.*"parameter_id": *\\([0-9]*\\).*/\\1/p')
            mkdir -p "$NNI_SYS_DIR/.nni"
            frame() { n=$(printf '%s\\n' "$1" | wc -c); printf 'ME%06d%s\\n' "$n" "$1" >> "$NNI_SYS_DIR/.nni/metrics"; }
            metric() { frame "{\\"parameter_id\\": $id, \\"trial_job_id\\": \\"$NNI_TRIAL_JOB_ID\\", \\"type\\": \\"$1\\", \\"sequence\\": $2, \\"value\\": \\"$3\\"}"; }
            """;

    static final String HTTP_TRIAL_HELPERS = """
            url="$NNI_TRIAL_COMMAND_CHANNEL"
            ask() {
              curl -sf -X PUT -d '{"type":"request_parameter"}' "$url" || exit 90
              while :; do
                code=$(curl -s -o "$NNI_OUTPUT_DIR/reply.json" -w '%{http_code}' "$url")
                [ "$code" = 200 ] && break
                [ "$code" = 408 ] || exit 91
              done
              p=$(sed -e 's/\\\\"/"/g' "$NNI_OUTPUT_DIR/reply.json")
              x=$(printf '%s' "$p" | sed -n 's/.*"x": *\\([-0-9.eE+]*\\).*/\\1/p')
              id=$(printf '%s' "$p" | sed -n 's/.*"parameter_id": *\\([0-9]*\\).*/\\1/p')
            }
            metric() {
              m="{\\\\\\"parameter_id\\\\\\": $id, \\\\\\"trial_job_id\\\\\\": \\\\\\"$NNI_TRIAL_JOB_ID\\\\\\", \\\\\\"type\\\\\\": \\\\\\"$1\\\\\\", \\\\\\"sequence\\\\\\": $2, \\\\\\"value\\\\\\": \\\\\\"$3\\\\\\"}"
              curl -sf -X PUT -d "{\\"type\\":\\"metric\\",\\"metric\\":\\"$m\\"}" "$url" || exit 92
            }
            """;

    final Path root;
    final Path code;
    final Path experiments;
    Duration stopGrace = Duration.ofMillis(500);
    Duration silence = Duration.ofMinutes(10);
    LocalRunner.TrialChannels channels = LocalRunner.TrialChannels.BOTH;
    boolean includeIntermediate;
    /** No nvidia-smi unless a test puts a stand-in on this path. */
    org.tunekit.gpus.NvidiaSmi nvidiaSmi = org.tunekit.gpus.NvidiaSmi.onPath(null);
    ExperimentStore store;
    Path folder;

    RunnerFixture(Path root) throws IOException {
        this.root = root;
        this.code = Files.createDirectories(root.resolve("code"));
        this.experiments = Files.createDirectories(root.resolve("experiments"));
    }

    RunnerFixture trial(String name, String body) throws IOException {
        Files.writeString(code.resolve(name), "set -u\n" + body);
        return this;
    }

    Path config(String yaml) throws IOException {
        Path c = code.resolve("config.yml");
        Files.writeString(c, yaml);
        return c;
    }

    /** Runs a new experiment from the config text; the store stays open for inspection. */
    LocalRunner.Outcome run(String yaml) throws Exception {
        ExperimentSpec spec = ExperimentSpec.load(config(yaml));
        String id = ExperimentFolders.newId(experiments);
        folder = experiments.resolve(id);
        LocalRunner runner = runner(spec);
        runner.prepare();
        Files.createDirectories(folder);
        store = ExperimentStore.create(folder, id, spec, Map.of(), Clock.systemUTC().instant());
        return runner.run(store, false);
    }

    /** Runs the stored experiment again, as --resume does. */
    LocalRunner.Outcome resume() throws Exception {
        return resume(store.spec());
    }

    LocalRunner.Outcome resume(ExperimentSpec spec) throws Exception {
        LocalRunner runner = runner(spec);
        runner.prepare();
        return runner.run(store, true);
    }

    LocalRunner runner(ExperimentSpec spec) {
        var options = new LocalRunner.Options(List.of(), stopGrace, silence, includeIntermediate, null, channels, nvidiaSmi, Map.of());
        return new LocalRunner(spec, folder, folder.getFileName().toString(), options, Progress.silent(), Clock.systemUTC());
    }

    ExperimentResults results() {
        return store.results();
    }

    static String config(String trialCommand, int trials, int concurrency, String extra) {
        return """
                searchSpace:
                  x: {_type: uniform, _value: [0, 1]}
                trialCommand: %s
                trialConcurrency: %d
                maxTrialNumber: %d
                tuner:
                  name: Random
                  classArgs: {seed: 3, optimize_mode: minimize}
                %s
                """.formatted(trialCommand, concurrency, trials, extra);
    }
}
