package org.tunekit.slurm;

import org.tunekit.runner.manager.TrainingService;
import org.tunekit.runner.manager.TrainingServiceContext;
import org.tunekit.runner.manager.TrainingServiceProvider;

/**
 * Serves {@code platform: slurm} (Tunekit's own; NNI has no Slurm training service): each trial one
 * Slurm job ({@link SlurmJobs}). Looks for {@code sbatch}, {@code squeue}, {@code sacct}, {@code scancel}
 * and {@code sinfo} in the folders of the service option {@value #PATH_OPTION} (as {@code PATH} is
 * written), else in {@code PATH}.
 */
public final class SlurmProvider implements TrainingServiceProvider {
    /** The service option naming where the Slurm commands are, written as {@code PATH} is. */
    public static final String PATH_OPTION = "slurmPath";

    @Override
    public String platform() {
        return "slurm";
    }

    @Override
    public TrainingService create(TrainingServiceContext context) {
        SlurmSettings settings = SlurmSettings.of(context);
        String path = context.options().get(PATH_OPTION);
        return new SlurmJobs(context, settings, new SlurmCommands(path != null ? path : System.getenv().getOrDefault("PATH", "")));
    }
}
