package org.tunekit.runner;

import java.util.List;
import org.tunekit.nniconfig.ConfigException;

/**
 * How the trials of a local experiment use the machine's GPUs: NNI's local training service's
 * settings, after NNI's shortcut rules (a top-level {@code trialGpuNumber} counts for the training
 * service that does not set its own).
 *
 * @param trialGpuNumber       GPUs each trial gets, or {@code null} when the config sets none: then GPUs are not
 *                             scheduled and trials see every GPU, as in NNI, where 0 hides them all
 *                             ({@code CUDA_VISIBLE_DEVICES=""}). A whole number, or here a fraction below 1 (a share
 *                             of one GPU); a trial's share is {@code trialGpuNumber / maxTrialNumberPerGpu}
 * @param gpuIndices           the GPUs trials may use, or {@code null} for all of them
 * @param maxTrialNumberPerGpu how many trials may share one GPU (NNI's default: 1)
 * @param useActiveGpu         whether GPUs that other processes already use are given to trials, or {@code null}
 *                             when the config does not say (NNI requires it when {@code trialGpuNumber} is set)
 */
record GpuConfig(Double trialGpuNumber, List<Integer> gpuIndices, int maxTrialNumberPerGpu, Boolean useActiveGpu) {
    /** No GPU settings: what a config without any, and a config stored before they were kept, reads as. */
    static final GpuConfig NONE = new GpuConfig(null, null, 1, null);

    GpuConfig {
        gpuIndices = gpuIndices == null ? null : List.copyOf(gpuIndices);
    }

    /**
     * What the scheduler of this machine's GPUs works by, or {@code null} when GPUs are not scheduled.
     *
     * @throws ConfigException when the settings cannot go together (a fraction above 1)
     */
    org.tunekit.gpus.GpuSettings scheduling() {
        if (trialGpuNumber == null) {
            return null;
        }
        try {
            return new org.tunekit.gpus.GpuSettings(trialGpuNumber, gpuIndices, maxTrialNumberPerGpu, !Boolean.FALSE.equals(useActiveGpu));
        } catch (IllegalArgumentException e) {
            throw new ConfigException("trainingService: " + e.getMessage());
        }
    }
}
