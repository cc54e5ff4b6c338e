package org.tunekit.study;

import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.objectives.Objective;
import org.tunekit.sdk.objectives.Pareto;
import org.tunekit.sdk.space.SearchSpace;

/**
 * A hyperparameter search run inside this program: a tuner suggests parameters, the program evaluates them and
 * tells the results, and an optional assessor prunes trials whose intermediate values do not promise well.
 *
 * <pre>{@code
 * try (Study study = Study.named("svm")
 *         .space(SearchSpace.builder().loguniform("C", 1e-3, 1e3).loguniform("gamma", 1e-4, 1).build())
 *         .tuner("TPE").seed(7).minimize()
 *         .open()) {
 *     study.optimize(trial -> crossValidatedError(trial.getDouble("C"), trial.getDouble("gamma")), 100);
 *     TrialRecord best = study.bestTrial();
 * }
 * }</pre>
 *
 * <p>The same tuner with the same seed and the same results makes the same suggestions as under {@code tunekit run}
 * or NNI's manager: a trial's parameter id is the dispatcher's, and results reach the tuner as the dispatcher hands
 * them. Loading a stored study replays its results into a new tuner.
 *
 * <p>Several workers (threads of {@link #optimize}, and studies of the same name opened in other programs on a
 * shared {@link Storage}) work on one study: every parameter set is handed out once, every result is kept, and each
 * worker's tuner learns the others' results before it suggests. A worker that stops sending heartbeats has its
 * running trials failed (and, when the study was opened with {@link StudyBuilder#retryFailedTrials()}, run again).
 *
 * <p>Thread-safe. Holds a connection to its storage and, on a shared one, a heartbeat thread: close it.
 */
public final class Study implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Study.class);

    /** A running trial of this worker, with what the assessor has seen of it. */
    private static final class Running {
        final List<Metric> history = new ArrayList<>();
        long lastStep = Long.MIN_VALUE;
        boolean prune;
    }

    private record Sent(long parameterId, Parameters parameters) {}

    private final StudyStore store;
    private final StudyDefinition definition;
    private final StudyAlgorithms algorithms;
    private final String worker;
    private final Clock clock;
    private final Duration heartbeat;
    private final Duration grace;
    private final boolean retryFailed;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition trialEnded = lock.newCondition();
    private final Map<Integer, Running> running = new HashMap<>();
    private final Set<Integer> endedHere = new HashSet<>();
    private final Deque<Sent> sent = new ArrayDeque<>();
    private final ScheduledExecutorService heartbeats;
    private long cursor;
    private Instant lastSilenceCheck = Instant.EPOCH;
    private boolean closed;
    private volatile boolean stopRequested;

    Study(StudyStore store, Tuner tuner, Assessor assessor, Clock clock, Duration heartbeat, Duration grace, boolean retryFailed) {
        this.store = store;
        this.definition = store.definition();
        this.algorithms = new StudyAlgorithms(definition, tuner, assessor);
        this.clock = clock;
        this.heartbeat = heartbeat;
        this.grace = grace;
        this.retryFailed = retryFailed;
        this.worker = ManagementFactory.getRuntimeMXBean().getName() + "/" + UUID.randomUUID().toString().substring(0, 8);
        int replayed;
        lock.lock();
        try {
            algorithms.open(this::sendTrial);
            replayed = catchUp();
        } finally {
            lock.unlock();
        }
        if (store.shared()) {
            store.heartbeat(worker, clock.instant());
            heartbeats = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "tunekit-study-heartbeat " + definition.name());
                t.setDaemon(true);
                return t;
            });
            long ms = heartbeat.toMillis();
            heartbeats.scheduleAtFixedRate(this::beat, ms, ms, TimeUnit.MILLISECONDS);
        } else {
            heartbeats = null;
        }
        LOG.info("study '{}' opened ({} ended trials given to the tuner, tuner {}{}, worker {})", definition.name(), replayed, definition.tuner(),
                definition.assessor() == null ? "" : ", assessor " + definition.assessor(), worker);
    }

    /** Starts defining a new study (or one to load if it exists, see {@link StudyBuilder#loadIfExists()}). */
    public static StudyBuilder named(String name) {
        return new StudyBuilder(name);
    }

    /**
     * Loads a stored study, with the definition it was created with; its tuner learns every stored result.
     *
     * @throws StudyException when the storage has no such study
     */
    public static Study load(String name, Storage storage) {
        return new StudyBuilder(name).storage(storage).load();
    }

    /** The study's name. */
    public String name() {
        return definition.name();
    }

    /** Its search space. */
    public SearchSpace space() {
        return definition.space();
    }

    /** What it optimises, in order; a single objective has the metric {@code default}. */
    public List<Objective> objectives() {
        return definition.objectives();
    }

    /**
     * Starts a trial: the oldest enqueued parameter set, else the tuner's next suggestion.
     *
     * @throws StudyExhaustedException when the tuner has nothing to suggest
     * @throws StudyException          when the tuner fails, the storage fails, or the study is closed
     */
    public Trial ask() {
        lock.lock();
        try {
            checkOpen();
            catchUp();
            Instant now = clock.instant();
            TrialRecord t;
            Sent s = sent.poll();
            if (s != null) {
                t = store.start(s.parameterId(), s.parameters(), worker, now);
            } else if ((t = store.startEnqueued(worker, now)) == null) {
                long id = store.takeParameterId();
                Parameters p = algorithms.suggest(id, store::running);
                t = store.start(id, p, worker, now);
            }
            running.put(t.number(), new Running());
            LOG.debug("trial {} started: {}", t.number(), t.parameters().values());
            return new Trial(this, t);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Ends a trial with its value (a study of one objective) or values (one per objective, in order).
     *
     * @return the trial as stored
     * @throws IllegalArgumentException when a value is not finite, or there are not as many values as objectives
     * @throws StudyException           when the trial is not a running trial of this study (it ended already, for
     *                                  example failed because its worker was silent), or the study is closed
     */
    public TrialRecord tell(Trial trial, double... values) {
        Objects.requireNonNull(trial, "trial");
        List<Double> checked = checkValues(trial, values);
        lock.lock();
        try {
            checkRunningHere(trial);
            Object reported = reported(checked);
            TrialRecord t = store.finish(trial.number(), TrialState.SUCCEEDED, checked, reported, null, clock.instant());
            endHere(t);
            algorithms.succeeded(t, Metric.fromReported(reported));
            LOG.debug("trial {} succeeded with {} {}", t.number(), checked.size() == 1 ? "value" : "values",
                    checked.size() == 1 ? checked.get(0) : checked);
            return t;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Ends a trial as failed, recording why; the study goes on.
     *
     * @return the trial as stored
     */
    public TrialRecord fail(Trial trial, Throwable cause) {
        return endUnsuccessfully(trial, TrialState.FAILED, cause == null ? "failed" : cause.toString());
    }

    /**
     * Ends a trial as pruned (stopped early), keeping the intermediate values it reported.
     *
     * @return the trial as stored
     */
    public TrialRecord prune(Trial trial) {
        return endUnsuccessfully(trial, TrialState.EARLY_STOPPED, "pruned");
    }

    TrialRecord endUnsuccessfully(Trial trial, TrialState state, String message) {
        Objects.requireNonNull(trial, "trial");
        lock.lock();
        try {
            checkRunningHere(trial);
            TrialRecord t = store.finish(trial.number(), state, List.of(), null, message, clock.instant());
            endHere(t);
            algorithms.ended(t, false);
            LOG.debug("trial {} {}: {}", t.number(), state == TrialState.FAILED ? "failed" : "was pruned", message);
            return t;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Adds a parameter set to run before the tuner's next suggestions (in the order enqueued). Its result
     * informs the tuner like any other.
     *
     * @param parameters a value for every parameter of the space, within it
     * @throws IllegalArgumentException naming the parameter that is missing or outside the space
     */
    public void enqueue(Map<String, ?> parameters) {
        Parameters p = Parameters.of(new LinkedHashMap<>(parameters));
        Optional<String> wrong = definition.space().violation(p);
        if (wrong.isPresent()) {
            throw new IllegalArgumentException("cannot enqueue " + p.values() + ": " + wrong.get());
        }
        lock.lock();
        try {
            checkOpen();
            store.enqueue(p, clock.instant());
        } finally {
            lock.unlock();
        }
    }

    /** Runs {@code trials} trials of {@code objective}, one at a time (see {@link #optimize(ObjectiveFunction, OptimizeOptions)}). */
    public void optimize(ObjectiveFunction objective, int trials) {
        optimize(objective, OptimizeOptions.trials(trials));
    }

    /**
     * Runs trials of {@code objective} until the options say to stop. A trial whose objective throws is recorded as
     * failed with its exception and the study goes on (unless {@link OptimizeOptions#stopOnFirstFailure()}); one that throws
     * {@link TrialPrunedException} is recorded as pruned. Returns when every trial it started has ended.
     *
     * @throws StudyException wrapping the objective's exception with {@code stopOnFailure}, or a callback's
     */
    public void optimize(ObjectiveFunction objective, OptimizeOptions options) {
        if (objectives().size() != 1) {
            throw new StudyException("the study has " + objectives().size() + " objectives: optimise a MultiObjectiveFunction with optimizeMulti");
        }
        new Optimization(this, trial -> new double[] {objective.evaluate(trial)}, options).run();
    }

    /**
     * Runs trials of an objective function with one value per objective, for a study of several objectives (see
     * {@link #optimize(ObjectiveFunction, OptimizeOptions)}).
     */
    public void optimizeMulti(MultiObjectiveFunction objective, OptimizeOptions options) {
        new Optimization(this, objective, options).run();
    }

    /** Ends the {@link #optimize} under way once the trials running now have ended (for callbacks). */
    public void stop() {
        stopRequested = true;
    }

    /** Every trial of the study (of every worker), by number. */
    public List<TrialRecord> trials() {
        return store.trials();
    }

    /**
     * The succeeded trial with the best value (the earliest among equals), for a study of one objective.
     *
     * @throws StudyException when the study has several objectives or no trial has succeeded
     */
    public TrialRecord bestTrial() {
        if (objectives().size() != 1) {
            throw new StudyException("the study has " + objectives().size() + " objectives: its best trials are bestTrials()");
        }
        Objective o = objectives().get(0);
        return trials().stream().filter(t -> t.state() == TrialState.SUCCEEDED)
                .min(Comparator.comparingDouble((TrialRecord t) -> o.toLoss(t.values().get(0))).thenComparingInt(TrialRecord::number))
                .orElseThrow(() -> new StudyException("no trial of study '" + name() + "' has succeeded yet"));
    }

    /** The succeeded trials no other succeeded trial dominates (the Pareto front), by number; the best trial for one objective. */
    public List<TrialRecord> bestTrials() {
        List<TrialRecord> done = trials().stream().filter(t -> t.state() == TrialState.SUCCEEDED).toList();
        double[][] losses = new double[done.size()][];
        for (int i = 0; i < done.size(); i++) {
            losses[i] = new double[objectives().size()];
            for (int k = 0; k < losses[i].length; k++) {
                losses[i][k] = objectives().get(k).toLoss(done.get(i).values().get(k));
            }
        }
        List<TrialRecord> front = new ArrayList<>();
        for (int i : Pareto.nondominated(losses)) {
            front.add(done.get(i));
        }
        front.sort(Comparator.comparingInt(TrialRecord::number));
        return front;
    }

    /**
     * Closes the study: trials of this worker still running are recorded as failed (the study was closed before
     * they were told), the heartbeat stops and the storage connection closes. Idempotent.
     */
    @Override
    public void close() {
        lock.lock();
        try {
            if (closed) {
                return;
            }
            for (int number : List.copyOf(running.keySet())) {
                try {
                    TrialRecord t = store.finish(number, TrialState.FAILED, List.of(), null, "the study was closed before the trial was told",
                            clock.instant());
                    endHere(t);
                } catch (StudyException e) {
                    LOG.warn("trial {} could not be recorded as failed at close: {}", number, e.getMessage());
                }
            }
            closed = true;
            trialEnded.signalAll();
        } finally {
            lock.unlock();
        }
        if (heartbeats != null) {
            heartbeats.shutdownNow();
        }
        store.close();
    }

    // ---- package-private: for trials and optimisation

    void report(Trial trial, long step, double value) {
        if (!Double.isFinite(value)) {
            throw new IllegalArgumentException("trial " + trial.number() + ", step " + step + ": an intermediate value must be a finite number, got "
                    + value);
        }
        lock.lock();
        try {
            Running r = checkRunningHere(trial);
            if (step <= r.lastStep) {
                throw new IllegalArgumentException("trial " + trial.number() + " already reported step " + r.lastStep + ": steps must grow, got "
                        + step);
            }
            store.report(trial.number(), step, value, clock.instant());
            r.lastStep = step;
            r.history.add(Metric.of(value));
            if (algorithms.hasAssessor()) {
                r.prune = algorithms.shouldStop(trial.started(), r.history);
            }
        } finally {
            lock.unlock();
        }
    }

    boolean shouldPrune(Trial trial) {
        lock.lock();
        try {
            Running r = running.get(trial.number());
            return r != null && r.prune;
        } finally {
            lock.unlock();
        }
    }

    boolean stopRequested() {
        return stopRequested;
    }

    void clearStop() {
        stopRequested = false;
    }

    /** Waits until a trial of any worker ends here or {@code max} passes. */
    void awaitTrialEnd(Duration max) throws InterruptedException {
        lock.lock();
        try {
            if (!closed) {
                trialEnded.await(max.toMillis(), TimeUnit.MILLISECONDS);
            }
        } finally {
            lock.unlock();
        }
    }

    Clock clock() {
        return clock;
    }

    String worker() {
        return worker;
    }

    // ---- private

    private List<Double> checkValues(Trial trial, double[] values) {
        if (values == null || values.length != objectives().size()) {
            throw new IllegalArgumentException("trial " + trial.number() + ": the study has " + objectives().size() + " objective"
                    + (objectives().size() == 1 ? "" : "s") + ", told " + (values == null ? 0 : values.length) + " values");
        }
        List<Double> out = new ArrayList<>(values.length);
        for (int i = 0; i < values.length; i++) {
            if (!Double.isFinite(values[i])) {
                throw new IllegalArgumentException("trial " + trial.number() + ": objective '" + objectives().get(i).metric() + "' is " + values[i]
                        + "; a result must be a finite number (tell a failure with fail(trial, cause))");
            }
            out.add(values[i]);
        }
        return out;
    }

    /** The metric a trial of NNI reports for these values: the number, or an object with each objective's key. */
    private Object reported(List<Double> values) {
        if (values.size() == 1 && objectives().get(0).metric().equals("default")) {
            return values.get(0);
        }
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("default", values.get(0));
        for (int i = 0; i < values.size(); i++) {
            m.put(objectives().get(i).metric(), values.get(i));
        }
        return m;
    }

    private Running checkRunningHere(Trial trial) {
        checkOpen();
        if (trial.study() != this) {
            throw new StudyException("trial " + trial.number() + " belongs to another study than '" + name() + "'");
        }
        Running r = running.get(trial.number());
        if (r == null) {
            TrialState state = store.trials().get(trial.number()).state();
            throw new StudyException("trial " + trial.number() + " of study '" + name() + "' has already ended as " + state);
        }
        return r;
    }

    private void endHere(TrialRecord t) {
        running.remove(t.number());
        endedHere.add(t.number());
        trialEnded.signalAll();
    }

    /**
     * Gives the tuner (and the assessor) the trials other workers (or an earlier program) ended since the last
     * look, in the order they ended; first fails the trials of silent workers on a shared store.
     */
    private int catchUp() {
        Instant now = clock.instant();
        if (store.shared() && now.isAfter(lastSilenceCheck.plus(heartbeat))) {
            lastSilenceCheck = now;
            for (TrialRecord t : store.failSilentWorkers(now.minus(grace), now, retryFailed)) {
                LOG.warn("trial {} of worker {} failed: {}", t.number(), t.worker(), t.message());
            }
        }
        StudyStore.Ended ended = store.endedSince(cursor);
        cursor = ended.cursor();
        List<TrialRecord> elsewhere = new ArrayList<>();
        List<Metric> metrics = new ArrayList<>();
        for (TrialRecord t : ended.trials()) {
            if (!endedHere.remove(t.number())) {
                elsewhere.add(t);
                metrics.add(t.state() == TrialState.SUCCEEDED ? Metric.fromReported(reported(t.values())) : null);
            }
        }
        if (!elsewhere.isEmpty()) {
            algorithms.endedElsewhere(elsewhere, metrics);
            LOG.debug("{} trials that ended elsewhere given to the tuner", elsewhere.size());
        }
        return elsewhere.size();
    }

    private long sendTrial(Parameters parameters) {
        Objects.requireNonNull(parameters, "parameters");
        if (!lock.isHeldByCurrentThread() || closed) {
            throw new IllegalStateException("a tuner may send trials only from inside its own callbacks");
        }
        long id = store.takeParameterId();
        sent.add(new Sent(id, parameters));
        return id;
    }

    private void checkOpen() {
        if (closed) {
            throw new StudyException("study '" + definition.name() + "' is closed");
        }
    }

    private void beat() {
        try {
            store.heartbeat(worker, clock.instant());
        } catch (RuntimeException e) {
            LOG.warn("study '{}': heartbeat not recorded: {}", definition.name(), e.getMessage());
        }
    }
}
