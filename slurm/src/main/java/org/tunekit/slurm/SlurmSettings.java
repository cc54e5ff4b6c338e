package org.tunekit.slurm;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.tunekit.runner.manager.TrainingServiceContext;

/**
 * The {@code trainingService} entry of a {@code platform: slurm} experiment.
 *
 * @param partition     {@code --partition}, or {@code null} for the cluster's default
 * @param account       {@code --account}, or {@code null}
 * @param sbatchOptions more arguments to {@code sbatch}, passed as given after the others
 * @param trialsRoot    the folder on the shared directory whose {@code trials/JOBID} folders the trials write in:
 *                      the experiment's folder, or {@code sharedDirectory/EXPID}
 * @param pollInterval  how often Slurm is asked about the jobs (zero: on every turn of the manager's loop)
 * @param gpus          whole GPUs per trial ({@code trialGpuNumber}), or {@code null} when not given
 */
record SlurmSettings(String partition, String account, List<String> sbatchOptions, Path trialsRoot, Duration pollInterval, Integer gpus) {
    SlurmSettings {
        sbatchOptions = List.copyOf(sbatchOptions);
    }

    /**
     * Reads the entry as NNI's reader left it.
     *
     * @throws IllegalArgumentException naming the bad value by its path
     */
    static SlurmSettings of(TrainingServiceContext context) {
        Map<String, Object> s = context.settings();
        String partition = string(s, "partition");
        String account = string(s, "account");
        List<String> options = new ArrayList<>();
        Object o = s.get("sbatchOptions");
        if (o instanceof List<?> l) {
            for (int i = 0; i < l.size(); i++) {
                if (!(l.get(i) instanceof String text)) {
                    throw new IllegalArgumentException("trainingService.sbatchOptions[" + i + "]: must be a string, got " + l.get(i));
                }
                options.add(text);
            }
        } else if (o != null) {
            throw new IllegalArgumentException("trainingService.sbatchOptions: must be a list of strings, got " + o);
        }
        String shared = string(s, "sharedDirectory");
        Path root = shared == null ? context.experimentDirectory() : Path.of(shared).toAbsolutePath().resolve(context.experimentId());
        Duration poll = Duration.ofSeconds(1);
        Object p = s.get("pollInterval");
        if (p instanceof Number n) {
            if (n.doubleValue() < 0) {
                throw new IllegalArgumentException("trainingService.pollInterval: must be 0 or more seconds, got " + p);
            }
            poll = Duration.ofMillis(Math.round(n.doubleValue() * 1000));
        } else if (p != null) {
            throw new IllegalArgumentException("trainingService.pollInterval: must be a number of seconds, got " + p);
        }
        Integer gpus = null;
        Object g = s.get("trialGpuNumber");
        if (g instanceof Double d) {
            throw new IllegalArgumentException("trainingService.trialGpuNumber: Slurm gives whole GPUs: give a whole number, got " + d);
        } else if (g instanceof Number n) {
            if (n.longValue() < 0) {
                throw new IllegalArgumentException("trainingService.trialGpuNumber: must be 0 or more, got " + n);
            }
            gpus = n.intValue();
        }
        return new SlurmSettings(partition, account, options, root, poll, gpus);
    }

    private static String string(Map<String, Object> s, String key) {
        Object v = s.get(key);
        if (v != null && !(v instanceof String)) {
            throw new IllegalArgumentException("trainingService." + key + ": must be a string, got " + v);
        }
        return (String) v;
    }
}
