package org.tunekit.runner.manager;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The script that runs a trial away from the runner, run here with bash. */
class TrialScriptTest {
    @TempDir
    Path tmp;

    private int run(String script) throws Exception {
        Path file = tmp.resolve("run.sh");
        Files.writeString(file, script);
        ProcessBuilder pb = new ProcessBuilder("bash", file.toString());
        pb.environment().put("NNI_TRIAL_COMMAND_CHANNEL", "http://nowhere");
        Process p = pb.inheritIO().start();
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        return p.exitValue();
    }

    @Test
    void theTrialGetsNnisEnvironmentForTheFileChannelAndItsStatusIsWrittenWhenItEnds() throws Exception {
        Path code = Files.createDirectories(tmp.resolve("code dir"));
        Path trial = tmp.resolve("trials/abc12");
        TrialLaunch launch = new TrialLaunch("exp1", "abc12", 7, 3, "{}");
        Map<String, String> env = new HashMap<>();
        env.put("CUDA_VISIBLE_DEVICES", "1,2");
        String command = "echo \"$NNI_PLATFORM $NNI_EXP_ID $NNI_TRIAL_JOB_ID $NNI_TRIAL_SEQ_ID ${NNI_TRIAL_COMMAND_CHANNEL-unset} "
                + "$CUDA_VISIBLE_DEVICES $(pwd)\"; echo 'it''s an error' >&2; test \"$NNI_SYS_DIR\" = \"$NNI_OUTPUT_DIR\" && exit 3";
        int status = run(TrialScript.bash(launch, "remote", command, code.toString(), trial.toString(), env));
        assertThat(status).isEqualTo(3);
        assertThat(Files.readString(trial.resolve(TrialScript.EXIT))).isEqualTo("3");
        assertThat(Files.readString(trial.resolve(TrialScript.STDOUT)).strip()).isEqualTo("remote exp1 abc12 7 unset 1,2 " + code);
        assertThat(Files.readString(trial.resolve(TrialScript.STDERR)).strip()).isEqualTo("its an error");
        assertThat(trial.resolve(".nni/exit.tmp")).doesNotExist();
    }

    @Test
    void aMissingCodeFolderEndsTheTrialWithStatus127() throws Exception {
        Path trial = tmp.resolve("t");
        int status = run(TrialScript.bash(new TrialLaunch("e", "j", 0, 0, "{}"), "slurm", "exit 0", tmp.resolve("none").toString(),
                trial.toString(), Map.of()));
        assertThat(status).isEqualTo(127);
        assertThat(Files.readString(trial.resolve(TrialScript.EXIT)).strip()).isEqualTo("127");
    }
}
