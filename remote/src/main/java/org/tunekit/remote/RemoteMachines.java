package org.tunekit.remote;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.tunekit.gpus.GpuAllocation;
import org.tunekit.gpus.GpuScheduler;
import org.tunekit.gpus.GpuSettings;
import org.tunekit.runner.manager.Placement;
import org.tunekit.runner.manager.StoredTrial;
import org.tunekit.runner.manager.TrainingService;
import org.tunekit.runner.manager.TrainingServiceContext;
import org.tunekit.runner.manager.TrialEvents;
import org.tunekit.runner.manager.TrialLaunch;
import org.tunekit.runner.manager.TrialScript;

/**
 * NNI's remote training service: each trial runs as a detached {@link TrialScript} on one machine of
 * {@code machineList}, reached over SSH, and talks on NNI's file channel, so nothing there connects back.
 *
 * <p><b>Threads and the network.</b> As {@link TrainingService} requires, every method is called on the
 * manager's thread, and the events are reported there too, so the trials' state needs no lock. Each machine
 * has a worker thread of its own ({@code tunekit-ssh-HOST:PORT}, a daemon) that runs its SSH commands one
 * after the other; what a worker learns is queued and applied by the next {@link #poll} on the manager's
 * thread. Which call touches the network where:
 * <ul>
 *   <li>On the manager's thread, waiting for the answer: {@link #check} (before anything starts), {@link #start}
 *       and {@link #reattach}, which must answer at once: one command on one machine each, given up after
 *       {@link #START_TIMEOUT}; and {@link #close}, which sends the kills to all machines at once and waits
 *       {@link #CLOSE_TIMEOUT} at most.</li>
 *   <li>On the machine's worker: the poll batches (with the GPU re-reads), the reconnects (with the kills of a
 *       machine's leftovers) and {@link #stop}'s kill. {@link #poll} only applies the answers that came in and
 *       hands each machine without a command in flight its next one; it never waits for a machine.</li>
 *   <li>{@link #collect}, {@link #canStart}, {@link #sendParameters}: no network (a trial's stderr comes with
 *       the poll that sees it end).</li>
 * </ul>
 *
 * <ul>
 *   <li>{@link #check}: connects to every machine (a machine that cannot be reached is named with
 *       {@code host:port} and why), copies {@code trialCodeDirectory} once to
 *       {@code ~/tunekit-experiments/EXPID/code} there, and reads its GPUs with its {@code nvidia-smi} when
 *       {@code trialGpuNumber} is set.</li>
 *   <li>A trial goes to the up machine with the fewest trials that has the GPUs it needs (ties to the
 *       first in {@code machineList}); a machine whose poll has gone unanswered for {@link #POLL_OVERDUE} gets
 *       none until it answers. It runs in {@code ~/tunekit-experiments/EXPID/trials/JOBID}, in a session of its
 *       own, so that it outlives the SSH session and the runner. A start that fails marks the machine down and
 *       the trial goes to the next machine.</li>
 *   <li>Polls: every {@link #POLL_INTERVAL}, one command per machine reads, for all its trials, what was appended
 *       to their metrics files and stdout and whether they ended. What is read is appended to
 *       {@code trials/JOBID/.nni/metrics} and {@code trials/JOBID/trial.stdout} here and read from there
 *       (metrics frames, and the {@code NNISDK_MEb'...'} lines NNI's {@code nni} package prints off platform
 *       local). The experiment's store counts the frames the manager handled from each
 *       ({@link StoredTrial#framesRead}), so that a later runner that {@linkplain #reattach reattaches} reads the
 *       copies again and hands on only the ones after them.</li>
 *   <li>GPUs: with {@code useActiveGpu: false}, a machine's {@code nvidia-smi} is read again every
 *       {@link #GPU_REREAD} (by its worker, after a poll), as the local service does, so that a GPU another
 *       program took is not given out; the experiment's own trial processes do not count.</li>
 *   <li>A machine that does not answer is tried again every {@link #RETRY_EVERY}; its trials are
 *       {@linkplain TrialEvents#lost lost} (their parameters run again elsewhere) after {@link #LOST_AFTER}
 *       without an answer, and when it is back their processes, if they still run, are killed.</li>
 *   <li>{@link #close} kills the trials still running: the experiment is ending.</li>
 * </ul>
 *
 * <p>The pieces: {@link Host} (a machine's session, state and worker), {@link RemoteTrial} (a trial and its copies
 * here), {@link MachineSetup} (the experiment's folder and the trial code on a machine), {@link TrialProcesses} (a
 * trial's wrapper script, start and kills), {@link MachinePoll} (the poll command and its answer) and
 * {@link MachineGpus} (a machine's {@code nvidia-smi}).
 */
final class RemoteMachines implements TrainingService {
    /** How long a machine may not answer before its trials are given up as lost. */
    static final Duration LOST_AFTER = Duration.ofSeconds(60);
    /** How often a machine that does not answer is tried again. */
    static final Duration RETRY_EVERY = Duration.ofSeconds(30);
    static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(60);
    /** How long a worker waits for a machine's answer to a poll (or a kill); then the machine is down. */
    static final Duration POLL_TIMEOUT = Duration.ofSeconds(15);
    /** How often a machine with trials is polled. */
    static final Duration POLL_INTERVAL = Duration.ofMillis(1000);
    /** How often the manager applies what the workers learnt: the answers wait for it at most that long. */
    static final Duration APPLY_INTERVAL = Duration.ofMillis(250);
    /** A machine whose poll has gone unanswered this long is given no trial until it answers. */
    static final Duration POLL_OVERDUE = Duration.ofSeconds(5);
    /** How long {@link #start} and {@link #reattach} wait for a machine: the manager's loop waits that long at most. */
    static final Duration START_TIMEOUT = Duration.ofSeconds(10);
    /** How long {@link #close} waits for the machines to kill the trials. */
    static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(10);
    /** How often a machine's GPUs are read again when GPUs running other programs are not used (as the local service). */
    static final Duration GPU_REREAD = Duration.ofSeconds(5);

    private final TrainingServiceContext context;
    private final List<Host> hosts = new ArrayList<>();
    private final Double trialGpuNumber;
    private final Clock clock;
    /** The running trials by id; shared with {@link #watch}, on the manager's thread only. */
    private final Map<String, RemoteTrial> trials = new LinkedHashMap<>();
    private final MachineWatch watch;
    private Ssh ssh;
    private TrialEvents events;

    RemoteMachines(TrainingServiceContext context) {
        this(context, Clock.systemUTC(), LOST_AFTER, RETRY_EVERY, POLL_INTERVAL);
    }

    /** For tests: another clock and other times. */
    RemoteMachines(TrainingServiceContext context, Clock clock, Duration lostAfter, Duration retryEvery, Duration pollEvery) {
        this.context = context;
        for (Machine m : Machine.of(context.settings())) {
            hosts.add(new Host(m));
        }
        this.trialGpuNumber = context.settings().get("trialGpuNumber") instanceof Number n ? n.doubleValue() : null;
        if (trialGpuNumber != null) {
            for (Host h : hosts) {
                try {
                    settings(h.machine);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("trainingService.machineList[" + h.machine.index() + "]: " + e.getMessage(), e);
                }
            }
        }
        this.clock = clock;
        this.watch = new MachineWatch(hosts, trials, clock, lostAfter, retryEvery, pollEvery, h -> h.rereadsGpus(trialGpuNumber), () -> ssh,
                context.experimentId());
    }

    private GpuSettings settings(Machine m) {
        return new GpuSettings(trialGpuNumber, m.gpuIndices(), m.maxTrialNumberPerGpu(), m.useActiveGpu());
    }

    @Override
    public String describe() {
        return "on " + String.join(", ", hosts.stream().map(h -> h.machine.name()).toList());
    }

    @Override
    public void check() {
        if (ssh == null) {
            ssh = new Ssh(Ssh.knownHostsFile(context.options().get("knownHosts")), Boolean.parseBoolean(context.options().get("acceptNewHosts")));
        }
        List<String> unreachable = new ArrayList<>();
        for (Host h : hosts) {
            try {
                MachineSetup.connect(h, ssh, context.experimentId(), clock, COMMAND_TIMEOUT);
            } catch (IOException e) {
                unreachable.add(e.getMessage());
                continue;
            }
            try {
                MachineSetup.copyCode(h.session, h.root, context.trialCodeDirectory(), COMMAND_TIMEOUT.multipliedBy(5));
                if (trialGpuNumber != null) {
                    h.gpus = new GpuScheduler(MachineGpus.read(h.session, h.machine, COMMAND_TIMEOUT), settings(h.machine));
                    h.gpus.validate();
                    h.lastGpuRead = clock.instant();
                }
            } catch (IOException | IllegalArgumentException e) {
                throw new IllegalArgumentException("trainingService.machineList[" + h.machine.index() + "] (" + h.machine.address() + "): "
                        + e.getMessage(), e);
            }
        }
        if (!unreachable.isEmpty()) {
            throw new IllegalArgumentException("trainingService.machineList: cannot reach " + String.join("; ", unreachable));
        }
    }

    @Override
    public void open(TrialEvents events) {
        this.events = events;
        watch.open(events);
    }

    @Override
    public boolean canStart() {
        return !candidates().isEmpty();
    }

    /** The machines that could take a trial now, the one to use first: the fewest trials, then the first in machineList. */
    private List<Host> candidates() {
        Instant now = clock.instant();
        List<Host> out = new ArrayList<>(hosts.stream().filter(h -> h.canTakeTrial(now, POLL_OVERDUE)).toList());
        out.sort(Comparator.<Host>comparingInt(h -> h.running).thenComparingInt(h -> h.machine.index()));
        return out;
    }

    /** For tests: the names of the machines a trial could go to now, the first first. */
    List<String> candidateMachines() {
        return candidates().stream().map(h -> h.machine.name()).toList();
    }

    @Override
    public Placement start(TrialLaunch trial) throws IOException {
        List<String> failures = new ArrayList<>();
        for (Host h : candidates()) {
            GpuAllocation allocation = h.gpus == null ? null : h.gpus.allocate(trial.trialJobId()).orElse(null);
            if (h.gpus != null && allocation == null) {
                continue;
            }
            try {
                return start(h, trial, allocation);
            } catch (IOException e) {
                if (h.gpus != null) {
                    h.gpus.release(trial.trialJobId());
                }
                failures.add(e.getMessage());
                h.down(e.getMessage(), clock.instant());
            }
        }
        throw new IOException(failures.isEmpty() ? "no machine can take a trial now" : String.join("; ", failures));
    }

    private Placement start(Host h, TrialLaunch trial, GpuAllocation allocation) throws IOException {
        String dir = h.root + "/trials/" + trial.trialJobId();
        String script = TrialProcesses.script(trial, h.machine, context.trialCommand(), h.root, dir, allocation);
        Ssh.Result r;
        try {
            r = Ssh.exec(h.session, TrialProcesses.start(trial, dir, script), null, START_TIMEOUT);
        } catch (IOException e) {
            throw new IOException("machine " + h.machine.address() + ": " + e.getMessage(), e);
        }
        long pid;
        try {
            pid = Long.parseLong(r.text().strip());
        } catch (NumberFormatException e) {
            if (allocation != null) {
                h.gpus.release(trial.trialJobId());
            }
            // the machine answered: not a connection problem, but the trial cannot start there
            throw new IllegalStateException("could not start trial " + trial.trialJobId() + " in " + dir + " on " + h.machine.address()
                    + " (status " + r.status() + "): " + r.stderr().strip());
        }
        Path local = localFolder(trial.trialJobId());
        Files.createDirectories(local.resolve(".nni"));
        Files.writeString(local.resolve(TrialScript.PARAMETERS), trial.parameterRecord());
        track(new RemoteTrial(trial.trialJobId(), h, dir, pid, local, null));
        return new Placement(h.machine.name() + "|" + pid + "|" + dir, h.machine.name(), allocation == null ? null : allocation.gpuIndices());
    }

    /** A trial started or taken back: its machine answered just now. */
    private void track(RemoteTrial t) {
        trials.put(t.jobId, t);
        t.host.running++;
        t.host.lastContact = clock.instant();
    }

    /** The trial's folder here, where the copies of its files are kept. */
    private Path localFolder(String trialJobId) {
        return context.experimentDirectory().resolve("trials").resolve(trialJobId);
    }

    @Override
    public void sendParameters(String trialJobId, String parameterRecord, int index, boolean byFile) {
        // the file channel: a trial reads parameter.cfg, written before it started
    }

    @Override
    public void stop(String trialJobId, Duration grace) {
        RemoteTrial t = trials.get(trialJobId);
        if (t == null || t.ended) {
            return;
        }
        t.stopping = true;
        t.killAt = clock.instant().plus(grace);
        if (t.host.up()) {
            watch.interrupt(t);
        }
    }

    @Override
    public Duration pollInterval() {
        return APPLY_INTERVAL;
    }

    /**
     * Applies the answers the workers brought (copies, metrics, ends, machines down or back), gives up the
     * trials of machines silent for {@link #LOST_AFTER}, and hands each machine without a command in flight
     * its next poll or reconnect ({@link MachineWatch#poll}). Waits for no machine.
     */
    @Override
    public void poll() {
        watch.poll();
    }

    /** Frees what the trial held and hands on what its copies hold still; no network (its stderr came with its end). */
    @Override
    public void collect(String trialJobId) {
        RemoteTrial t = trials.remove(trialJobId);
        if (t == null) {
            return;
        }
        t.host.running--;
        if (t.host.gpus != null) {
            t.host.gpus.release(trialJobId);
        }
        t.metrics.deliver(events, true);
    }

    @Override
    public Reattached reattach(StoredTrial stored) {
        String[] handle = stored.handle() == null ? new String[0] : stored.handle().split("\\|", 3);
        if (handle.length != 3) {
            return Reattached.GONE;
        }
        Host h = hosts.stream().filter(x -> x.machine.name().equals(handle[0])).findFirst().orElse(null);
        if (h == null) {
            return new Reattached(false, "its machine " + handle[0] + " is no longer in machineList");
        }
        long pid = Long.parseLong(handle[1]);
        if (!h.up()) {
            // its parameters run again elsewhere: should it still run there, it is killed when the machine is back
            h.leftovers.add(pid);
            return new Reattached(false, "its machine " + h.machine.address() + " cannot be reached: " + h.down);
        }
        String dir = handle[2];
        Ssh.Result r;
        try {
            r = Ssh.exec(h.session, TrialProcesses.probe(pid, dir), null, START_TIMEOUT);
        } catch (IOException e) {
            h.down(e.getMessage(), clock.instant());
            h.leftovers.add(pid);
            return new Reattached(false, "its machine " + h.machine.address() + " cannot be reached: " + e.getMessage());
        }
        String said = r.text();
        if (!said.contains("alive") && !said.contains("ended")) {
            return new Reattached(false, "it no longer runs on " + h.machine.name() + " and left no exit status");
        }
        Path local = localFolder(stored.trialJobId());
        RemoteTrial t;
        try {
            Files.createDirectories(local.resolve(".nni"));
            t = new RemoteTrial(stored.trialJobId(), h, dir, pid, local, stored);
        } catch (IOException e) {
            return new Reattached(false, "its metrics kept in " + local + " cannot be read: " + e.getMessage());
        }
        if (h.gpus != null && stored.gpus() != null) {
            h.gpus.restore(stored.trialJobId(), stored.gpus());
        }
        track(t);
        return new Reattached(true, (said.contains("alive") ? "still running" : "ended while the runner was stopped") + " on "
                + h.machine.name() + " as process " + pid + "; its metrics after the " + t.metrics.skipping() + " handled before are handed on");
    }

    /** Kills the trials still running, on all machines at once and waiting {@link #CLOSE_TIMEOUT} at most, then drops the connections. */
    @Override
    public void close() {
        watch.close();
        List<Thread> kills = new ArrayList<>();
        for (Host h : hosts) {
            List<RemoteTrial> mine = watch.live(h);
            if (h.up() && !mine.isEmpty()) {
                kills.add(h.killInBackground(mine.stream().map(t -> t.pid).toList(), CLOSE_TIMEOUT));
            }
        }
        long deadline = System.nanoTime() + CLOSE_TIMEOUT.plusSeconds(1).toNanos();
        try {
            for (Thread kill : kills) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (left > 0) {
                    kill.join(left);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        disconnect();
    }

    /** Drops the connections and leaves every trial running, as a runner killed with {@code kill -9} does (for tests). */
    void abandon() {
        watch.close();
        disconnect();
    }

    private void disconnect() {
        for (Host h : hosts) {
            h.disconnect();
        }
        if (ssh != null) {
            ssh.close();
            ssh = null;
        }
        watch.dropAnswers();
    }

    /**
     * For tests: waits until each machine's worker has done what it was given (a bounded wait, in vain for a
     * machine that hangs) and applies the answers, so that a test's clock moves with nothing in flight.
     */
    void awaitAnswers() throws InterruptedException {
        for (Host h : hosts) {
            h.awaitWorker();
        }
        watch.applyAnswers();
    }
}
