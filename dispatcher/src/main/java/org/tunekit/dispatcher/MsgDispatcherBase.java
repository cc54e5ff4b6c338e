package org.tunekit.dispatcher;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tunekit.dispatcher.channel.ChannelLostException;
import org.tunekit.dispatcher.channel.CommandChannel;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.tunekit.dispatcher.protocol.ProtocolException;

/**
 * Threads and queues, and nothing about tuners. One reader takes commands off the channel and
 * {@link #route routes} them as tasks to two queues, the default queue and the assessor queue, each
 * drained in order by its own worker. {@code TE} or end of stream stops the reader; the workers
 * finish what was queued before it, then {@link #onStop} runs and {@link #run} returns 0.
 *
 * <p>Any failure (malformed input, a handler or plugin throwing, the channel failing) is reported to
 * the manager once, as {@code ER} with the message and stack trace, and {@link #run} returns 1 (or
 * {@link ChannelLostException#EXIT_STATUS} when the channel gave up on the manager) without waiting for the reader, which is a daemon thread: the caller exits the process. When the
 * reader fails (malformed input, the channel failing), the commands read before the bad one are
 * still handled first, within the stop timeout, so what the manager gets before {@code ER} does
 * not depend on thread timing; when a worker fails, the dispatcher stops at once.
 */
public abstract class MsgDispatcherBase {
    private static final Logger LOG = LoggerFactory.getLogger(MsgDispatcherBase.class);
    private static final int QUEUE_WARNING = 20;

    /** The two queues. */
    protected enum Queue {
        /** Everything but trial ends and intermediate metrics. */
        DEFAULT,
        /** Trial ends and intermediate metrics: the assessor's work. */
        ASSESSOR
    }

    /** A unit of work for a worker. */
    @FunctionalInterface
    protected interface Task {
        /** Does the work; any exception stops the dispatcher with {@code ER}. */
        void run() throws Exception;
    }

    private static final Task STOP = () -> { };
    private static final java.util.regex.Pattern METRIC_TYPE = java.util.regex.Pattern.compile("\"type\"\\s*:\\s*\"(\\w+)\"");

    /** A task with the command it handles, for the figures and the slow-call log. */
    private record Labelled(String label, Command command, Task task) implements Task {
        @Override
        public void run() throws Exception {
            task.run();
        }
    }

    private final CommandChannel channel;
    private final Duration stopTimeout;
    private final Worker defaultWorker = new Worker(Queue.DEFAULT);
    private final Worker assessorWorker = new Worker(Queue.ASSESSOR);
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final AtomicReference<Throwable> readerFailure = new AtomicReference<>();
    private final CountDownLatch finished = new CountDownLatch(1);
    private volatile boolean readerDone;
    private final DispatcherStats stats = new DispatcherStats(defaultWorker::size, assessorWorker::size);
    private Duration statsInterval = DispatcherSettings.STATS_INTERVAL;
    private long slowCallNanos = DispatcherSettings.SLOW_CALL.toNanos();
    private volatile Thread readerThread;
    private Command current;
    /** Commands the reader has taken off the channel and routed; tasks queued and not yet run. */
    private final java.util.concurrent.atomic.AtomicLong commandsRead = new java.util.concurrent.atomic.AtomicLong();
    private final java.util.concurrent.atomic.AtomicInteger tasksOutstanding = new java.util.concurrent.atomic.AtomicInteger();
    /** Set while {@link #awaitHandled} waits: only then do the reader and the workers take the lock to wake it. */
    private volatile boolean awaited;
    private final Object progress = new Object();

    /**
     * @param channel     the channel to the manager
     * @param stopTimeout how long, after {@code TE}, to wait for queued work to finish
     */
    protected MsgDispatcherBase(CommandChannel channel, Duration stopTimeout) {
        this.channel = channel;
        this.stopTimeout = stopTimeout;
    }

    /**
     * Routes one command (never {@code TE} or {@code PI}) to the queues with {@link #submit}. Runs on
     * the reader thread, in wire order; parse the payload here so that a malformed one is reported
     * at once and workers get typed data.
     *
     * @throws ProtocolException when the payload is malformed
     */
    protected abstract void route(Command command) throws ProtocolException;

    /** Runs once before the first command is read (for example, to load checkpoints). */
    protected void onStart() throws Exception {}

    /** Runs once after the workers have finished, on a normal stop (for example, to save checkpoints). */
    protected void onStop() throws Exception {}

    /** Puts a task on a queue. Callable from the reader and from workers. */
    protected final void submit(Queue queue, Task task) {
        Command c = Thread.currentThread() == readerThread ? current : null;
        (queue == Queue.DEFAULT ? defaultWorker : assessorWorker).add(c == null ? task : new Labelled(label(c), c, task));
    }

    /** How often the figures go to the log (0: only at the end), and from what handling time a command is logged as slow. */
    protected final void observe(Duration statsInterval, Duration slowCall) {
        this.statsInterval = statsInterval;
        this.slowCallNanos = slowCall.toNanos();
    }

    /**
     * Waits until the first {@code commands} commands of the channel have been handled: read, routed,
     * and every task they queued (and the tasks those queued) run, with what they sent flushed. For a
     * manager that posts one command at a time and takes the dispatcher's whole answer before it goes
     * on, so that a simulated run depends on its seed alone.
     *
     * @return false when the dispatcher stopped, or {@code timeout} passed, first
     */
    public final boolean awaitHandled(long commands, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (progress) {
            awaited = true;
            try {
                while (commandsRead.get() < commands || tasksOutstanding.get() > 0) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0 || finished.getCount() == 0) {
                        return false;
                    }
                    progress.wait(Math.max(1, Math.min(100, left / 1_000_000)));
                }
                return true;
            } finally {
                awaited = false;
            }
        }
    }

    private void commandRead() {
        commandsRead.incrementAndGet();
        wake();
    }

    private void taskQueued() {
        tasksOutstanding.incrementAndGet();
    }

    private void taskDone() {
        tasksOutstanding.decrementAndGet();
        wake();
    }

    /** Wakes {@link #awaitHandled} if it waits; costs a volatile read otherwise (the manager over a real channel never waits). */
    private void wake() {
        if (awaited) {
            synchronized (progress) {
                progress.notifyAll();
            }
        }
    }

    /** The handling figures so far: per kind of command, and the queues. */
    public final DispatcherStats stats() {
        return stats;
    }

    private static String label(Command c) {
        if (c.data() instanceof org.tunekit.dispatcher.protocol.Payloads.MetricData m) {
            return "ME " + m.type().name();
        }
        if (c.type() == CommandType.REPORT_METRIC_DATA) {
            java.util.regex.Matcher m = METRIC_TYPE.matcher(c.payload());
            return m.find() ? "ME " + m.group(1) : "ME";
        }
        return c.type().code();
    }

    /** Sends a command to the manager (buffered until the worker's queue runs empty). */
    protected final void send(Command command) throws IOException {
        channel.send(command);
    }

    /**
     * Runs the dispatcher until {@code TE}, end of stream or a failure.
     *
     * @return the process exit status: 0 after a normal stop, 1 after a failure reported with {@code ER},
     *         {@link ChannelLostException#EXIT_STATUS} when the channel gave up on the manager
     */
    public final int run() {
        try {
            onStart();
        } catch (Throwable t) {
            return fail(t);
        }
        defaultWorker.start();
        assessorWorker.start();
        Thread reader = new Thread(this::readLoop, "tunekit-reader");
        reader.setDaemon(true);
        readerThread = reader;
        reader.start();
        java.util.concurrent.ScheduledExecutorService reporter = null;
        if (!statsInterval.isZero()) {
            reporter = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "tunekit-stats");
                t.setDaemon(true);
                return t;
            });
            reporter.scheduleAtFixedRate(() -> LOG.info("handling so far:\n{}", stats.snapshot().format()),
                    statsInterval.toMillis(), statsInterval.toMillis(), TimeUnit.MILLISECONDS);
        }
        try {
            return runUntilStopped();
        } finally {
            if (reporter != null) {
                reporter.shutdownNow();
            }
            LOG.info("handling figures:\n{}", stats.snapshot().format());
        }
    }

    private int runUntilStopped() {
        try {
            finished.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fail(e);
        }
        if (failure.get() != null) {
            return fail(failure.get());
        }
        // the reader saw TE, end of stream or bad input; let the workers drain what came before it
        defaultWorker.add(STOP);
        assessorWorker.add(STOP);
        long deadline = System.nanoTime() + stopTimeout.toNanos();
        boolean drained = defaultWorker.awaitDone(deadline) && assessorWorker.awaitDone(deadline);
        if (failure.get() != null) {
            return fail(failure.get());
        }
        if (readerFailure.get() != null) {
            if (!drained) {
                LOG.error("queued work did not finish within {} after the bad input", stopTimeout);
            }
            return fail(readerFailure.get());
        }
        if (!drained) {
            // a plugin is stuck in a call: its state cannot be saved safely, and a silent exit would hide it
            return fail(new java.util.concurrent.TimeoutException("queued work did not finish within " + stopTimeout
                    + " after the stop (a tuner or assessor call is still running); checkpoints were not saved"));
        }
        try {
            onStop();
            channel.flush();
        } catch (Throwable t) {
            return fail(t);
        }
        channel.close();
        LOG.info("dispatcher stopped");
        return 0;
    }

    private void readLoop() {
        try {
            while (true) {
                Command command = channel.receive();
                if (command == null) {
                    LOG.info("end of the command stream: stopping");
                    break;
                }
                if (LOG.isDebugEnabled()) {
                    LOG.debug("received {}", command);
                }
                if (command.type() == CommandType.TERMINATE) {
                    LOG.info("TE received: stopping");
                    break;
                }
                if (command.type() == CommandType.PING) {
                    commandRead();
                    continue;
                }
                current = command;
                route(command);
                current = null;
                commandRead();
                if (failure.get() != null) {
                    return;
                }
            }
        } catch (Throwable t) {
            // reported after the commands read before it have been handled
            readerFailure.set(t);
        } finally {
            readerDone = true;
            finished.countDown();
        }
    }

    private void recordFailure(Throwable t) {
        if (failure.compareAndSet(null, t)) {
            finished.countDown();
        }
    }

    private int fail(Throwable t) {
        Throwable cause = failure.get() != null ? failure.get() : t;
        ErrorReporter.report(channel, cause);
        return ErrorReporter.channelLost(cause) != null ? ChannelLostException.EXIT_STATUS : 1;
    }

    /**
     * Whether the calling thread is the default worker and that worker is still running: the only
     * place where the tuner's callbacks run, and so where the tuner's context may be used.
     */
    protected final boolean onRunningDefaultWorker() {
        return defaultWorker.isCurrentAndRunning();
    }

    /** Whether the default worker has finished (after a stop or a failure). */
    protected final boolean defaultWorkerFinished() {
        return defaultWorker.done.getCount() == 0;
    }

    /** True once the reader has stopped (for tests and diagnostics). */
    boolean readerDone() {
        return readerDone;
    }

    private final class Worker implements Runnable {
        private final Queue name;
        private final BlockingQueue<Task> tasks = new LinkedBlockingQueue<>();
        private final CountDownLatch done = new CountDownLatch(1);
        private volatile Thread thread;
        private boolean warned;

        Worker(Queue name) {
            this.name = name;
        }

        void start() {
            Thread t = new Thread(this, "tunekit-" + name.name().toLowerCase() + "-worker");
            t.setDaemon(true);
            t.start();
        }

        int size() {
            return tasks.size();
        }

        void add(Task task) {
            if (task != STOP) {
                taskQueued();
            }
            tasks.add(task);
            int size = tasks.size();
            stats.queued(name == Queue.DEFAULT, size);
            if (size >= QUEUE_WARNING && !warned) {
                warned = true;
                LOG.warn("the {} queue holds {} waiting commands: the {} is slower than the manager", name, size,
                        name == Queue.DEFAULT ? "tuner" : "assessor");
            } else if (warned && size < QUEUE_WARNING / 2) {
                warned = false;
            }
        }

        boolean awaitDone(long deadlineNanos) {
            try {
                return done.await(Math.max(0, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }

        boolean isCurrentAndRunning() {
            return Thread.currentThread() == thread && done.getCount() > 0;
        }

        @Override
        public void run() {
            thread = Thread.currentThread();
            try {
                while (failure.get() == null) {
                    Task task = tasks.take();
                    if (task == STOP) {
                        break;
                    }
                    try {
                        runTask(task);
                    } finally {
                        taskDone();
                    }
                }
            } catch (Throwable t) {
                recordFailure(t);
            } finally {
                done.countDown();
            }
        }

        private void runTask(Task task) throws Exception {
            if (task instanceof Labelled l) {
                long start = System.nanoTime();
                l.run();
                long took = System.nanoTime() - start;
                stats.handled(l.label(), took);
                if (took > slowCallNanos) {
                    String payload = l.command().data() != null ? String.valueOf(l.command().data()) : l.command().payload();
                    LOG.warn("{} took {} on the {} worker: {}", l.label(), DispatcherStats.time(took), name.name().toLowerCase(),
                            payload.length() > 300 ? payload.substring(0, 300) + "..." : payload);
                }
            } else {
                task.run();
            }
            if (tasks.isEmpty()) {
                channel.flush();
            }
        }
    }
}
