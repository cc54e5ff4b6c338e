package org.tunekit.gpus;

import java.util.List;
import java.util.Objects;

/**
 * One NVIDIA GPU of this machine as {@code nvidia-smi} reported it at one moment.
 *
 * @param index the GPU's index (NVML's, as in {@code CUDA_VISIBLE_DEVICES} when
 *     {@code CUDA_DEVICE_ORDER=PCI_BUS_ID})
 * @param uuid its UUID ({@code GPU-...})
 * @param name its model name
 * @param driverVersion the NVIDIA driver's version
 * @param memoryMiB its memory
 * @param memoryUsedMiB memory in use
 * @param memoryFreeMiB memory free
 * @param utilisationPercent how busy its cores were, 0 to 100
 * @param memoryUtilisationPercent how busy its memory controller was, 0 to 100 (not the share of memory in use)
 * @param activeProcesses the compute processes running on it
 */
public record Gpu(int index, String uuid, String name, String driverVersion, long memoryMiB, long memoryUsedMiB,
        long memoryFreeMiB, int utilisationPercent, int memoryUtilisationPercent, List<GpuProcess> activeProcesses) {
    public Gpu {
        Objects.requireNonNull(uuid, "uuid");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(driverVersion, "driverVersion");
        activeProcesses = List.copyOf(activeProcesses);
    }
}
