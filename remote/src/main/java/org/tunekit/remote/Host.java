package org.tunekit.remote;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.sshd.client.session.ClientSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tunekit.gpus.GpuScheduler;

/**
 * One {@link Machine} as {@link RemoteMachines} sees it while the experiment runs: its SSH session and the
 * experiment's folder there, whether it answers, its GPUs, how many trials it runs, and its worker.
 *
 * <p><b>Threads.</b> Its fields are read and written on the manager's thread only. Its worker
 * ({@code tunekit-ssh-HOST:PORT}, a daemon, made on first {@link #submit}) runs the commands the manager does not
 * wait for, one after the other; a task on the worker captures what it needs (the session, the machine) when it is
 * submitted and hands what it learnt back to the manager's thread, never touching these fields.
 */
final class Host {
    private static final Logger LOG = LoggerFactory.getLogger(Host.class);

    final Machine machine;
    /** The session commands go over, or {@code null} while there is none. */
    ClientSession session;
    /** The experiment's folder on the machine ({@code ~/tunekit-experiments/EXPID}). */
    String root;
    /** Its GPUs, when the experiment asks for GPUs; else {@code null}. */
    GpuScheduler gpus;
    Instant lastContact;
    Instant lastAttempt;
    /** Why it is given up until a reconnect, or {@code null} while it answers. */
    String down;
    /** The process groups of its trials given up as lost, to be killed once it answers again. */
    final List<Long> leftovers = new ArrayList<>();
    int running;
    /** When the poll or reconnect in the worker's hands was sent, until its answer is applied; null when none is. */
    Instant askedAt;
    Instant lastPoll;
    Instant lastGpuRead;
    private boolean gpuReadFailing;
    private ExecutorService worker;

    Host(Machine machine) {
        this.machine = machine;
    }

    /** True while it has a session and is not given up. */
    boolean up() {
        return down == null && session != null;
    }

    /**
     * True when it could take a trial now: it is up, its GPUs (if counted) have room, and it has not left a poll
     * unanswered for {@code pollOverdue} (it may hang: a start there could hold up the manager).
     */
    boolean canTakeTrial(Instant now, Duration pollOverdue) {
        return up() && (askedAt == null || now.isBefore(askedAt.plus(pollOverdue))) && (gpus == null || gpus.fits());
    }

    /** True when its GPUs are read again while the experiment runs: as the local service, when busy GPUs are skipped. */
    boolean rereadsGpus(Double trialGpuNumber) {
        return gpus != null && !machine.useActiveGpu() && trialGpuNumber != null && trialGpuNumber > 0;
    }

    /** The machine answers on a new session (in place of its old one, if any). */
    void attach(ClientSession s, String root, Instant now) {
        if (session != null) {
            session.close(true);
        }
        session = s;
        this.root = root;
        down = null;
        lastContact = now;
    }

    /** The machine is given up until a reconnect: its session is closed, which also ends a command of its that hangs. */
    void down(String why, Instant now) {
        if (down == null) {
            LOG.warn("machine {} does not answer: {}", machine.address(), why);
        }
        down = why == null ? "no answer" : why;
        if (lastAttempt == null) {
            lastAttempt = now;
        }
        if (session != null) {
            session.close(true);
            session = null;
        }
    }

    /** Runs {@code task} on the machine's worker, after what it was given before; nothing once {@link #disconnect}ed. */
    void submit(Runnable task) {
        if (worker == null) {
            String name = "tunekit-ssh-" + machine.address();
            worker = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, name);
                t.setDaemon(true);
                return t;
            });
        }
        try {
            worker.execute(task);
        } catch (RejectedExecutionException e) {
            // closed meanwhile
        }
    }

    /** Waits (30 s at most, in vain for a machine that hangs) until the worker has done what it was given. */
    void awaitWorker() throws InterruptedException {
        if (worker == null) {
            return;
        }
        try {
            worker.submit(() -> {}).get(30, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException | RejectedExecutionException e) {
            // applied later, if at all
        }
    }

    /** Stops the worker (interrupting what it runs) and closes the session. */
    void disconnect() {
        if (worker != null) {
            worker.shutdownNow();
        }
        if (session != null) {
            session.close(true);
            session = null;
        }
    }

    /**
     * Kills these trials' process groups from a thread of its own ({@code tunekit-ssh-close-HOST:PORT}, a daemon,
     * started here), not the worker, which may be stuck on a machine that hangs; a failure is logged. Call only while
     * {@link #up}.
     *
     * @return the thread, for the caller to wait on
     */
    Thread killInBackground(List<Long> pids, Duration timeout) {
        String kill = TrialProcesses.killGroups(pids) + "true";
        ClientSession s = session;
        Thread killer = new Thread(() -> {
            try {
                Ssh.exec(s, kill, null, timeout);
            } catch (IOException | RuntimeException e) {
                LOG.warn("could not stop the trials on {}: {}", machine.address(), Ssh.why(e));
            }
        }, "tunekit-ssh-close-" + machine.address());
        killer.setDaemon(true);
        killer.start();
        return killer;
    }

    /** A new reading of its GPUs was taken in. */
    void gpusRead() {
        if (gpuReadFailing) {
            gpuReadFailing = false;
            LOG.info("the GPUs of {} are read again", machine.address());
        }
    }

    /** Its GPUs could not be read again: the last reading stands (said once until a reading succeeds). */
    void gpuReadFailed(String why) {
        if (!gpuReadFailing) {
            gpuReadFailing = true;
            LOG.warn("cannot read the GPUs of {} again, going on with the last reading: {}", machine.address(), why);
        }
    }
}
