package org.tunekit.runner.manager;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * What a {@link TrainingServiceProvider} makes a service from.
 *
 * @param experimentId        the experiment's id ({@code NNI_EXP_ID})
 * @param settings            the {@code trainingService} entry as NNI's reader made it: camelCase keys, defaults filled in,
 *                            local paths absolute, the top level's {@code trialCommand}, {@code trialCodeDirectory} and
 *                            {@code trialGpuNumber} copied in where the entry has none
 * @param trialCommand        the command that runs one trial
 * @param trialCodeDirectory  the trial's code on this machine
 * @param experimentDirectory the experiment's folder on this machine; each trial's output is kept in {@code trials/JOBID} below it
 * @param maxTrialDuration    {@code maxTrialDuration}, or {@code null}
 * @param options             the runner's options for services, by name ({@code acceptNewHosts}: "true" to trust a host key
 *                            not yet in {@code known_hosts} and add it)
 */
public record TrainingServiceContext(String experimentId, Map<String, Object> settings, String trialCommand, Path trialCodeDirectory,
                                     Path experimentDirectory, Duration maxTrialDuration, Map<String, String> options) {
    public TrainingServiceContext {
        settings = Map.copyOf(settings);
        options = Map.copyOf(options);
    }
}
