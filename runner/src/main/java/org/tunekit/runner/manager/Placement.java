package org.tunekit.runner.manager;

import java.util.List;

/**
 * Where a started trial runs, as the experiment's store keeps it.
 *
 * @param handle  what the training service needs to find the trial again after a restart (a process
 *                id, a job id), or {@code null}
 * @param machine the machine it runs on, or {@code null} for this one
 * @param gpus    the indices of the GPUs given to it (empty for none), or {@code null} when GPUs are not scheduled
 */
public record Placement(String handle, String machine, List<Integer> gpus) {
    public Placement {
        gpus = gpus == null ? null : List.copyOf(gpus);
    }

    /** The GPUs as {@code CUDA_VISIBLE_DEVICES} has them ("0,2"; "" for none), or {@code null} when not scheduled. */
    public String gpuText() {
        return gpus == null ? null : String.join(",", gpus.stream().map(String::valueOf).toList());
    }
}
