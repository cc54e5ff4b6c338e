package org.tunekit.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One trial's process, started as NNI's local training service starts it: {@code bash -c COMMAND}
 * (or {@code sh -c} where there is no bash) in the trial code directory, with the trial's environment,
 * standard output and error written to {@code trial.stdout} and {@code trial.stderr} in the trial's
 * folder, standard input empty. {@link #stop} sends SIGINT to the process and its descendants (a Python
 * trial sees a {@code KeyboardInterrupt}), then SIGKILL to whatever is left after the grace period.
 *
 * <p>Each trial runs in a session of its own ({@code setsid}), so that signals sent to the runner's
 * process group, such as a terminal's Ctrl-C or hang-up, reach the runner alone: the runner then
 * stops its trials, and each trial sees one interrupt, not the terminal's and then the stop's (a
 * second {@code KeyboardInterrupt} would cut short a handler that saves the trial's work). The
 * shell starts with SIGINT at its default action even when this process ignores it, as a program
 * started in the background by a script does and passes on to its children (a shell cannot trap a
 * signal ignored on entry): through coreutils' {@code env --default-signal=INT} where {@code env}
 * has it, so that a stop's interrupt reaches the trial's handler. Where {@code setsid} or
 * {@code env --default-signal} is missing, the trial starts without it.
 */
final class TrialProcess {
    private static final List<String> LAUNCHER = launcher();
    private static final ScheduledExecutorService KILLER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "tunekit-trial-killer");
        t.setDaemon(true);
        return t;
    });

    /**
     * The command before a trial's: the shell, behind {@code setsid --wait} and
     * {@code env --default-signal=INT} where they work (each is tried on {@code true}).
     */
    private static List<String> launcher() {
        List<String> prefix = new ArrayList<>();
        for (List<String> wrapper : List.of(List.of("setsid", "--wait"), List.of("env", "--default-signal=INT"))) {
            if (works(Stream.concat(Stream.concat(prefix.stream(), wrapper.stream()), Stream.of("true")).toList())) {
                prefix.addAll(wrapper);
            }
        }
        prefix.addAll(Files.isExecutable(Path.of("/bin/bash")) ? List.of("/bin/bash", "-c") : List.of("/bin/sh", "-c"));
        return List.copyOf(prefix);
    }

    /** True when {@code command} runs and exits with status 0 within 10 s. */
    private static boolean works(List<String> command) {
        try {
            Process probe = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (probe.waitFor(10, TimeUnit.SECONDS)) {
                return probe.exitValue() == 0;
            }
            probe.destroyForcibly();
        } catch (IOException e) {
            // not installed
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    private final Process process;
    private volatile boolean stopRequested;

    private TrialProcess(Process process) {
        this.process = process;
    }

    /** Starts {@code command} in {@code codeDirectory}, its output kept in {@code trialDirectory}; a null in {@code environment} unsets that variable. */
    static TrialProcess start(String command, Path codeDirectory, Path trialDirectory, Map<String, String> environment) throws IOException {
        List<String> argv = new ArrayList<>(LAUNCHER);
        argv.add(command);
        ProcessBuilder pb = new ProcessBuilder(argv).directory(codeDirectory.toFile());
        // a null value removes a variable the trial would otherwise inherit
        environment.forEach((k, v) -> {
            if (v == null) {
                pb.environment().remove(k);
            } else {
                pb.environment().put(k, v);
            }
        });
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        pb.redirectOutput(trialDirectory.resolve("trial.stdout").toFile());
        pb.redirectError(trialDirectory.resolve("trial.stderr").toFile());
        return new TrialProcess(pb.start());
    }

    long pid() {
        return process.pid();
    }

    /** The ids of the process and of its descendants now. */
    Stream<Long> pids() {
        return Stream.concat(Stream.of(process.pid()), process.descendants().map(ProcessHandle::pid));
    }

    /** Completes with the exit status when the process ends (128 + the signal when a signal ended it). */
    CompletableFuture<Integer> onExit() {
        return process.onExit().thenApply(Process::exitValue);
    }

    /** True once {@link #stop} was called. */
    boolean stopRequested() {
        return stopRequested;
    }

    /**
     * Interrupts the process tree (SIGINT) and kills what is left of it {@code grace} after the
     * interrupt was sent (the {@code kill} command ended, so the trial gets the whole grace however
     * long that command took to start; {@value #KILL_COMMAND_WAIT_SECONDS} s at most). Idempotent.
     */
    void stop(Duration grace) {
        if (stopRequested) {
            return;
        }
        stopRequested = true;
        List<ProcessHandle> tree = new ArrayList<>();
        tree.add(process.toHandle());
        process.descendants().forEach(tree::add);
        List<String> kill = new ArrayList<>(List.of("kill", "-s", "INT"));
        tree.forEach(h -> kill.add(Long.toString(h.pid())));
        Runnable forcedEnd = () -> {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            tree.forEach(ProcessHandle::destroyForcibly);
        };
        Process interrupt;
        try {
            interrupt = new ProcessBuilder(kill).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            // no kill command: go straight to the forced end
            KILLER.execute(forcedEnd);
            return;
        }
        long graceMillis = grace.toMillis();
        interrupt.onExit().orTimeout(KILL_COMMAND_WAIT_SECONDS, TimeUnit.SECONDS)
                .whenComplete((ended, timedOut) -> KILLER.schedule(forcedEnd, graceMillis, TimeUnit.MILLISECONDS));
    }

    /** How long a stop waits for the {@code kill} command before it counts the grace anyway. */
    static final int KILL_COMMAND_WAIT_SECONDS = 10;

    /**
     * Ends a trial's process that outlived a killed runner: the process with that id, if it started
     * when the trial did (within a few seconds; a process id may have been reused since), with its
     * descendants. Returns what was done, or {@code null} when there was nothing to end.
     */
    static String endLeftover(Long pid, java.time.Instant trialStarted) {
        if (pid == null) {
            return null;
        }
        var handle = ProcessHandle.of(pid);
        if (handle.isEmpty() || !handle.get().isAlive()) {
            return null;
        }
        var started = handle.get().info().startInstant();
        if (started.isEmpty() || Duration.between(trialStarted, started.get()).abs().compareTo(Duration.ofSeconds(5)) > 0) {
            return null;
        }
        handle.get().descendants().forEach(ProcessHandle::destroyForcibly);
        handle.get().destroyForcibly();
        return "its process " + pid + " was still running from before the restart: killed";
    }

    /** Kills the process tree at once (SIGKILL). */
    void kill() {
        stopRequested = true;
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }
}
