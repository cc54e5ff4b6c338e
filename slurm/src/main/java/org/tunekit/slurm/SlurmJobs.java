package org.tunekit.slurm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tunekit.runner.TrialMetricFiles;
import org.tunekit.runner.manager.Placement;
import org.tunekit.runner.manager.StoredTrial;
import org.tunekit.runner.manager.TrainingService;
import org.tunekit.runner.manager.TrainingServiceContext;
import org.tunekit.runner.manager.TrialEvents;
import org.tunekit.runner.manager.TrialLaunch;
import org.tunekit.runner.manager.TrialScript;
import org.tunekit.runner.results.TrialStatus;

/**
 * Each trial one Slurm job, submitted with {@code sbatch}: the script {@link TrialScript} makes, run in
 * the trial's folder {@code trials/JOBID} on the shared directory, where it reads its parameters and
 * writes its metrics and its exit status. NNI's {@code nni} package (2.x and 3), seeing {@code NNI_PLATFORM}
 * other than {@code local}, prints its metrics to the output (read by {@link org.tunekit.runner.TrialMetricFiles}); other trials
 * append them to NNI's metrics file; both are read. Nothing on the nodes connects to the runner:
 * {@link #poll} reads those files, and asks Slurm (one {@code squeue}, and one {@code sacct} for jobs
 * {@code squeue} has forgotten, every {@code pollInterval}) how the jobs stand.
 *
 * <p>A job that wrote its exit status ended with it. One that ended without (its Slurm state final on
 * two queries in a row, so that an exit file on its way through a network file system is not missed)
 * ends as Slurm says, and so does one whose status says a signal ended it (above 128) when Slurm ended
 * the job itself: Slurm signals the job's processes one after the other, and the script may see the
 * trial die of SIGTERM and write 143 before its own SIGTERM comes (a signal status is taken once Slurm's
 * state is final, unless Tunekit stopped the trial). NODE_FAIL, PREEMPTED, BOOT_FAIL, REVOKED
 * {@linkplain TrialEvents#ended lost} (its parameters run again; jobs are submitted with
 * {@code --no-requeue} so that Slurm does not run the same trial twice), CANCELLED by someone else and
 * TIMEOUT USER_CANCELED, anything else FAILED with the state in the message. A job Slurm no longer knows and that left no exit status is lost.
 *
 * <p>Metrics are delivered once: the experiment's store counts the frames the manager handled from each
 * file with the metric itself ({@link StoredTrial#framesRead}), and a manager that
 * {@linkplain #reattach reattaches} reads the files again and skips that many of each.
 *
 * <p>The handle kept for a trial is {@code SLURMID@FOLDER}.
 */
final class SlurmJobs implements TrainingService {
    private static final Logger LOG = LoggerFactory.getLogger(SlurmJobs.class);
    static final String SCRIPT = "slurm.sh";
    static final String OUTPUT = "slurm.out";
    static final Set<String> ACTIVE = Set.of("PENDING", "RUNNING", "CONFIGURING", "COMPLETING", "SUSPENDED", "REQUEUED", "REQUEUE_HOLD",
            "REQUEUE_FED", "RESIZING", "SIGNALING", "STAGE_OUT", "STOPPED", "RESV_DEL_HOLD", "SPECIAL_EXIT");
    static final Set<String> LOST = Set.of("NODE_FAIL", "PREEMPTED", "BOOT_FAIL", "REVOKED");

    private final TrainingServiceContext context;
    private final SlurmSettings settings;
    private final SlurmCommands commands;
    private final String user = System.getProperty("user.name");
    private final Map<String, Job> jobs = new LinkedHashMap<>();
    private TrialEvents events;
    private long lastQuery;
    private boolean queried;

    /** One trial's job and what is known of it. */
    private static final class Job {
        final String trialJobId;
        final String slurmId;
        final Path dir;
        final TrialMetricFiles metrics;
        String state;
        int finalSeen;
        int missing;
        boolean stopRequested;
        long killAt;

        /** @param before the trial as the store holds it, for a job taken back after a restart, else {@code null} */
        Job(String trialJobId, String slurmId, Path dir, StoredTrial before) {
            this.trialJobId = trialJobId;
            this.slurmId = slurmId;
            this.dir = dir;
            this.metrics = new TrialMetricFiles(trialJobId, dir.resolve(TrialScript.METRICS), dir.resolve(TrialScript.STDOUT), before);
        }
    }

    SlurmJobs(TrainingServiceContext context, SlurmSettings settings, SlurmCommands commands) {
        this.context = context;
        this.settings = settings;
        this.commands = commands;
    }

    @Override
    public String describe() {
        return "as Slurm jobs" + (settings.partition() == null ? "" : " on partition " + settings.partition());
    }

    /**
     * Checks that Slurm's commands are on the PATH, that the cluster answers and has the partition, and
     * that the shared directory is writable.
     */
    @Override
    public void check() {
        for (String name : SlurmCommands.NEEDED) {
            if (commands.find(name) == null) {
                throw new IllegalArgumentException("trainingService.platform: slurm needs '" + name + "' and it is not on the PATH ("
                        + commands.path() + "): run on a Slurm login node, or put Slurm's commands on the PATH");
            }
        }
        SlurmCommands.Result r;
        try {
            r = commands.run(List.of("sinfo", "--noheader", "--format=%P"));
        } catch (IOException e) {
            throw new IllegalArgumentException("trainingService.platform: slurm: sinfo did not answer: " + e.getMessage(), e);
        }
        if (!r.ok()) {
            throw new IllegalArgumentException("trainingService.platform: slurm: sinfo failed (status " + r.status() + "): " + r.err()
                    + " (does slurmctld run, is this machine in the cluster?)");
        }
        Set<String> partitions = new TreeSet<>();
        r.out().lines().map(String::strip).filter(l -> !l.isEmpty()).forEach(l -> partitions.add(l.replace("*", "")));
        if (settings.partition() != null && !partitions.contains(settings.partition())) {
            throw new IllegalArgumentException("trainingService.partition: the cluster has no partition '" + settings.partition()
                    + "' (it has: " + String.join(", ", partitions) + ")");
        }
        Path root = settings.trialsRoot();
        try {
            Files.createDirectories(root.resolve("trials"));
            Path probe = Files.createTempFile(root.resolve("trials"), ".probe", "");
            Files.delete(probe);
        } catch (IOException e) {
            throw new IllegalArgumentException("trainingService.sharedDirectory: cannot write in " + root + ": " + e, e);
        }
    }

    @Override
    public void open(TrialEvents events) {
        this.events = events;
    }

    @Override
    public Duration pollInterval() {
        return settings.pollInterval().isZero() ? Duration.ofMillis(250) : settings.pollInterval();
    }

    @Override
    public Placement start(TrialLaunch trial) throws IOException {
        Path dir = settings.trialsRoot().resolve("trials").resolve(trial.trialJobId());
        Files.createDirectories(dir.resolve(".nni"));
        writeAtomically(dir.resolve(TrialScript.PARAMETERS), trial.parameterRecord());
        Map<String, String> env = new LinkedHashMap<>();
        if (settings.gpus() != null && settings.gpus() == 0) {
            env.put("CUDA_VISIBLE_DEVICES", "");
        }
        Path script = dir.resolve(SCRIPT);
        Files.writeString(script, TrialScript.bash(trial, "slurm", context.trialCommand(), context.trialCodeDirectory().toString(),
                dir.toString(), env), StandardCharsets.UTF_8);
        SlurmCommands.Result r = commands.run(sbatch(trial, dir));
        String id = r.out().strip().lines().findFirst().orElse("").split(";")[0].strip();
        if (!r.ok() || !id.matches("[0-9]+(_[0-9]+)?")) {
            throw new IOException("sbatch refused trial " + trial.trialJobId() + " (status " + r.status() + "): "
                    + (r.err().isEmpty() ? r.out().strip() : r.err()));
        }
        jobs.put(trial.trialJobId(), new Job(trial.trialJobId(), id, dir, null));
        return new Placement(id + "@" + dir, null, null);
    }

    /** The {@code sbatch} command for a trial. */
    List<String> sbatch(TrialLaunch trial, Path dir) {
        List<String> a = new ArrayList<>(List.of("sbatch", "--parsable", "--no-requeue",
                "--job-name=tunekit-" + trial.experimentId() + "-" + trial.trialJobId(), "--output=" + dir.resolve(OUTPUT), "--chdir=" + dir));
        if (context.maxTrialDuration() != null) {
            long minutes = Math.max(1, (context.maxTrialDuration().toSeconds() + 59) / 60);
            a.add("--time=" + minutes);
        }
        if (settings.gpus() != null && settings.gpus() > 0) {
            a.add("--gres=gpu:" + settings.gpus());
        }
        if (settings.partition() != null) {
            a.add("--partition=" + settings.partition());
        }
        if (settings.account() != null) {
            a.add("--account=" + settings.account());
        }
        a.addAll(settings.sbatchOptions());
        a.add(dir.resolve(SCRIPT).toString());
        return a;
    }

    @Override
    public void sendParameters(String trialJobId, String parameterRecord, int index, boolean byFile) {
        Job j = jobs.get(trialJobId);
        if (j == null) {
            return;
        }
        try {
            writeAtomically(j.dir.resolve("parameter_" + index + ".cfg"), parameterRecord);
        } catch (IOException e) {
            events.problem(trialJobId, "could not write its parameter file: " + e.getMessage());
        }
    }

    /** Sends the job SIGINT ({@code scancel --signal=INT --full}; a pending job is cancelled), and cancels it after {@code grace}. */
    @Override
    public void stop(String trialJobId, Duration grace) {
        Job j = jobs.get(trialJobId);
        if (j == null || j.stopRequested) {
            return;
        }
        j.stopRequested = true;
        boolean signalled = false;
        if (!"PENDING".equals(j.state)) {
            signalled = scancel(List.of("scancel", "--signal=INT", "--full", j.slurmId));
        }
        if (signalled) {
            j.killAt = System.nanoTime() + Math.max(1, grace.toNanos());
        } else {
            scancel(List.of("scancel", j.slurmId));
        }
    }

    @Override
    public void poll() {
        for (Job j : List.copyOf(jobs.values())) {
            deliver(j, false);
            if (jobs.containsKey(j.trialJobId) && j.killAt != 0 && System.nanoTime() - j.killAt >= 0) {
                j.killAt = 0;
                scancel(List.of("scancel", j.slurmId));
            }
            Integer code = exitStatus(j);
            if (code != null && (code <= 128 || j.stopRequested)) {
                exited(j, code);
            }
        }
        long now = System.nanoTime();
        if (jobs.isEmpty() || queried && now - lastQuery < settings.pollInterval().toNanos()) {
            return;
        }
        queried = true;
        lastQuery = now;
        Map<String, String> states = states(jobs.values().stream().map(j -> j.slurmId).toList());
        if (states == null) {
            return;
        }
        for (Job j : List.copyOf(jobs.values())) {
            decide(j, states.get(j.slurmId));
        }
    }

    /** What the job's Slurm state says, when it left no exit status. */
    private void decide(Job j, String state) {
        if (!jobs.containsKey(j.trialJobId)) {
            return;
        }
        if (state == null) {
            if (++j.missing >= 2) {
                Integer code = exitStatus(j);
                if (code != null) {
                    exited(j, code);
                } else {
                    ended(j, TrialStatus.LOST, "Slurm no longer knows job " + j.slurmId + " and it left no exit status");
                }
            }
            return;
        }
        j.missing = 0;
        j.state = state;
        if (ACTIVE.contains(state)) {
            j.finalSeen = 0;
            return;
        }
        if (++j.finalSeen < 2) {
            // its exit status may still be on its way through the shared folder
            return;
        }
        Integer code = exitStatus(j);
        if (code != null && !(code > 128 && endedBySlurm(state))) {
            exited(j, code);
        } else if (LOST.contains(state)) {
            ended(j, TrialStatus.LOST, "Slurm job " + j.slurmId + " ended " + state);
        } else if (state.equals("CANCELLED")) {
            ended(j, TrialStatus.USER_CANCELED, j.stopRequested ? "Slurm job " + j.slurmId + " was cancelled as asked"
                    : "Slurm job " + j.slurmId + " was cancelled outside Tunekit (scancel)");
        } else if (state.equals("TIMEOUT") || state.equals("DEADLINE")) {
            // --time is maxTrialDuration's only when it was given: else the limit is the partition's or sbatchOptions'
            ended(j, TrialStatus.USER_CANCELED, "Slurm job " + j.slurmId + " reached its time limit (" + state
                    + (context.maxTrialDuration() == null ? ")" : "; --time is maxTrialDuration rounded up to minutes)"));
        } else {
            ended(j, TrialStatus.FAILED, "Slurm job " + j.slurmId + " ended " + state + " without an exit status; see "
                    + j.dir.resolve(OUTPUT));
        }
    }

    /** Whether Slurm ended the job itself (a failed node, scancel, a time limit), not the job's script. */
    private static boolean endedBySlurm(String state) {
        return LOST.contains(state) || state.equals("CANCELLED") || state.equals("TIMEOUT") || state.equals("DEADLINE");
    }

    /** The job's own exit status ends it; collected by now, it is not reported again. */
    private void exited(Job j, int code) {
        events.exited(j.trialJobId, code);
        jobs.remove(j.trialJobId);
    }

    private void ended(Job j, TrialStatus status, String reason) {
        events.ended(j.trialJobId, status, reason);
        jobs.remove(j.trialJobId);
    }

    @Override
    public void collect(String trialJobId) {
        Job j = jobs.remove(trialJobId);
        if (j != null) {
            deliver(j, true);
        }
    }

    /** Reports the job's new metrics (all that are left, at its end). */
    private void deliver(Job j, boolean atEnd) {
        j.metrics.deliver(events, atEnd);
    }

    /**
     * Takes back a job a previous runner submitted: one Slurm still knows, or one that left its exit
     * status (its remaining metrics and its end come with the next {@link #poll}); the frames the store
     * counts as handled are skipped. A job Slurm does not know and that left nothing is gone.
     */
    @Override
    public Reattached reattach(StoredTrial trial) {
        String handle = trial.handle();
        int at = handle == null ? -1 : handle.indexOf('@');
        if (at <= 0) {
            return new Reattached(false, handle == null ? null : "'" + handle + "' is not a Slurm job (SLURMID@FOLDER)");
        }
        Job j = new Job(trial.trialJobId(), handle.substring(0, at), Path.of(handle.substring(at + 1)), trial);
        if (exitStatus(j) != null) {
            jobs.put(j.trialJobId, j);
            return new Reattached(true, "Slurm job " + j.slurmId + " ended while the runner was away; its results are read now");
        }
        Map<String, String> states = states(List.of(j.slurmId));
        String state = states == null ? null : states.get(j.slurmId);
        if (state == null) {
            return new Reattached(false, "Slurm " + (states == null ? "did not answer about" : "no longer knows") + " job " + j.slurmId
                    + " and it left no exit status");
        }
        j.state = state;
        jobs.put(j.trialJobId, j);
        return new Reattached(true, "took back Slurm job " + j.slurmId + " (" + state + ")");
    }

    /** Cancels the experiment's jobs that still run: the experiment is ending. */
    @Override
    public void close() {
        List<String> ids = jobs.values().stream().map(j -> j.slurmId).toList();
        jobs.clear();
        if (!ids.isEmpty()) {
            List<String> cmd = new ArrayList<>(List.of("scancel"));
            cmd.addAll(ids);
            scancel(cmd);
        }
    }

    /**
     * The Slurm state of each of these jobs that Slurm knows (the first word: CANCELLED, not "CANCELLED by 0"):
     * one {@code squeue}, and one {@code sacct} for those {@code squeue} no longer shows. {@code null} when squeue failed.
     */
    private Map<String, String> states(List<String> ids) {
        Map<String, String> states = new HashMap<>();
        Set<String> wanted = Set.copyOf(ids);
        try {
            SlurmCommands.Result q = commands.run(List.of("squeue", "--noheader", "--states=all", "--user=" + user, "--format=%i|%T"));
            if (!q.ok()) {
                LOG.warn("squeue failed (status {}): {}", q.status(), q.err());
                return null;
            }
            parse(q.out(), wanted, states);
            List<String> missing = ids.stream().filter(id -> !states.containsKey(id)).toList();
            if (!missing.isEmpty()) {
                SlurmCommands.Result a = commands.run(List.of("sacct", "--noheader", "--parsable2", "--allocations",
                        "--jobs=" + String.join(",", missing), "--format=JobID,State"));
                if (a.ok()) {
                    parse(a.out(), wanted, states);
                }
            }
        } catch (IOException e) {
            LOG.warn("cannot ask Slurm about the jobs: {}", e.getMessage());
            return null;
        }
        return states;
    }

    private static void parse(String out, Set<String> wanted, Map<String, String> into) {
        for (String line : out.split("\n")) {
            String[] f = line.strip().split("\\|");
            if (f.length >= 2 && wanted.contains(f[0].strip())) {
                String state = f[1].strip().split("[ +]")[0];
                into.put(f[0].strip(), state);
            }
        }
    }

    private boolean scancel(List<String> command) {
        try {
            SlurmCommands.Result r = commands.run(command);
            if (!r.ok()) {
                LOG.warn("{} failed (status {}): {}", String.join(" ", command), r.status(), r.err());
            }
            return r.ok();
        } catch (IOException e) {
            LOG.warn("{}: {}", String.join(" ", command), e.getMessage());
            return false;
        }
    }

    /** The exit status the job's script wrote, or {@code null} when it has not. */
    private static Integer exitStatus(Job j) {
        try {
            return Integer.valueOf(Files.readString(j.dir.resolve(TrialScript.EXIT), StandardCharsets.UTF_8).strip());
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException | NumberFormatException e) {
            LOG.warn("unreadable exit status of trial {}: {}", j.trialJobId, e.getMessage());
            return null;
        }
    }

    private static void writeAtomically(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling("." + file.getFileName() + ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
