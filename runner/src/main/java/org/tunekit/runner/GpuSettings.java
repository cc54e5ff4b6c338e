package org.tunekit.runner;

import java.util.List;

/**
 * How the trials of a local experiment use the machine's GPUs: NNI's local training service's
 * settings, after NNI's shortcut rules (a top-level {@code trialGpuNumber} counts for the training
 * service that does not set its own).
 *
 * @param trialGpuNumber       GPUs each trial gets; 0 when the config sets none. NNI itself tells an absent
 *                             value (trials are not given GPUs, but see every one) from 0 (trials see none);
 *                             here both are 0. NNI's config takes an integer; a trial's share of a GPU is
 *                             {@code trialGpuNumber / maxTrialNumberPerGpu}
 * @param gpuIndices           the GPUs trials may use, or {@code null} for all of them
 * @param maxTrialNumberPerGpu how many trials may share one GPU (NNI's default: 1)
 * @param useActiveGpu         whether GPUs that other processes already use are given to trials, or {@code null}
 *                             when the config does not say (NNI requires it when {@code trialGpuNumber} is set)
 */
record GpuSettings(double trialGpuNumber, List<Integer> gpuIndices, int maxTrialNumberPerGpu, Boolean useActiveGpu) {
    /** No GPU settings: what a config without any, and a config stored before they were kept, reads as. */
    static final GpuSettings NONE = new GpuSettings(0, null, 1, null);

    GpuSettings {
        gpuIndices = gpuIndices == null ? null : List.copyOf(gpuIndices);
    }
}
