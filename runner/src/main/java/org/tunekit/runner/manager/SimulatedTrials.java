package org.tunekit.runner.manager;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tunekit.dispatcher.protocol.JsonCodec;
import org.tunekit.sdk.Parameters;

/**
 * Trials without processes, for demos and benchmarks: each follows a {@link Curve} that a
 * {@link Model} makes from its parameters, and reports one intermediate result per epoch and its final
 * result after the last. Every poll of the manager moves each running trial one epoch, in the order
 * they started, and the manager runs in {@linkplain #lockStep lock step}: a run depends on its seeds
 * alone. A trial that is stopped ends at once.
 *
 * <p>An epoch budget, when set, ends the experiment once that many epochs have been run: the trials
 * still running end as cut by the budget, and {@link #onBudgetSpent} is told (to stop the manager).
 */
public final class SimulatedTrials implements TrainingService {
    /** What one simulated trial reports. */
    public interface Curve {
        /** How many epochs it runs when nothing stops it. */
        int epochs();

        /** Its intermediate result after {@code epoch} (from 1); called once per epoch, in order. */
        double valueAt(int epoch);

        /** Its final result, given its last intermediate one. */
        default double finalValue(double last) {
            return last;
        }

        /** A curve of {@code epochs} epochs whose value at each is {@code valueAt(epoch)}, the last one its final result. */
        static Curve of(int epochs, java.util.function.IntToDoubleFunction valueAt) {
            return new Curve() {
                @Override
                public int epochs() {
                    return epochs;
                }

                @Override
                public double valueAt(int epoch) {
                    return valueAt.applyAsDouble(epoch);
                }
            };
        }
    }

    /** Makes a trial's curve from its launch (whose sequence may seed its noise) and its parameters. */
    @FunctionalInterface
    public interface Model {
        Curve curve(TrialLaunch launch, Parameters parameters);
    }

    /** How a simulated trial ended. */
    public enum End { COMPLETED, STOPPED, BUDGET_SPENT }

    /**
     * One trial as it ended.
     *
     * @param launch     what started it
     * @param parameters its parameters
     * @param planned    the epochs it was to run
     * @param epochs     the epochs it ran
     * @param end        how it ended
     * @param lastValue  the last value it reported, or NaN
     * @param runEpochs  the epochs the whole run had spent when it ended
     */
    public record Ended(TrialLaunch launch, Parameters parameters, int planned, int epochs, End end, double lastValue, long runEpochs) {}

    private static final class Running {
        final TrialLaunch launch;
        final Parameters parameters;
        final Curve curve;
        int epoch;
        double last = Double.NaN;

        Running(TrialLaunch launch, Parameters parameters, Curve curve) {
            this.launch = launch;
            this.parameters = parameters;
            this.curve = curve;
        }
    }

    private final Model model;
    private final long epochBudget;
    private final Map<String, Running> running = new LinkedHashMap<>();
    private final List<Ended> ended = new ArrayList<>();
    private TrialEvents events;
    private long epochs;
    private boolean budgetSpent;
    private Runnable onBudgetSpent = () -> { };

    /**
     * @param model       makes each trial's curve
     * @param epochBudget epochs to run at most in the whole experiment, or 0 for no limit
     */
    public SimulatedTrials(Model model, long epochBudget) {
        if (epochBudget < 0) {
            throw new IllegalArgumentException("the epoch budget must not be negative, got " + epochBudget);
        }
        this.model = model;
        this.epochBudget = epochBudget;
    }

    /** What to do once the epoch budget is spent (typically: stop the manager). */
    public SimulatedTrials onBudgetSpent(Runnable action) {
        this.onBudgetSpent = action;
        return this;
    }

    /** The epochs run so far. */
    public long epochs() {
        return epochs;
    }

    /** Every trial that ended, in the order they ended. */
    public List<Ended> ended() {
        return List.copyOf(ended);
    }

    @Override
    public String describe() {
        return "as simulated trials";
    }

    @Override
    public void open(TrialEvents events) {
        this.events = events;
    }

    @Override
    public Placement start(TrialLaunch trial) {
        Parameters p = Parameters.of(ExperimentManager.parametersOf(trial.parameterRecord()));
        running.put(trial.trialJobId(), new Running(trial, p, model.curve(trial, p)));
        return new Placement(null, null, null);
    }

    @Override
    public boolean canStart() {
        return epochBudget == 0 || epochs < epochBudget;
    }

    @Override
    public void sendParameters(String trialJobId, String parameterRecord, int index, boolean byFile) {
        // a simulated trial has its parameters from the start and asks for no more
    }

    @Override
    public void stop(String trialJobId, Duration grace) {
        Running t = running.get(trialJobId);
        if (t != null) {
            end(t, budgetSpent ? End.BUDGET_SPENT : End.STOPPED);
            events.exited(trialJobId, 130);
        }
    }

    @Override
    public void poll() {
        for (Running t : List.copyOf(running.values())) {
            if (!running.containsKey(t.launch.trialJobId())) {
                continue;
            }
            if (epochBudget > 0 && epochs >= epochBudget) {
                if (!budgetSpent) {
                    budgetSpent = true;
                    onBudgetSpent.run();
                }
                return;
            }
            int epoch = ++t.epoch;
            epochs++;
            t.last = t.curve.valueAt(epoch);
            report(t, "PERIODICAL", epoch - 1, t.last);
            if (running.containsKey(t.launch.trialJobId()) && epoch >= t.curve.epochs()) {
                report(t, "FINAL", 0, t.curve.finalValue(t.last));
                end(t, End.COMPLETED);
                events.exited(t.launch.trialJobId(), 0);
            }
        }
    }

    private void report(Running t, String type, int sequence, double value) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("parameter_id", t.launch.parameterId());
        m.put("trial_job_id", t.launch.trialJobId());
        m.put("type", type);
        m.put("sequence", (long) sequence);
        m.put("value", Double.toString(value));
        events.metric(t.launch.trialJobId(), JsonCodec.write(m), MetricStream.LIVE);
    }

    private void end(Running t, End how) {
        running.remove(t.launch.trialJobId());
        ended.add(new Ended(t.launch, t.parameters, t.curve.epochs(), t.epoch, how, t.last, epochs));
    }

    @Override
    public Duration pollInterval() {
        return Duration.ZERO;
    }

    @Override
    public boolean lockStep() {
        return true;
    }

    @Override
    public Reattached reattach(StoredTrial trial) {
        return Reattached.GONE;
    }

    @Override
    public void close() {
        for (Running t : List.copyOf(running.values())) {
            end(t, budgetSpent ? End.BUDGET_SPENT : End.STOPPED);
        }
    }
}
