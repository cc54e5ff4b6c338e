package org.tunekit.remote;

import static org.tunekit.runner.manager.TrialScript.quote;

import java.io.ByteArrayInputStream;
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
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.sshd.client.session.ClientSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tunekit.dispatcher.protocol.JsonCodec;
import org.tunekit.gpus.Gpu;
import org.tunekit.gpus.GpuAllocation;
import org.tunekit.gpus.GpuScheduler;
import org.tunekit.gpus.GpuSettings;
import org.tunekit.gpus.NvidiaSmi;
import org.tunekit.gpus.NvidiaSmiException;
import org.tunekit.runner.MetricsFileReader;
import org.tunekit.runner.manager.MetricStream;
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
 * <ul>
 *   <li>{@link #check}: connects to every machine (a machine that cannot be reached is named with
 *       {@code host:port} and why), copies {@code trialCodeDirectory} once to
 *       {@code ~/tunekit-experiments/EXPID/code} there, and reads its GPUs with its {@code nvidia-smi} when
 *       {@code trialGpuNumber} is set.</li>
 *   <li>A trial goes to the up machine with the fewest trials that has the GPUs it needs (ties to the
 *       first in {@code machineList}); it runs in {@code ~/tunekit-experiments/EXPID/trials/JOBID}, in a session
 *       of its own, so that it outlives the SSH session and the runner.</li>
 *   <li>{@link #poll}: one command per machine reads, for all its trials, what was appended to their metrics
 *       files and stdout and whether they ended. What is read is appended to {@code trials/JOBID/.nni/metrics}
 *       and {@code trials/JOBID/trial.stdout} here and read from there (metrics frames, and the
 *       {@code NNISDK_MEb'...'} lines NNI's {@code nni} package prints off platform local). The experiment's
 *       store counts the frames the manager handled from each ({@link StoredTrial#framesRead}), so that a later
 *       runner that {@linkplain #reattach reattaches} reads the copies again and hands on only the ones after them.</li>
 *   <li>A machine that does not answer is tried again every {@link #RETRY_EVERY}; its trials are
 *       {@linkplain TrialEvents#lost lost} (their parameters run again elsewhere) after {@link #LOST_AFTER}
 *       without contact, and when it is back their processes, if they still run, are killed.</li>
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
    /** How long a poll waits for a machine's answer: the manager's loop waits that long for a machine gone silent. */
    static final Duration POLL_TIMEOUT = Duration.ofSeconds(15);
    static final Duration POLL_INTERVAL = Duration.ofMillis(1000);
    /** How NNI's {@code nni} package prints a metric on stdout on a platform other than {@code local}. */

    /** One machine and what this service knows of it. */
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
        final MetricsFileReader reader;
        /** Bytes of its metrics file and of its stdout copied here. */
        long fetched;
        long stdoutFetched;
        /** Bytes of the stdout copy whose lines were read for metrics. */
        long stdoutRead;
        /** Frames of the metrics file, and of the output, a previous manager handled: read again, not handed on. */
        int skipFile;
        int skipOutput;
        Instant killAt;
        boolean stopping;
        boolean ended;
        boolean problemTold;

        Remote(String jobId, Host host, String dir, long pid, Path local, long fetched) {
            this.jobId = jobId;
            this.host = host;
            this.dir = dir;
            this.pid = pid;
            this.local = local;
            this.fetched = fetched;
            this.reader = new MetricsFileReader(local.resolve(TrialScript.METRICS));
        }
    }

    private final TrainingServiceContext context;
    private final List<Host> hosts = new ArrayList<>();
    private final Double trialGpuNumber;
    private final Clock clock;
    private final Duration lostAfter;
    private final Duration retryEvery;
    private final Map<String, Remote> trials = new LinkedHashMap<>();
    private Ssh ssh;
    private TrialEvents events;

    RemoteMachines(TrainingServiceContext context) {
        this(context, Clock.systemUTC(), LOST_AFTER, RETRY_EVERY);
    }

    /** For tests: another clock and other times. */
    RemoteMachines(TrainingServiceContext context, Clock clock, Duration lostAfter, Duration retryEvery) {
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
                    List<Gpu> gpus = NvidiaSmi.read(command -> nvidiaSmi(h, command));
                    h.gpus = new GpuScheduler(gpus, settings(h.machine));
                    h.gpus.validate();
                }
            } catch (IOException e) {
                throw new IllegalArgumentException("trainingService.machineList[" + h.machine.index() + "] (" + h.machine.address() + "): "
                        + e.getMessage(), e);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("trainingService.machineList[" + h.machine.index() + "] (" + h.machine.address() + "): "
                        + e.getMessage(), e);
            }
        }
        if (!unreachable.isEmpty()) {
            throw new IllegalArgumentException("trainingService.machineList: cannot reach " + String.join("; ", unreachable));
        }
    }

    /** Connects (again) and learns where the experiment's folder is there. */
    private void connect(Host h) throws IOException {
        h.lastAttempt = clock.instant();
        if (h.session != null) {
            h.session.close(true);
            h.session = null;
        }
        ClientSession s = ssh.connect(h.machine);
        Ssh.Result home = Ssh.exec(s, "printf '%s' \"$HOME\"", null, COMMAND_TIMEOUT);
        if (home.status() != 0 || home.text().isBlank()) {
            s.close(true);
            throw new IOException("machine " + h.machine.address() + ": could not read $HOME there (status " + home.status() + ": "
                    + home.stderr().strip() + ")");
        }
        h.session = s;
        h.root = home.text() + "/tunekit-experiments/" + context.experimentId();
        h.down = null;
        h.lastContact = clock.instant();
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

    private String nvidiaSmi(Host h, List<String> command) throws NvidiaSmiException {
        String line = "command -v nvidia-smi >/dev/null 2>&1 || exit 97; " + String.join(" ", command.stream().map(TrialScript::quote).toList());
        try {
            Ssh.Result r = Ssh.exec(h.session, line, null, COMMAND_TIMEOUT);
            if (r.status() == 97) {
                return null;
            }
            if (r.status() != 0) {
                throw new NvidiaSmiException("'" + String.join(" ", command) + "' on " + h.machine.address() + " exited with status "
                        + r.status() + ": " + r.stderr().strip());
            }
            return r.text();
        } catch (IOException e) {
            throw new NvidiaSmiException("'" + String.join(" ", command) + "' on " + h.machine.address() + " could not be run: "
                    + e.getMessage(), e);
        }
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
        List<Host> out = new ArrayList<>();
        for (Host h : hosts) {
            if (h.down != null || h.session == null) {
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
            r = Ssh.exec(h.session, line, null, COMMAND_TIMEOUT);
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
        trials.put(trial.trialJobId(), new Remote(trial.trialJobId(), h, dir, pid, local, 0));
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
        if (t.host.down == null) {
            try {
                Ssh.exec(t.host.session, "kill -INT -- -" + t.pid + " 2>/dev/null; true", null, COMMAND_TIMEOUT);
            } catch (IOException e) {
                down(t.host, e.getMessage());
            }
        }
    }

    @Override
    public Duration pollInterval() {
        return POLL_INTERVAL;
    }

    @Override
    public void poll() {
        Instant now = clock.instant();
        for (Host h : hosts) {
            if (h.down != null) {
                if (!now.isBefore(h.lastAttempt.plus(retryEvery))) {
                    reconnect(h);
                }
                if (h.down != null) {
                    loseTrialsOf(h, now);
                    continue;
                }
            }
            List<Remote> mine = trials.values().stream().filter(t -> t.host == h && !t.ended).toList();
            if (mine.isEmpty()) {
                continue;
            }
            Ssh.Result r;
            try {
                r = Ssh.exec(h.session, batch(mine, now), null, POLL_TIMEOUT);
            } catch (IOException e) {
                down(h, e.getMessage());
                continue;
            }
            h.lastContact = clock.instant();
            read(mine, r.stdout());
        }
    }

    /** The one command that reports on all of a machine's trials (and kills those past their grace). */
    private static String batch(List<Remote> mine, Instant now) {
        StringBuilder b = new StringBuilder();
        for (Remote t : mine) {
            String d = quote(t.dir);
            if (t.killAt != null && !now.isBefore(t.killAt)) {
                b.append("kill -KILL -- -").append(t.pid).append(" 2>/dev/null; ");
            }
            // alive first, then the exit file, then the size: a trial that ended has all its metrics in the size read
            b.append("a=0; st=; { read -r _ _ st _ < /proc/").append(t.pid).append("/stat; } 2>/dev/null; ")
                    .append("[ -n \"$st\" ] && [ \"$st\" != Z ] && a=1; ")
                    .append("e=$(cat ").append(d).append("/.nni/exit 2>/dev/null); ")
                    .append("s=$(stat -c %s ").append(d).append("/.nni/metrics 2>/dev/null || echo 0); ")
                    .append("o=$(stat -c %s ").append(d).append("/trial.stdout 2>/dev/null || echo 0); ")
                    .append("printf '@@%s %s %s %s %s\\n' ").append(t.jobId).append(" $a \"${e:--}\" \"$s\" \"$o\"; ")
                    .append("if [ \"$s\" -gt ").append(t.fetched).append(" ]; then tail -c +").append(t.fetched + 1).append(' ')
                    .append(d).append("/.nni/metrics | head -c $((s - ").append(t.fetched).append(")); fi; ")
                    .append("if [ \"$o\" -gt ").append(t.stdoutFetched).append(" ]; then tail -c +").append(t.stdoutFetched + 1).append(' ')
                    .append(d).append("/trial.stdout | head -c $((o - ").append(t.stdoutFetched).append(")); fi; ");
        }
        b.append("true");
        return b.toString();
    }

    /** Takes a batch's answer apart: new metric bytes to the mirrors and on to the manager, ends as exits. */
    private void read(List<Remote> mine, byte[] out) {
        int pos = 0;
        for (Remote expected : mine) {
            int nl = indexOf(out, (byte) '\n', pos);
            if (nl < 0) {
                LOG.warn("short answer from {} for trial {}", expected.host.machine.address(), expected.jobId);
                return;
            }
            String[] f = new String(out, pos, nl - pos, StandardCharsets.UTF_8).split(" ");
            pos = nl + 1;
            if (f.length != 5 || !f[0].equals("@@" + expected.jobId)) {
                LOG.warn("unexpected answer from {}: {}", expected.host.machine.address(), String.join(" ", f));
                return;
            }
            int fresh = (int) Math.max(0, Math.min(Long.parseLong(f[3]) - expected.fetched, out.length - pos));
            append(expected, TrialScript.METRICS, out, pos, fresh);
            expected.fetched += fresh;
            pos += fresh;
            int printed = (int) Math.max(0, Math.min(Long.parseLong(f[4]) - expected.stdoutFetched, out.length - pos));
            append(expected, TrialScript.STDOUT, out, pos, printed);
            expected.stdoutFetched += printed;
            pos += printed;
            deliver(expected, false);
            if (!f[2].equals("-")) {
                end(expected, parseStatus(f[2]));
            } else if (f[1].equals("0")) {
                // gone without writing its status: killed (by us after the grace, or by someone on the machine)
                end(expected, expected.stopping ? 130 : 137);
            }
        }
    }

    private void append(Remote t, String name, byte[] b, int from, int n) {
        if (n == 0) {
            return;
        }
        try {
            Files.write(t.local.resolve(name), java.util.Arrays.copyOfRange(b, from, from + n), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
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
     * than {@code local}). The frames a previous manager handled (counted in the store) are skipped.
     */
    private void deliver(Remote t, boolean atEnd) {
        List<String> frames;
        try {
            frames = atEnd ? t.reader.finish() : t.reader.poll();
        } catch (IOException e) {
            events.problem(t.jobId, "could not read " + t.local.resolve(TrialScript.METRICS) + ": " + e.getMessage());
            frames = List.of();
        }
        for (String frame : frames) {
            hand(t, frame, MetricStream.FILE);
        }
        if (t.reader.problem() != null && !t.problemTold) {
            t.problemTold = true;
            events.problem(t.jobId, t.reader.problem());
        }
        readStdout(t, atEnd);
    }

    private void readStdout(Remote t, boolean atEnd) {
        if (t.stdoutFetched <= t.stdoutRead) {
            return;
        }
        // the mirror holds exactly what was fetched: read its new lines, from where the manager has them
        org.tunekit.runner.PrintedMetrics printed = new org.tunekit.runner.PrintedMetrics(t.local.resolve(TrialScript.STDOUT), t.stdoutRead);
        try {
            for (org.tunekit.runner.PrintedMetrics.Metric m : printed.poll(atEnd)) {
                hand(t, m.text(), MetricStream.OUTPUT);
            }
        } catch (IOException e) {
            LOG.warn("could not read {}: {}", t.local.resolve(TrialScript.STDOUT), e.getMessage());
            return;
        }
        t.stdoutRead = printed.consumed();
    }

    private void hand(Remote t, String text, MetricStream from) {
        if (from == MetricStream.FILE && t.skipFile > 0) {
            t.skipFile--;
            return;
        }
        if (from == MetricStream.OUTPUT && t.skipOutput > 0) {
            t.skipOutput--;
            return;
        }
        try {
            events.metric(t.jobId, text, from);
        } catch (IllegalArgumentException e) {
            // the manager recorded what is wrong with it
        }
    }

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
        if (t.host.down == null) {
            for (String name : List.of(TrialScript.STDERR)) {
                try {
                    Ssh.Result r = Ssh.exec(t.host.session, "cat " + quote(t.dir + "/" + name) + " 2>/dev/null; true", null, COMMAND_TIMEOUT);
                    Files.write(t.local.resolve(name), r.stdout());
                } catch (IOException e) {
                    LOG.warn("could not copy {} of trial {} from {}: {}", name, trialJobId, t.host.machine.address(), e.getMessage());
                }
            }
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
                    + "[ -e " + quote(dir + "/" + TrialScript.EXIT) + " ] && echo ended; true", null, COMMAND_TIMEOUT);
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
            t = new Remote(stored.trialJobId(), h, dir, pid, local, size(local.resolve(TrialScript.METRICS)));
            t.stdoutFetched = size(local.resolve(TrialScript.STDOUT));
            t.skipFile = stored.framesRead(MetricStream.FILE);
            t.skipOutput = stored.framesRead(MetricStream.OUTPUT);
        } catch (IOException e) {
            return new Reattached(false, "its metrics kept in " + local + " cannot be read: " + e.getMessage());
        }
        if (h.gpus != null && stored.gpus() != null) {
            h.gpus.restore(stored.trialJobId(), stored.gpus());
        }
        trials.put(stored.trialJobId(), t);
        h.running++;
        return new Reattached(true, (said.contains("alive") ? "still running" : "ended while the runner was stopped") + " on "
                + h.machine.name() + " as process " + pid + "; its metrics after the " + (t.skipFile + t.skipOutput) + " handled before are handed on");
    }

    private static long size(Path file) throws IOException {
        return Files.exists(file) ? Files.size(file) : 0;
    }

    private void down(Host h, String why) {
        if (h.down == null) {
            LOG.warn("machine {} does not answer: {}", h.machine.address(), why);
        }
        h.down = why == null ? "no answer" : why;
        if (h.lastAttempt == null) {
            h.lastAttempt = clock.instant();
        }
    }

    private void reconnect(Host h) {
        try {
            connect(h);
            if (!h.leftovers.isEmpty()) {
                // its trials were given up and run again elsewhere: the old processes must not run on
                StringBuilder b = new StringBuilder();
                for (long pid : h.leftovers) {
                    b.append("kill -KILL -- -").append(pid).append(" 2>/dev/null; ");
                }
                Ssh.exec(h.session, b + "true", null, COMMAND_TIMEOUT);
                h.leftovers.clear();
            }
            LOG.info("machine {} answers again", h.machine.address());
        } catch (IOException e) {
            h.lastAttempt = clock.instant();
            h.down = e.getMessage();
        }
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

    @Override
    public void close() {
        for (Host h : hosts) {
            List<Remote> mine = trials.values().stream().filter(t -> t.host == h && !t.ended).toList();
            if (h.session != null && h.down == null && !mine.isEmpty()) {
                StringBuilder b = new StringBuilder();
                for (Remote t : mine) {
                    b.append("kill -KILL -- -").append(t.pid).append(" 2>/dev/null; ");
                }
                try {
                    Ssh.exec(h.session, b + "true", null, COMMAND_TIMEOUT);
                } catch (IOException e) {
                    LOG.warn("could not stop the trials on {}: {}", h.machine.address(), e.getMessage());
                }
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
    }

    /** Drops the connections and leaves every trial running, as a runner killed with {@code kill -9} does (for tests). */
    void abandon() {
        for (Host h : hosts) {
            if (h.session != null) {
                h.session.close(true);
                h.session = null;
            }
        }
        if (ssh != null) {
            ssh.close();
            ssh = null;
        }
    }

    private static int indexOf(byte[] b, byte x, int from) {
        for (int i = from; i < b.length; i++) {
            if (b[i] == x) {
                return i;
            }
        }
        return -1;
    }

    /** Unused input for commands that read none. */
    static InputStream none() {
        return new ByteArrayInputStream(new byte[0]);
    }
}
