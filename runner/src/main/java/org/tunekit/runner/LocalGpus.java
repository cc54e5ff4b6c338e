package org.tunekit.runner;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tunekit.gpus.Gpu;
import org.tunekit.gpus.GpuAllocation;
import org.tunekit.gpus.GpuScheduler;
import org.tunekit.gpus.GpuSettings;
import org.tunekit.gpus.NvidiaSmi;
import org.tunekit.gpus.NvidiaSmiException;
import org.tunekit.nniconfig.ConfigException;

/**
 * This machine's GPUs as local trials get them, by NNI's rules ({@link GpuScheduler}): found with
 * {@code nvidia-smi} when the experiment is checked, read again (at most every few seconds) while
 * trials wait for a GPU and GPUs running other programs are to be skipped ({@code useActiveGpu:
 * false}). Used on the manager's thread only.
 */
final class LocalGpus {
    private static final Logger LOG = LoggerFactory.getLogger(LocalGpus.class);
    private static final Duration REREAD = Duration.ofSeconds(5);

    private final GpuSettings settings;
    private final NvidiaSmi nvidiaSmi;
    private final Clock clock;
    private GpuScheduler scheduler;
    private Instant lastRead;

    LocalGpus(GpuSettings settings, NvidiaSmi nvidiaSmi, Clock clock) {
        this.settings = settings;
        this.nvidiaSmi = nvidiaSmi;
        this.clock = clock;
    }

    /**
     * Reads the GPUs and refuses settings this machine cannot satisfy, before anything starts.
     *
     * @throws ConfigException naming the setting, or that the GPUs cannot be read
     */
    void check() {
        List<Gpu> gpus;
        try {
            gpus = nvidiaSmi.gpus();
        } catch (NvidiaSmiException e) {
            throw new ConfigException("trialGpuNumber: cannot read this machine's GPUs: " + e.getMessage());
        }
        scheduler = new GpuScheduler(gpus, settings);
        try {
            scheduler.refresh(gpus, Set.of());
            scheduler.validate();
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
        lastRead = clock.instant();
    }

    /** True when a trial's GPUs are free now; reads the GPUs again first when their processes matter and the reading is old. */
    boolean free(Set<Long> ownTrialPids) {
        if (!settings.useActiveGpu() && settings.trialGpuNumber() > 0 && Duration.between(lastRead, clock.instant()).compareTo(REREAD) >= 0) {
            try {
                scheduler.refresh(nvidiaSmi.gpus(), ownTrialPids);
            } catch (NvidiaSmiException | IllegalArgumentException e) {
                LOG.warn("cannot read the GPUs again, going on with the last reading: {}", e.getMessage());
            }
            lastRead = clock.instant();
        }
        return scheduler.fits();
    }

    /** The GPUs of a trial about to start; call after {@link #free} said yes. */
    GpuAllocation allocate(String trialJobId) {
        return scheduler.allocate(trialJobId)
                .orElseThrow(() -> new IllegalStateException("no GPUs free for trial " + trialJobId + " after they were found free"));
    }

    void release(String trialJobId) {
        scheduler.release(trialJobId);
    }
}
