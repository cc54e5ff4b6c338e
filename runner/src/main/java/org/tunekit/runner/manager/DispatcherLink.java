package org.tunekit.runner.manager;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingDeque;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import org.tunekit.dispatcher.MsgDispatcherBase;
import org.tunekit.dispatcher.channel.CommandChannel;
import org.tunekit.dispatcher.channel.InMemoryChannel;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.tunekit.dispatcher.protocol.JsonCodec;

/**
 * The manager's side of its conversation with the dispatcher, which runs in process over an in-memory
 * channel: the dispatcher's own thread, the commands posted to it, and its replies, which reach the
 * manager's queue as {@link ManagerEvent.Reply} events. Out of {@linkplain TrainingService#lockStep lock
 * step} a pump thread moves the replies to the queue as they come; in lock step nothing is pumped: a post
 * waits until the dispatcher has handled it and hands its whole answer to the manager before it returns,
 * and {@link #next} reads replies before the queue.
 *
 * <p>{@link #create} on the thread that prepares the run; everything else on the manager's thread. The
 * dispatcher's thread only adds its {@link ManagerEvent.DispatcherExited} to the queue.
 */
final class DispatcherLink {
    static final Duration START_TIMEOUT = Duration.ofSeconds(120);
    static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);

    private final InMemoryChannel channel = new InMemoryChannel();
    private final BlockingDeque<ManagerEvent> events;
    private MsgDispatcherBase dispatcher;
    private Thread dispatcherThread;
    private Thread pump;
    private boolean lockStep;
    private long posted;
    private RunState state;
    private Consumer<Command> replies;
    private Consumer<String> failure;

    /** @param events the manager's queue, where the dispatcher's replies and its end arrive */
    DispatcherLink(BlockingDeque<ManagerEvent> events) {
        this.events = events;
    }

    /** Makes the dispatcher over this link's channel. */
    void create(Function<CommandChannel, MsgDispatcherBase> dispatcherFactory) {
        dispatcher = dispatcherFactory.apply(channel);
    }

    boolean created() {
        return dispatcher != null;
    }

    /**
     * Starts the dispatcher's thread (and out of lock step the pump of its replies).
     *
     * @param replies what the manager does with a reply, for the replies a lock-step post hands over
     * @param failure fails the run, when a lock-step dispatcher stops or hangs
     */
    void start(boolean lockStep, RunState state, Consumer<Command> replies, Consumer<String> failure) {
        this.lockStep = lockStep;
        this.state = state;
        this.replies = replies;
        this.failure = failure;
        MsgDispatcherBase d = dispatcher;
        dispatcherThread = new Thread(() -> events.add(new ManagerEvent.DispatcherExited(d.run())), "tunekit-dispatcher");
        dispatcherThread.setDaemon(true);
        pump = new Thread(this::pumpReplies, "tunekit-dispatcher-replies");
        pump.setDaemon(true);
        dispatcherThread.start();
        if (!lockStep) {
            pump.start();
        }
    }

    /**
     * Sends {@code IN} with the search space and waits for {@code ID}. Requests taken off the queue
     * meanwhile (new limits, added trials, trials to stop) go back to its head in the order they came,
     * for the loop: trials added before the run (a warm start) keep their order.
     *
     * @throws ManagerException when the dispatcher fails, ends or does not answer in time, or the run is stopped
     */
    void initialize(Map<String, Object> searchSpace) throws InterruptedException {
        channel.post(new Command(CommandType.INITIALIZE, JsonCodec.write(searchSpace)));
        posted++;
        long until = System.nanoTime() + START_TIMEOUT.toNanos();
        List<ManagerEvent> later = new ArrayList<>();
        try {
            awaitInitialized(until, later);
        } finally {
            for (int i = later.size() - 1; i >= 0; i--) {
                events.addFirst(later.get(i));
            }
        }
    }

    private void awaitInitialized(long until, List<ManagerEvent> later) throws InterruptedException {
        while (true) {
            ManagerEvent e = next(Math.max(1, (until - System.nanoTime()) / 1_000_000));
            if (e == null && System.nanoTime() < until) {
                continue;
            }
            if (e == null) {
                throw new ManagerException("the dispatcher did not answer IN within " + START_TIMEOUT.toSeconds() + " s");
            }
            if (e instanceof ManagerEvent.Reply r && r.command().type() == CommandType.INITIALIZED) {
                return;
            }
            if (e instanceof ManagerEvent.Reply r && r.command().type() == CommandType.ERROR) {
                throw new ManagerException("the tuner could not start:\n" + r.command().payload());
            }
            if (e instanceof ManagerEvent.DispatcherExited) {
                throw new ManagerException("the dispatcher ended before it was initialised");
            }
            if (e instanceof ManagerEvent.StopRequested s) {
                throw new ManagerException("stopped: " + s.reason());
            }
            if (e instanceof ManagerEvent.LimitsChanged || e instanceof ManagerEvent.TrialAdded || e instanceof ManagerEvent.TrialStopRequested) {
                later.add(e);
            }
        }
    }

    /** Posts a command to the dispatcher; in lock step, handles the dispatcher's whole answer before it returns. */
    void post(Command c) {
        channel.post(c);
        posted++;
        if (lockStep && state.error == null) {
            settle();
        }
    }

    /** Waits until the dispatcher has handled every command posted, then handles what it answered. */
    private void settle() {
        boolean handled;
        try {
            handled = dispatcher.awaitHandled(posted, START_TIMEOUT);
            if (!handled) {
                // it stopped (its ER comes as its thread ends) or hangs
                dispatcherThread.join(STOP_TIMEOUT.toMillis());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        Command reply;
        while ((reply = channel.poll()) != null) {
            replies.accept(reply);
        }
        if (!handled && !state.stopping) {
            failure.accept(dispatcherThread.isAlive() ? "the dispatcher did not handle a command within " + START_TIMEOUT.toSeconds() + " s"
                    : "the dispatcher stopped");
        }
    }

    /** The next event within {@code millis}, or {@code null}; in lock step the dispatcher's replies are read here, not pumped. */
    ManagerEvent next(long millis) throws InterruptedException {
        if (lockStep) {
            Command c = channel.poll();
            if (c != null) {
                return new ManagerEvent.Reply(c);
            }
            ManagerEvent e = events.poll();
            if (e != null || millis == 0) {
                return e;
            }
            c = channel.poll(Math.min(millis, 20));
            return c == null ? events.poll() : new ManagerEvent.Reply(c);
        }
        return millis == 0 ? events.poll() : events.poll(millis, TimeUnit.MILLISECONDS);
    }

    private void pumpReplies() {
        while (true) {
            try {
                Command c = channel.poll(500);
                if (c != null) {
                    events.add(new ManagerEvent.Reply(c));
                }
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Sends {@code TE}, ends the channel and gives the dispatcher a while to end. */
    void close() throws InterruptedException {
        channel.post(Command.of(CommandType.TERMINATE));
        channel.endOfStream();
        dispatcherThread.join(STOP_TIMEOUT.toMillis() + 5000);
        pump.interrupt();
    }
}
