package org.tunekit.tuners.hyperband;

import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.tunekit.sdk.Advisor;
import org.tunekit.sdk.AdvisorContext;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.MetricReport;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialEnd;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.sdk.stats.RankCorrelation;
import org.tunekit.tuners.hyperband.BracketSchedule.State;

/**
 * The Hyperband loop (Li et al. 2018) that {@code Hyperband} and {@code BOHB} share: brackets
 * {@code s = s_max .. 0}, each a run of successive halving that starts {@code n = ceil((s_max+1)/(s+1) · eta^s)}
 * configurations at budget {@code R · eta^-s} and promotes the best {@code 1/eta} of every rung to
 * the next rung, {@code eta} times the budget, until one rung at budget {@code R} has run. Subclasses
 * only say how a new configuration is drawn ({@link #sampleConfig}) and may learn from every result
 * ({@link #observed}).
 *
 * <h2>How trials are handed out</h2>
 * Every parameter set sent carries {@value #BUDGET_KEY}, the budget the trial should run. A promoted
 * configuration runs as a new trial (a new parameter id) with the same hyper-parameters and the larger
 * budget. Each {@code GE n} adds {@code n} to a count of requests not yet answered; trials are sent
 * while that count is positive and something is ready: first the ready trials of the oldest unfinished
 * bracket, then (with {@link ExecMode#PARALLELISM}, or when no bracket is unfinished) a new bracket. A
 * request that cannot be answered now is kept and answered as soon as a rung completes. The manager
 * cannot wait forever: a request is only kept while trials are running whose results complete a rung.
 * When all brackets {@code s_max .. 0} are done a new round starts with new configurations, as NNI's
 * Hyperband does, so {@code NO} is never sent; the experiment's own limits (trial count, duration)
 * end it.
 *
 * <h2>Results</h2>
 * A trial's result is its {@code FINAL} metric. A trial that ends without one (failed, cancelled,
 * early-stopped) ranks worst, unless {@link AdvisorContext#includeIntermediateResults()} is set and it
 * reported intermediate values: then its last intermediate value is its result. Ties rank in the order
 * the configurations were drawn. Results are keyed on the {@code parameter_id} and {@code trial_job_id}
 * of {@code ME}; an {@code EN} is matched to its trial through the job id of the trial's metrics, and
 * only when the trial sent none through the parameter id of {@code EN} (which the manager can get
 * wrong: it is ignored when a metric tied that id to another job).
 *
 * <p>A new search space ({@code SS}) applies to configurations drawn from then on; configurations
 * already in a bracket run to its end with the values they have.
 *
 * <h2>The smallest budget found from the first results</h2>
 * With {@code min_budget: "auto"} the schedule is not known at the start: configurations run at the
 * full budget {@code R} (a bracket {@code s = 0} that keeps drawing) until {@code n_startup_trials} of
 * them have succeeded. Their intermediate results give
 * {@link RankCorrelation#firstPredictiveStep}: the first step from which values rank trials as their
 * final values do. {@code s_max} becomes the largest {@code s} whose smallest budget {@code R · eta^-s}
 * is at least that step's share of the curves' length (their median) times {@code R}: with one result
 * per unit of budget, at least that step (0, no halving, when no step or only one past {@code R / eta} qualifies); the
 * start-up results count at {@code R}, and the schedule proceeds from bracket {@code s_max}.
 *
 * <h2>Checkpoints</h2>
 * One text file of lines holds the schedule position, every unfinished bracket with its current rung,
 * and the subclass's lines. Trials that were running when the checkpoint was written are handed out
 * again (with new ids) after a resume, since their results are lost with the stopped experiment.
 * The brackets' state cannot be rebuilt from the trials' results, so this advisor keeps the SPI's
 * checkpoint calls.
 *
 * <p>The parts: {@code BracketMath} (the arithmetic), {@code BracketSchedule} (the brackets and the
 * position in the schedule), {@code BracketCheckpoint} (its file), {@code RunningTrials} (the trials
 * out); this class answers the dispatcher's calls.
 */
public abstract class BracketAdvisor implements Advisor {
    /** The key of the budget in every parameter set sent, as NNI names it. */
    public static final String BUDGET_KEY = "TRIAL_BUDGET";

    private static final System.Logger LOG = System.getLogger(BracketAdvisor.class.getName());
    /** The value of {@code min_budget} that finds the smallest budget from the first results. */
    public static final String AUTO = "auto";
    /** How many successful full-budget trials the smallest budget is found from, by default. */
    public static final int DEFAULT_STARTUP_TRIALS = 10;

    /** Whether brackets may run at the same time. */
    public enum ExecMode {
        /** A new bracket starts whenever nothing of the running ones is ready (NNI's {@code parallelism}). */
        PARALLELISM,
        /** One bracket at a time (NNI's {@code serial}). */
        SERIAL
    }

    private final String checkpointName;
    private final OptimizeMode mode;
    private final BracketSchedule schedule;
    private final RunningTrials trials = new RunningTrials();
    private boolean intermediateSeen;
    private AdvisorContext context;
    private SearchSpace space;
    private int requests;

    /**
     * @param checkpointName names the algorithm in its checkpoint
     * @param mode           whether larger or smaller metrics are better
     * @param seed           the seed of every random draw
     * @param maxBudget      the largest budget, {@code R}
     * @param sMax           the largest bracket index; the smallest budget is {@code R · eta^-sMax}
     * @param eta            the halving rate, at least 2
     * @param execMode       whether brackets may run at the same time
     */
    protected BracketAdvisor(String checkpointName, OptimizeMode mode, long seed, double maxBudget, int sMax, int eta,
                             ExecMode execMode) {
        this(checkpointName, mode, seed, maxBudget, sMax, eta, execMode, 0);
    }

    /**
     * As above; with {@code startupTrials > 0} the schedule's {@code s_max} is found from that many
     * successful full-budget trials first (see the class comment), and {@code sMax} must be 0.
     */
    protected BracketAdvisor(String checkpointName, OptimizeMode mode, long seed, double maxBudget, int sMax, int eta,
                             ExecMode execMode, int startupTrials) {
        if (startupTrials != 0 && (startupTrials < RankCorrelation.MIN_CURVES || sMax != 0)) {
            throw new IllegalArgumentException("start-up trials must be 0 or at least " + RankCorrelation.MIN_CURVES
                    + " with s_max 0, got " + startupTrials + " with s_max " + sMax);
        }
        if (eta < 2) {
            throw new IllegalArgumentException("eta must be at least 2, got " + eta);
        }
        if (sMax < 0 || sMax > BracketMath.MAX_S) {
            throw new IllegalArgumentException("s_max must be in [0, 30], got " + sMax);
        }
        this.checkpointName = checkpointName;
        this.mode = mode;
        this.schedule = new BracketSchedule(checkpointName, maxBudget, sMax, eta, execMode, startupTrials, seed);
    }

    /**
     * The number of start-up trials {@code min_budget} asks for: 0 for a number, {@code n_startup_trials}
     * (default {@value #DEFAULT_STARTUP_TRIALS}, at least 3) for {@value #AUTO}.
     *
     * @throws InvalidClassArgumentException when {@code n_startup_trials} is given without {@code min_budget: "auto"}
     */
    public static int startupTrials(ClassArguments arguments) {
        boolean auto = AUTO.equals(arguments.get("min_budget"));
        if (!auto && arguments.has("n_startup_trials")) {
            throw new InvalidClassArgumentException("class argument 'n_startup_trials' applies only with min_budget \"auto\", got min_budget "
                    + arguments.get("min_budget"));
        }
        return auto ? arguments.getInt("n_startup_trials", DEFAULT_STARTUP_TRIALS, RankCorrelation.MIN_CURVES) : 0;
    }

    /** True while the smallest budget is still being found ({@code min_budget: "auto"}). */
    public final boolean settling() {
        return schedule.settling;
    }

    /** The largest {@code s} with {@code eta^s <= ratio} (within rounding), at least 0. */
    public static int largestBracket(double ratio, int eta) {
        return BracketMath.largestBracket(ratio, eta);
    }

    /** The number of configurations bracket {@code s} starts: {@code ceil((s_max+1)/(s+1) · eta^s)}. */
    public final long bracketSize(int s) {
        return schedule.bracketSize(s);
    }

    /** The number of configurations in rung {@code rung} of bracket {@code s}: {@code floor(n · eta^-rung)}. */
    public final long rungSize(int s, int rung) {
        return schedule.rungSize(s, rung);
    }

    /** The budget of budget index {@code i} (0 is the smallest, {@code s_max} is {@code R}). */
    public final double budget(int i) {
        return schedule.budget(i);
    }

    /** The largest bracket index (0 while {@link #settling()}). */
    public final int maxBracket() {
        return schedule.sMax;
    }

    /** The budget as sent in {@value #BUDGET_KEY}: a whole number as a {@code Long}, otherwise a {@code Double}. */
    public static Object budgetValue(double budget) {
        return BracketMath.budgetValue(budget);
    }

    /** The seed in use (restored from a checkpoint when one is loaded). */
    public final long seed() {
        return schedule.seed;
    }

    /** The optimisation direction. */
    protected final OptimizeMode mode() {
        return mode;
    }

    /** The current search space, or {@code null} before the first one arrives. */
    protected final SearchSpace space() {
        return space;
    }

    /**
     * Draws a new configuration (without {@value #BUDGET_KEY}) for the first rung of a bracket.
     *
     * @param space       the search space
     * @param budgetIndex the budget index it will first run at
     * @param rng         a generator seeded from the advisor's seed and the configuration's number
     */
    protected abstract Parameters sampleConfig(SearchSpace space, int budgetIndex, SplittableRandom rng);

    /**
     * Hears the intermediate results (as losses, in order) of a trial that succeeded at the full budget
     * {@code R} and reported at least two.
     */
    protected void fullBudgetCurve(double[] losses) {}

    /** Whether any trial has reported an intermediate result (since the start, or since the checkpoint was loaded). */
    protected final boolean intermediateResultsSeen() {
        return intermediateSeen;
    }

    /**
     * The step of a full-budget learning curve of {@code curveLength} values that corresponds to budget
     * index {@code i}: its budget's share of {@code R}, of the curve, at least 1. With one intermediate
     * result per unit of budget (an epoch) it is the budget itself.
     */
    public final int stepOf(int i, int curveLength) {
        return BracketMath.stepOf(budget(i), schedule.maxBudget, curveLength);
    }

    /** The median length of some curves (0 for none). */
    protected static int typicalLength(List<double[]> curves) {
        return BracketMath.typicalLength(curves);
    }

    /** Hears a result: {@code loss} (smaller is better; {@code +inf} for a failed trial) of {@code config} at a budget index. */
    protected void observed(Parameters config, int budgetIndex, double loss) {}

    /** Hears a new search space (after it is stored). */
    protected void spaceChanged(SearchSpace space) {}

    /** Appends the subclass's checkpoint lines; their first words must differ from this class's. */
    protected void writeState(List<String> lines) {}

    /** Restores the subclass's state from its checkpoint lines. */
    protected void readState(List<String> lines) throws IOException {}

    // ----------------------------------------------------------------------------- Advisor

    @Override
    public void open(AdvisorContext context) {
        this.context = context;
    }

    @Override
    public void updateSearchSpace(SearchSpace space) {
        this.space = space;
        spaceChanged(space);
        dispatch();
    }

    @Override
    public void requestTrialJobs(int count) {
        requests = (int) Math.min(Integer.MAX_VALUE, (long) requests + Math.max(0, count));
        dispatch();
    }

    @Override
    public void reportMetric(MetricReport report) {
        trials.tie(report);
        switch (report.type()) {
            case REQUEST_PARAMETER ->
                    context.sendTrialParameters(report.trialJobId(), report.parameterIndex(), context.newParameterId(), null);
            case PERIODICAL -> {
                if (report.parameterId() != null && trials.isRunning(report.parameterId()) && report.metric() != null) {
                    double loss = lossOf(report.metric().value());
                    intermediateSeen = true;
                    trials.intermediate(report.parameterId(), loss,
                            trials.get(report.parameterId()).bracket().budgetIndex() == schedule.sMax);
                }
            }
            case FINAL -> {
                if (report.parameterId() == null || !trials.isRunning(report.parameterId())) {
                    LOG.log(System.Logger.Level.DEBUG, "final metric of parameter id " + report.parameterId() + " ignored: no such running trial");
                    return;
                }
                complete(report.parameterId(), lossOf(report.metric().value()), true);
            }
        }
    }

    @Override
    public void trialEnd(TrialEnd end) {
        Long id = trials.endedBy(end);
        if (id == null) {
            return;
        }
        Double last = trials.lastIntermediate(id);
        double loss = last != null && context.includeIntermediateResults() ? last : Double.POSITIVE_INFINITY;
        complete(id, loss, false);
    }

    @Override
    public void importData(List<ImportedTrial> trials) {
        LOG.log(System.Logger.Level.INFO, checkpointName + ": " + trials.size() + " imported trials do not change the schedule");
    }

    private double lossOf(double metric) {
        double loss = mode.toLoss(metric);
        return Double.isNaN(loss) ? Double.POSITIVE_INFINITY : loss;
    }

    // ----------------------------------------------------------------------------- the loop

    private void dispatch() {
        if (space == null || context == null) {
            return;
        }
        while (requests > 0) {
            BracketSchedule.Handout h = schedule.handOut((budgetIndex, rng) -> sampleConfig(space, budgetIndex, rng));
            if (h == null) {
                return;
            }
            requests--;
            long id = context.newParameterId();
            h.entry().parameterId = id;
            h.entry().state = State.RUNNING;
            trials.start(id, h.bracket(), h.entry());
            Map<String, Object> values = new LinkedHashMap<>(h.entry().config.values());
            values.put(BUDGET_KEY, budgetValue(budget(h.bracket().budgetIndex())));
            context.sendTrial(id, Parameters.of(values));
        }
    }

    private void complete(long parameterId, double loss, boolean succeeded) {
        RunningTrials.Finished finished = trials.finish(parameterId);
        RunningTrials.Running r = finished.running();
        if (r == null) {
            return;
        }
        List<Double> curve = finished.curve();
        double[] fullCurve = succeeded && curve != null && curve.size() >= 2 && r.bracket().budgetIndex() == schedule.sMax
                ? curve.stream().mapToDouble(Double::doubleValue).toArray() : null;
        schedule.completed(r.bracket(), r.entry(), loss, fullCurve, this);
        dispatch();
    }

    // ----------------------------------------------------------------------------- checkpoint

    @Override
    public void saveCheckpoint(Path directory) throws IOException {
        List<String> lines = BracketCheckpoint.lines(checkpointName, schedule);
        writeState(lines);
        BracketCheckpoint.write(BracketCheckpoint.file(directory, checkpointName), lines);
    }

    @Override
    public void loadCheckpoint(Path directory) throws IOException {
        BracketCheckpoint.Restored restored = BracketCheckpoint.read(BracketCheckpoint.file(directory, checkpointName), checkpointName, schedule);
        if (restored == null) {
            return;
        }
        int previousSMax = schedule.sMax;
        boolean previousSettling = schedule.settling;
        schedule.sMax = restored.sMax();
        schedule.settling = restored.settling();
        try {
            readState(restored.rest());
        } catch (IOException | RuntimeException e) {
            schedule.sMax = previousSMax;
            schedule.settling = previousSettling;
            throw e;
        }
        schedule.restore(restored);
        trials.clear();
        requests = 0;
    }
}
