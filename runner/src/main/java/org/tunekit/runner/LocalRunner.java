package org.tunekit.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tunekit.dispatcher.DispatcherSettings;
import org.tunekit.dispatcher.Dispatchers;
import org.tunekit.dispatcher.MsgDispatcherBase;
import org.tunekit.dispatcher.channel.InMemoryChannel;
import org.tunekit.dispatcher.plugin.AlgorithmCatalog;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.tunekit.dispatcher.protocol.JsonCodec;
import org.tunekit.dispatcher.protocol.Payloads;
import org.tunekit.dispatcher.protocol.ProtocolException;
import org.tunekit.runner.results.TrialStatus;
import org.tunekit.sdk.MetricReport;

/**
 * The local experiment manager: runs one experiment's trials as processes on this machine and drives
 * the dispatcher (the same code NNI's manager launches) in process, over an in-memory channel, as
 * NNI's manager would: {@code IN}, {@code GE} for the free slots, the trials' metrics as {@code ME},
 * their ends as {@code EN}, {@code GE 1} for each freed slot while the budget lasts (also after a
 * {@code NO}), {@code KI} honoured, {@code TE} at the end.
 *
 * <p>All of the experiment's state is changed on one thread, the manager's, which takes events from
 * one queue: the dispatcher's replies, the trials' requests and metrics (handed over by the trial
 * channel's threads, which wait until the metric is recorded before they acknowledge it), process
 * exits, and a tick for time limits. Every change is written to the {@link ExperimentStore} as it
 * happens, so a run stopped at any instant can be resumed.
 */
final class LocalRunner {
    private static final Logger LOG = LoggerFactory.getLogger(LocalRunner.class);
    private static final long TICK_MILLIS = 250;
    private static final Duration DISPATCHER_START_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration DISPATCHER_STOP_TIMEOUT = Duration.ofSeconds(20);
    private static final String ID_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

    /**
     * How the runner behaves beyond the experiment config.
     *
     * @param plugins                    plugin directories
     * @param stopGrace                  how long a stopped trial has between SIGINT and SIGKILL
     * @param silenceTimeout             a trial with no request and no metric for this long is stopped; {@code null} for never
     * @param includeIntermediateResults {@code NNI_INCLUDE_INTERMEDIATE_RESULTS} for the dispatcher
     * @param sdkJar                     the SDK's jar, given to trials as {@code TUNEKIT_SDK_JAR}, or {@code null}
     * @param channels                   the trial channels served
     */
    record Options(List<Path> plugins, Duration stopGrace, Duration silenceTimeout, boolean includeIntermediateResults, Path sdkJar,
                   TrialChannels channels) {}

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

    private sealed interface Event permits Reply, DispatcherExited, ParameterRequest, MetricReceived, TrialExited, StopRequested {}

    private record Reply(Command command) implements Event {}

    private record DispatcherExited(int status) implements Event {}

    private record ParameterRequest(String jobId) implements Event {}

    private record MetricReceived(String jobId, String text, CompletableFuture<Void> recorded) implements Event {}

    private record TrialExited(String jobId, int exitCode) implements Event {}

    private record StopRequested(String reason) implements Event {}

    /** A trial the runner knows of: waiting for a slot, or running. */
    private static final class Trial {
        final String parameterRecord;
        final long parameterId;
        String jobId;
        int sequence;
        TrialProcess process;
        Instant started;
        Instant lastContact;
        int parametersSent;
        boolean reported;
        boolean lastAskedByFile;
        MetricsFileReader metricsFile;
        TrialStatus stopAs;
        String stopReason;
        String protocolProblem;

        Trial(String parameterRecord, long parameterId) {
            this.parameterRecord = parameterRecord;
            this.parameterId = parameterId;
        }
    }

    private ExperimentStore store;
    private MsgDispatcherBase dispatcher;
    private final ExperimentSpec spec;
    private final Path directory;
    private final Options options;
    private final Progress progress;
    private final Clock clock;
    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final InMemoryChannel channel = new InMemoryChannel();
    private final SecureRandom ids = new SecureRandom();

    // manager thread only
    private final Map<String, Trial> running = new LinkedHashMap<>();
    private final Deque<Trial> pending = new ArrayDeque<>();
    private final Set<String> usedJobIds = new HashSet<>();
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
    private HttpTrialChannel trialChannel;

    LocalRunner(ExperimentSpec spec, Path directory, Options options, Progress progress, Clock clock) {
        this.spec = spec;
        this.directory = directory;
        this.options = options;
        this.progress = progress;
        this.clock = clock;
    }

    /** The error that ended the run, or {@code null}. */
    String error() {
        return error;
    }

    /** Asks a run in progress to stop its trials and end (from any thread, e.g. a shutdown hook). */
    void requestStop(String reason) {
        events.add(new StopRequested(reason));
    }

    /**
     * Finds and creates the tuner, assessor or advisor the config names, and the dispatcher over them;
     * done before the experiment is recorded, so that a config naming an unknown algorithm or a wrong
     * argument leaves nothing behind.
     *
     * @throws ConfigException when an algorithm cannot be created from the config
     */
    void prepare() {
        AlgorithmCatalog catalog = AlgorithmCatalog.discover(options.plugins());
        DispatcherSettings settings = new DispatcherSettings(false, null, options.includeIntermediateResults(), DISPATCHER_STOP_TIMEOUT);
        try {
            dispatcher = Dispatchers.create(channel, spec.algorithmConfig(), catalog, settings);
        } catch (RuntimeException | LinkageError e) {
            throw new ConfigException(org.tunekit.dispatcher.ErrorReporter.describe(e).lines().findFirst().orElse(e.toString()));
        }
    }

    /**
     * Runs the experiment to its end, recording it in {@code store}; {@link #prepare} first.
     *
     * @param resume true to continue the trials already in the store
     */
    Outcome run(ExperimentStore store, boolean resume) throws IOException, InterruptedException {
        if (dispatcher == null) {
            throw new IllegalStateException("prepare() first");
        }
        this.store = store;
        MsgDispatcherBase dispatcher = this.dispatcher;
        start = clock.instant();
        deadline = spec.maxExperimentDuration() == null ? null : start.plus(spec.maxExperimentDuration());
        Thread dispatcherThread = new Thread(() -> events.add(new DispatcherExited(dispatcher.run())), "tunekit-dispatcher");
        dispatcherThread.setDaemon(true);
        Thread pump = new Thread(this::pumpReplies, "tunekit-dispatcher-replies");
        pump.setDaemon(true);
        trialChannel = new HttpTrialChannel(new HttpTrialChannel.Listener() {
            @Override
            public void requestParameter(String trialJobId) {
                events.add(new ParameterRequest(trialJobId));
            }

            @Override
            public void metric(String trialJobId, String metricText) {
                awaitRecorded(trialJobId, metricText);
            }
        });
        dispatcherThread.start();
        pump.start();
        try {
            channel.post(new Command(CommandType.INITIALIZE, JsonCodec.write(spec.searchSpace())));
            awaitInitialized();
            if (resume) {
                resumeTrials();
            } else {
                store.event("start", null, "experiment started", clock.instant());
            }
            schedule();
            loop();
        } finally {
            for (Trial t : running.values()) {
                t.process.kill();
            }
            trialChannel.close();
            channel.post(Command.of(CommandType.TERMINATE));
            channel.endOfStream();
            dispatcherThread.join(DISPATCHER_STOP_TIMEOUT.toMillis() + 5000);
        }
        String status = switch (outcome) {
            case DONE -> "DONE";
            case STOPPED -> "STOPPED";
            case ERROR -> "ERROR";
        };
        store.event("end", null, error == null ? status : status + ": " + error, clock.instant());
        store.setStatus(status, clock.instant());
        return outcome;
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

    private void awaitRecorded(String jobId, String text) {
        CompletableFuture<Void> recorded = new CompletableFuture<>();
        events.add(new MetricReceived(jobId, text, recorded));
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
            throw new IllegalStateException("the runner did not record the metric within 60 s");
        }
    }

    private void awaitInitialized() throws InterruptedException {
        long until = System.nanoTime() + DISPATCHER_START_TIMEOUT.toNanos();
        while (true) {
            Event e = events.poll(Math.max(1, (until - System.nanoTime()) / 1_000_000), TimeUnit.MILLISECONDS);
            if (e == null) {
                throw new RunnerException("the dispatcher did not answer IN within " + DISPATCHER_START_TIMEOUT.toSeconds() + " s");
            }
            if (e instanceof Reply r && r.command().type() == CommandType.INITIALIZED) {
                return;
            }
            if (e instanceof Reply r && r.command().type() == CommandType.ERROR) {
                throw new RunnerException("the tuner could not start:\n" + r.command().payload());
            }
            if (e instanceof DispatcherExited) {
                throw new RunnerException("the dispatcher ended before it was initialised");
            }
            if (e instanceof StopRequested s) {
                throw new RunnerException("stopped: " + s.reason());
            }
        }
    }

    /** Takes the stored trials back: their ids to the dispatcher, finished results to the tuner, running ones again. */
    private void resumeTrials() throws InterruptedException {
        List<ExperimentStore.StoredTrial> stored = store.trials();
        List<Object> records = new ArrayList<>();
        List<Object> finished = new ArrayList<>();
        List<ExperimentStore.StoredTrial> lost = new ArrayList<>();
        for (ExperimentStore.StoredTrial t : stored) {
            usedJobIds.add(t.trialJobId());
            nextSequence = Math.max(nextSequence, t.sequence() + 1);
            records.add(parse(t.parameterRecord()));
            if (t.status() == TrialStatus.RUNNING) {
                lost.add(t);
            } else if (t.status() != TrialStatus.LOST) {
                used++;
                if (t.finalMetric() != null) {
                    Map<String, Object> d = new LinkedHashMap<>();
                    d.put("parameter", ExperimentStore.parametersOf(t.parameterRecord()));
                    d.put("value", t.finalMetric());
                    d.put("trialJobId", t.trialJobId());
                    finished.add(d);
                }
            }
        }
        if (!records.isEmpty()) {
            channel.post(new Command(CommandType.ADD_CUSTOMIZED_TRIAL_JOB, JsonCodec.write(records)));
        }
        if (!finished.isEmpty()) {
            channel.post(new Command(CommandType.IMPORT_DATA, JsonCodec.write(finished)));
        }
        Instant now = clock.instant();
        for (ExperimentStore.StoredTrial t : lost) {
            String leftover = TrialProcess.endLeftover(t.pid(), t.started());
            if (leftover != null) {
                store.event("leftover", t.trialJobId(), leftover, now);
            }
            Trial again = new Trial(t.parameterRecord(), t.parameterId());
            pending.add(again);
            store.trialEnded(t.trialJobId(), TrialStatus.LOST, null, "the runner stopped while this trial ran; its parameters run again", now);
        }
        store.setStatus("RUNNING", null);
        store.event("resume", null, "resumed with " + used + " finished trials, " + lost.size() + " to run again", now);
        progress.message("Resumed: " + used + " trials done before" + (lost.isEmpty() ? "" : ", " + lost.size() + " that were running run again"));
    }

    private void loop() throws InterruptedException {
        while (!finished()) {
            Event e = events.poll(TICK_MILLIS, TimeUnit.MILLISECONDS);
            if (e != null) {
                handle(e);
                // take everything already queued before deciding what to ask for
                while ((e = events.poll()) != null) {
                    handle(e);
                }
            }
            readMetricsFiles();
            checkTimes();
            schedule();
            progress.tick(this::snapshot);
        }
    }

    private boolean finished() {
        return running.isEmpty() && (stopping || (pending.isEmpty() && requested == 0 && !canRequest()));
    }

    private void handle(Event e) {
        if (e instanceof Reply r) {
            reply(r.command());
        } else if (e instanceof ParameterRequest p) {
            parameterRequest(p.jobId());
        } else if (e instanceof MetricReceived m) {
            metric(m);
        } else if (e instanceof TrialExited x) {
            trialExited(x.jobId(), x.exitCode());
        } else if (e instanceof DispatcherExited d) {
            if (!stopping) {
                fail("the dispatcher stopped unexpectedly (status " + d.status() + ")");
            }
        } else if (e instanceof StopRequested s && !stopping) {
            stopAll(TrialStatus.USER_CANCELED, s.reason());
            outcome = Outcome.STOPPED;
            progress.message("Stopping: " + s.reason());
        }
    }

    private void reply(Command c) {
        switch (c.type()) {
            case NEW_TRIAL_JOB -> {
                requested = Math.max(0, requested - 1);
                long budget = spec.maxTrialNumber() > 0 ? spec.maxTrialNumber() - used - pending.size() : Long.MAX_VALUE;
                Map<?, ?> record = (Map<?, ?>) parse(c.payload());
                long id = ((Number) record.get("parameter_id")).longValue();
                if (budget <= 0 || stopping) {
                    store.event("unused", null, "parameters " + id + " not run: " + (stopping ? "the experiment is stopping" : "maxTrialNumber reached"),
                            clock.instant());
                    return;
                }
                pending.add(new Trial(c.payload(), id));
            }
            case NO_MORE_TRIAL_JOBS -> {
                requested = 0;
                if (!noMoreTrials) {
                    store.event("no-more-trials", null, "the tuner has no more parameters", clock.instant());
                }
                noMoreTrials = true;
                requestCredit = 0;
            }
            case SEND_TRIAL_JOB_PARAMETER -> {
                Map<?, ?> record = (Map<?, ?>) parse(c.payload());
                Trial t = running.get(String.valueOf(record.get("trial_job_id")));
                if (t != null) {
                    deliverMoreParameters(t, c.payload(), record.get("parameter_index"));
                }
            }
            case KILL_TRIAL_JOB -> {
                Object job = parse(c.payload());
                Trial t = running.get(String.valueOf(job));
                if (t != null && t.stopAs == null) {
                    stop(t, TrialStatus.EARLY_STOPPED, "stopped early by the assessor");
                }
            }
            case ERROR -> fail("the dispatcher reported an error:\n" + c.payload());
            default -> LOG.warn("unexpected command from the dispatcher: {}", c);
        }
    }

    private void parameterRequest(String jobId) {
        Trial t = running.get(jobId);
        if (t != null) {
            parameterRequest(t, false, -1);
        }
    }

    /** A trial asks for parameters: the first time over HTTP it gets its own, after that the tuner makes more. */
    private void parameterRequest(Trial t, boolean byFile, int index) {
        String jobId = t.jobId;
        t.lastContact = clock.instant();
        t.lastAskedByFile = byFile;
        if (!byFile && t.parametersSent == 0) {
            t.parametersSent = 1;
            trialChannel.send(jobId, parameterCommand(t.parameterRecord));
        } else {
            // a multi-phase trial asks again: the tuner makes new parameters, which come back as SP
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("parameter_id", t.parameterId);
            m.put("trial_job_id", jobId);
            m.put("type", "REQUEST_PARAMETER");
            m.put("sequence", 0L);
            m.put("parameter_index", (long) (index >= 0 ? index : t.parametersSent));
            channel.post(new Command(CommandType.REPORT_METRIC_DATA, JsonCodec.write(m)));
        }
    }

    /** An {@code SP} for a trial: on HTTP as its next parameter, on the file channel as {@code parameter_N.cfg}. */
    private void deliverMoreParameters(Trial t, String record, Object index) {
        if (!t.lastAskedByFile) {
            t.parametersSent++;
            trialChannel.send(t.jobId, parameterCommand(record));
            return;
        }
        try {
            writeAtomically(trialDirectory(t.jobId).resolve("parameter_" + index + ".cfg"), record);
        } catch (IOException e) {
            stop(t, TrialStatus.FAILED, "could not write its parameter file: " + e.getMessage());
        }
    }

    private static void writeAtomically(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling("." + file.getFileName() + ".tmp");
        Files.writeString(tmp, text, java.nio.charset.StandardCharsets.UTF_8);
        Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    /** Reads what the trials appended to their metrics files since the last look. */
    private void readMetricsFiles() {
        for (Trial t : List.copyOf(running.values())) {
            if (t.metricsFile != null) {
                readMetricsFile(t, false);
            }
        }
    }

    private void readMetricsFile(Trial t, boolean atEnd) {
        try {
            boolean known = t.metricsFile.problem() != null;
            for (String text : atEnd ? t.metricsFile.finish() : t.metricsFile.poll()) {
                String problem = recordMetric(t, text, true);
                if (problem != null) {
                    t.protocolProblem = problem;
                }
            }
            if (!known && t.metricsFile.problem() != null) {
                t.protocolProblem = t.metricsFile.problem();
                store.event("bad-metric", t.jobId, t.protocolProblem, clock.instant());
            }
        } catch (IOException e) {
            t.protocolProblem = "cannot read its metrics file: " + e.getMessage();
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
            problem = recordMetric(t, m.text(), false);
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
     * Records a trial's metric (ME text) and passes it to the dispatcher; a request for parameters is
     * handled as one. Returns what is wrong with a malformed metric (also recorded as an event), else null.
     */
    private String recordMetric(Trial t, String text, boolean byFile) {
        t.lastContact = clock.instant();
        Payloads.MetricData data;
        Map<String, Object> fields;
        try {
            Object parsed = JsonCodec.parse(text, "the metric");
            if (!(parsed instanceof Map<?, ?>)) {
                throw new ProtocolException("a metric must be a JSON object, got " + text);
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> f = new LinkedHashMap<>((Map<String, Object>) parsed);
            // the channel says which trial this is, whatever the text claims
            f.put("trial_job_id", t.jobId);
            if (f.get("parameter_id") == null) {
                f.put("parameter_id", t.parameterId);
            }
            fields = f;
            data = Payloads.metric(new Command(CommandType.REPORT_METRIC_DATA, JsonCodec.write(fields)));
        } catch (ProtocolException e) {
            String problem = "trial " + t.jobId + " reported a malformed metric: " + e.getMessage();
            t.protocolProblem = problem;
            store.event("bad-metric", t.jobId, problem, clock.instant());
            return problem;
        }
        if (data.type() == MetricReport.Type.REQUEST_PARAMETER) {
            parameterRequest(t, byFile, data.parameterIndex());
            return null;
        }
        t.reported = true;
        Object value = fields.get("value");
        String valueText = value instanceof String s ? s : JsonCodec.write(value);
        store.metric(t.jobId, data.parameterId(), data.type().name(), data.sequence(), valueText, data.metric().value(), clock.instant());
        channel.post(new Command(CommandType.REPORT_METRIC_DATA, JsonCodec.write(fields)));
        if (data.type() == MetricReport.Type.FINAL) {
            progress.finalResult(t.jobId, data.metric().value());
        }
        return null;
    }

    private void trialExited(String jobId, int exitCode) {
        Trial t = running.get(jobId);
        if (t == null) {
            return;
        }
        if (t.metricsFile != null) {
            // what the trial wrote before it ended, before its end reaches the dispatcher
            readMetricsFile(t, true);
        }
        running.remove(jobId);
        trialChannel.close(jobId);
        TrialStatus status;
        String message = t.stopReason;
        if (t.stopAs != null) {
            status = t.stopAs;
        } else if (exitCode == 0) {
            status = TrialStatus.SUCCEEDED;
        } else {
            status = TrialStatus.FAILED;
            message = "exited with status " + exitCode + (exitCode > 128 ? " (signal " + (exitCode - 128) + ")" : "")
                    + "; see " + directory.relativize(trialDirectory(jobId)).resolve("trial.stderr");
        }
        if (!options.channels().file() && t.parametersSent == 0 && status != TrialStatus.EARLY_STOPPED) {
            // on the HTTP channel alone a trial's request is seen: one that never made it did not run its parameters
            message = (message == null ? "" : message + "; ") + "it never asked for its parameters";
            if (status == TrialStatus.SUCCEEDED) {
                status = TrialStatus.FAILED;
            }
        }
        if (t.protocolProblem != null) {
            message = (message == null ? "" : message + "; ") + t.protocolProblem;
            if (status == TrialStatus.SUCCEEDED) {
                status = TrialStatus.FAILED;
            }
        }
        Instant now = clock.instant();
        store.trialEnded(jobId, status, t.stopAs != null && exitCode > 128 ? null : exitCode, message, now);
        Map<String, Object> end = new LinkedHashMap<>();
        end.put("trial_job_id", jobId);
        end.put("event", status == TrialStatus.EARLY_STOPPED ? "EARLY_STOPPED" : status.name());
        end.put("hyper_params", t.parameterRecord);
        channel.post(new Command(CommandType.TRIAL_END, JsonCodec.write(end)));
        if (noMoreTrials) {
            // as NNI's manager: a freed slot is offered to the tuner again, even after it said NO
            requestCredit++;
        }
        progress.trialEnded(jobId, t.sequence, status, message, Duration.between(t.started, now));
    }

    private void checkTimes() {
        Instant now = clock.instant();
        if (deadline != null && !stopping && now.isAfter(deadline)) {
            store.event("deadline", null, "maxExperimentDuration reached", now);
            progress.message("maxExperimentDuration reached: stopping the running trials");
            stopAll(TrialStatus.USER_CANCELED, "the experiment reached maxExperimentDuration");
        }
        for (Trial t : running.values()) {
            if (t.stopAs != null) {
                continue;
            }
            if (spec.maxTrialDuration() != null && Duration.between(t.started, now).compareTo(spec.maxTrialDuration()) > 0) {
                stop(t, TrialStatus.USER_CANCELED, "ran longer than maxTrialDuration (" + human(spec.maxTrialDuration()) + ")");
            } else if (options.silenceTimeout() != null && Duration.between(t.lastContact, now).compareTo(options.silenceTimeout()) > 0) {
                stop(t, TrialStatus.FAILED, (t.parametersSent == 0 && !t.reported ? "neither asked for its parameters nor reported" : "reported nothing")
                        + " for " + human(options.silenceTimeout()) + " (--silence-timeout)");
            }
        }
    }

    private void stopAll(TrialStatus as, String reason) {
        stopping = true;
        for (Trial t : pending) {
            store.event("unused", null, "parameters " + t.parameterId + " not run: " + reason, clock.instant());
        }
        pending.clear();
        for (Trial t : running.values()) {
            if (t.stopAs == null) {
                stop(t, as, reason);
            }
        }
    }

    private void stop(Trial t, TrialStatus as, String reason) {
        t.stopAs = as;
        t.stopReason = reason;
        store.event("stop", t.jobId, reason, clock.instant());
        t.process.stop(options.stopGrace());
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
        if (spec.maxTrialNumber() > 0 && used + pending.size() + requested >= spec.maxTrialNumber()) {
            return false;
        }
        return !noMoreTrials || requestCredit > 0;
    }

    private void schedule() {
        if (stopping) {
            return;
        }
        while (running.size() < spec.trialConcurrency() && !pending.isEmpty()) {
            startTrial(pending.poll());
        }
        if (stopping || !canRequest()) {
            return;
        }
        long free = spec.trialConcurrency() - running.size() - pending.size() - requested;
        long budget = spec.maxTrialNumber() > 0 ? spec.maxTrialNumber() - used - pending.size() - requested : Long.MAX_VALUE;
        long n = Math.min(free, budget);
        if (noMoreTrials) {
            n = Math.min(n, requestCredit);
        }
        if (n > 0) {
            requested += (int) n;
            if (noMoreTrials) {
                requestCredit -= (int) n;
            }
            channel.post(new Command(CommandType.REQUEST_TRIAL_JOBS, Long.toString(n)));
        }
    }

    private void startTrial(Trial t) {
        t.jobId = newJobId();
        t.sequence = nextSequence++;
        used++;
        Path dir = trialDirectory(t.jobId);
        Instant now = clock.instant();
        t.started = now;
        t.lastContact = now;
        store.trialStarted(t.sequence, t.jobId, t.parameterId, t.parameterRecord, now);
        Map<String, String> env = new LinkedHashMap<>();
        env.put("NNI_PLATFORM", "local");
        env.put("NNI_EXP_ID", store.id());
        env.put("NNI_TRIAL_JOB_ID", t.jobId);
        env.put("NNI_SYS_DIR", dir.toString());
        env.put("NNI_OUTPUT_DIR", dir.toString());
        env.put("NNI_TRIAL_SEQ_ID", Integer.toString(t.sequence));
        env.put("NNI_CODE_DIR", spec.trialCodeDirectory().toString());
        env.put("NNI_TRIAL_COMMAND_CHANNEL", options.channels().http() ? trialChannel.open(t.jobId) : null);
        env.put("SDK_PROCESS", null);
        if (options.sdkJar() != null) {
            env.put("TUNEKIT_SDK_JAR", options.sdkJar().toString());
        }
        try {
            Files.createDirectories(dir);
            if (options.channels().file()) {
                writeAtomically(dir.resolve("parameter.cfg"), t.parameterRecord);
                t.metricsFile = new MetricsFileReader(dir.resolve(".nni").resolve("metrics"));
            }
            t.process = TrialProcess.start(spec.trialCommand(), spec.trialCodeDirectory(), dir, env);
        } catch (IOException e) {
            trialChannel.close(t.jobId);
            store.trialEnded(t.jobId, TrialStatus.FAILED, null, "could not be started: " + e.getMessage(), clock.instant());
            fail("trial " + t.jobId + " could not be started: " + e.getMessage());
            return;
        }
        store.trialProcess(t.jobId, t.process.pid());
        running.put(t.jobId, t);
        String jobId = t.jobId;
        t.process.onExit().thenAccept(code -> events.add(new TrialExited(jobId, code)));
        progress.trialStarted(t.jobId, t.sequence, ExperimentStore.parametersOf(t.parameterRecord));
    }

    private Path trialDirectory(String jobId) {
        return directory.resolve("trials").resolve(jobId);
    }

    private String newJobId() {
        while (true) {
            StringBuilder sb = new StringBuilder(5);
            for (int i = 0; i < 5; i++) {
                sb.append(ID_CHARS.charAt(ids.nextInt(ID_CHARS.length())));
            }
            if (usedJobIds.add(sb.toString())) {
                return sb.toString();
            }
        }
    }

    private Progress.Snapshot snapshot() {
        return new Progress.Snapshot(running.size(), used, spec.maxTrialNumber(), Duration.between(start, clock.instant()),
                deadline == null ? null : Duration.between(clock.instant(), deadline));
    }

    private static String parameterCommand(String record) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("type", "parameter");
        m.put("parameter", record);
        return JsonCodec.write(m);
    }

    private static Object parse(String json) {
        try {
            return JsonCodec.parse(json, "a dispatcher payload");
        } catch (ProtocolException e) {
            throw new RunnerException("unreadable payload from the dispatcher: " + e.getMessage(), e);
        }
    }

    static String human(Duration d) {
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
