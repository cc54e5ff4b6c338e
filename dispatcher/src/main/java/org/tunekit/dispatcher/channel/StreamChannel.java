package org.tunekit.dispatcher.channel;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.PipeFrameCodec;

/** Commands in NNI's pipe framing over a pair of byte streams (stdin/stdout, or inherited fds 3 and 4). */
public final class StreamChannel implements CommandChannel {
    private final InputStream in;
    private final OutputStream out;
    private final PipeFrameCodec codec;
    private final String description;
    private final Object sendLock = new Object();
    private volatile boolean closed;

    /**
     * A channel over two streams.
     *
     * @param in          the manager's commands
     * @param out         where replies go
     * @param maxPayload  the largest payload accepted, in bytes
     * @param description for logs
     */
    public StreamChannel(InputStream in, OutputStream out, long maxPayload, String description) {
        this.in = new BufferedInputStream(in, 1 << 16);
        this.out = new BufferedOutputStream(out, 1 << 16);
        this.codec = new PipeFrameCodec(maxPayload);
        this.description = description;
    }

    @Override
    public Command receive() throws IOException {
        if (closed) {
            return null;
        }
        return codec.read(in);
    }

    @Override
    public void send(Command command) throws IOException {
        byte[] frame = PipeFrameCodec.encode(command);
        synchronized (sendLock) {
            out.write(frame);
        }
    }

    @Override
    public void flush() throws IOException {
        synchronized (sendLock) {
            out.flush();
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        synchronized (sendLock) {
            try {
                out.flush();
            } catch (IOException ignored) {
                // the manager may already be gone
            }
            try {
                out.close();
            } catch (IOException ignored) {
                // as above
            }
        }
    }

    @Override
    public String describe() {
        return description;
    }
}
