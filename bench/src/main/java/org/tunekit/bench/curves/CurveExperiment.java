package org.tunekit.bench.curves;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.tunekit.dispatcher.AdvisorDispatcher;
import org.tunekit.dispatcher.DispatcherSettings;
import org.tunekit.dispatcher.MsgDispatcher;
import org.tunekit.dispatcher.MsgDispatcherBase;
import org.tunekit.dispatcher.channel.CommandChannel;
import org.tunekit.runner.manager.ExperimentManager;
import org.tunekit.runner.manager.Journal;
import org.tunekit.runner.manager.ManagerListener;
import org.tunekit.runner.manager.ManagerSettings;
import org.tunekit.runner.manager.SimulatedTrials;
import org.tunekit.sdk.Advisor;
import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.Tuner;

/**
 * One run of the learning-curve benchmark: the manager's loop ({@link ExperimentManager}) with a fixed
 * number of trial slots over {@link SimulatedTrials} whose curves come from the {@link CurveSuite}, and a
 * real dispatcher in process. Each trial reports one {@code PERIODICAL} value per epoch, the running
 * trials taking turns epoch by epoch; a trial that gets {@code KI} stops at once; one that reaches its
 * last epoch (50, or its {@code TRIAL_BUDGET}) reports {@code FINAL} and ends {@code SUCCEEDED}. Freed
 * slots are asked for with {@code GE 1}, until the trial limit or the epoch budget is used; when the
 * epoch budget runs out, the running trials are cut.
 *
 * <p>The loop waits, after each command, until the dispatcher has handled it and takes its answer, so a
 * kill takes effect before the trial's next epoch and a run depends only on its seed.
 */
final class CurveExperiment {
    private static final String CANCELED = "USER_CANCELED";
    private static final String SUCCEEDED = "SUCCEEDED";

    /**
     * The limits of a run.
     *
     * @param concurrency trial slots
     * @param maxTrials   trials to start at most (0: no limit)
     * @param epochBudget epochs to spend at most (0: no limit)
     */
    record Limits(int concurrency, int maxTrials, long epochBudget) {
        Limits {
            if (concurrency < 1) {
                throw new IllegalArgumentException("concurrency must be at least 1, got " + concurrency);
            }
            if (maxTrials < 0 || epochBudget < 0) {
                throw new IllegalArgumentException("trial limit and epoch budget must not be negative, got " + maxTrials + " and " + epochBudget);
            }
            if (maxTrials == 0 && epochBudget == 0) {
                throw new IllegalArgumentException("a run needs a trial limit or an epoch budget");
            }
        }
    }

    /**
     * One trial as it ended.
     *
     * @param index       its start order in the run, from 0 (it seeds the trial's noise)
     * @param trialJobId  its trial job id
     * @param parameterId its parameter id
     * @param parameters  its parameters
     * @param budget      the epochs it was to run
     * @param epochs      the epochs it ran
     * @param end         {@code SUCCEEDED}, {@code USER_CANCELED} for a kill by the dispatcher, or {@code BUDGET_SPENT}
     * @param lastValue   the last value it reported
     * @param runEpochs   the epochs the whole run had spent when it ended
     */
    record TrialRecord(int index, String trialJobId, long parameterId, Parameters parameters, int budget, int epochs, String end,
            double lastValue, long runEpochs) {
        /** True when it ran all {@link CurveSuite#EPOCHS} epochs and succeeded. */
        boolean completedFully() {
            return SUCCEEDED.equals(end) && epochs == CurveSuite.EPOCHS;
        }

        /** True when the dispatcher had it killed. */
        boolean killed() {
            return CANCELED.equals(end);
        }
    }

    /**
     * What a run did.
     *
     * @param trials  every trial started, in the order they ended (those cut by the epoch budget last)
     * @param epochs  the epochs spent
     * @param stalled true when the run stopped because nothing ran and the dispatcher sent no trial
     */
    record RunTrace(List<TrialRecord> trials, long epochs, boolean stalled) {}

    /**
     * What the simulated trials are like.
     *
     * @param pace                       how fast their curves progress
     * @param includeIntermediateResults whether a stopped trial reaches the tuner (or what the advisor's context
     *                                   reports) with its last intermediate value ({@code NNI_INCLUDE_INTERMEDIATE_RESULTS})
     * @param perfectRungs               whether a trial that runs to a {@code TRIAL_BUDGET} below {@link CurveSuite#EPOCHS}
     *                                   reports its true (noiseless) final value as its {@code FINAL} metric instead of its
     *                                   value at that budget: an advisor then ranks every rung as it would with full
     *                                   knowledge, the bound of what any better ranking of partial trials could reach
     */
    record Simulation(SuitePace pace, boolean includeIntermediateResults, boolean perfectRungs) {
        /** Late-settling curves, stopped trials not reported, rungs ranked by their observed values. */
        static final Simulation DEFAULT = new Simulation(SuitePace.LATE_SETTLING, false, false);

        Simulation {
            java.util.Objects.requireNonNull(pace, "pace");
        }
    }

    private CurveExperiment() {}

    /** Runs a tuner with an optional assessor ({@code null} for none) through {@link MsgDispatcher}, with {@link Simulation#DEFAULT}. */
    static RunTrace runTuner(Tuner tuner, Assessor assessor, long seed, Limits limits) throws InterruptedException {
        return runTuner(tuner, assessor, seed, limits, Simulation.DEFAULT);
    }

    /** As above, with simulated trials like {@code simulation}. */
    static RunTrace runTuner(Tuner tuner, Assessor assessor, long seed, Limits limits, Simulation simulation)
            throws InterruptedException {
        return run(channel -> new MsgDispatcher(channel, tuner, assessor, settings(simulation.includeIntermediateResults())), seed, limits,
                simulation);
    }

    /** Runs an advisor through {@link AdvisorDispatcher}, with {@link Simulation#DEFAULT}. */
    static RunTrace runAdvisor(Advisor advisor, long seed, Limits limits) throws InterruptedException {
        return runAdvisor(advisor, seed, limits, Simulation.DEFAULT);
    }

    /** As above, with simulated trials like {@code simulation}. */
    static RunTrace runAdvisor(Advisor advisor, long seed, Limits limits, Simulation simulation) throws InterruptedException {
        return run(channel -> new AdvisorDispatcher(channel, advisor, settings(simulation.includeIntermediateResults())), seed, limits,
                simulation);
    }

    private static DispatcherSettings settings(boolean includeIntermediateResults) {
        return new DispatcherSettings(false, null, includeIntermediateResults, Duration.ofSeconds(60));
    }

    private static RunTrace run(java.util.function.Function<CommandChannel, MsgDispatcherBase> dispatcher, long seed, Limits limits,
                                Simulation simulation) throws InterruptedException {
        SimulatedTrials trials = new SimulatedTrials((launch, parameters) -> curve(launch.sequence(), parameters, seed, simulation),
                limits.epochBudget());
        ManagerSettings settings = new ManagerSettings(CurveSuite.spaceDefinition(), limits.concurrency(), limits.maxTrials(), null, null,
                null, Duration.ZERO);
        ExperimentManager manager = new ExperimentManager(settings, trials, dispatcher, ManagerListener.SILENT, Clock.systemUTC());
        trials.onBudgetSpent(() -> manager.requestStop("the epoch budget is spent"));
        manager.prepare();
        if (manager.run(Journal.none("curves"), false) == ExperimentManager.Outcome.ERROR) {
            throw new IllegalStateException(manager.error());
        }
        List<TrialRecord> records = new ArrayList<>();
        for (SimulatedTrials.Ended t : trials.ended()) {
            String end = switch (t.end()) {
                case COMPLETED -> SUCCEEDED;
                case STOPPED -> CANCELED;
                case BUDGET_SPENT -> "BUDGET_SPENT";
            };
            records.add(new TrialRecord(t.launch().sequence(), t.launch().trialJobId(), t.launch().parameterId(), t.parameters(), t.planned(),
                    t.epochs(), end, t.lastValue(), t.runEpochs()));
        }
        boolean budgetLeft = limits.epochBudget() == 0 || trials.epochs() < limits.epochBudget();
        boolean trialsLeft = limits.maxTrials() == 0 || records.size() < limits.maxTrials();
        return new RunTrace(List.copyOf(records), trials.epochs(), manager.stalled() && budgetLeft && trialsLeft);
    }

    /** A trial of the suite: its curve's observed values, one per epoch up to its budget; a partial trial's final value as the simulation says. */
    private static SimulatedTrials.Curve curve(int index, Parameters parameters, long seed, Simulation simulation) {
        CurveSuite.Curve curve = CurveSuite.curveOf(parameters, simulation.pace());
        int budget = CurveSuite.epochsOf(parameters);
        return new SimulatedTrials.Curve() {
            @Override
            public int epochs() {
                return budget;
            }

            @Override
            public double valueAt(int epoch) {
                return curve.observed(seed, index, epoch);
            }

            @Override
            public double finalValue(double last) {
                return budget < CurveSuite.EPOCHS && simulation.perfectRungs() ? curve.mean(CurveSuite.EPOCHS) : last;
            }
        };
    }

    /** The trial job id of the {@code index}-th trial: five characters, as a manager gives. */
    static String trialJobId(int index) {
        return ExperimentManager.sequentialJobId(index);
    }
}
