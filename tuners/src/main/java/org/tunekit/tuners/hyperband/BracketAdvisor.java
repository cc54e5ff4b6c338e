package org.tunekit.tuners.hyperband;

import org.tunekit.tuners.common.ValueText;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.tunekit.sdk.Advisor;
import org.tunekit.sdk.AdvisorContext;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.MetricReport;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialEnd;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.sdk.stats.RankCorrelation;

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
 */
public abstract class BracketAdvisor implements Advisor {
    /** The key of the budget in every parameter set sent, as NNI names it. */
    public static final String BUDGET_KEY = "TRIAL_BUDGET";

    private static final System.Logger LOG = System.getLogger(BracketAdvisor.class.getName());
    private static final int FORMAT = 2;
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
    private final double maxBudget;
    private int sMax;
    private final int eta;
    private final int startupTrials;
    /** True while the smallest budget is being found. */
    private boolean settling;
    private final List<double[]> settlingCurves = new ArrayList<>();
    /** The intermediate results, as losses, of the running trials at the full budget. */
    private final Map<Long, List<Double>> partialCurves = new HashMap<>();
    private boolean intermediateSeen;
    private final ExecMode execMode;
    private long seed;

    private AdvisorContext context;
    private SearchSpace space;
    private long draws;
    private long round;
    private int nextS;
    private int requests;
    private final List<Bracket> brackets = new ArrayList<>();
    private final Map<Long, Running> running = new LinkedHashMap<>();
    private final Map<String, Long> parameterIdOfJob = new HashMap<>();
    private final Map<Long, String> jobOfParameterId = new HashMap<>();
    private final Map<Long, Double> lastIntermediateLoss = new HashMap<>();

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
        if (sMax < 0 || sMax > 30) {
            throw new IllegalArgumentException("s_max must be in [0, 30], got " + sMax);
        }
        this.checkpointName = checkpointName;
        this.mode = mode;
        this.seed = seed;
        this.maxBudget = maxBudget;
        this.sMax = sMax;
        this.eta = eta;
        this.execMode = execMode;
        this.nextS = sMax;
        this.startupTrials = startupTrials;
        if (startupTrials > 0) {
            settling = true;
            Bracket startup = new Bracket(0, 0);
            startup.startup = true;
            startup.toSample = Long.MAX_VALUE;
            brackets.add(startup);
        }
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
        return settling;
    }

    /** The largest {@code s} with {@code eta^s <= ratio} (within rounding), at least 0. */
    public static int largestBracket(double ratio, int eta) {
        int s = 0;
        double p = eta;
        while (p <= ratio * (1 + 1e-9) && s < 30) {
            s++;
            p *= eta;
        }
        return s;
    }

    /** The number of configurations bracket {@code s} starts: {@code ceil((s_max+1)/(s+1) · eta^s)}. */
    public final long bracketSize(int s) {
        long etaPow = pow(eta, s);
        return ((long) (sMax + 1) * etaPow + s) / (s + 1);
    }

    /** The number of configurations in rung {@code rung} of bracket {@code s}: {@code floor(n · eta^-rung)}. */
    public final long rungSize(int s, int rung) {
        return bracketSize(s) / pow(eta, rung);
    }

    /** The budget of budget index {@code i} (0 is the smallest, {@code s_max} is {@code R}). */
    public final double budget(int i) {
        return maxBudget / Math.pow(eta, sMax - i);
    }

    /** The largest bracket index (0 while {@link #settling()}). */
    public final int maxBracket() {
        return sMax;
    }

    /** The budget as sent in {@value #BUDGET_KEY}: a whole number as a {@code Long}, otherwise a {@code Double}. */
    public static Object budgetValue(double budget) {
        double r = Math.rint(budget);
        if (Math.abs(budget - r) <= 1e-9 * Math.max(1, Math.abs(budget)) && Math.abs(r) < 9e15) {
            return (long) r;
        }
        return budget;
    }

    /** The seed in use (restored from a checkpoint when one is loaded). */
    public final long seed() {
        return seed;
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
        return (int) Math.max(1, Math.round(budget(i) / maxBudget * curveLength));
    }

    /** The median length of some curves (0 for none). */
    protected static int typicalLength(List<double[]> curves) {
        int[] lengths = curves.stream().mapToInt(c -> c.length).sorted().toArray();
        return lengths.length == 0 ? 0 : lengths[lengths.length / 2];
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
        if (report.trialJobId() != null && report.parameterId() != null
                && report.type() != MetricReport.Type.REQUEST_PARAMETER) {
            parameterIdOfJob.put(report.trialJobId(), report.parameterId());
            if (running.containsKey(report.parameterId())) {
                jobOfParameterId.put(report.parameterId(), report.trialJobId());
            }
        }
        switch (report.type()) {
            case REQUEST_PARAMETER ->
                    context.sendTrialParameters(report.trialJobId(), report.parameterIndex(), context.newParameterId(), null);
            case PERIODICAL -> {
                if (report.parameterId() != null && running.containsKey(report.parameterId()) && report.metric() != null) {
                    double loss = lossOf(report.metric().value());
                    lastIntermediateLoss.put(report.parameterId(), loss);
                    intermediateSeen = true;
                    if (running.get(report.parameterId()).bracket.budgetIndex() == sMax) {
                        partialCurves.computeIfAbsent(report.parameterId(), k -> new ArrayList<>()).add(loss);
                    }
                }
            }
            case FINAL -> {
                if (report.parameterId() == null || !running.containsKey(report.parameterId())) {
                    LOG.log(System.Logger.Level.DEBUG, "final metric of parameter id " + report.parameterId() + " ignored: no such running trial");
                    return;
                }
                complete(report.parameterId(), lossOf(report.metric().value()), true);
            }
        }
    }

    @Override
    public void trialEnd(TrialEnd end) {
        Long id = parameterIdOfJob.remove(end.trialJobId());
        if (id == null) {
            // the manager's record of the parameters can name another trial's: trust it only when no
            // metric has tied that id to a different job
            id = end.parameterId();
            if (id != null && jobOfParameterId.containsKey(id) && !jobOfParameterId.get(id).equals(end.trialJobId())) {
                LOG.log(System.Logger.Level.WARNING, "end of trial " + end.trialJobId() + " ignored: its parameter id " + id
                        + " belongs to trial " + jobOfParameterId.get(id));
                return;
            }
        }
        if (id == null || !running.containsKey(id)) {
            return;
        }
        Double last = lastIntermediateLoss.get(id);
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
            Handout h = handOut();
            if (h == null) {
                return;
            }
            requests--;
            long id = context.newParameterId();
            h.entry.parameterId = id;
            h.entry.state = State.RUNNING;
            running.put(id, new Running(h.bracket, h.entry));
            Map<String, Object> values = new LinkedHashMap<>(h.entry.config.values());
            values.put(BUDGET_KEY, budgetValue(budget(h.bracket.budgetIndex())));
            context.sendTrial(id, Parameters.of(values));
        }
    }

    private record Handout(Bracket bracket, Entry entry) {}

    private Handout handOut() {
        for (Bracket b : brackets) {
            Entry e = nextReady(b);
            if (e != null) {
                return new Handout(b, e);
            }
        }
        if (execMode == ExecMode.PARALLELISM || brackets.isEmpty()) {
            Bracket b = new Bracket(round, nextS);
            b.toSample = bracketSize(nextS);
            if (nextS == 0) {
                nextS = sMax;
                round++;
            } else {
                nextS--;
            }
            brackets.add(b);
            return new Handout(b, nextReady(b));
        }
        return null;
    }

    private Entry nextReady(Bracket b) {
        for (Entry e : b.entries) {
            if (e.state == State.READY) {
                return e;
            }
        }
        if (b.toSample > 0) {
            b.toSample--;
            long number = draws++;
            Parameters config = sampleConfig(space, b.budgetIndex(), rngFor(number));
            Entry e = new Entry(number, config);
            b.entries.add(e);
            return e;
        }
        return null;
    }

    private SplittableRandom rngFor(long number) {
        return new SplittableRandom(mix(seed ^ mix(number + 0x632BE59BD9B4E019L)));
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
        z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
        return z ^ (z >>> 33);
    }

    private void complete(long parameterId, double loss, boolean succeeded) {
        Running r = running.remove(parameterId);
        lastIntermediateLoss.remove(parameterId);
        jobOfParameterId.remove(parameterId);
        List<Double> curve = partialCurves.remove(parameterId);
        if (r == null) {
            return;
        }
        r.entry.state = State.DONE;
        r.entry.loss = loss;
        double[] fullCurve = succeeded && curve != null && curve.size() >= 2 && r.bracket.budgetIndex() == sMax
                ? curve.stream().mapToDouble(Double::doubleValue).toArray() : null;
        if (fullCurve != null) {
            fullBudgetCurve(fullCurve);
        }
        if (settling && r.bracket.startup) {
            if (fullCurve != null) {
                settlingCurves.add(fullCurve);
            }
            if (settlingCurves.size() >= startupTrials) {
                settle(r.bracket);
            }
        } else {
            observed(r.entry.config, r.bracket.budgetIndex(), loss);
        }
        advance(r.bracket);
        dispatch();
    }

    /** Fixes {@code s_max} from the start-up curves; the start-up results count at {@code R} from now on. */
    private void settle(Bracket startup) {
        int step = RankCorrelation.firstPredictiveStep(settlingCurves);
        sMax = step == Integer.MAX_VALUE ? 0 : largestBracket((double) typicalLength(settlingCurves) / step, eta);
        nextS = sMax;
        settling = false;
        startup.toSample = 0;
        LOG.log(System.Logger.Level.INFO, checkpointName + ": the values of " + settlingCurves.size() + " full-budget trials rank them "
                + (step == Integer.MAX_VALUE ? "at no step" : "from step " + step) + " as their final values do: s_max " + sMax
                + ", smallest budget " + budget(0));
        settlingCurves.clear();
        for (Entry e : startup.entries) {
            if (e.state == State.DONE) {
                observed(e.config, sMax, e.loss);
            }
        }
    }

    /** Promotes the best of a complete rung, or retires a finished bracket. */
    private void advance(Bracket b) {
        if (b.toSample > 0 || !b.startup && b.entries.size() < rungSize(b.s, b.rung)
                || b.entries.stream().anyMatch(e -> e.state != State.DONE)) {
            return;
        }
        if (b.rung == b.s) {
            brackets.remove(b);
            return;
        }
        long keep = rungSize(b.s, b.rung + 1);
        List<Entry> best = b.entries.stream()
                .sorted(Comparator.comparingDouble((Entry e) -> e.loss).thenComparingLong(e -> e.number))
                .limit(keep).toList();
        b.entries.clear();
        for (Entry e : best) {
            b.entries.add(new Entry(e.number, e.config));
        }
        b.rung++;
    }

    private static long pow(long base, int exponent) {
        long p = 1;
        for (int i = 0; i < exponent; i++) {
            p = Math.multiplyExact(p, base);
        }
        return p;
    }

    private enum State { READY, RUNNING, DONE }

    private static final class Entry {
        final long number;
        final Parameters config;
        State state = State.READY;
        long parameterId = -1;
        double loss = Double.NaN;

        Entry(long number, Parameters config) {
            this.number = number;
            this.config = config;
        }
    }

    private final class Bracket {
        final long round;
        final int s;
        int rung;
        long toSample;
        /** The full-budget bracket of {@code min_budget: "auto"} that runs until the schedule is found. */
        boolean startup;
        final List<Entry> entries = new ArrayList<>();

        Bracket(long round, int s) {
            this.round = round;
            this.s = s;
        }

        int budgetIndex() {
            return sMax - s + rung;
        }
    }

    private record Running(Bracket bracket, Entry entry) {}

    // ----------------------------------------------------------------------------- checkpoint

    private Path stateFile(Path directory) {
        return directory.resolve(checkpointName.toLowerCase(java.util.Locale.ROOT) + "-state.txt");
    }

    @Override
    public void saveCheckpoint(Path directory) throws IOException {
        List<String> lines = new ArrayList<>();
        lines.add(checkpointName + " " + FORMAT);
        lines.add("schedule " + sMax + " " + eta + " " + Double.toHexString(maxBudget));
        lines.add("position " + seed + " " + draws + " " + round + " " + nextS);
        if (settling) {
            lines.add("settling " + startupTrials);
            for (double[] c : settlingCurves) {
                StringBuilder sb = new StringBuilder("curve");
                for (double v : c) {
                    sb.append(' ').append(Double.toHexString(v));
                }
                lines.add(sb.toString());
            }
        }
        for (Bracket b : brackets) {
            lines.add("bracket " + b.round + " " + b.s + " " + b.rung + " " + b.toSample + (b.startup ? " startup" : ""));
            for (Entry e : b.entries) {
                // a running trial's result dies with the experiment: it is handed out again on resume
                boolean done = e.state == State.DONE;
                lines.add("entry " + e.number + " " + (done ? "D" : "R") + " " + Double.toHexString(done ? e.loss : Double.NaN)
                        + " " + ValueText.write(e.config.values()));
            }
        }
        writeState(lines);
        try (BufferedWriter w = new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(stateFile(directory)), StandardCharsets.UTF_8))) {
            for (String line : lines) {
                w.write(line);
                w.write('\n');
            }
        }
    }

    @Override
    public void loadCheckpoint(Path directory) throws IOException {
        Path file = stateFile(directory);
        if (!Files.exists(file)) {
            return;
        }
        List<String> lines = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (!line.isBlank()) {
                    lines.add(line);
                }
            }
        }
        if (lines.isEmpty() || !lines.get(0).equals(checkpointName + " " + FORMAT) && !lines.get(0).equals(checkpointName + " 1")) {
            throw new IOException(file + ": line 1 must be \"" + checkpointName + " " + FORMAT + "\" (or format 1), got "
                    + (lines.isEmpty() ? "nothing" : "\"" + lines.get(0) + "\""));
        }
        List<Bracket> restored = new ArrayList<>();
        List<String> rest = new ArrayList<>();
        List<double[]> curves = new ArrayList<>();
        boolean restoredSettling = false;
        int restoredSMax = sMax;
        Bracket current = null;
        long[] position = null;
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i);
            String[] w = line.split(" ");
            try {
                switch (w[0]) {
                    case "schedule" -> {
                        restoredSMax = Integer.parseInt(w[1]);
                        // with min_budget "auto" s_max is whatever the start-up trials found
                        boolean sMaxMatches = startupTrials > 0 ? restoredSMax >= 0 && restoredSMax <= 30 : restoredSMax == sMax;
                        if (!sMaxMatches || Integer.parseInt(w[2]) != eta
                                || Double.compare(Double.parseDouble(w[3]), maxBudget) != 0) {
                            throw new IOException(file + " line " + (i + 1) + ": the checkpoint's schedule (s_max " + w[1] + ", eta "
                                    + w[2] + ", max budget " + Double.parseDouble(w[3]) + ") differs from the class arguments' (s_max "
                                    + sMax + ", eta " + eta + ", max budget " + maxBudget + ")");
                        }
                    }
                    case "position" -> position = new long[] {Long.parseLong(w[1]), Long.parseLong(w[2]),
                            Long.parseLong(w[3]), Integer.parseInt(w[4])};
                    case "settling" -> {
                        if (startupTrials == 0) {
                            throw new IOException(file + " line " + (i + 1) + ": the checkpoint is still finding the smallest budget, "
                                    + "but min_budget is not \"auto\"");
                        }
                        restoredSettling = true;
                    }
                    case "curve" -> {
                        double[] c = new double[w.length - 1];
                        for (int k = 1; k < w.length; k++) {
                            c[k - 1] = Double.parseDouble(w[k]);
                        }
                        curves.add(c);
                    }
                    case "bracket" -> {
                        current = new Bracket(Long.parseLong(w[1]), Integer.parseInt(w[2]));
                        current.rung = Integer.parseInt(w[3]);
                        current.toSample = Long.parseLong(w[4]);
                        current.startup = w.length > 5 && w[5].equals("startup");
                        if (current.s < 0 || current.s > restoredSMax || current.rung < 0 || current.rung > current.s) {
                            throw new IOException(file + " line " + (i + 1) + ": bracket " + current.s + " rung " + current.rung + " is outside the schedule");
                        }
                        restored.add(current);
                    }
                    case "entry" -> {
                        if (current == null) {
                            throw new IOException(file + " line " + (i + 1) + ": entry before any bracket");
                        }
                        @SuppressWarnings("unchecked")
                        Map<String, Object> values = (Map<String, Object>) ValueText.read(w[4]);
                        Entry e = new Entry(Long.parseLong(w[1]), Parameters.of(values));
                        if (w[2].equals("D")) {
                            e.state = State.DONE;
                            e.loss = Double.parseDouble(w[3]);
                        }
                        current.entries.add(e);
                    }
                    default -> rest.add(line);
                }
            } catch (RuntimeException e) {
                throw new IOException(file + " line " + (i + 1) + " is malformed: \"" + line + "\" (" + e.getMessage() + ")", e);
            }
        }
        if (position == null) {
            throw new IOException(file + ": no \"position\" line");
        }
        if (!restoredSettling && startupTrials > 0 && restored.stream().anyMatch(b -> b.startup && b.toSample > 0)) {
            throw new IOException(file + ": a start-up bracket is still drawing but there is no \"settling\" line");
        }
        int previousSMax = sMax;
        boolean previousSettling = settling;
        sMax = restoredSMax;
        settling = restoredSettling;
        try {
            readState(rest);
        } catch (IOException | RuntimeException e) {
            sMax = previousSMax;
            settling = previousSettling;
            throw e;
        }
        settlingCurves.clear();
        settlingCurves.addAll(curves);
        partialCurves.clear();
        seed = position[0];
        draws = position[1];
        round = position[2];
        nextS = (int) position[3];
        brackets.clear();
        brackets.addAll(restored);
        running.clear();
        parameterIdOfJob.clear();
        jobOfParameterId.clear();
        lastIntermediateLoss.clear();
        requests = 0;
        for (Iterator<Bracket> it = brackets.iterator(); it.hasNext(); ) {
            Bracket b = it.next();
            if (b.toSample == 0 && b.rung == b.s && b.entries.stream().allMatch(e -> e.state == State.DONE)) {
                it.remove();
            }
        }
    }
}
