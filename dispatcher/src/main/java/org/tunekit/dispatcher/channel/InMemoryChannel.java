package org.tunekit.dispatcher.channel;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;

/**
 * A {@link CommandChannel} made of two queues, for a manager in the same process: the manager
 * {@link #post posts} commands the dispatcher {@link #receive receives}, and {@link #poll polls} what
 * the dispatcher {@link #send sends}. {@link #endOfStream} makes {@link #receive} return {@code null}.
 */
public final class InMemoryChannel implements CommandChannel {
    private static final Command END = new Command(CommandType.PING, "end of stream");

    private final BlockingQueue<Command> toDispatcher = new LinkedBlockingQueue<>();
    private final BlockingQueue<Command> toManager = new LinkedBlockingQueue<>();
    private volatile boolean closed;

    @Override
    public Command receive() throws java.io.IOException {
        try {
            Command c = toDispatcher.take();
            return c == END ? null : c;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while waiting for the manager");
        }
    }

    @Override
    public void send(Command command) {
        toManager.add(command);
    }

    @Override
    public void close() {
        closed = true;
    }

    @Override
    public String describe() {
        return "in-memory:";
    }

    /** The manager's side: puts a command on the dispatcher's input. */
    public void post(Command command) {
        toDispatcher.add(command);
    }

    /** The manager's side: ends the dispatcher's input, as a manager closing its end would. */
    public void endOfStream() {
        toDispatcher.add(END);
    }

    /** The manager's side: the next command from the dispatcher, waiting up to {@code millis}, or {@code null}. */
    public Command poll(long millis) throws InterruptedException {
        return toManager.poll(millis, TimeUnit.MILLISECONDS);
    }

    /** The manager's side: the next command from the dispatcher if one is waiting, else {@code null}. */
    public Command poll() {
        return toManager.poll();
    }

    /** True once the dispatcher closed the channel. */
    public boolean closed() {
        return closed;
    }
}
