package org.tunekit.runner.manager;

import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tunekit.dispatcher.MsgDispatcherBase;
import org.tunekit.dispatcher.channel.CommandChannel;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.runner.results.TrialStatus;

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
 * time limits. This class is the loop and its public face; each of its jobs is done by a package-private
 * part that runs on that thread only, over the run's {@code RunState}: {@code DispatcherLink} (the
 * conversation with the dispatcher), {@code StoreResumption} (trials taken back from the store),
 * {@code TrialScheduler} (parameters onto free slots), {@code TrialReports} (what trials report and how
 * they end), {@code Stopping} (time limits and stops) and {@code SteeringRequests} (what people ask of the run).
 * The methods that queue a request ({@link #requestStop}, {@link #changeLimits}, {@link #stopTrial},
 * {@link #addTrial}) may be called from any thread.
 *
 * <p>On resume, nothing that had ended runs again: a trial whose final result was recorded ends
 * SUCCEEDED, one its training service still runs is taken back, and only the parameters of a trial
 * that was lost before its final result run again. The same holds while the manager runs: a trial its
 * service reports {@linkplain TrialEvents#ended lost} (a failed node) runs its parameters again.
 */
public final class ExperimentManager {
    private static final Logger LOG = LoggerFactory.getLogger(ExperimentManager.class);

    /** How a run ended. */
    public enum Outcome { DONE, STOPPED, ERROR }

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

    private final ManagerSettings settings;
    private final TrainingService service;
    private final Function<CommandChannel, MsgDispatcherBase> dispatcherFactory;
    private final ManagerListener listener;
    private final Clock clock;
    private final BlockingDeque<ManagerEvent> events = new LinkedBlockingDeque<>();
    private final DispatcherLink dispatcher = new DispatcherLink(events);
    private volatile Thread managerThread;
    private boolean stalled;

    // the run's parts, made by run(); manager thread only
    private RunState state;
    private Stopping stopping;
    private TrialScheduler scheduler;
    private TrialReports reports;
    private SteeringRequests steering;

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
    }

    /** The error that ended the run, or {@code null}. */
    public String error() {
        return state == null ? null : state.error;
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
        events.add(new ManagerEvent.StopRequested(reason));
    }

    /**
     * Changes the limits of the run in progress (from any thread). Lower concurrency lets running trials
     * end; a lower {@code maxTrialNumber} starts no more; a duration counts from this run's start.
     *
     * @return completes with what was changed, as recorded in the journal, once it took effect
     */
    public CompletableFuture<String> changeLimits(Limits limits) {
        CompletableFuture<String> done = new CompletableFuture<>();
        events.add(new ManagerEvent.LimitsChanged(limits, done));
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
        events.add(new ManagerEvent.TrialStopRequested(trialJobId, reason, done));
        return done;
    }

    /**
     * Adds a trial with the given parameters, to run before the tuner's next ones (NNI's customized
     * trial). It counts towards {@code maxTrialNumber}; the tuner learns its result as an imported one.
     * The parameters are not checked here: the caller checks them against the search space. Trials
     * added before {@link #run} starts (a warm start) run before the tuner's first ones, in the order added.
     *
     * @param note why it was added, for the journal ("added from the dashboard")
     * @return completes with the parameter id it was given (its {@link AddedTrial#answer answer}: "parameters 7 added: they
     *         run next"), or
     *         exceptionally ({@link IllegalArgumentException}) when the budget is spent or the run is stopping
     */
    public CompletableFuture<AddedTrial> addTrial(Map<String, Object> parameters, String note) {
        CompletableFuture<AddedTrial> done = new CompletableFuture<>();
        events.add(new ManagerEvent.TrialAdded(new LinkedHashMap<>(parameters), note, done));
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
        dispatcher.create(dispatcherFactory);
    }

    /**
     * Runs the experiment to its end, recording it in {@code journal}; {@link #prepare} first.
     *
     * @param resume true to continue the trials the journal holds
     * @throws ManagerException when the dispatcher does not start
     */
    public Outcome run(Journal journal, boolean resume) throws InterruptedException {
        if (!dispatcher.created()) {
            throw new IllegalStateException("prepare() first");
        }
        managerThread = Thread.currentThread();
        state = new RunState(settings, clock);
        boolean lockStep = service.lockStep();
        JobIds jobIds = new JobIds();
        stopping = new Stopping(state, settings, service, journal, listener, clock);
        scheduler = new TrialScheduler(state, dispatcher, service, journal, listener, stopping, jobIds, clock, lockStep);
        reports = new TrialReports(state, dispatcher, service, journal, listener, stopping, clock);
        steering = new SteeringRequests(state, scheduler, stopping, journal, listener, clock);
        dispatcher.start(lockStep, state, this::reply, stopping::fail);
        try {
            service.open(new Events());
            dispatcher.initialize(settings.searchSpace());
            if (resume) {
                new StoreResumption(state, dispatcher, service, journal, listener, jobIds, clock).resume();
            } else {
                journal.event("start", null, "experiment started", clock.instant());
            }
            // limits changed before the run hold from its first trial, and trials added before it (a new experiment's
            // warm start, requests made while no runner ran) run first: the dispatcher hears of them (AD) before it
            // is asked for its first trials, which fill only the slots and budget they leave
            for (ManagerEvent e : List.copyOf(events)) {
                if ((e instanceof ManagerEvent.LimitsChanged || e instanceof ManagerEvent.TrialAdded) && events.remove(e)) {
                    handle(e);
                }
            }
            scheduler.schedule();
            loop(journal, lockStep);
        } catch (java.io.IOException e) {
            throw new ManagerException("the trials cannot run " + service.describe() + ": " + e.getMessage(), e);
        } finally {
            service.close();
            dispatcher.close();
        }
        String status = state.outcome.name();
        journal.event("end", null, state.error == null ? status : status + ": " + state.error, clock.instant());
        journal.setStatus(status, clock.instant());
        return state.outcome;
    }

    private void loop(Journal journal, boolean lockStep) throws InterruptedException {
        while (!state.finished()) {
            long wait = state.running.isEmpty() ? 250 : service.pollInterval().toMillis();
            ManagerEvent e = dispatcher.next(wait);
            if (e != null) {
                handle(e);
                // take everything already queued before deciding what to ask for
                while ((e = dispatcher.next(0)) != null) {
                    handle(e);
                }
            }
            service.poll();
            stopping.checkTimes();
            scheduler.schedule();
            listener.tick(state::snapshot);
            if (lockStep && state.running.isEmpty() && state.pending.isEmpty() && state.requested > 0 && !state.stopping) {
                stalled = true;
                journal.event("stalled", null, "nothing runs and the dispatcher sent no trial for the " + state.requested + " asked for",
                        clock.instant());
                return;
            }
        }
    }

    /** One event, handed to the part whose job it is. */
    private void handle(ManagerEvent e) {
        if (e instanceof ManagerEvent.Reply r) {
            reply(r.command());
        } else if (e instanceof ManagerEvent.ParameterRequest p) {
            reports.parameterRequest(p.jobId(), p.byFile(), p.index());
        } else if (e instanceof ManagerEvent.MetricReceived m) {
            reports.metric(m);
        } else if (e instanceof ManagerEvent.Problem p) {
            reports.problem(p.jobId(), p.text());
        } else if (e instanceof ManagerEvent.TrialExited x) {
            reports.exited(x.jobId(), x.exitCode());
        } else if (e instanceof ManagerEvent.TrialEnded x) {
            reports.ended(x.jobId(), x.status(), x.reason());
        } else if (e instanceof ManagerEvent.DispatcherExited d) {
            if (!state.stopping) {
                stopping.fail("the dispatcher stopped unexpectedly (status " + d.status() + ")");
            }
        } else if (e instanceof ManagerEvent.StopRequested s) {
            stopping.stopRequested(s.reason());
        } else if (e instanceof ManagerEvent.LimitsChanged c) {
            steering.changeLimits(c);
        } else if (e instanceof ManagerEvent.TrialStopRequested s) {
            steering.stopTrial(s);
        } else if (e instanceof ManagerEvent.TrialAdded a) {
            steering.addTrial(a);
        }
    }

    /** A command from the dispatcher, handed to the part whose job it is. */
    private void reply(Command c) {
        switch (c.type()) {
            case NEW_TRIAL_JOB -> scheduler.newTrial(c);
            case NO_MORE_TRIAL_JOBS -> scheduler.noMoreTrials();
            case SEND_TRIAL_JOB_PARAMETER -> reports.parametersMade(c);
            case KILL_TRIAL_JOB -> {
                Object job = ParameterRecords.readDispatcherPayload(c.payload());
                ManagedTrial t = state.running.get(String.valueOf(job));
                if (t != null && t.stopAs == null) {
                    stopping.stop(t, TrialStatus.EARLY_STOPPED, "stopped early by the assessor");
                }
            }
            case ERROR -> stopping.fail("the dispatcher reported an error:\n" + c.payload());
            default -> LOG.warn("unexpected command from the dispatcher: {}", c);
        }
    }

    /** The training service's events: at once on the manager's thread, queued from any other. */
    private final class Events implements TrialEvents {
        private void deliver(ManagerEvent e) {
            if (Thread.currentThread() == managerThread) {
                handle(e);
            } else {
                events.add(e);
            }
        }

        @Override
        public void parameterRequest(String trialJobId, boolean byFile, int index) {
            deliver(new ManagerEvent.ParameterRequest(trialJobId, byFile, index));
        }

        @Override
        public void metric(String trialJobId, String text, MetricStream from) {
            CompletableFuture<Void> recorded = new CompletableFuture<>();
            deliver(new ManagerEvent.MetricReceived(trialJobId, text, from, recorded));
            awaitRecorded(recorded);
        }

        @Override
        public void problem(String trialJobId, String text) {
            deliver(new ManagerEvent.Problem(trialJobId, text));
        }

        @Override
        public void exited(String trialJobId, int exitCode) {
            deliver(new ManagerEvent.TrialExited(trialJobId, exitCode));
        }

        @Override
        public void ended(String trialJobId, TrialStatus status, String reason) {
            if (status != TrialStatus.LOST && status != TrialStatus.USER_CANCELED && status != TrialStatus.FAILED) {
                throw new IllegalArgumentException("a trial ends LOST, USER_CANCELED or FAILED without an exit status, not " + status);
            }
            deliver(new ManagerEvent.TrialEnded(trialJobId, status, reason));
        }
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

    /** The job id of the trial with this sequence in a lock-step run: "T" and the sequence in base 36, five characters in all. */
    public static String sequentialJobId(int sequence) {
        return JobIds.sequential(sequence);
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
