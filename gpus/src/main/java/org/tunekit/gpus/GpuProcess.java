package org.tunekit.gpus;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * A compute process running on a GPU, as {@code nvidia-smi --query-compute-apps} reported it.
 *
 * @param pid its process id
 * @param name its name (usually the executable's path)
 * @param gpuIndex the index of the GPU it runs on
 * @param usedMemoryMiB the GPU memory it uses; empty where nvidia-smi says {@code [N/A]} (no permission, WSL)
 */
public record GpuProcess(long pid, String name, int gpuIndex, OptionalLong usedMemoryMiB) {
    public GpuProcess {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(usedMemoryMiB, "usedMemoryMiB");
    }
}
