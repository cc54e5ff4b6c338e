package org.tunekit.dispatcher.testing;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZMQ;

/**
 * The manager's end of a ZeroMQ channel: a {@code ROUTER} bound to a free loopback port, speaking the
 * layout of {@code ZmqChannel} (a zero-length hello from the dispatcher names its identity; then one
 * command per single-frame message, 2 code bytes and the UTF-8 payload).
 *
 * <p>Not thread-safe: use it from one thread (ZeroMQ sockets are not thread-safe).
 */
public final class ManagerZmqPeer implements AutoCloseable {
    private final ZContext context = new ZContext(1);
    private final ZMQ.Socket router;
    private final int port;
    private byte[] dispatcher;

    private ManagerZmqPeer(String endpoint, int receiveHwm, int receiveBuffer) {
        router = context.createSocket(SocketType.ROUTER);
        router.setLinger(1000);
        router.setRouterMandatory(true);
        // a dispatcher that reconnects presents the same identity: the new connection replaces the old one
        router.setRouterHandover(true);
        if (receiveHwm > 0) {
            router.setRcvHWM(receiveHwm);
        }
        if (receiveBuffer > 0) {
            router.setReceiveBufferSize(receiveBuffer);
        }
        router.setHeartbeatIvl(1000);
        router.setHeartbeatTimeout(5000);
        if (endpoint == null) {
            port = router.bindToRandomPort("tcp://127.0.0.1");
        } else {
            if (!router.bind(endpoint)) {
                throw new IllegalStateException("cannot bind " + endpoint);
            }
            port = Integer.parseInt(endpoint.substring(endpoint.lastIndexOf(':') + 1));
        }
    }

    /** Binds a ROUTER on {@code tcp://127.0.0.1:<free port>}. */
    public static ManagerZmqPeer bind() {
        return new ManagerZmqPeer(null, 0, 0);
    }

    /**
     * Binds a ROUTER that takes in little before its owner reads: at most {@code receiveHwm} messages queued
     * and a kernel receive buffer of about {@code receiveBuffer} bytes (to play a manager that stops reading).
     */
    public static ManagerZmqPeer bindWithSmallBuffers(int receiveHwm, int receiveBuffer) {
        return new ManagerZmqPeer(null, receiveHwm, receiveBuffer);
    }

    /** Binds a ROUTER on this endpoint (for example the one of a peer closed before, to play a manager that came back). */
    public static ManagerZmqPeer bind(String endpoint) {
        return new ManagerZmqPeer(endpoint, 0, 0);
    }

    /** The endpoint dispatchers connect to. */
    public String endpoint() {
        return "tcp://127.0.0.1:" + port;
    }

    /**
     * Waits for the dispatcher's hello and remembers its identity.
     *
     * @throws AssertionError when no hello, or something else, comes within {@code timeout}
     */
    public byte[] awaitHello(Duration timeout) {
        byte[][] message = receiveRaw(timeout);
        if (message == null) {
            throw new AssertionError("no hello from the dispatcher within " + timeout);
        }
        if (message.length != 2 || message[1].length != 0) {
            throw new AssertionError("expected the dispatcher's zero-length hello, got " + message.length + " frames");
        }
        dispatcher = message[0];
        return dispatcher.clone();
    }

    /** Sends a command to the dispatcher (after {@link #awaitHello}). */
    public void send(Command command) {
        byte[] payload = command.payload().getBytes(StandardCharsets.UTF_8);
        byte[] frame = new byte[2 + payload.length];
        frame[0] = (byte) command.type().code().charAt(0);
        frame[1] = (byte) command.type().code().charAt(1);
        System.arraycopy(payload, 0, frame, 2, payload.length);
        sendFrame(frame);
    }

    /** Sends a raw frame to the dispatcher. */
    public void sendFrame(byte[] frame) {
        if (dispatcher == null) {
            throw new IllegalStateException("no hello from the dispatcher yet");
        }
        if (!router.sendMore(dispatcher) || !router.send(frame, 0)) {
            throw new IllegalStateException("cannot send to the dispatcher: " + ZMQ.Error.findByCode(router.errno()));
        }
    }

    /** Sends one message of several frames to the dispatcher (a protocol error on its side). */
    public void sendFrames(byte[]... frames) {
        if (dispatcher == null) {
            throw new IllegalStateException("no hello from the dispatcher yet");
        }
        router.sendMore(dispatcher);
        for (int i = 0; i < frames.length; i++) {
            if (i < frames.length - 1) {
                router.sendMore(frames[i]);
            } else {
                router.send(frames[i], 0);
            }
        }
    }

    /** Sends the zero-length frame that ends the stream. */
    public void sendEndOfStream() {
        sendFrame(new byte[0]);
    }

    /**
     * The next command from the dispatcher; its sender becomes the peer {@link #send} addresses.
     *
     * @return the command, or {@code null} when none came within {@code timeout}
     */
    public Command next(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        byte[][] message = receiveRaw(timeout);
        // a hello (again, after a reconnection) only names the dispatcher
        while (message != null && message.length == 2 && message[1].length == 0) {
            dispatcher = message[0];
            message = receiveRaw(Duration.ofNanos(Math.max(1_000_000, deadline - System.nanoTime())));
        }
        if (message == null) {
            return null;
        }
        if (message.length != 2 || message[1].length < 2) {
            throw new AssertionError("malformed message from the dispatcher: " + message.length + " frames");
        }
        dispatcher = message[0];
        byte[] f = message[1];
        CommandType type = CommandType.ofCode(f[0], f[1]);
        if (type == null || type.toDispatcher()) {
            throw new AssertionError("not a reply code: " + new String(f, 0, 2, StandardCharsets.US_ASCII));
        }
        return new Command(type, new String(f, 2, f.length - 2, StandardCharsets.UTF_8));
    }

    private byte[][] receiveRaw(Duration timeout) {
        router.setReceiveTimeOut((int) Math.max(1, timeout.toMillis()));
        byte[] identity = router.recv(0);
        if (identity == null) {
            return null;
        }
        java.util.List<byte[]> frames = new java.util.ArrayList<>();
        frames.add(identity);
        while (router.hasReceiveMore()) {
            frames.add(router.recv(0));
        }
        return frames.toArray(byte[][]::new);
    }

    /** Closes the ROUTER at once, as a manager that goes away would. */
    @Override
    public void close() {
        router.setLinger(0);
        context.close();
    }
}
