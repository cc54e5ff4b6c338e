package org.tunekit.remote;

import static org.tunekit.runner.manager.TrialScript.quote;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tunekit.gpus.GpuAllocation;
import org.tunekit.runner.manager.TrialLaunch;
import org.tunekit.runner.manager.TrialScript;

/**
 * The shell commands about a trial's process on a machine: its wrapper script, its start (in a session of its own,
 * so that it outlives the SSH session and the runner; it leads its own process group, whose id is its pid), whether
 * it still runs, and the signals that stop it. Holds no state: it only makes the commands' text, on the thread that
 * asks (the manager's); whoever runs them reads their answer.
 */
final class TrialProcesses {
    private TrialProcesses() {}

    /**
     * The {@link TrialScript} of a trial on machine {@code m}: in {@code dir}, with the code in {@code ROOT/code},
     * the machine's {@code pythonPath} before {@code PATH} (as NNI's remote service), and {@code CUDA_VISIBLE_DEVICES}
     * the GPUs allocated (unset without an allocation).
     */
    static String script(TrialLaunch trial, Machine m, String trialCommand, String root, String dir, GpuAllocation allocation) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("CUDA_VISIBLE_DEVICES", allocation == null ? null : String.join(",", allocation.gpuIndices().stream().map(String::valueOf).toList()));
        String command = trialCommand;
        if (m.pythonPath() != null) {
            // as NNI's remote service: pythonPath goes before PATH
            command = "export PATH=" + quote(m.pythonPath()) + ":\"$PATH\"\n" + command;
        }
        return TrialScript.bash(trial, "remote", command, root + "/code", dir, env);
    }

    /** Writes the trial's parameters and {@code script} into {@code dir} and starts it detached: the command prints its pid. */
    static String start(TrialLaunch trial, String dir, String script) {
        return "mkdir -p " + quote(dir + "/.nni") + " && printf '%s' " + quote(trial.parameterRecord()) + " > "
                + quote(dir + "/" + TrialScript.PARAMETERS) + " && printf '%s' " + quote(script) + " > " + quote(dir + "/run.sh")
                + " && cd " + quote(dir) + " && { nohup setsid bash " + quote(dir + "/run.sh") + " >/dev/null 2>&1 </dev/null & echo $!; }";
    }

    /** Prints {@code alive} when the process runs (and is no zombie), and {@code ended} when the trial wrote its exit status. */
    static String probe(long pid, String dir) {
        return "st=; { read -r _ _ st _ < /proc/" + pid + "/stat; } 2>/dev/null; [ -n \"$st\" ] && [ \"$st\" != Z ] && echo alive; "
                + "[ -e " + quote(dir + "/" + TrialScript.EXIT) + " ] && echo ended; true";
    }

    /** Sends SIGINT to the trial's process group: the stop it may answer within its grace. */
    static String interrupt(long pid) {
        return "kill -INT -- -" + pid + " 2>/dev/null; true";
    }

    /** The shell commands that kill these trials' process groups, each ending with "; ". */
    static String killGroups(List<Long> pids) {
        StringBuilder b = new StringBuilder();
        for (long pid : pids) {
            b.append("kill -KILL -- -").append(pid).append(" 2>/dev/null; ");
        }
        return b.toString();
    }
}
