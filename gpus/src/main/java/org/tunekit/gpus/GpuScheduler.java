package org.tunekit.gpus;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Shares this machine's GPUs out among one experiment's trials by NNI 3's rules (see {@code NNI-SEMANTICS.md}).
 *
 * <ul>
 *   <li>Each trial's share is {@code trialGpuNumber / maxTrialNumberPerGpu}. A share of 0 gets no GPU
 *       ({@code CUDA_VISIBLE_DEVICES=""}) and never waits.</li>
 *   <li>A share below 1 goes on the most preferred usable GPU if its load plus the share is at most 1
 *       (to within 0.001), so 0.5 puts two trials on a GPU. A share of 1 or more takes that many
 *       (rounded) whole GPUs, the most preferred ones, which must carry no load at all.</li>
 *   <li>Usable GPUs are those in {@code gpuIndices} (all when {@code null}); with {@code useActiveGpu}
 *       false, not those running a process other than the experiment's own trials (see
 *       {@link #refresh(List, Set)}).</li>
 *   <li>Preference: lower load from this scheduler's trials, then no foreign process, then lower
 *       memory-controller utilisation, then lower core utilisation, then lower index.</li>
 *   <li>When the GPUs are not free now, {@link #allocate(String)} returns empty and the trial waits;
 *       {@link #validate()} refuses, before anything starts, an experiment that could never be placed.</li>
 * </ul>
 *
 * <p>Deterministic: the same GPUs, settings and calls give the same allocations. Not thread-safe:
 * use it from one thread. It runs nothing; the GPU lists come from {@link NvidiaSmi#gpus()}.
 */
public final class GpuScheduler {
    /** NNI's tolerance when fractions add up to a whole GPU (0.1 + 0.2 + 0.7 must fit). */
    private static final double FIT_TOLERANCE = 0.001;

    private final GpuSettings settings;
    private final Map<String, GpuAllocation> allocations = new LinkedHashMap<>();
    private List<Gpu> gpus;
    private Set<Long> ownTrialPids = Set.of();

    /** A scheduler for {@code gpus} (from {@link NvidiaSmi#gpus()}), with no trial placed yet. */
    public GpuScheduler(List<Gpu> gpus, GpuSettings settings) {
        this.gpus = sortedCopy(gpus);
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    /**
     * Refuses settings this machine can never satisfy: a {@code gpuIndices} entry that is not one of
     * its GPUs, or trials needing more GPUs than it has or than {@code gpuIndices} names.
     *
     * @throws IllegalArgumentException saying which setting and why
     */
    public void validate() {
        Set<Integer> machine = indices(gpus);
        if (settings.gpuIndices() != null) {
            for (int index : settings.gpuIndices()) {
                if (!machine.contains(index)) {
                    throw new IllegalArgumentException("gpuIndices names GPU " + index + ", which this machine does not have ("
                            + describe(machine) + ")");
                }
            }
        }
        int needed = settings.gpusPerTrial();
        if (needed > machine.size()) {
            throw new IllegalArgumentException("trialGpuNumber " + number(settings.trialGpuNumber()) + needs(needed)
                    + " but this machine has " + describe(machine));
        }
        if (settings.gpuIndices() != null && needed > settings.gpuIndices().size()) {
            throw new IllegalArgumentException("trialGpuNumber " + number(settings.trialGpuNumber()) + needs(needed)
                    + " but gpuIndices " + settings.gpuIndices() + " allows " + settings.gpuIndices().size());
        }
    }

    /**
     * Places trial {@code trialId} if its GPUs are free now.
     *
     * @return its allocation, kept until {@link #release(String)}; empty when it must wait
     * @throws IllegalArgumentException when {@link #validate()} would
     * @throws IllegalStateException when the trial already holds GPUs
     */
    public Optional<GpuAllocation> allocate(String trialId) {
        Objects.requireNonNull(trialId, "trialId");
        if (allocations.containsKey(trialId)) {
            throw new IllegalStateException("trial " + trialId + " already holds GPUs " + allocations.get(trialId).gpuIndices());
        }
        Optional<GpuAllocation> allocation = place(trialId);
        allocation.filter(a -> a.share() > 0).ifPresent(a -> allocations.put(trialId, a));
        return allocation;
    }

    /**
     * True when a trial's GPUs are free now: what {@link #allocate} would answer, without recording anything.
     *
     * @throws IllegalArgumentException when {@link #validate()} would
     */
    public boolean fits() {
        return place("").isPresent();
    }

    /** Where a trial would go now, or empty when it must wait; records nothing. */
    private Optional<GpuAllocation> place(String trialId) {
        validate();
        double share = settings.share();
        if (share == 0) {
            return Optional.of(new GpuAllocation(trialId, List.of(), 0));
        }
        Map<Integer, Double> load = load();
        List<Gpu> candidates = preferred(load);
        if (share < 1) {
            if (candidates.isEmpty() || load.get(candidates.get(0).index()) + share > 1 + FIT_TOLERANCE) {
                return Optional.empty();
            }
            return Optional.of(new GpuAllocation(trialId, List.of(candidates.get(0).index()), share));
        }
        int n = settings.gpusPerTrial();
        if (candidates.size() < n || load.get(candidates.get(n - 1).index()) > 0) {
            return Optional.empty();
        }
        return Optional.of(new GpuAllocation(trialId, candidates.subList(0, n).stream().map(Gpu::index).toList(), 1));
    }

    /** Gives back trial {@code trialId}'s GPUs; a trial that holds none is ignored. */
    public void release(String trialId) {
        allocations.remove(trialId);
    }

    /**
     * Records that trial {@code trialId}, resumed, already runs on {@code gpuIndices}, with the share the
     * settings give. Capacity is not checked: the trial is running there whatever the scheduler thinks.
     *
     * @throws IllegalArgumentException when an index is not a GPU of this machine or their number is not
     *     what the settings give a trial
     * @throws IllegalStateException when the trial already holds GPUs
     */
    public GpuAllocation restore(String trialId, List<Integer> gpuIndices) {
        Objects.requireNonNull(trialId, "trialId");
        if (allocations.containsKey(trialId)) {
            throw new IllegalStateException("trial " + trialId + " already holds GPUs " + allocations.get(trialId).gpuIndices());
        }
        Set<Integer> machine = indices(gpus);
        Set<Integer> distinct = new TreeSet<>(gpuIndices);
        for (int index : distinct) {
            if (!machine.contains(index)) {
                throw new IllegalArgumentException("trial " + trialId + " ran on GPU " + index + ", which this machine does not have ("
                        + describe(machine) + ")");
            }
        }
        int needed = settings.gpusPerTrial();
        if (distinct.size() != gpuIndices.size() || gpuIndices.size() != needed) {
            throw new IllegalArgumentException("trial " + trialId + " ran on GPUs " + gpuIndices + " but trialGpuNumber "
                    + number(settings.trialGpuNumber()) + needs(needed));
        }
        double share = settings.share();
        GpuAllocation allocation = new GpuAllocation(trialId, gpuIndices, share < 1 ? share : needed == 0 ? 0 : 1);
        if (needed > 0) {
            allocations.put(trialId, allocation);
        }
        return allocation;
    }

    /**
     * Takes a fresh reading of the GPUs (their processes and utilisation) and keeps the allocations.
     * Processes whose pid is in {@code ownTrialPids} (the experiment's trial processes and their
     * children) do not make a GPU active.
     *
     * @throws IllegalStateException when the GPUs' indices are not the ones the scheduler was made with
     */
    public void refresh(List<Gpu> gpus, Set<Long> ownTrialPids) {
        List<Gpu> fresh = sortedCopy(gpus);
        if (!indices(fresh).equals(indices(this.gpus))) {
            throw new IllegalStateException("this machine's GPUs changed from " + describe(indices(this.gpus)) + " to "
                    + describe(indices(fresh)));
        }
        this.gpus = fresh;
        this.ownTrialPids = Set.copyOf(ownTrialPids);
    }

    /** The trials holding GPUs now, in the order they were placed. */
    public List<GpuAllocation> allocations() {
        return List.copyOf(allocations.values());
    }

    /** Each GPU's load from this scheduler's trials: the sum of their shares on it. */
    private Map<Integer, Double> load() {
        Map<Integer, Double> load = new LinkedHashMap<>();
        for (Gpu gpu : gpus) {
            load.put(gpu.index(), 0.0);
        }
        for (GpuAllocation allocation : allocations.values()) {
            for (int index : allocation.gpuIndices()) {
                load.merge(index, allocation.share(), Double::sum);
            }
        }
        return load;
    }

    /** The usable GPUs, most preferred first. */
    private List<Gpu> preferred(Map<Integer, Double> load) {
        List<Gpu> usable = new ArrayList<>();
        for (Gpu gpu : gpus) {
            if (settings.gpuIndices() != null && !settings.gpuIndices().contains(gpu.index())) {
                continue;
            }
            if (!settings.useActiveGpu() && runsForeignProcess(gpu)) {
                continue;
            }
            usable.add(gpu);
        }
        usable.sort(Comparator.<Gpu>comparingDouble(gpu -> load.get(gpu.index()))
                .thenComparing(this::runsForeignProcess)
                .thenComparingInt(Gpu::memoryUtilisationPercent)
                .thenComparingInt(Gpu::utilisationPercent)
                .thenComparingInt(Gpu::index));
        return usable;
    }

    private boolean runsForeignProcess(Gpu gpu) {
        return gpu.activeProcesses().stream().anyMatch(process -> !ownTrialPids.contains(process.pid()));
    }

    private static List<Gpu> sortedCopy(List<Gpu> gpus) {
        List<Gpu> copy = new ArrayList<>(gpus);
        copy.sort(Comparator.comparingInt(Gpu::index));
        return List.copyOf(copy);
    }

    private static Set<Integer> indices(List<Gpu> gpus) {
        Set<Integer> indices = new TreeSet<>();
        for (Gpu gpu : gpus) {
            indices.add(gpu.index());
        }
        return indices;
    }

    private static String describe(Set<Integer> indices) {
        return switch (indices.size()) {
            case 0 -> "no GPU";
            case 1 -> "1 GPU: " + indices.iterator().next();
            default -> indices.size() + " GPUs: " + indices.toString().replaceAll("[\\[\\]]", "");
        };
    }

    private String needs(int gpus) {
        String perGpu = settings.maxTrialNumberPerGpu() == 1 ? "" : " with maxTrialNumberPerGpu " + settings.maxTrialNumberPerGpu();
        return perGpu + " needs " + gpus + (gpus == 1 ? " GPU" : " GPUs") + " per trial";
    }

    private static String number(double value) {
        return value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value);
    }
}
