package org.tunekit.dispatcher.channel;

import java.io.IOException;
import org.tunekit.dispatcher.protocol.Command;

/**
 * A two-way stream of commands between the manager and the dispatcher. One thread receives;
 * {@link #send} and {@link #flush} may be called from several threads.
 */
public interface CommandChannel extends AutoCloseable {

    /**
     * Blocks for the next command from the manager.
     *
     * @return the command, or {@code null} at end of stream (the manager closed the channel, or said goodbye)
     * @throws org.tunekit.dispatcher.protocol.ProtocolException on malformed input
     * @throws IOException when the transport fails
     */
    Command receive() throws IOException;

    /** Sends a command; it may be buffered until {@link #flush}. Thread-safe. */
    void send(Command command) throws IOException;

    /** Sends whatever {@link #send} buffered. Thread-safe. */
    default void flush() throws IOException {}

    /** Closes the channel (saying goodbye where the transport has a way to), releasing its resources. Idempotent. */
    @Override
    void close();

    /** A short description for logs, such as {@code stdio:} or the URI. */
    String describe();
}
