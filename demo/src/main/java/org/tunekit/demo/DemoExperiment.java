package org.tunekit.demo;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.tunekit.dispatcher.DispatcherSettings;
import org.tunekit.dispatcher.Dispatchers;
import org.tunekit.dispatcher.plugin.AlgorithmCatalog;
import org.tunekit.dispatcher.plugin.ExperimentConfig;
import org.tunekit.runner.manager.ExperimentManager;
import org.tunekit.runner.manager.Journal;
import org.tunekit.runner.manager.ManagerListener;
import org.tunekit.runner.manager.ManagerSettings;
import org.tunekit.runner.manager.SimulatedTrials;
import org.tunekit.runner.results.TrialStatus;
import org.tunekit.sdk.Parameters;

/**
 * {@code tunekit demo}'s experiment: the manager's loop ({@link ExperimentManager}) over
 * {@link SimulatedTrials}, with the dispatcher of the chosen tuner and assessor. Each trial follows a
 * learning curve that converges to the objective's value at its parameters, one intermediate result
 * per epoch; the assessor's {@code KI} stops it. The manager runs in lock step with the dispatcher, so
 * a run depends on its seed alone.
 */
final class DemoExperiment {
    /**
     * What to run.
     *
     * @param objective   the function the trials evaluate
     * @param tuner       the config's tuner entry
     * @param assessor    the config's assessor entry, or {@code null}
     * @param trials      how many trials to run
     * @param concurrency how many run at once
     * @param epochs      intermediate results per trial
     * @param seed        seeds the trials' simulated noise
     * @param plugins     plugin directories for the dispatcher
     */
    record Settings(TestFunction objective, Map<String, Object> tuner, Map<String, Object> assessor, int trials,
                    int concurrency, int epochs, long seed, List<Path> plugins) {}

    /**
     * What happened.
     *
     * @param completed   trials that ran to the end
     * @param stopped     trials stopped early by the assessor
     * @param epochsRun   epochs the trials ran
     * @param epochsFull  epochs they would have run without early stopping
     * @param best        the best trial's parameters, or {@code null} if none finished
     * @param bestValue   the best final value
     * @param bestTrial   the best trial's job id
     * @param elapsed     wall time of the experiment
     */
    record Summary(int completed, int stopped, long epochsRun, long epochsFull, Parameters best, double bestValue,
                   String bestTrial, Duration elapsed) {}

    private DemoExperiment() {}

    /** Runs the experiment, printing a line per finished trial to {@code progress}. */
    static Summary run(Settings settings, PrintStream progress) throws InterruptedException {
        long start = System.nanoTime();
        SimulatedTrials trials = new SimulatedTrials((launch, parameters) -> curve(settings, launch.sequence(), parameters), 0);
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("tuner", settings.tuner());
        if (settings.assessor() != null) {
            config.put("assessor", settings.assessor());
        }
        ManagerSettings limits = new ManagerSettings(settings.objective().space(), settings.concurrency(), settings.trials(), null, null, null,
                Duration.ZERO);
        Lines lines = new Lines(settings, progress);
        ExperimentManager manager = new ExperimentManager(limits, trials, channel -> Dispatchers.create(channel,
                ExperimentConfig.fromConfig(config), AlgorithmCatalog.discover(settings.plugins()),
                new DispatcherSettings(false, null, false, Duration.ofSeconds(60))), lines, Clock.systemUTC());
        manager.prepare();
        ExperimentManager.Outcome outcome = manager.run(Journal.none("demo"), false);
        if (outcome == ExperimentManager.Outcome.ERROR) {
            throw new IllegalStateException(manager.error());
        }
        int completed = 0;
        int stopped = 0;
        Parameters best = null;
        double bestValue = Double.POSITIVE_INFINITY;
        String bestTrial = null;
        for (SimulatedTrials.Ended t : trials.ended()) {
            if (t.end() == SimulatedTrials.End.COMPLETED) {
                completed++;
                if (t.lastValue() < bestValue) {
                    bestValue = t.lastValue();
                    best = t.parameters();
                    bestTrial = t.launch().trialJobId();
                }
            } else {
                stopped++;
            }
        }
        return new Summary(completed, stopped, trials.epochs(), (long) (completed + stopped) * settings.epochs(), best, bestValue, bestTrial,
                Duration.ofNanos(System.nanoTime() - start));
    }

    /** A trial's learning curve: converges to the objective's value at its parameters, at its own speed, with a little noise. */
    private static SimulatedTrials.Curve curve(Settings settings, int index, Parameters parameters) {
        double target = settings.objective().evaluate(parameters);
        SplittableRandom noise = new SplittableRandom(settings.seed() * 1_000_003L + index);
        double speed = 0.7 + 0.6 * noise.nextDouble();
        double scale = 1 + Math.abs(target);
        return new SimulatedTrials.Curve() {
            @Override
            public int epochs() {
                return settings.epochs();
            }

            @Override
            public double valueAt(int epoch) {
                double mean = target + scale * Math.exp(-6.0 * speed * epoch / settings.epochs());
                return mean + 0.01 * scale * noise.nextGaussian();
            }
        };
    }

    /** A line per ended trial: its value and the best so far, or the epoch it was stopped at. */
    private static final class Lines implements ManagerListener {
        private final Settings settings;
        private final PrintStream out;
        private final Map<String, Integer> epochs = new LinkedHashMap<>();
        private final Map<String, Double> finals = new LinkedHashMap<>();
        private double best = Double.POSITIVE_INFINITY;
        private int ended;

        Lines(Settings settings, PrintStream out) {
            this.settings = settings;
            this.out = out;
        }

        @Override
        public void intermediateResult(String trialJobId, double value) {
            epochs.merge(trialJobId, 1, Integer::sum);
        }

        @Override
        public void finalResult(String trialJobId, double value) {
            finals.put(trialJobId, value);
        }

        @Override
        public void trialEnded(String trialJobId, int sequence, TrialStatus status, String message, Duration took) {
            ended++;
            Double v = finals.remove(trialJobId);
            int ran = epochs.getOrDefault(trialJobId, 0);
            epochs.remove(trialJobId);
            if (status == TrialStatus.SUCCEEDED && v != null) {
                best = Math.min(best, v);
                out.printf("  [%3d/%d] %s value %-12.6g best %.6g%n", ended, settings.trials(), trialJobId, v, best);
            } else {
                out.printf("  [%3d/%d] %s stopped early at epoch %d/%d%n", ended, settings.trials(), trialJobId, ran, settings.epochs());
            }
        }

        @Override
        public void message(String text) {
            out.println("  " + text);
        }
    }
}
