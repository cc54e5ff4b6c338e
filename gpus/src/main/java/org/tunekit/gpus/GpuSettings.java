package org.tunekit.gpus;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * An experiment's GPU settings, under NNI's names.
 *
 * <p>Refused at construction, with {@link IllegalArgumentException}: a negative, infinite or NaN
 * {@code trialGpuNumber}, or one above 1 that is not whole (1.5); {@code maxTrialNumberPerGpu} below 1,
 * or other than 1 while {@code trialGpuNumber} is 0 (NNI: "does not work without trial_gpu_number");
 * a negative or repeated entry of {@code gpuIndices}. Whether the machine can hold the experiment is
 * {@link GpuScheduler#validate()}'s question.
 *
 * @param trialGpuNumber GPUs per trial: 0, a fraction below 1, or a whole number
 * @param gpuIndices the only GPUs trials may use; {@code null} for all of them
 * @param maxTrialNumberPerGpu how many trials may share a GPU; each trial's share is
 *     {@code trialGpuNumber / maxTrialNumberPerGpu}, as in NNI 3
 * @param useActiveGpu whether GPUs running processes other than the experiment's own trials may be used
 */
public record GpuSettings(double trialGpuNumber, List<Integer> gpuIndices, int maxTrialNumberPerGpu, boolean useActiveGpu) {
    public GpuSettings {
        if (!Double.isFinite(trialGpuNumber) || trialGpuNumber < 0) {
            throw new IllegalArgumentException("trialGpuNumber must be 0 or more, got " + trialGpuNumber);
        }
        if (trialGpuNumber > 1 && trialGpuNumber != Math.rint(trialGpuNumber)) {
            throw new IllegalArgumentException("trialGpuNumber must be a whole number or a fraction below 1, got " + trialGpuNumber);
        }
        if (maxTrialNumberPerGpu < 1) {
            throw new IllegalArgumentException("maxTrialNumberPerGpu must be 1 or more, got " + maxTrialNumberPerGpu);
        }
        if (trialGpuNumber == 0 && maxTrialNumberPerGpu != 1) {
            throw new IllegalArgumentException("maxTrialNumberPerGpu does not work without trialGpuNumber (got "
                    + maxTrialNumberPerGpu + " with trialGpuNumber 0)");
        }
        if (gpuIndices != null) {
            Set<Integer> seen = new HashSet<>();
            for (Integer index : gpuIndices) {
                if (index == null || index < 0) {
                    throw new IllegalArgumentException("gpuIndices must not hold a negative or missing index, got " + gpuIndices);
                }
                if (!seen.add(index)) {
                    throw new IllegalArgumentException("gpuIndices names GPU " + index + " twice: " + gpuIndices);
                }
            }
            gpuIndices = List.copyOf(new ArrayList<>(gpuIndices));
        }
    }

    /** Settings for trials that use no GPU. */
    public static GpuSettings none() {
        return new GpuSettings(0, null, 1, true);
    }

    /** The part of a GPU each trial takes when below 1, else the number of whole GPUs (rounded as NNI 3 rounds). */
    double share() {
        return trialGpuNumber / maxTrialNumberPerGpu;
    }

    /** How many GPUs each trial sees: 0, 1 for a fraction, else the share rounded half up. */
    int gpusPerTrial() {
        double share = share();
        if (share == 0) {
            return 0;
        }
        return share < 1 ? 1 : (int) Math.round(share);
    }
}
