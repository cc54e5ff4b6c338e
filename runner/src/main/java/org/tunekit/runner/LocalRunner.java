package org.tunekit.runner;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.tunekit.dispatcher.DispatcherSettings;
import org.tunekit.dispatcher.Dispatchers;
import org.tunekit.dispatcher.plugin.AlgorithmCatalog;
import org.tunekit.nniconfig.ConfigException;
import org.tunekit.runner.manager.ExperimentManager;
import org.tunekit.runner.manager.ManagerException;
import org.tunekit.runner.manager.ManagerSettings;
import org.tunekit.runner.manager.TrainingService;
import org.tunekit.runner.manager.TrainingServiceContext;
import org.tunekit.runner.manager.TrainingServiceProvider;
import org.tunekit.runner.manager.TrainingServices;

/**
 * {@code tunekit run}'s experiment: the {@link ExperimentManager}'s loop over {@link LocalProcesses},
 * with the dispatcher of the config's algorithms, recorded in the experiment's {@link ExperimentStore}.
 */
final class LocalRunner {
    private static final Duration DISPATCHER_STOP_TIMEOUT = Duration.ofSeconds(20);

    /**
     * How the runner behaves beyond the experiment config.
     *
     * @param plugins                    plugin directories
     * @param stopGrace                  how long a stopped trial has between SIGINT and SIGKILL
     * @param silenceTimeout             a trial with no request and no metric for this long is stopped; {@code null} for never
     * @param includeIntermediateResults {@code NNI_INCLUDE_INTERMEDIATE_RESULTS} for the dispatcher
     * @param sdkJar                     the SDK's jar, given to trials as {@code TUNEKIT_SDK_JAR}, or {@code null}
     * @param channels                   the trial channels served
     * @param nvidiaSmi                  where this machine's GPUs are read from
     * @param serviceOptions             options for a training service other than the local one, by name
     *                                   (see {@link org.tunekit.runner.manager.TrainingServiceContext#options})
     */
    record Options(List<Path> plugins, Duration stopGrace, Duration silenceTimeout, boolean includeIntermediateResults, Path sdkJar,
                   TrialChannels channels, org.tunekit.gpus.NvidiaSmi nvidiaSmi, java.util.Map<String, String> serviceOptions) {}

    /**
     * Which of NNI's trial channels the trials get. A trial written for NNI picks its channel from its
     * environment: NNI 3's with {@code NNI_TRIAL_COMMAND_CHANNEL} set uses HTTP, NNI 2.x's (which knows
     * only files) and NNI 3's without it use the file channel.
     */
    enum TrialChannels {
        /** Both at once: the HTTP URL in the environment and the parameter file written; each trial uses the one it speaks. */
        BOTH,
        /** NNI 3's HTTP channel only. */
        HTTP,
        /** NNI 2.x's file channel only: {@code parameter.cfg} and {@code .nni/metrics}; {@code NNI_TRIAL_COMMAND_CHANNEL} unset. */
        FILE;

        boolean http() {
            return this != FILE;
        }

        boolean file() {
            return this != HTTP;
        }
    }

    /** How a run ended. */
    enum Outcome { DONE, STOPPED, ERROR }

    private final ExperimentSpec spec;
    private final ExperimentManager manager;

    /**
     * @param directory the experiment's folder
     * @param id        the experiment's id
     */
    LocalRunner(ExperimentSpec spec, Path directory, String id, Options options, Progress progress, Clock clock) {
        this(spec, new ExperimentManager(settings(spec, options), service(spec, directory, id, options, clock), channel -> {
            AlgorithmCatalog catalog = AlgorithmCatalog.discover(options.plugins());
            DispatcherSettings ds = new DispatcherSettings(false, null, options.includeIntermediateResults(), DISPATCHER_STOP_TIMEOUT);
            return Dispatchers.create(channel, spec.algorithmConfig(), catalog, ds);
        }, progress, clock));
    }

    /** A runner of the experiment over a manager made elsewhere (the tests' simulated trials and tuners of their own). */
    LocalRunner(ExperimentSpec spec, ExperimentManager manager) {
        this.spec = spec;
        this.manager = manager;
    }

    /** The manager's limits: the config's, and the runner's options. */
    static ManagerSettings settings(ExperimentSpec spec, Options options) {
        return new ManagerSettings(spec.searchSpace(), spec.trialConcurrency(), spec.maxTrialNumber(), spec.maxExperimentDuration(),
                spec.maxTrialDuration(), options.silenceTimeout(), options.stopGrace());
    }

    /** This machine's processes, or the service of the config's platform. */
    private static TrainingService service(ExperimentSpec spec, Path directory, String id, Options options, Clock clock) {
        if ("local".equals(spec.platform())) {
            org.tunekit.gpus.GpuSettings gpus = spec.gpus().scheduling();
            return new LocalProcesses(spec, directory, options, gpus == null ? null : new LocalGpus(gpus, options.nvidiaSmi(), clock));
        }
        TrainingServiceProvider provider = TrainingServices.all().get(spec.platform());
        if (provider == null) {
            throw new ConfigException("trainingService.platform: no training service for '" + spec.platform() + "' on the class path");
        }
        try {
            return provider.create(new TrainingServiceContext(id, spec.trainingService(), spec.trialCommand(), spec.trialCodeDirectory(),
                    directory, spec.maxTrialDuration(), options.serviceOptions()));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(e.getMessage(), e);
        }
    }

    /** The error that ended the run, or {@code null}. */
    String error() {
        return manager.error();
    }

    /** Asks a run in progress to stop its trials and end (from any thread, e.g. a shutdown hook). */
    void requestStop(String reason) {
        manager.requestStop(reason);
    }

    /**
     * Finds and creates the tuner, assessor or advisor the config names, and the dispatcher over them,
     * and checks that the trials can be placed; done before the experiment is recorded, so that a config
     * naming an unknown algorithm, a wrong argument or more GPUs than the machine has leaves nothing behind.
     *
     * @throws ConfigException when the experiment cannot run as configured
     */
    void prepare() {
        try {
            manager.prepare();
        } catch (ConfigException e) {
            throw e;
        } catch (org.tunekit.runner.manager.ManagerException e) {
            // what the training service found (a machine that cannot be reached), in its own words
            throw new ConfigException(e.getMessage());
        } catch (RuntimeException | LinkageError e) {
            throw new ConfigException(org.tunekit.dispatcher.ErrorReporter.describe(e).lines().findFirst().orElse(e.toString()));
        }
    }

    /**
     * Runs the experiment to its end, recording it in {@code store}; {@link #prepare} first.
     *
     * @param resume true to continue the trials already in the store
     */
    Outcome run(ExperimentStore store, boolean resume) throws InterruptedException {
        try (Steering steering = new Steering(store, manager, spec.searchSpace(), Clock.systemUTC())) {
            steering.start(resume);
            // the manager's answers are recorded as it gives them; a request it had not taken waits for the next run
            return Outcome.valueOf(manager.run(store, resume).name());
        } catch (ManagerException e) {
            throw new RunnerException(e.getMessage(), e);
        }
    }

    static String human(Duration d) {
        return ExperimentManager.human(d);
    }
}
