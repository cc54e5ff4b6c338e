package org.tunekit.gpus;

import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * The GPUs one trial was given.
 *
 * @param trialId the trial
 * @param gpuIndices the GPUs' indices, ascending; empty when the trial asks for no GPU
 * @param share the load it puts on each of them: below 1 for a shared GPU, 1 for whole GPUs, 0 for none
 */
public record GpuAllocation(String trialId, List<Integer> gpuIndices, double share) {
    public GpuAllocation {
        Objects.requireNonNull(trialId, "trialId");
        gpuIndices = gpuIndices.stream().sorted().toList();
    }

    /** The trial's {@code CUDA_VISIBLE_DEVICES}: the indices joined by {@code ,} ({@code "0,2"}), or {@code ""} for no GPU. */
    public String cudaVisibleDevices() {
        return gpuIndices.stream().map(String::valueOf).collect(Collectors.joining(","));
    }
}
