package org.tunekit.remote;

import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.apache.sshd.client.session.ClientSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tunekit.runner.manager.TrialEvents;

/**
 * Watches the machines of {@link RemoteMachines} and their trials: hands each machine's worker its polls (with the
 * GPU re-reads), its reconnects (with the kills of its leftovers) and the stops of its trials, and applies what the
 * workers learnt: new metrics and output copied here and handed on, trials ended, machines down or back, and the
 * trials of a machine silent for {@code lostAfter} given up as lost.
 *
 * <p><b>Threads.</b> Every method is called on the manager's thread, which owns the hosts and trials it shares with
 * {@link RemoteMachines}. The tasks it submits run on the machines' workers, touch neither, and queue what they learnt
 * as a task that {@link #applyAnswers} runs back on the manager's thread. It never waits for a machine.
 */
final class MachineWatch {
    private static final Logger LOG = LoggerFactory.getLogger(MachineWatch.class);

    private final List<Host> hosts;
    private final Map<String, RemoteTrial> trials;
    private final Clock clock;
    private final Duration lostAfter;
    private final Duration retryEvery;
    private final Duration pollEvery;
    private final Predicate<Host> rereadsGpus;
    private final Supplier<Ssh> ssh;
    private final String experimentId;
    /** What the workers learnt, to be applied on the manager's thread. */
    private final Queue<Runnable> answers = new ConcurrentLinkedQueue<>();
    private volatile boolean closed;
    private TrialEvents events;

    /**
     * @param hosts       the machines, shared with the service (the manager's thread only)
     * @param trials      the running trials by id, shared with the service (the manager's thread only)
     * @param rereadsGpus whether a machine's GPUs are read again while the experiment runs
     * @param ssh         the client reconnects go through (made at the service's check)
     */
    MachineWatch(List<Host> hosts, Map<String, RemoteTrial> trials, Clock clock, Duration lostAfter, Duration retryEvery,
                 Duration pollEvery, Predicate<Host> rereadsGpus, Supplier<Ssh> ssh, String experimentId) {
        this.hosts = hosts;
        this.trials = trials;
        this.clock = clock;
        this.lostAfter = lostAfter;
        this.retryEvery = retryEvery;
        this.pollEvery = pollEvery;
        this.rereadsGpus = rereadsGpus;
        this.ssh = ssh;
        this.experimentId = experimentId;
    }

    /** Where trials' metrics, ends and losses are reported. */
    void open(TrialEvents events) {
        this.events = events;
    }

    /**
     * Applies the answers the workers brought, gives up the trials of machines silent for {@code lostAfter}, and hands
     * each machine without a command in flight its next poll or reconnect.
     */
    void poll() {
        applyAnswers();
        Instant now = clock.instant();
        for (Host h : hosts) {
            List<RemoteTrial> mine = live(h);
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
                    h.down("no answer to a poll for " + Duration.between(h.askedAt, now).toSeconds() + " s", now);
                    loseTrialsOf(h, now);
                }
                continue;
            }
            boolean gpusDue = rereadsGpus.test(h) && !now.isBefore(h.lastGpuRead.plus(RemoteMachines.GPU_REREAD));
            boolean pollDue = !mine.isEmpty() && (gpusDue || h.lastPoll == null || !now.isBefore(h.lastPoll.plus(pollEvery)));
            if (pollDue || gpusDue) {
                ask(h, pollDue ? mine : List.of(), gpusDue, now);
            }
        }
    }

    /** The machine's trials that have not ended. */
    List<RemoteTrial> live(Host h) {
        return trials.values().stream().filter(t -> t.host == h && !t.ended).toList();
    }

    /** Runs what the workers learnt. */
    void applyAnswers() {
        Runnable r;
        while ((r = answers.poll()) != null) {
            r.run();
        }
    }

    /** From now on nothing is submitted and a reconnect that comes back is closed: the service is closing. */
    void close() {
        closed = true;
    }

    /** Drops what the workers learnt and was not applied: the service is closed. */
    void dropAnswers() {
        answers.clear();
    }

    /** Sends the trial's process group SIGINT on the machine's worker; a machine that fails to take it is down. */
    void interrupt(RemoteTrial t) {
        Host h = t.host;
        ClientSession session = h.session;
        String command = TrialProcesses.interrupt(t.pid);
        submit(h, () -> {
            try {
                Ssh.exec(session, command, null, RemoteMachines.POLL_TIMEOUT);
            } catch (IOException | RuntimeException e) {
                String why = Ssh.why(e);
                answers.add(() -> {
                    if (h.session == session && h.down == null) {
                        h.down(why, clock.instant());
                    }
                });
            }
        });
    }

    /** Runs {@code task} on the machine's worker; nothing is run once closed. */
    private void submit(Host h, Runnable task) {
        if (!closed) {
            h.submit(task);
        }
    }

    /** Sends the machine a poll of {@code mine} (when any) and a reading of its GPUs (when {@code gpus}); applied in {@link #answered}. */
    private void ask(Host h, List<RemoteTrial> mine, boolean gpus, Instant now) {
        ClientSession session = h.session;
        Machine machine = h.machine;
        List<MachinePoll.Asked> asked = mine.stream().map(MachinePoll.Asked::of).toList();
        String command = asked.isEmpty() ? null : MachinePoll.command(asked, now);
        Set<Long> trialSessions = mine.stream().map(t -> t.pid).collect(Collectors.toUnmodifiableSet());
        h.askedAt = now;
        if (command != null) {
            h.lastPoll = now;
        }
        if (gpus) {
            h.lastGpuRead = now;
        }
        submit(h, () -> {
            MachinePoll.Answer answer;
            try {
                answer = MachinePoll.run(session, machine, asked, command, gpus, trialSessions, RemoteMachines.POLL_TIMEOUT);
            } catch (RuntimeException e) {
                answer = MachinePoll.Answer.failed(Ssh.why(e));
            }
            MachinePoll.Answer a = answer;
            answers.add(() -> answered(h, session, a));
        });
    }

    /** What a poll brought. An answer from a session given up meanwhile is dropped. */
    private void answered(Host h, ClientSession session, MachinePoll.Answer a) {
        h.askedAt = null;
        if (h.session != session || h.down != null) {
            return;
        }
        if (a.failure() != null) {
            h.down(a.failure(), clock.instant());
            return;
        }
        h.lastContact = clock.instant();
        for (MachinePoll.Report r : a.reports()) {
            apply(r);
        }
        if (a.gpus() != null) {
            try {
                h.gpus.refresh(a.gpus(), a.own());
                h.gpusRead();
            } catch (IllegalStateException | IllegalArgumentException e) {
                h.gpuReadFailed(e.getMessage());
            }
        } else if (a.gpuFailure() != null) {
            h.gpuReadFailed(a.gpuFailure());
        }
    }

    /** A trial's report: new metric bytes to the copies and on to the manager, its end as an exit. */
    private void apply(MachinePoll.Report r) {
        RemoteTrial t = r.asked().trial();
        if (t.ended || trials.get(t.jobId) != t || t.fetched != r.asked().fetched() || t.stdoutFetched != r.asked().stdoutFetched()) {
            return;
        }
        t.copy(r.metrics(), r.stdout(), events);
        // the frames of the metrics file, and the lines NNISDK_MEb'...' of stdout (NNI's nni package off platform local)
        t.metrics.deliver(events, false);
        if (r.stderr() != null) {
            t.keepStderr(r.stderr());
        }
        if (r.exit() != null) {
            end(t, parseStatus(r.exit()));
        } else if (!r.alive()) {
            // gone without writing its status: killed (by us after the grace, or by someone on the machine)
            end(t, t.stopping ? 130 : 137);
        }
    }

    private static int parseStatus(String text) {
        try {
            return Integer.parseInt(text.strip());
        } catch (NumberFormatException e) {
            return 255;
        }
    }

    private void end(RemoteTrial t, int status) {
        t.ended = true;
        events.exited(t.jobId, status);
    }

    /** Sends the worker a reconnect (with the kill of the machine's leftovers); applied in {@link #reconnected}. */
    private void reconnect(Host h, Instant now) {
        h.lastAttempt = now;
        h.askedAt = now;
        List<Long> leftovers = List.copyOf(h.leftovers);
        Ssh client = ssh.get();
        submit(h, () -> {
            ClientSession s = null;
            try {
                s = client.connect(h.machine);
                String root = MachineSetup.experimentFolder(s, h.machine, experimentId, RemoteMachines.COMMAND_TIMEOUT);
                if (!leftovers.isEmpty()) {
                    // its trials were given up and run again elsewhere: the old processes must not run on
                    Ssh.exec(s, TrialProcesses.killGroups(leftovers) + "true", null, RemoteMachines.COMMAND_TIMEOUT);
                }
                ClientSession opened = s;
                answers.add(() -> reconnected(h, opened, root, leftovers, null));
            } catch (IOException | RuntimeException e) {
                if (s != null) {
                    s.close(true);
                }
                String why = Ssh.why(e);
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
        h.attach(s, root, clock.instant());
        h.leftovers.removeAll(killed);
        LOG.info("machine {} answers again", h.machine.address());
    }

    /** Once the machine has been silent for {@code lostAfter}, its trials are lost and their processes leftovers to kill. */
    private void loseTrialsOf(Host h, Instant now) {
        if (h.lastContact != null && Duration.between(h.lastContact, now).compareTo(lostAfter) < 0) {
            return;
        }
        for (RemoteTrial t : List.copyOf(trials.values())) {
            if (t.host == h && !t.ended) {
                t.ended = true;
                h.leftovers.add(t.pid);
                events.lost(t.jobId, "machine " + h.machine.name() + " did not answer for " + lostAfter.toSeconds() + " s (" + h.down + ")");
            }
        }
    }
}
