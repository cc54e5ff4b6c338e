package org.tunekit.remote;

import static org.tunekit.runner.manager.TrialScript.quote;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.sshd.client.session.ClientSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tunekit.gpus.Gpu;
import org.tunekit.gpus.GpuAllocation;
import org.tunekit.gpus.GpuScheduler;
import org.tunekit.gpus.GpuSettings;
import org.tunekit.gpus.NvidiaSmi;
import org.tunekit.gpus.NvidiaSmiException;
import org.tunekit.runner.TrialMetricFiles;
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
 */
final class RemoteMachines implements TrainingService {
    private static final Logger LOG = LoggerFactory.getLogger(RemoteMachines.class);
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
    /** The last line of a poll's answer: an answer without it was cut short. */
    private static final byte[] END = "@@end\n".getBytes(StandardCharsets.US_ASCII);

    /** One machine and what this service knows of it; its fields are used on the manager's thread only. */
    private static final class Host {
        final Machine machine;
        ClientSession session;
        String root;
        GpuScheduler gpus;
        Instant lastContact;
        Instant lastAttempt;
        String down;
        final List<Long> leftovers = new ArrayList<>();
        int running;
        /** Runs this machine's commands that the manager does not wait for, one after the other. */
        ExecutorService worker;
        /** When the poll or reconnect in the worker's hands was sent, until its answer is applied; null when none is. */
        Instant askedAt;
        Instant lastPoll;
        Instant lastGpuRead;
        boolean gpuReadFailing;

        Host(Machine machine) {
            this.machine = machine;
        }
    }

    /** One running trial. */
    private static final class Remote {
        final String jobId;
        final Host host;
        final String dir;
        final long pid;
        final Path local;
        /** The copies here of its metrics file and its stdout, read for metrics. */
        final TrialMetricFiles metrics;
        /** Bytes of its metrics file and of its stdout copied here. */
        long fetched;
        long stdoutFetched;
        Instant killAt;
        boolean stopping;
        boolean ended;

        /** @param before the trial as the store holds it, for one taken back after a restart, else {@code null} */
        Remote(String jobId, Host host, String dir, long pid, Path local, StoredTrial before) throws IOException {
            this.jobId = jobId;
            this.host = host;
            this.dir = dir;
            this.pid = pid;
            this.local = local;
            this.fetched = size(local.resolve(TrialScript.METRICS));
            this.stdoutFetched = size(local.resolve(TrialScript.STDOUT));
            this.metrics = new TrialMetricFiles(jobId, local.resolve(TrialScript.METRICS), local.resolve(TrialScript.STDOUT), before);
        }
    }

    /** A trial in a poll, and how much of its files were copied here when the poll was sent. */
    private record Asked(Remote trial, String jobId, long fetched, long stdoutFetched) {}

    /** One trial's part of a poll's answer: the new bytes of its files, and its stderr once it ended. */
    private record Report(Asked asked, boolean alive, String exit, byte[] metrics, byte[] stdout, byte[] stderr) {}

    /** What a worker brings back from a poll: the trials' reports or why the machine did not answer, and the GPUs. */
    private record Answer(List<Report> reports, String failure, List<Gpu> gpus, Set<Long> own, String gpuFailure) {}

    private final TrainingServiceContext context;
    private final List<Host> hosts = new ArrayList<>();
    private final Double trialGpuNumber;
    private final Clock clock;
    private final Duration lostAfter;
    private final Duration retryEvery;
    private final Duration pollEvery;
    private final Map<String, Remote> trials = new LinkedHashMap<>();
    /** What the workers learnt, to be applied on the manager's thread. */
    private final Queue<Runnable> answers = new ConcurrentLinkedQueue<>();
    private volatile boolean closed;
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
        this.lostAfter = lostAfter;
        this.retryEvery = retryEvery;
        this.pollEvery = pollEvery;
    }

    private GpuSettings settings(Machine m) {
        return new GpuSettings(trialGpuNumber, m.gpuIndices(), m.maxTrialNumberPerGpu(), m.useActiveGpu());
    }

    @Override
    public String describe() {
        return "on " + String.join(", ", hosts.stream().map(h -> h.machine.name()).toList());
    }

    /** The {@code known_hosts} file: the option {@code knownHosts}, else {@code ~/.ssh/known_hosts} ({@code $HOME}'s). */
    private Path knownHosts() {
        String given = context.options().get("knownHosts");
        if (given != null) {
            return Path.of(given);
        }
        String home = System.getenv("HOME");
        return Path.of(home != null && !home.isBlank() ? home : System.getProperty("user.home"), ".ssh", "known_hosts");
    }

    @Override
    public void check() {
        if (ssh == null) {
            ssh = new Ssh(knownHosts(), Boolean.parseBoolean(context.options().get("acceptNewHosts")));
        }
        List<String> unreachable = new ArrayList<>();
        for (Host h : hosts) {
            try {
                connect(h);
            } catch (IOException e) {
                unreachable.add(e.getMessage());
                continue;
            }
            try {
                copyCode(h);
                if (trialGpuNumber != null) {
                    ClientSession session = h.session;
                    List<Gpu> gpus = NvidiaSmi.read(command -> nvidiaSmi(session, h.machine, command, COMMAND_TIMEOUT));
                    h.gpus = new GpuScheduler(gpus, settings(h.machine));
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

    /** Connects (on the manager's thread: at check) and learns where the experiment's folder is there. */
    private void connect(Host h) throws IOException {
        h.lastAttempt = clock.instant();
        ClientSession s = ssh.connect(h.machine);
        String root;
        try {
            root = root(s, h.machine);
        } catch (IOException e) {
            s.close(true);
            throw e;
        }
        attach(h, s, root);
    }

    /** The machine answers on a new session (in place of its old one, if any). */
    private void attach(Host h, ClientSession s, String root) {
        if (h.session != null) {
            h.session.close(true);
        }
        h.session = s;
        h.root = root;
        h.down = null;
        h.lastContact = clock.instant();
    }

    /** The experiment's folder on the machine of a new session. Runs on any thread. */
    private String root(ClientSession s, Machine m) throws IOException {
        Ssh.Result home = Ssh.exec(s, "printf '%s' \"$HOME\"", null, COMMAND_TIMEOUT);
        if (home.status() != 0 || home.text().isBlank()) {
            throw new IOException("machine " + m.address() + ": could not read $HOME there (status " + home.status() + ": "
                    + home.stderr().strip() + ")");
        }
        return home.text() + "/tunekit-experiments/" + context.experimentId();
    }

    /** Copies the trial code to the machine with {@code tar} at both ends. */
    private void copyCode(Host h) throws IOException {
        Process tar = new ProcessBuilder("tar", "-C", context.trialCodeDirectory().toString(), "-cf", "-", ".")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        Ssh.Result r;
        try (InputStream in = tar.getInputStream()) {
            r = Ssh.exec(h.session, "mkdir -p " + quote(h.root + "/code") + " && tar -xf - -C " + quote(h.root + "/code"), in,
                    COMMAND_TIMEOUT.multipliedBy(5));
        } finally {
            tar.destroy();
        }
        if (r.status() != 0) {
            throw new IOException("could not copy " + context.trialCodeDirectory() + " to " + h.root + "/code: " + r.stderr().strip());
        }
    }

    /** Runs one query of a machine's {@code nvidia-smi} for {@link NvidiaSmi#read}. Runs on any thread. */
    private static String nvidiaSmi(ClientSession session, Machine m, List<String> command, Duration timeout) throws NvidiaSmiException {
        String line = "command -v nvidia-smi >/dev/null 2>&1 || exit 97; " + String.join(" ", command.stream().map(TrialScript::quote).toList());
        try {
            Ssh.Result r = Ssh.exec(session, line, null, timeout);
            if (r.status() == 97) {
                return null;
            }
            if (r.status() != 0) {
                throw new NvidiaSmiException("'" + String.join(" ", command) + "' on " + m.address() + " exited with status "
                        + r.status() + ": " + r.stderr().strip());
            }
            return r.text();
        } catch (IOException e) {
            throw new NvidiaSmiException("'" + String.join(" ", command) + "' on " + m.address() + " could not be run: "
                    + e.getMessage(), e);
        }
    }

    /**
     * The processes on a machine in the sessions of the trials given (each trial leads a session of its own,
     * its id the trial's pid): the experiment's own processes, which do not make a GPU busy. Runs on any thread.
     */
    private static Set<Long> ownProcesses(ClientSession session, Set<Long> trialSessions) throws IOException {
        if (trialSessions.isEmpty()) {
            return Set.of();
        }
        String sessions = " " + trialSessions.stream().map(String::valueOf).collect(Collectors.joining(" ")) + " ";
        // /proc/PID/stat: pid (comm) state ppid pgrp session ...; comm may hold spaces and ')', so cut after its last ") "
        String command = "for f in /proc/[0-9]*/stat; do read -r l 2>/dev/null < \"$f\" || continue; set -- ${l##*) }; "
                + "case '" + sessions + "' in *\" $4 \"*) printf '%s\\n' \"${l%% *}\";; esac; done; true";
        Ssh.Result r = Ssh.exec(session, command, null, POLL_TIMEOUT);
        Set<Long> pids = new HashSet<>();
        for (String line : r.text().split("\n")) {
            if (line.matches("[0-9]{1,18}")) {
                pids.add(Long.parseLong(line));
            }
        }
        return pids;
    }

    @Override
    public void open(TrialEvents events) {
        this.events = events;
    }

    @Override
    public boolean canStart() {
        return !candidates().isEmpty();
    }

    /** The up machines that could take a trial now, the one to use first. */
    private List<Host> candidates() {
        Instant now = clock.instant();
        List<Host> out = new ArrayList<>();
        for (Host h : hosts) {
            if (h.down != null || h.session == null) {
                continue;
            }
            if (h.askedAt != null && !now.isBefore(h.askedAt.plus(POLL_OVERDUE))) {
                // it may hang: a start there could hold up the manager
                continue;
            }
            if (h.gpus != null && !h.gpus.fits()) {
                continue;
            }
            out.add(h);
        }
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
                down(h, e.getMessage());
            }
        }
        throw new IOException(failures.isEmpty() ? "no machine can take a trial now" : String.join("; ", failures));
    }

    private Placement start(Host h, TrialLaunch trial, GpuAllocation allocation) throws IOException {
        String dir = h.root + "/trials/" + trial.trialJobId();
        Map<String, String> env = new LinkedHashMap<>();
        env.put("CUDA_VISIBLE_DEVICES", allocation == null ? null : String.join(",", allocation.gpuIndices().stream().map(String::valueOf).toList()));
        String command = context.trialCommand();
        if (h.machine.pythonPath() != null) {
            // as NNI's remote service: pythonPath goes before PATH
            command = "export PATH=" + quote(h.machine.pythonPath()) + ":\"$PATH\"\n" + command;
        }
        String script = TrialScript.bash(trial, "remote", command, h.root + "/code", dir, env);
        String line = "mkdir -p " + quote(dir + "/.nni") + " && printf '%s' " + quote(trial.parameterRecord()) + " > "
                + quote(dir + "/" + TrialScript.PARAMETERS) + " && printf '%s' " + quote(script) + " > " + quote(dir + "/run.sh")
                + " && cd " + quote(dir) + " && { nohup setsid bash " + quote(dir + "/run.sh") + " >/dev/null 2>&1 </dev/null & echo $!; }";
        Ssh.Result r;
        try {
            r = Ssh.exec(h.session, line, null, START_TIMEOUT);
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
        Path local = context.experimentDirectory().resolve("trials").resolve(trial.trialJobId());
        Files.createDirectories(local.resolve(".nni"));
        Files.writeString(local.resolve(TrialScript.PARAMETERS), trial.parameterRecord());
        trials.put(trial.trialJobId(), new Remote(trial.trialJobId(), h, dir, pid, local, null));
        h.running++;
        h.lastContact = clock.instant();
        return new Placement(h.machine.name() + "|" + pid + "|" + dir, h.machine.name(), allocation == null ? null : allocation.gpuIndices());
    }

    @Override
    public void sendParameters(String trialJobId, String parameterRecord, int index, boolean byFile) {
        // the file channel: a trial reads parameter.cfg, written before it started
    }

    @Override
    public void stop(String trialJobId, Duration grace) {
        Remote t = trials.get(trialJobId);
        if (t == null || t.ended) {
            return;
        }
        t.stopping = true;
        t.killAt = clock.instant().plus(grace);
        Host h = t.host;
        if (h.down == null && h.session != null) {
            ClientSession session = h.session;
            String command = "kill -INT -- -" + t.pid + " 2>/dev/null; true";
            submit(h, () -> {
                try {
                    Ssh.exec(session, command, null, POLL_TIMEOUT);
                } catch (IOException | RuntimeException e) {
                    String why = message(e);
                    answers.add(() -> {
                        if (h.session == session && h.down == null) {
                            down(h, why);
                        }
                    });
                }
            });
        }
    }

    @Override
    public Duration pollInterval() {
        return APPLY_INTERVAL;
    }

    /**
     * Applies the answers the workers brought (copies, metrics, ends, machines down or back), gives up the
     * trials of machines silent for {@link #LOST_AFTER}, and hands each machine without a command in flight
     * its next poll or reconnect. Waits for no machine.
     */
    @Override
    public void poll() {
        applyAnswers();
        Instant now = clock.instant();
        for (Host h : hosts) {
            List<Remote> mine = live(h);
            if (h.down != null) {
                if (h.askedAt == null && !now.isBefore(h.lastAttempt.plus(retryEvery))) {
                    reconnect(h, now);
                }
                loseTrialsOf(h, now);
                continue;
            }
            if (h.askedAt != null) {
                Instant silentSince = h.lastContact != null && h.lastContact.isAfter(h.askedAt) ? h.lastContact : h.askedAt;
                if (!mine.isEmpty() && !now.isBefore(silentSince.plus(lostAfter))) {
                    down(h, "no answer to a poll for " + Duration.between(h.askedAt, now).toSeconds() + " s");
                    loseTrialsOf(h, now);
                }
                continue;
            }
            boolean gpusDue = rereadsGpus(h) && !now.isBefore(h.lastGpuRead.plus(GPU_REREAD));
            boolean pollDue = !mine.isEmpty() && (gpusDue || h.lastPoll == null || !now.isBefore(h.lastPoll.plus(pollEvery)));
            if (pollDue || gpusDue) {
                ask(h, pollDue ? mine : List.of(), gpusDue, now);
            }
        }
    }

    private List<Remote> live(Host h) {
        return trials.values().stream().filter(t -> t.host == h && !t.ended).toList();
    }

    /** True when the machine's GPUs are read again while the experiment runs: as the local service, when busy GPUs are skipped. */
    private boolean rereadsGpus(Host h) {
        return h.gpus != null && !h.machine.useActiveGpu() && trialGpuNumber != null && trialGpuNumber > 0;
    }

    private void applyAnswers() {
        Runnable r;
        while ((r = answers.poll()) != null) {
            r.run();
        }
    }

    /** Runs {@code task} on the machine's worker; nothing is run once the service is closed. */
    private void submit(Host h, Runnable task) {
        if (closed) {
            return;
        }
        if (h.worker == null) {
            String name = "tunekit-ssh-" + h.machine.address();
            h.worker = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, name);
                t.setDaemon(true);
                return t;
            });
        }
        try {
            h.worker.execute(task);
        } catch (RejectedExecutionException e) {
            // closed meanwhile
        }
    }

    /** Sends the machine a poll of {@code mine} (when any) and a reading of its GPUs (when {@code gpus}); applied in {@link #answered}. */
    private void ask(Host h, List<Remote> mine, boolean gpus, Instant now) {
        ClientSession session = h.session;
        Machine machine = h.machine;
        List<Asked> asked = mine.stream().map(t -> new Asked(t, t.jobId, t.fetched, t.stdoutFetched)).toList();
        String command = asked.isEmpty() ? null : batch(asked, now);
        Set<Long> trialSessions = mine.stream().map(t -> t.pid).collect(Collectors.toUnmodifiableSet());
        h.askedAt = now;
        if (command != null) {
            h.lastPoll = now;
        }
        if (gpus) {
            h.lastGpuRead = now;
        }
        submit(h, () -> {
            Answer answer;
            try {
                answer = askNow(session, machine, asked, command, gpus, trialSessions);
            } catch (RuntimeException e) {
                answer = new Answer(List.of(), message(e), null, null, null);
            }
            Answer a = answer;
            answers.add(() -> answered(h, session, a));
        });
    }

    /** On the worker: the poll, then the GPUs. */
    private static Answer askNow(ClientSession session, Machine machine, List<Asked> asked, String command, boolean gpus,
                                 Set<Long> trialSessions) {
        List<Report> reports = List.of();
        if (command != null) {
            try {
                reports = parse(asked, Ssh.exec(session, command, null, POLL_TIMEOUT).stdout(), machine.address());
            } catch (IOException e) {
                return new Answer(List.of(), e.getMessage(), null, null, null);
            }
        }
        if (!gpus) {
            return new Answer(reports, null, null, null, null);
        }
        try {
            List<Gpu> read = NvidiaSmi.read(c -> nvidiaSmi(session, machine, c, POLL_TIMEOUT));
            return new Answer(reports, null, read, ownProcesses(session, trialSessions), null);
        } catch (NvidiaSmiException e) {
            return new Answer(reports, null, null, null, e.getMessage());
        } catch (IOException e) {
            return new Answer(reports, null, null, null, "could not list the trials' processes on " + machine.address() + ": " + e.getMessage());
        }
    }

    /** On the manager's thread: what a poll brought. An answer from a session given up meanwhile is dropped. */
    private void answered(Host h, ClientSession session, Answer a) {
        h.askedAt = null;
        if (h.session != session || h.down != null) {
            return;
        }
        if (a.failure() != null) {
            down(h, a.failure());
            return;
        }
        h.lastContact = clock.instant();
        for (Report r : a.reports()) {
            apply(r);
        }
        if (a.gpus() != null) {
            try {
                h.gpus.refresh(a.gpus(), a.own());
                if (h.gpuReadFailing) {
                    h.gpuReadFailing = false;
                    LOG.info("the GPUs of {} are read again", h.machine.address());
                }
            } catch (IllegalStateException | IllegalArgumentException e) {
                gpuReadFailed(h, e.getMessage());
            }
        } else if (a.gpuFailure() != null) {
            gpuReadFailed(h, a.gpuFailure());
        }
    }

    private static void gpuReadFailed(Host h, String why) {
        if (!h.gpuReadFailing) {
            h.gpuReadFailing = true;
            LOG.warn("cannot read the GPUs of {} again, going on with the last reading: {}", h.machine.address(), why);
        }
    }

    /** The one command that reports on all of a machine's trials (and kills those past their grace); its answer ends with {@link #END}. */
    private static String batch(List<Asked> asked, Instant now) {
        StringBuilder b = new StringBuilder();
        for (Asked a : asked) {
            Remote t = a.trial();
            String d = quote(t.dir);
            if (t.killAt != null && !now.isBefore(t.killAt)) {
                b.append(killGroups(List.of(t.pid)));
            }
            // alive first, then the exit file, then the sizes: a trial that ended has all its metrics in the size read
            b.append("a=0; st=; { read -r _ _ st _ < /proc/").append(t.pid).append("/stat; } 2>/dev/null; ")
                    .append("[ -n \"$st\" ] && [ \"$st\" != Z ] && a=1; ")
                    .append("e=$(cat ").append(d).append("/.nni/exit 2>/dev/null); ")
                    .append("s=$(stat -c %s ").append(d).append("/.nni/metrics 2>/dev/null || echo 0); ")
                    .append("o=$(stat -c %s ").append(d).append("/trial.stdout 2>/dev/null || echo 0); ")
                    // its stderr comes whole once it ended
                    .append("r=-1; if [ -n \"$e\" ] || [ $a = 0 ]; then r=$(stat -c %s ").append(d).append("/trial.stderr 2>/dev/null || echo 0); fi; ")
                    .append("printf '@@%s %s %s %s %s %s\\n' ").append(t.jobId).append(" $a \"${e:--}\" \"$s\" \"$o\" \"$r\"; ")
                    .append("if [ \"$s\" -gt ").append(a.fetched()).append(" ]; then tail -c +").append(a.fetched() + 1).append(' ')
                    .append(d).append("/.nni/metrics | head -c $((s - ").append(a.fetched()).append(")); fi; ")
                    .append("if [ \"$o\" -gt ").append(a.stdoutFetched()).append(" ]; then tail -c +").append(a.stdoutFetched() + 1).append(' ')
                    .append(d).append("/trial.stdout | head -c $((o - ").append(a.stdoutFetched()).append(")); fi; ")
                    .append("if [ \"$r\" -gt 0 ]; then head -c \"$r\" ").append(d).append("/trial.stderr; fi; ");
        }
        b.append("printf '@@end\\n'");
        return b.toString();
    }

    /**
     * Takes a poll's answer apart, trial by trial. Runs on the worker.
     *
     * @throws IOException when the answer was cut short (the session failed)
     */
    private static List<Report> parse(List<Asked> asked, byte[] out, String address) throws IOException {
        if (out.length < END.length || !Arrays.equals(out, out.length - END.length, out.length, END, 0, END.length)) {
            throw new IOException("machine " + address + ": the answer to a poll was cut short");
        }
        int limit = out.length - END.length;
        int pos = 0;
        List<Report> reports = new ArrayList<>();
        for (Asked a : asked) {
            int nl = indexOf(out, (byte) '\n', pos, limit);
            if (nl < 0) {
                LOG.warn("short answer from {} for trial {}", address, a.jobId());
                break;
            }
            String[] f = new String(out, pos, nl - pos, StandardCharsets.UTF_8).split(" ");
            pos = nl + 1;
            long metrics;
            long printed;
            long errors;
            try {
                if (f.length != 6 || !f[0].equals("@@" + a.jobId())) {
                    throw new NumberFormatException();
                }
                metrics = Long.parseLong(f[3]);
                printed = Long.parseLong(f[4]);
                errors = Long.parseLong(f[5]);
            } catch (NumberFormatException e) {
                LOG.warn("unexpected answer from {}: {}", address, String.join(" ", f));
                break;
            }
            int fresh = (int) Math.max(0, Math.min(metrics - a.fetched(), limit - pos));
            byte[] m = Arrays.copyOfRange(out, pos, pos + fresh);
            pos += fresh;
            int more = (int) Math.max(0, Math.min(printed - a.stdoutFetched(), limit - pos));
            byte[] o = Arrays.copyOfRange(out, pos, pos + more);
            pos += more;
            byte[] err = null;
            if (errors >= 0) {
                int n = (int) Math.min(errors, limit - pos);
                err = Arrays.copyOfRange(out, pos, pos + n);
                pos += n;
            }
            reports.add(new Report(a, f[1].equals("1"), f[2].equals("-") ? null : f[2], m, o, err));
        }
        return reports;
    }

    /** A trial's report: new metric bytes to the mirrors and on to the manager, its end as an exit. */
    private void apply(Report r) {
        Remote t = r.asked().trial();
        if (t.ended || trials.get(t.jobId) != t || t.fetched != r.asked().fetched() || t.stdoutFetched != r.asked().stdoutFetched()) {
            return;
        }
        append(t, TrialScript.METRICS, r.metrics());
        t.fetched += r.metrics().length;
        append(t, TrialScript.STDOUT, r.stdout());
        t.stdoutFetched += r.stdout().length;
        deliver(t, false);
        if (r.stderr() != null) {
            try {
                Files.write(t.local.resolve(TrialScript.STDERR), r.stderr());
            } catch (IOException e) {
                LOG.warn("could not keep the stderr of trial {} in {}: {}", t.jobId, t.local, e.getMessage());
            }
        }
        if (r.exit() != null) {
            end(t, parseStatus(r.exit()));
        } else if (!r.alive()) {
            // gone without writing its status: killed (by us after the grace, or by someone on the machine)
            end(t, t.stopping ? 130 : 137);
        }
    }

    private void append(Remote t, String name, byte[] b) {
        if (b.length == 0) {
            return;
        }
        try {
            Files.write(t.local.resolve(name), b, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            events.problem(t.jobId, "could not keep its " + name + " in " + t.local + ": " + e.getMessage());
        }
    }

    private static int parseStatus(String text) {
        try {
            return Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            return 255;
        }
    }

    private void end(Remote t, int status) {
        t.ended = true;
        events.exited(t.jobId, status);
    }

    /**
     * Hands the manager the metrics read since the last call: the frames of the metrics file, and the
     * lines {@code NNISDK_MEb'...'} of stdout (how NNI's {@code nni} package reports on a platform other
     * than {@code local}).
     */
    private void deliver(Remote t, boolean atEnd) {
        t.metrics.deliver(events, atEnd);
    }

    /** Frees what the trial held and hands on what its copies hold still; no network (its stderr came with its end). */
    @Override
    public void collect(String trialJobId) {
        Remote t = trials.remove(trialJobId);
        if (t == null) {
            return;
        }
        t.host.running--;
        if (t.host.gpus != null) {
            t.host.gpus.release(trialJobId);
        }
        deliver(t, true);
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
        if (h.down != null || h.session == null) {
            // its parameters run again elsewhere: should it still run there, it is killed when the machine is back
            h.leftovers.add(pid);
            return new Reattached(false, "its machine " + h.machine.address() + " cannot be reached: " + h.down);
        }
        String dir = handle[2];
        Ssh.Result r;
        try {
            r = Ssh.exec(h.session, "st=; { read -r _ _ st _ < /proc/" + pid + "/stat; } 2>/dev/null; [ -n \"$st\" ] && [ \"$st\" != Z ] && echo alive; "
                    + "[ -e " + quote(dir + "/" + TrialScript.EXIT) + " ] && echo ended; true", null, START_TIMEOUT);
        } catch (IOException e) {
            down(h, e.getMessage());
            h.leftovers.add(pid);
            return new Reattached(false, "its machine " + h.machine.address() + " cannot be reached: " + e.getMessage());
        }
        String said = r.text();
        if (!said.contains("alive") && !said.contains("ended")) {
            return new Reattached(false, "it no longer runs on " + h.machine.name() + " and left no exit status");
        }
        Path local = context.experimentDirectory().resolve("trials").resolve(stored.trialJobId());
        Remote t;
        try {
            Files.createDirectories(local.resolve(".nni"));
            t = new Remote(stored.trialJobId(), h, dir, pid, local, stored);
        } catch (IOException e) {
            return new Reattached(false, "its metrics kept in " + local + " cannot be read: " + e.getMessage());
        }
        if (h.gpus != null && stored.gpus() != null) {
            h.gpus.restore(stored.trialJobId(), stored.gpus());
        }
        trials.put(stored.trialJobId(), t);
        h.running++;
        h.lastContact = clock.instant();
        return new Reattached(true, (said.contains("alive") ? "still running" : "ended while the runner was stopped") + " on "
                + h.machine.name() + " as process " + pid + "; its metrics after the " + t.metrics.skipping() + " handled before are handed on");
    }

    private static long size(Path file) throws IOException {
        return Files.exists(file) ? Files.size(file) : 0;
    }

    /** The machine is given up until a reconnect: its session is closed, which also ends a command of its that hangs. */
    private void down(Host h, String why) {
        if (h.down == null) {
            LOG.warn("machine {} does not answer: {}", h.machine.address(), why);
        }
        h.down = why == null ? "no answer" : why;
        if (h.lastAttempt == null) {
            h.lastAttempt = clock.instant();
        }
        if (h.session != null) {
            h.session.close(true);
            h.session = null;
        }
    }

    /** Sends the worker a reconnect (with the kill of the machine's leftovers); applied in {@link #reconnected}. */
    private void reconnect(Host h, Instant now) {
        h.lastAttempt = now;
        h.askedAt = now;
        List<Long> leftovers = List.copyOf(h.leftovers);
        Ssh client = ssh;
        submit(h, () -> {
            ClientSession s = null;
            try {
                s = client.connect(h.machine);
                String root = root(s, h.machine);
                if (!leftovers.isEmpty()) {
                    // its trials were given up and run again elsewhere: the old processes must not run on
                    Ssh.exec(s, killGroups(leftovers) + "true", null, COMMAND_TIMEOUT);
                }
                ClientSession opened = s;
                answers.add(() -> reconnected(h, opened, root, leftovers, null));
            } catch (IOException | RuntimeException e) {
                if (s != null) {
                    s.close(true);
                }
                String why = message(e);
                answers.add(() -> reconnected(h, null, null, leftovers, why));
            }
        });
    }

    private void reconnected(Host h, ClientSession s, String root, List<Long> killed, String failure) {
        h.askedAt = null;
        if (failure != null) {
            h.down = failure;
            return;
        }
        if (closed) {
            s.close(true);
            return;
        }
        attach(h, s, root);
        h.leftovers.removeAll(killed);
        LOG.info("machine {} answers again", h.machine.address());
    }

    private void loseTrialsOf(Host h, Instant now) {
        if (h.lastContact != null && Duration.between(h.lastContact, now).compareTo(lostAfter) < 0) {
            return;
        }
        for (Remote t : List.copyOf(trials.values())) {
            if (t.host == h && !t.ended) {
                t.ended = true;
                h.leftovers.add(t.pid);
                events.lost(t.jobId, "machine " + h.machine.name() + " did not answer for " + lostAfter.toSeconds() + " s (" + h.down + ")");
            }
        }
    }

    /** The shell commands that kill these trials' process groups (each trial leads its own), each ending with "; ". */
    private static String killGroups(List<Long> pids) {
        StringBuilder b = new StringBuilder();
        for (long pid : pids) {
            b.append("kill -KILL -- -").append(pid).append(" 2>/dev/null; ");
        }
        return b.toString();
    }

    private static String message(Throwable e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    /** Kills the trials still running, on all machines at once and waiting {@link #CLOSE_TIMEOUT} at most, then drops the connections. */
    @Override
    public void close() {
        closed = true;
        List<Thread> kills = new ArrayList<>();
        for (Host h : hosts) {
            List<Remote> mine = live(h);
            if (h.session != null && h.down == null && !mine.isEmpty()) {
                String kill = killGroups(mine.stream().map(t -> t.pid).toList()) + "true";
                ClientSession session = h.session;
                Thread killer = new Thread(() -> {
                    try {
                        Ssh.exec(session, kill, null, CLOSE_TIMEOUT);
                    } catch (IOException | RuntimeException e) {
                        LOG.warn("could not stop the trials on {}: {}", h.machine.address(), message(e));
                    }
                }, "tunekit-ssh-close-" + h.machine.address());
                killer.setDaemon(true);
                killer.start();
                kills.add(killer);
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
        closed = true;
        disconnect();
    }

    private void disconnect() {
        for (Host h : hosts) {
            if (h.worker != null) {
                h.worker.shutdownNow();
            }
            if (h.session != null) {
                h.session.close(true);
                h.session = null;
            }
        }
        if (ssh != null) {
            ssh.close();
            ssh = null;
        }
        answers.clear();
    }

    /**
     * For tests: waits until each machine's worker has done what it was given (a bounded wait, in vain for a
     * machine that hangs) and applies the answers, so that a test's clock moves with nothing in flight.
     */
    void awaitAnswers() throws InterruptedException {
        for (Host h : hosts) {
            if (h.worker != null) {
                try {
                    h.worker.submit(() -> {}).get(30, TimeUnit.SECONDS);
                } catch (ExecutionException | TimeoutException | RejectedExecutionException e) {
                    // applied later, if at all
                }
            }
        }
        applyAnswers();
    }

    private static int indexOf(byte[] b, byte x, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] == x) {
                return i;
            }
        }
        return -1;
    }
}
