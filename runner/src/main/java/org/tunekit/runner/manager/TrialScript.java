package org.tunekit.runner.manager;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The shell script that runs one trial where the runner cannot watch its process (another machine, a
 * cluster node), written for {@code bash}. It gives the trial NNI's environment for the file channel
 * (NNI 2.x's and NNI 3's {@code nni} package both use it when {@code NNI_TRIAL_COMMAND_CHANNEL} is
 * unset): the trial reads {@value #PARAMETERS} in its folder ({@code NNI_SYS_DIR}) and reports its metrics
 * by appending them to {@value #METRICS} there or, as NNI's {@code nni} package does off {@code local},
 * by printing {@code NNISDK_ME} lines (read by {@link org.tunekit.runner.TrialMetricFiles}); nothing there connects
 * back to the runner. The script runs
 * {@code trialCommand} with {@code bash -c} in the code folder, its output in {@value #STDOUT} and
 * {@value #STDERR}, and when it ends writes its exit status to {@value #EXIT} (atomically: a reader sees
 * no file or the whole status). The status is 128 + the signal when a signal ended the command.
 */
public final class TrialScript {
    /** The trial's parameter record, written before it starts. */
    public static final String PARAMETERS = "parameter.cfg";
    /** NNI's metrics file: {@code ME}, the length in six digits, the metric's JSON, a newline; appended by the trial. */
    public static final String METRICS = ".nni/metrics";
    /** The exit status of the trial's command, written when it ends. */
    public static final String EXIT = ".nni/exit";
    public static final String STDOUT = "trial.stdout";
    public static final String STDERR = "trial.stderr";

    private TrialScript() {}

    /**
     * The script for a trial.
     *
     * @param trial       the trial
     * @param platform    {@code NNI_PLATFORM} ({@code remote}, {@code slurm})
     * @param command     {@code trialCommand}
     * @param codeDir     the code folder where the trial runs
     * @param trialDir    the trial's folder there ({@code NNI_SYS_DIR}, {@code NNI_OUTPUT_DIR})
     * @param environment more variables (such as {@code CUDA_VISIBLE_DEVICES}); a null value unsets one
     */
    public static String bash(TrialLaunch trial, String platform, String command, String codeDir, String trialDir,
                              Map<String, String> environment) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("NNI_PLATFORM", platform);
        env.put("NNI_EXP_ID", trial.experimentId());
        env.put("NNI_TRIAL_JOB_ID", trial.trialJobId());
        env.put("NNI_SYS_DIR", trialDir);
        env.put("NNI_OUTPUT_DIR", trialDir);
        env.put("NNI_TRIAL_SEQ_ID", Integer.toString(trial.sequence()));
        env.put("NNI_CODE_DIR", codeDir);
        env.put("NNI_TRIAL_COMMAND_CHANNEL", null);
        env.putAll(environment);
        StringBuilder b = new StringBuilder("#!/bin/bash\n");
        b.append("# trial ").append(trial.trialJobId()).append(" of experiment ").append(trial.experimentId()).append('\n');
        env.forEach((k, v) -> b.append(v == null ? "unset " + k : "export " + k + "=" + quote(v)).append('\n'));
        String dir = quote(trialDir);
        b.append("mkdir -p ").append(dir).append("/.nni\n");
        b.append("cd ").append(quote(codeDir)).append(" || { echo 127 > ").append(dir).append("/.nni/exit.tmp; mv ").append(dir)
                .append("/.nni/exit.tmp ").append(dir).append('/').append(EXIT).append("; exit 127; }\n");
        b.append("bash -c ").append(quote(command)).append(" > ").append(dir).append('/').append(STDOUT).append(" 2> ").append(dir)
                .append('/').append(STDERR).append(" < /dev/null\n");
        b.append("code=$?\n");
        b.append("printf '%s' \"$code\" > ").append(dir).append("/.nni/exit.tmp && mv ").append(dir).append("/.nni/exit.tmp ").append(dir)
                .append('/').append(EXIT).append('\n');
        b.append("exit $code\n");
        return b.toString();
    }

    /** {@code text} as one word for {@code sh}: in single quotes, a single quote written as {@code '\''}. */
    public static String quote(String text) {
        return "'" + text.replace("'", "'\\''") + "'";
    }
}
