package org.tunekit.runner.manager;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tunekit.dispatcher.MsgDispatcherBase;
import org.tunekit.dispatcher.channel.CommandChannel;
import org.tunekit.dispatcher.channel.InMemoryChannel;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.tunekit.dispatcher.protocol.JsonCodec;
import org.tunekit.dispatcher.protocol.Payloads;
import org.tunekit.dispatcher.protocol.ProtocolException;
import org.tunekit.runner.results.TrialStatus;
import org.tunekit.sdk.MetricReport;

/**
 * The experiment manager's loop, the same wherever trials run: it drives a dispatcher in process, over
 * an in-memory channel, as NNI's manager drives its tuner — {@code IN}, {@code GE} for the free slots,
 * the trials' metrics as {@code ME}, their ends as {@code EN} (both posted as the dispatcher's records:
 * a trial's metric text is read once, where it reaches the manager, and no JSON is written for the
 * dispatcher to read again), {@code GE 1} for each freed slot while
 * the budget lasts (also after a {@code NO}), {@code KI} honoured, {@code TE} at the end — and has a
 * {@link TrainingService} start, feed and stop the trials. It keeps the limits ({@code trialConcurrency},
 * {@code maxTrialNumber}, {@code maxExperimentDuration}, {@code maxTrialDuration}, silence) and records
 * every change in a {@link Journal} as it happens, so that a run stopped at any instant can be resumed.
 *
 * <p>All of the experiment's state is changed on one thread, the one that calls {@link #run}, which
 * takes events from one queue: the dispatcher's replies, the trials' requests and metrics (a metric
 * reported from another thread waits until it is recorded), trial exits, stop requests, and a tick for
 * time limits.
 *
 * <p>On resume, nothing that had ended runs again: a trial whose final result was recorded ends
 * SUCCEEDED, one its training service still runs is taken back, and only the parameters of a trial
 * that was lost before its final result run again. The same holds while the manager runs: a trial its
 * service reports {@linkplain TrialEvents#ended lost} (a failed node) runs its parameters again.
 */
public final class ExperimentManager {
    private static final Logger LOG = LoggerFactory.getLogger(ExperimentManager.class);
    private static final Duration DISPATCHER_START_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration DISPATCHER_STOP_TIMEOUT = Duration.ofSeconds(20);

    /** How a run ended. */
    public enum Outcome { DONE, STOPPED, ERROR }

    private sealed interface Event permits Reply, DispatcherExited, ParameterRequest, MetricReceived, Problem, TrialExited, TrialEnded,
            StopRequested, LimitsChanged, TrialStopRequested, TrialAdded {}

    private record Reply(Command command) implements Event {}

    private record DispatcherExited(int status) implements Event {}

    private record ParameterRequest(String jobId, boolean byFile, int index) implements Event {}

    private record MetricReceived(String jobId, String text, MetricStream from, CompletableFuture<Void> recorded) implements Event {}

    private record Problem(String jobId, String text) implements Event {}

    private record TrialExited(String jobId, int exitCode) implements Event {}

    private record TrialEnded(String jobId, TrialStatus status, String reason) implements Event {}

    private record StopRequested(String reason) implements Event {}

    private record LimitsChanged(Limits limits, CompletableFuture<String> done) implements Event {}

    private record TrialStopRequested(String jobId, String reason, CompletableFuture<String> done) implements Event {}

    private record TrialAdded(Map<String, Object> parameters, String note, CompletableFuture<String> done) implements Event {}

    /**
     * New limits for a running experiment; a {@code null} field keeps the limit as it is.
     *
     * @param trialConcurrency      trials running at once (at least 1)
     * @param maxTrialNumber        trials to start at most, 0 for no limit
     * @param maxExperimentDuration how long the experiment may run, counted from this run's start; {@link Duration#ZERO} for no limit
     */
    public record Limits(Integer trialConcurrency, Long maxTrialNumber, Duration maxExperimentDuration) {
        public Limits {
            if (trialConcurrency != null && trialConcurrency < 1) {
                throw new IllegalArgumentException("trialConcurrency must be at least 1, got " + trialConcurrency);
            }
            if (maxTrialNumber != null && maxTrialNumber < 0) {
                throw new IllegalArgumentException("maxTrialNumber must not be negative, got " + maxTrialNumber);
            }
            if (maxExperimentDuration != null && maxExperimentDuration.isNegative()) {
                throw new IllegalArgumentException("maxExperimentDuration must not be negative, got " + maxExperimentDuration);
            }
        }
    }

    /** A trial the manager knows of: waiting to start, or running. */
    private static final class Trial {
        final String parameterRecord;
        final long parameterId;
        String jobId;
        int sequence;
        Instant started;
        Instant lastContact;
        int parametersSent;
        boolean reported;
        boolean finalReported;
        boolean lastAskedByFile;
        TrialStatus stopAs;
        String stopReason;
        String protocolProblem;
        /** Parameters of a trial that was lost, waiting to run again. */
        boolean again;
        /** Parameters added by hand. */
        boolean added;

        Trial(String parameterRecord, long parameterId) {
            this.parameterRecord = parameterRecord;
            this.parameterId = parameterId;
        }
    }

    private final ManagerSettings settings;
    private final TrainingService service;
    private final Function<CommandChannel, MsgDispatcherBase> dispatcherFactory;
    private final ManagerListener listener;
    private final Clock clock;
    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final InMemoryChannel channel = new InMemoryChannel();
    private MsgDispatcherBase dispatcher;
    private Journal journal;
    private boolean lockStep;
    private long posted;
    private boolean stalled;
    private Thread dispatcherThread;
    private volatile Thread managerThread;

    // manager thread only
    private final Map<String, Trial> running = new LinkedHashMap<>();
    private final Deque<Trial> pending = new ArrayDeque<>();
    private final JobIds jobIds = new JobIds();
    private int requested;
    private boolean noMoreTrials;
    private int requestCredit;
    private long used;
    private int nextSequence;
    private boolean stopping;
    private Outcome outcome = Outcome.DONE;
    private String error;
    private Instant start;
    private Instant deadline;
    private int trialConcurrency;
    private long maxTrialNumber;
    /** The largest parameter id the dispatcher has given or been told of: an added trial's id comes after it. */
    private long lastParameterId = -1;
    /** Trials added by hand that wait for their parameter id (given when no request to the dispatcher is outstanding). */
    private final Deque<TrialAdded> toAdd = new ArrayDeque<>();

    /**
     * @param settings          the limits
     * @param service           where the trials run
     * @param dispatcherFactory makes the dispatcher (tuner, assessor or advisor) over the channel it is given
     * @param listener          what the person watching is told
     * @param clock             the clock for times and limits
     */
    public ExperimentManager(ManagerSettings settings, TrainingService service, Function<CommandChannel, MsgDispatcherBase> dispatcherFactory,
                             ManagerListener listener, Clock clock) {
        this.settings = settings;
        this.service = service;
        this.dispatcherFactory = dispatcherFactory;
        this.listener = listener;
        this.clock = clock;
        this.trialConcurrency = settings.trialConcurrency();
        this.maxTrialNumber = settings.maxTrialNumber();
    }

    /** The error that ended the run, or {@code null}. */
    public String error() {
        return error;
    }

    /**
     * True when a run in {@linkplain TrainingService#lockStep lock step} ended because nothing ran,
     * nothing waited to run, and the dispatcher had handled everything without sending the trials asked
     * for: nothing could have changed that.
     */
    public boolean stalled() {
        return stalled;
    }

    /** Asks a run in progress to stop its trials and end (from any thread, e.g. a shutdown hook). */
    public void requestStop(String reason) {
        events.add(new StopRequested(reason));
    }

    /**
     * Changes the limits of the run in progress (from any thread). Lower concurrency lets running trials
     * end; a lower {@code maxTrialNumber} starts no more; a duration counts from this run's start.
     *
     * @return completes with what was changed, as recorded in the journal, once it took effect
     */
    public CompletableFuture<String> changeLimits(Limits limits) {
        CompletableFuture<String> done = new CompletableFuture<>();
        events.add(new LimitsChanged(limits, done));
        return done;
    }

    /**
     * Stops one running trial, as a person does: it ends USER_CANCELED and the tuner hears its end
     * (from any thread).
     *
     * @return completes once the trial is asked to stop, or exceptionally ({@link IllegalArgumentException})
     *         when no such trial runs
     */
    public CompletableFuture<String> stopTrial(String trialJobId, String reason) {
        CompletableFuture<String> done = new CompletableFuture<>();
        events.add(new TrialStopRequested(trialJobId, reason, done));
        return done;
    }

    /**
     * Adds a trial with the given parameters, to run before the tuner's next ones (NNI's customized
     * trial). It counts towards {@code maxTrialNumber}; the tuner learns its result as an imported one.
     * The parameters are not checked here: the caller checks them against the search space. Trials
     * added before {@link #run} starts (a warm start) run before the tuner's first ones, in the order added.
     *
     * @param note why it was added, for the journal ("added from the dashboard")
     * @return completes with the parameter id it was given ("parameters 7 added: they run next"), or
     *         exceptionally ({@link IllegalArgumentException}) when the budget is spent or the run is stopping
     */
    public CompletableFuture<String> addTrial(Map<String, Object> parameters, String note) {
        CompletableFuture<String> done = new CompletableFuture<>();
        events.add(new TrialAdded(new LinkedHashMap<>(parameters), note, done));
        return done;
    }

    /**
     * Creates the dispatcher and checks that the trials can be placed: done before the experiment is
     * recorded, so that an unknown algorithm, a wrong argument or more GPUs than the machine has leave
     * nothing behind.
     *
     * @throws ManagerException with the message of {@link TrainingService#check}'s {@link IllegalArgumentException}
     * @throws RuntimeException from the dispatcher's factory or {@link TrainingService#check}
     */
    public void prepare() {
        try {
            service.check();
        } catch (IllegalArgumentException e) {
            throw new ManagerException(e.getMessage(), e);
        }
        dispatcher = dispatcherFactory.apply(channel);
    }

    /**
     * Runs the experiment to its end, recording it in {@code journal}; {@link #prepare} first.
     *
     * @param resume true to continue the trials the journal holds
     * @throws ManagerException when the dispatcher does not start
     */
    public Outcome run(Journal journal, boolean resume) throws InterruptedException {
        if (dispatcher == null) {
            throw new IllegalStateException("prepare() first");
        }
        this.journal = journal;
        managerThread = Thread.currentThread();
        MsgDispatcherBase d = dispatcher;
        start = clock.instant();
        deadline = settings.maxExperimentDuration() == null ? null : start.plus(settings.maxExperimentDuration());
        dispatcherThread = new Thread(() -> events.add(new DispatcherExited(d.run())), "tunekit-dispatcher");
        dispatcherThread.setDaemon(true);
        Thread pump = new Thread(this::pumpReplies, "tunekit-dispatcher-replies");
        pump.setDaemon(true);
        lockStep = service.lockStep();
        dispatcherThread.start();
        if (!lockStep) {
            pump.start();
        }
        try {
            service.open(new Events());
            channel.post(new Command(CommandType.INITIALIZE, JsonCodec.write(settings.searchSpace())));
            posted++;
            awaitInitialized();
            if (resume) {
                resumeTrials();
            } else {
                journal.event("start", null, "experiment started", clock.instant());
            }
            // limits changed before the run hold from its first trial, and trials added before it (a new experiment's
            // warm start, requests made while no runner ran) run first: the dispatcher hears of them (AD) before it
            // is asked for its first trials, which fill only the slots and budget they leave
            for (Event e : List.copyOf(events)) {
                if ((e instanceof LimitsChanged || e instanceof TrialAdded) && events.remove(e)) {
                    handle(e);
                }
            }
            schedule();
            loop();
        } catch (java.io.IOException e) {
            throw new ManagerException("the trials cannot run " + service.describe() + ": " + e.getMessage(), e);
        } finally {
            service.close();
            channel.post(Command.of(CommandType.TERMINATE));
            channel.endOfStream();
            dispatcherThread.join(DISPATCHER_STOP_TIMEOUT.toMillis() + 5000);
            pump.interrupt();
        }
        String status = outcome.name();
        journal.event("end", null, error == null ? status : status + ": " + error, clock.instant());
        journal.setStatus(status, clock.instant());
        return outcome;
    }

    /** The training service's events: at once on the manager's thread, queued from any other. */
    private final class Events implements TrialEvents {
        private boolean onManagerThread() {
            return Thread.currentThread() == managerThread;
        }

        @Override
        public void parameterRequest(String trialJobId, boolean byFile, int index) {
            if (onManagerThread()) {
                handle(new ParameterRequest(trialJobId, byFile, index));
            } else {
                events.add(new ParameterRequest(trialJobId, byFile, index));
            }
        }

        @Override
        public void metric(String trialJobId, String text, MetricStream from) {
            CompletableFuture<Void> recorded = new CompletableFuture<>();
            MetricReceived m = new MetricReceived(trialJobId, text, from, recorded);
            if (onManagerThread()) {
                handle(m);
            } else {
                events.add(m);
            }
            awaitRecorded(recorded);
        }

        @Override
        public void problem(String trialJobId, String text) {
            if (onManagerThread()) {
                handle(new Problem(trialJobId, text));
            } else {
                events.add(new Problem(trialJobId, text));
            }
        }

        @Override
        public void exited(String trialJobId, int exitCode) {
            if (onManagerThread()) {
                handle(new TrialExited(trialJobId, exitCode));
            } else {
                events.add(new TrialExited(trialJobId, exitCode));
            }
        }

        @Override
        public void ended(String trialJobId, TrialStatus status, String reason) {
            if (status != TrialStatus.LOST && status != TrialStatus.USER_CANCELED && status != TrialStatus.FAILED) {
                throw new IllegalArgumentException("a trial ends LOST, USER_CANCELED or FAILED without an exit status, not " + status);
            }
            if (onManagerThread()) {
                handle(new TrialEnded(trialJobId, status, reason));
            } else {
                events.add(new TrialEnded(trialJobId, status, reason));
            }
        }
    }

    private void pumpReplies() {
        while (true) {
            try {
                Command c = channel.poll(500);
                if (c != null) {
                    events.add(new Reply(c));
                }
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Posts a command to the dispatcher; in lock step, handles the dispatcher's whole answer before it returns. */
    private void post(Command c) {
        channel.post(c);
        posted++;
        if (lockStep && error == null) {
            settle();
        }
    }

    /** Waits until the dispatcher has handled every command posted, then handles what it answered. */
    private void settle() {
        boolean handled;
        try {
            handled = dispatcher.awaitHandled(posted, DISPATCHER_START_TIMEOUT);
            if (!handled) {
                // it stopped (its ER comes as its thread ends) or hangs
                dispatcherThread.join(DISPATCHER_STOP_TIMEOUT.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        Command reply;
        while ((reply = channel.poll()) != null) {
            handle(new Reply(reply));
        }
        if (!handled && !stopping) {
            fail(dispatcherThread.isAlive() ? "the dispatcher did not handle a command within " + DISPATCHER_START_TIMEOUT.toSeconds() + " s"
                    : "the dispatcher stopped");
        }
    }

    /** The next event within {@code millis}, or {@code null}; in lock step the dispatcher's replies are read here, not pumped. */
    private Event next(long millis) throws InterruptedException {
        if (lockStep) {
            Command c = channel.poll();
            if (c != null) {
                return new Reply(c);
            }
            Event e = events.poll();
            if (e != null || millis == 0) {
                return e;
            }
            c = channel.poll(Math.min(millis, 20));
            return c == null ? events.poll() : new Reply(c);
        }
        return millis == 0 ? events.poll() : events.poll(millis, TimeUnit.MILLISECONDS);
    }

    private static void awaitRecorded(CompletableFuture<Void> recorded) {
        try {
            recorded.get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IllegalArgumentException iae) {
                throw iae;
            }
            throw new IllegalStateException("the metric was not recorded: " + e.getCause().getMessage(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted");
        } catch (TimeoutException e) {
            throw new IllegalStateException("the manager did not record the metric within 60 s");
        }
    }

    private void awaitInitialized() throws InterruptedException {
        long until = System.nanoTime() + DISPATCHER_START_TIMEOUT.toNanos();
        // requests made before the dispatcher is ready (new limits, added trials) wait for the loop
        List<Event> later = new ArrayList<>();
        try {
            awaitInitialized(until, later);
        } finally {
            events.addAll(later);
        }
    }

    private void awaitInitialized(long until, List<Event> later) throws InterruptedException {
        while (true) {
            Event e = next(Math.max(1, (until - System.nanoTime()) / 1_000_000));
            if (e == null && System.nanoTime() < until) {
                continue;
            }
            if (e == null) {
                throw new ManagerException("the dispatcher did not answer IN within " + DISPATCHER_START_TIMEOUT.toSeconds() + " s");
            }
            if (e instanceof Reply r && r.command().type() == CommandType.INITIALIZED) {
                return;
            }
            if (e instanceof Reply r && r.command().type() == CommandType.ERROR) {
                throw new ManagerException("the tuner could not start:\n" + r.command().payload());
            }
            if (e instanceof DispatcherExited) {
                throw new ManagerException("the dispatcher ended before it was initialised");
            }
            if (e instanceof StopRequested s) {
                throw new ManagerException("stopped: " + s.reason());
            }
            if (e instanceof LimitsChanged || e instanceof TrialAdded || e instanceof TrialStopRequested) {
                later.add(e);
            }
        }
    }

    /**
     * Takes the journal's trials back: their ids to the dispatcher, finished results to the tuner,
     * trials still running to the training service, and only the parameters of trials lost before
     * their final result to run again.
     */
    private void resumeTrials() {
        List<Object> records = new ArrayList<>();
        List<Object> finished = new ArrayList<>();
        int again = 0;
        int reattached = 0;
        int recovered = 0;
        Instant now = clock.instant();
        for (StoredTrial t : journal.trials()) {
            jobIds.reserve(t.trialJobId());
            lastParameterId = Math.max(lastParameterId, t.parameterId());
            nextSequence = Math.max(nextSequence, t.sequence() + 1);
            records.add(ParameterRecords.readDispatcherPayload(t.parameterRecord()));
            if (t.status() == TrialStatus.LOST) {
                continue;
            }
            TrialStatus status = t.status();
            if (status == TrialStatus.RUNNING) {
                TrainingService.Reattached r = service.reattach(t);
                if (r.note() != null) {
                    journal.event(r.running() ? "reattached" : "leftover", t.trialJobId(), r.note(), now);
                }
                if (r.running()) {
                    Trial back = new Trial(t.parameterRecord(), t.parameterId());
                    back.jobId = t.trialJobId();
                    back.sequence = t.sequence();
                    back.started = t.started();
                    back.lastContact = now;
                    back.parametersSent = 1;
                    back.reported = t.finalMetric() != null;
                    back.finalReported = t.finalMetric() != null;
                    running.put(back.jobId, back);
                    used++;
                    reattached++;
                    continue;
                }
                if (t.finalMetric() == null) {
                    Trial rerun = new Trial(t.parameterRecord(), t.parameterId());
                    rerun.again = true;
                    pending.add(rerun);
                    journal.trialEnded(t.trialJobId(), TrialStatus.LOST, null,
                            "the manager stopped while this trial ran, before its final result; its parameters run again", now);
                    again++;
                    continue;
                }
                status = TrialStatus.SUCCEEDED;
                journal.trialEnded(t.trialJobId(), status, null, "its final result was recorded before the manager stopped", now);
                recovered++;
            }
            used++;
            listener.earlier(t.trialJobId(), t.sequence(), status, t.finalValue());
            if (t.finalMetric() != null) {
                Map<String, Object> d = new LinkedHashMap<>();
                d.put("parameter", parametersOf(t.parameterRecord()));
                d.put("value", t.finalMetric());
                d.put("trialJobId", t.trialJobId());
                finished.add(d);
            }
        }
        if (!records.isEmpty()) {
            post(new Command(CommandType.ADD_CUSTOMIZED_TRIAL_JOB, JsonCodec.write(records)));
        }
        if (!finished.isEmpty()) {
            post(new Command(CommandType.IMPORT_DATA, JsonCodec.write(finished)));
        }
        journal.setStatus("RUNNING", null);
        String summary = "resumed with " + (used - reattached) + " finished trials (" + recovered + " of them ended while the manager was "
                + "stopped), " + reattached + " still running, " + again + " to run again";
        journal.event("resume", null, summary, now);
        listener.message("Resumed: " + (used - reattached) + " trials done before" + (reattached == 0 ? "" : ", " + reattached + " still running")
                + (again == 0 ? "" : ", " + again + " that were running run again"));
    }

    private void loop() throws InterruptedException {
        while (!finished()) {
            long wait = running.isEmpty() ? 250 : service.pollInterval().toMillis();
            Event e = next(wait);
            if (e != null) {
                handle(e);
                // take everything already queued before deciding what to ask for
                while ((e = next(0)) != null) {
                    handle(e);
                }
            }
            service.poll();
            checkTimes();
            schedule();
            listener.tick(this::snapshot);
            if (lockStep && running.isEmpty() && pending.isEmpty() && requested > 0 && !stopping) {
                stalled = true;
                journal.event("stalled", null, "nothing runs and the dispatcher sent no trial for the " + requested + " asked for", clock.instant());
                return;
            }
        }
    }

    private boolean finished() {
        return running.isEmpty() && (stopping || (pending.isEmpty() && requested == 0 && !canRequest()));
    }

    private void handle(Event e) {
        if (e instanceof Reply r) {
            reply(r.command());
        } else if (e instanceof ParameterRequest p) {
            Trial t = running.get(p.jobId());
            if (t != null) {
                parameterRequest(t, p.byFile(), p.index());
            }
        } else if (e instanceof MetricReceived m) {
            metric(m);
        } else if (e instanceof Problem p) {
            Trial t = running.get(p.jobId());
            if (t != null) {
                t.protocolProblem = p.text();
                journal.event("bad-metric", t.jobId, p.text(), clock.instant());
            }
        } else if (e instanceof TrialExited x) {
            trialExited(x.jobId(), x.exitCode());
        } else if (e instanceof TrialEnded x) {
            trialEnded(x.jobId(), x.status(), x.reason());
        } else if (e instanceof DispatcherExited d) {
            if (!stopping) {
                fail("the dispatcher stopped unexpectedly (status " + d.status() + ")");
            }
        } else if (e instanceof StopRequested s && !stopping) {
            stopAll(TrialStatus.USER_CANCELED, s.reason());
            outcome = Outcome.STOPPED;
            listener.message("Stopping: " + s.reason());
        } else if (e instanceof LimitsChanged c) {
            c.done().complete(applyLimits(c.limits()));
        } else if (e instanceof TrialStopRequested s) {
            Trial t = running.get(s.jobId());
            if (t == null) {
                s.done().completeExceptionally(new IllegalArgumentException("no trial " + s.jobId() + " is running"));
            } else {
                if (t.stopAs == null) {
                    stop(t, TrialStatus.USER_CANCELED, s.reason());
                }
                s.done().complete("trial " + s.jobId() + " is stopping");
            }
        } else if (e instanceof TrialAdded a) {
            addTrial(a);
        }
    }

    private String applyLimits(Limits l) {
        List<String> changed = new ArrayList<>();
        if (l.trialConcurrency() != null && l.trialConcurrency() != trialConcurrency) {
            changed.add("trialConcurrency " + trialConcurrency + " -> " + l.trialConcurrency());
            trialConcurrency = l.trialConcurrency();
        }
        if (l.maxTrialNumber() != null && l.maxTrialNumber() != maxTrialNumber) {
            changed.add("maxTrialNumber " + (maxTrialNumber == 0 ? "none" : maxTrialNumber) + " -> "
                    + (l.maxTrialNumber() == 0 ? "none" : l.maxTrialNumber()));
            maxTrialNumber = l.maxTrialNumber();
        }
        if (l.maxExperimentDuration() != null) {
            Instant next = l.maxExperimentDuration().isZero() ? null : start.plus(l.maxExperimentDuration());
            if (!java.util.Objects.equals(next, deadline)) {
                changed.add("maxExperimentDuration -> " + (next == null ? "none" : human(l.maxExperimentDuration())));
                deadline = next;
            }
        }
        String text = changed.isEmpty() ? "limits unchanged" : String.join(", ", changed);
        if (!changed.isEmpty()) {
            journal.event("limits", null, text, clock.instant());
            listener.message("Limits changed: " + text);
        }
        return text;
    }

    private void addTrial(TrialAdded a) {
        if (stopping) {
            a.done().completeExceptionally(new IllegalArgumentException("the experiment is stopping"));
            return;
        }
        if (maxTrialNumber > 0 && used + pending.size() + toAdd.size() >= maxTrialNumber) {
            a.done().completeExceptionally(new IllegalArgumentException("maxTrialNumber (" + maxTrialNumber
                    + ") trials have started or wait to: raise maxTrialNumber to add one"));
            return;
        }
        toAdd.add(a);
        takeAddedTrials();
    }

    /**
     * Gives the trials added by hand their parameter ids, after the last one the dispatcher gave, and
     * tells the dispatcher of them ({@code AD}, so that its own ids go on after them): only while no
     * request is outstanding, so that an id is never given twice. They run first, in the order added.
     */
    private void takeAddedTrials() {
        if (toAdd.isEmpty() || requested > 0) {
            return;
        }
        List<Object> records = new ArrayList<>();
        List<Trial> first = new ArrayList<>();
        for (TrialAdded a : toAdd) {
            long id = ++lastParameterId;
            Map<String, Object> record = ParameterRecords.customized(id, a.parameters());
            records.add(record);
            Trial t = new Trial(JsonCodec.write(record), id);
            t.added = true;
            first.add(t);
            journal.event("added", null, "parameters " + id + " " + JsonCodec.write(a.parameters()) + (a.note() == null ? "" : ": " + a.note()),
                    clock.instant());
            a.done().complete("parameters " + id + " added: they run next");
        }
        toAdd.clear();
        post(new Command(CommandType.ADD_CUSTOMIZED_TRIAL_JOB, JsonCodec.write(records)));
        // before the tuner's, behind trials lost and waiting to run again and those added before
        List<Trial> rest = new ArrayList<>(pending);
        pending.clear();
        rest.stream().filter(t -> t.again).forEach(pending::add);
        rest.stream().filter(t -> t.added && !t.again).forEach(pending::add);
        pending.addAll(first);
        rest.stream().filter(t -> !t.again && !t.added).forEach(pending::add);
    }

    private void reply(Command c) {
        switch (c.type()) {
            case NEW_TRIAL_JOB -> {
                requested = Math.max(0, requested - 1);
                long budget = maxTrialNumber > 0 ? maxTrialNumber - used - pending.size() - toAdd.size() : Long.MAX_VALUE;
                Map<?, ?> record = (Map<?, ?>) ParameterRecords.readDispatcherPayload(c.payload());
                long id = ((Number) record.get("parameter_id")).longValue();
                lastParameterId = Math.max(lastParameterId, id);
                if (budget <= 0 || stopping) {
                    journal.event("unused", null, "parameters " + id + " not run: "
                            + (stopping ? "the experiment is stopping" : "maxTrialNumber reached"), clock.instant());
                    return;
                }
                pending.add(new Trial(c.payload(), id));
            }
            case NO_MORE_TRIAL_JOBS -> {
                requested = 0;
                if (!noMoreTrials) {
                    journal.event("no-more-trials", null, "the tuner has no more parameters", clock.instant());
                }
                noMoreTrials = true;
                requestCredit = 0;
            }
            case SEND_TRIAL_JOB_PARAMETER -> {
                Map<?, ?> record = (Map<?, ?>) ParameterRecords.readDispatcherPayload(c.payload());
                Trial t = running.get(String.valueOf(record.get("trial_job_id")));
                if (t != null) {
                    int index = record.get("parameter_index") instanceof Number n ? n.intValue() : t.parametersSent;
                    if (!t.lastAskedByFile) {
                        t.parametersSent++;
                    }
                    service.sendParameters(t.jobId, c.payload(), index, t.lastAskedByFile);
                }
            }
            case KILL_TRIAL_JOB -> {
                Object job = ParameterRecords.readDispatcherPayload(c.payload());
                Trial t = running.get(String.valueOf(job));
                if (t != null && t.stopAs == null) {
                    stop(t, TrialStatus.EARLY_STOPPED, "stopped early by the assessor");
                }
            }
            case ERROR -> fail("the dispatcher reported an error:\n" + c.payload());
            default -> LOG.warn("unexpected command from the dispatcher: {}", c);
        }
    }

    /** A trial asks for parameters: the first time on a live channel it gets its own, after that the tuner makes more. */
    private void parameterRequest(Trial t, boolean byFile, int index) {
        t.lastContact = clock.instant();
        t.lastAskedByFile = byFile;
        if (!byFile && t.parametersSent == 0) {
            t.parametersSent = 1;
            service.sendParameters(t.jobId, t.parameterRecord, 0, false);
        } else {
            // a multi-phase trial asks again: the tuner makes new parameters, which come back as SP
            post(Command.of(new Payloads.MetricData(t.parameterId, t.jobId, MetricReport.Type.REQUEST_PARAMETER, 0, null,
                    index >= 0 ? index : t.parametersSent)));
        }
    }

    private void metric(MetricReceived m) {
        Trial t = running.get(m.jobId());
        if (t == null) {
            m.recorded().completeExceptionally(new IllegalArgumentException("trial " + m.jobId() + " has ended"));
            return;
        }
        String problem;
        try {
            problem = recordMetric(t, m.text(), m.from());
        } catch (RuntimeException e) {
            m.recorded().completeExceptionally(e);
            fail(e.getMessage());
            return;
        }
        if (problem != null) {
            m.recorded().completeExceptionally(new IllegalArgumentException(problem));
        } else {
            m.recorded().complete(null);
        }
    }

    /**
     * Records a trial's metric (ME text, read here once) and hands it to the dispatcher as the record it
     * was read into; a request for parameters is handled as one. Returns what is wrong with a malformed
     * metric (also recorded as an event), else null. A frame read from a file is counted as read in the
     * store, whatever it was.
     */
    private String recordMetric(Trial t, String text, MetricStream from) {
        t.lastContact = clock.instant();
        ReportedMetric reported;
        try {
            reported = ReportedMetric.read(text, t.jobId, t.parameterId);
        } catch (ProtocolException e) {
            String problem = "trial " + t.jobId + " reported a malformed metric: " + e.getMessage();
            t.protocolProblem = problem;
            journal.event("bad-metric", t.jobId, problem, clock.instant());
            journal.frameRead(t.jobId, from);
            return problem;
        }
        Payloads.MetricData data = reported.data();
        if (data.type() == MetricReport.Type.REQUEST_PARAMETER) {
            journal.frameRead(t.jobId, from);
            parameterRequest(t, from != MetricStream.LIVE, data.parameterIndex());
            return null;
        }
        t.reported = true;
        journal.metric(t.jobId, from, data.parameterId(), data.type().name(), data.sequence(), reported.valueText(), data.metric().value(),
                clock.instant());
        if (data.type() == MetricReport.Type.FINAL) {
            t.finalReported = true;
            listener.finalResult(t.jobId, data.metric().value());
        } else if (data.type() == MetricReport.Type.PERIODICAL) {
            listener.intermediateResult(t.jobId, data.metric().value());
        }
        post(Command.of(data));
        return null;
    }

    /** A trial's job ended without its exit status: see {@link TrialEvents#ended}. */
    private void trialEnded(String jobId, TrialStatus status, String reason) {
        Trial t = running.get(jobId);
        if (t == null) {
            return;
        }
        if (t.stopAs == null && status == TrialStatus.LOST && t.finalReported) {
            t.stopAs = TrialStatus.SUCCEEDED;
            t.stopReason = reason + "; its final result was recorded before";
        } else if (t.stopAs == null && status == TrialStatus.LOST) {
            // what it reported before it was lost is recorded; its parameters run again, first in line
            service.collect(jobId);
            running.remove(jobId);
            used--;
            Instant now = clock.instant();
            String message = reason + "; its parameters run again";
            journal.trialEnded(jobId, TrialStatus.LOST, null, message, now);
            Trial rerun = new Trial(t.parameterRecord, t.parameterId);
            rerun.again = true;
            pending.addFirst(rerun);
            listener.trialEnded(jobId, t.sequence, TrialStatus.LOST, message, Duration.between(t.started, now));
            return;
        } else if (t.stopAs == null) {
            t.stopAs = status;
            t.stopReason = reason;
        }
        trialExited(jobId, null);
    }

    /** A trial's end: its exit status, or {@code null} when it ended without one (its status is then {@code stopAs}). */
    private void trialExited(String jobId, Integer exitCode) {
        Trial t = running.get(jobId);
        if (t == null) {
            return;
        }
        // what the trial left unread reaches the dispatcher before its end
        service.collect(jobId);
        running.remove(jobId);
        TrialEnd end = TrialEnd.of(jobId, exitCode, t.stopAs, t.stopReason, service.seesParameterRequests() && t.parametersSent == 0,
                t.protocolProblem);
        Instant now = clock.instant();
        journal.trialEnded(jobId, end.status(), end.exitCode(), end.message(), now);
        post(Command.of(new Payloads.TrialEndData(jobId, end.wireStatus(), t.parameterId)));
        if (noMoreTrials) {
            // as NNI's manager: a freed slot is offered to the tuner again, even after it said NO
            requestCredit++;
        }
        listener.trialEnded(jobId, t.sequence, end.status(), end.message(), Duration.between(t.started, now));
    }

    /**
     * A trial lost with the place it ran: it ends LOST and, unless the experiment is stopping or the
     * trial was being stopped, its parameters wait to run again first, without counting twice against
     * maxTrialNumber. The dispatcher is not told of an end: the parameters' end comes with the new trial's.
     */
    private void checkTimes() {
        Instant now = clock.instant();
        if (deadline != null && !stopping && now.isAfter(deadline)) {
            journal.event("deadline", null, "maxExperimentDuration reached", now);
            listener.message("maxExperimentDuration reached: stopping the running trials");
            stopAll(TrialStatus.USER_CANCELED, "the experiment reached maxExperimentDuration");
        }
        for (Trial t : List.copyOf(running.values())) {
            if (t.stopAs != null || !running.containsKey(t.jobId)) {
                continue;
            }
            if (settings.maxTrialDuration() != null && Duration.between(t.started, now).compareTo(settings.maxTrialDuration()) > 0) {
                stop(t, TrialStatus.USER_CANCELED, "ran longer than maxTrialDuration (" + human(settings.maxTrialDuration()) + ")");
            } else if (settings.silenceTimeout() != null && Duration.between(t.lastContact, now).compareTo(settings.silenceTimeout()) > 0) {
                stop(t, TrialStatus.FAILED, (t.parametersSent == 0 && !t.reported ? "neither asked for its parameters nor reported" : "reported nothing")
                        + " for " + human(settings.silenceTimeout()) + " (--silence-timeout)");
            }
        }
    }

    private void stopAll(TrialStatus as, String reason) {
        stopping = true;
        for (TrialAdded a : toAdd) {
            a.done().completeExceptionally(new IllegalArgumentException("not added: " + reason));
        }
        toAdd.clear();
        for (Trial t : pending) {
            journal.event("unused", null, "parameters " + t.parameterId + " not run: " + reason, clock.instant());
        }
        pending.clear();
        for (Trial t : List.copyOf(running.values())) {
            if (t.stopAs == null && running.containsKey(t.jobId)) {
                stop(t, as, reason);
            }
        }
    }

    private void stop(Trial t, TrialStatus as, String reason) {
        t.stopAs = as;
        t.stopReason = reason;
        journal.event("stop", t.jobId, reason, clock.instant());
        service.stop(t.jobId, settings.stopGrace());
    }

    private void fail(String message) {
        if (error == null) {
            error = message;
        }
        outcome = Outcome.ERROR;
        if (!stopping) {
            stopAll(TrialStatus.USER_CANCELED, "the experiment failed");
        }
    }

    private boolean canRequest() {
        if (stopping || (deadline != null && clock.instant().isAfter(deadline))) {
            return false;
        }
        if (maxTrialNumber > 0 && used + pending.size() + toAdd.size() + requested >= maxTrialNumber) {
            return false;
        }
        return !noMoreTrials || requestCredit > 0;
    }

    private void schedule() {
        takeAddedTrials();
        startPending();
        requestTrials();
        if (lockStep) {
            // the answers are in: the new trials start before the running ones take their next step
            startPending();
        }
    }

    private void startPending() {
        while (running.size() < trialConcurrency && !pending.isEmpty() && !stopping && service.canStart()) {
            startTrial(pending.poll());
        }
    }

    private void requestTrials() {
        if (stopping || !canRequest()) {
            return;
        }
        long free = trialConcurrency - running.size() - pending.size() - requested;
        long budget = maxTrialNumber > 0 ? maxTrialNumber - used - pending.size() - toAdd.size() - requested : Long.MAX_VALUE;
        long n = Math.min(free, budget);
        if (noMoreTrials) {
            n = Math.min(n, requestCredit);
        }
        if (n > 0 && lockStep && used > 0) {
            // one slot at a time, each answer taken before the next request, as NNI's manager asks for freed slots
            for (long i = 0; i < n && canRequest() && running.size() + pending.size() + requested < trialConcurrency; i++) {
                requested++;
                if (noMoreTrials) {
                    requestCredit--;
                }
                post(new Command(CommandType.REQUEST_TRIAL_JOBS, "1"));
            }
        } else if (n > 0) {
            requested += (int) n;
            if (noMoreTrials) {
                requestCredit -= (int) n;
            }
            post(new Command(CommandType.REQUEST_TRIAL_JOBS, Long.toString(n)));
        }
    }

    private void startTrial(Trial t) {
        t.jobId = jobIds.next(nextSequence, lockStep);
        t.sequence = nextSequence++;
        used++;
        Instant now = clock.instant();
        t.started = now;
        t.lastContact = now;
        // recorded before it starts: a manager killed in between finds it and does not lose its parameters
        journal.trialStarted(t.sequence, t.jobId, t.parameterId, t.parameterRecord, now);
        Placement placement;
        try {
            placement = service.start(new TrialLaunch(journal.id(), t.jobId, t.sequence, t.parameterId, t.parameterRecord));
        } catch (java.io.IOException | RuntimeException e) {
            journal.trialEnded(t.jobId, TrialStatus.FAILED, null, "could not be started: " + e.getMessage(), clock.instant());
            fail("trial " + t.jobId + " could not be started " + service.describe() + ": " + e.getMessage());
            return;
        }
        journal.trialPlaced(t.jobId, placement);
        running.put(t.jobId, t);
        listener.trialStarted(t.jobId, t.sequence, parametersOf(t.parameterRecord));
    }

    /** The job id of the trial with this sequence in a lock-step run: "T" and the sequence in base 36, five characters in all. */
    public static String sequentialJobId(int sequence) {
        return JobIds.sequential(sequence);
    }

    private ManagerListener.Snapshot snapshot() {
        return new ManagerListener.Snapshot(running.size(), pending.size(), used, maxTrialNumber, Duration.between(start, clock.instant()),
                deadline == null ? null : Duration.between(clock.instant(), deadline));
    }

    /** The parameters of a parameter record, as plain JSON values (empty when it holds none). */
    public static Map<String, Object> parametersOf(String record) {
        return ParameterRecords.parametersOf(record);
    }

    /** A duration as people write it: 45s, 2m30s, 1h05m. */
    public static String human(Duration d) {
        long s = d.toSeconds();
        if (s < 60) {
            return d.toMillis() % 1000 == 0 ? s + "s" : String.format(java.util.Locale.ROOT, "%.1fs", d.toMillis() / 1000.0);
        }
        if (s < 3600) {
            return (s / 60) + "m" + (s % 60 == 0 ? "" : String.format("%02ds", s % 60));
        }
        return (s / 3600) + "h" + String.format("%02dm", (s % 3600) / 60);
    }
}
