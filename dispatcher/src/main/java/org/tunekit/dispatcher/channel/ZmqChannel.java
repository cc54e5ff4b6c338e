package org.tunekit.dispatcher.channel;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.tunekit.dispatcher.protocol.ProtocolException;
import org.zeromq.SocketType;
import org.zeromq.ZContext;
import org.zeromq.ZEvent;
import org.zeromq.ZMQ;
import org.zeromq.ZMonitor;

/**
 * The command channel over ZeroMQ ({@code tcp://host:port}).
 *
 * <h2>Layout</h2>
 * <ul>
 *   <li>The manager binds a {@code ROUTER} socket to {@code tcp://host:port}; the dispatcher connects a
 *       {@code DEALER} socket to it. DEALER/ROUTER rather than PAIR: the manager sees each dispatcher's
 *       routing identity, so one ROUTER can serve several dispatchers and tell them apart, and ZeroMQ
 *       reconnects a DEALER transparently after a dropped connection.</li>
 *   <li>The dispatcher's routing identity is {@code tunekit-<pid>-<n>} (ASCII), fixed for the life of
 *       the channel, so it stays the same across reconnections.</li>
 *   <li>First, the dispatcher sends one zero-length message, the <em>hello</em>: it tells the
 *       manager the dispatcher's identity. The manager must not send commands before it has received
 *       the hello (a ROUTER drops messages to peers it does not know).</li>
 *   <li>Every further message is one command, in one frame: the two ASCII code bytes followed by the
 *       UTF-8 payload, with no length prefix and no delimiter frame ({@code IN{"x": ...}},
 *       {@code TE}). The manager's ROUTER sees {@code [identity, frame]} and sends
 *       {@code [identity, frame]}. A message of several frames is a protocol error.</li>
 *   <li>End of stream: a {@code TE} command (after it, {@link #receive} returns {@code null}), or a
 *       zero-length frame from the manager.</li>
 *   <li>Liveness: ZMTP heartbeats (a PING every {@link Settings#heartbeatInterval}, the connection
 *       dropped when no traffic arrives for {@link Settings#heartbeatTimeout}) and a socket monitor. After
 *       a disconnection ZeroMQ reconnects by itself; when the manager has not come back within
 *       {@link Settings#reconnectGrace}, or the first connection does not come within
 *       {@link Settings#connectTimeout}, the manager is taken to be gone: {@link #receive} returns end of
 *       stream and later replies are discarded. The process therefore never waits for a vanished
 *       manager.</li>
 *   <li>On close, replies still queued are given {@link Settings#linger} to reach the manager.</li>
 * </ul>
 *
 * <p>ZeroMQ sockets are not thread-safe: one I/O thread owns the socket; {@link #send} from any thread
 * only queues the frame and wakes that thread.
 */
public final class ZmqChannel implements CommandChannel {
    private static final Logger LOG = LoggerFactory.getLogger(ZmqChannel.class);
    private static final AtomicInteger INSTANCES = new AtomicInteger();
    private static final byte[] HELLO = new byte[0];

    /**
     * Timing of the channel.
     *
     * @param connectTimeout    how long the first connection may take
     * @param handshakeTimeout  how long a ZMTP handshake may take before the connection is retried
     * @param heartbeatInterval how often ZMTP PINGs go out
     * @param heartbeatTimeout  silence after which the connection is dropped
     * @param reconnectGrace    how long the manager may stay disconnected before it is taken to be gone
     * @param linger            how long queued replies may take to leave on close
     */
    public record Settings(Duration connectTimeout, Duration handshakeTimeout, Duration heartbeatInterval, Duration heartbeatTimeout,
                           Duration reconnectGrace, Duration linger) {
        /**
         * 10 s to connect, 1 s for a handshake, a heartbeat each second, 5 s of silence drops the connection,
         * 10 s to come back, 2 s of linger.
         */
        public static final Settings DEFAULT = new Settings(Duration.ofSeconds(10), Duration.ofSeconds(1), Duration.ofSeconds(1),
                Duration.ofSeconds(5), Duration.ofSeconds(10), Duration.ofSeconds(2));
    }

    private record End(String why) {}

    private final String endpoint;
    private final Settings settings;
    private final byte[] identity;
    private final BlockingQueue<Object> inbox = new LinkedBlockingQueue<>();
    private final Queue<byte[]> outbox = new ConcurrentLinkedQueue<>();
    private final Pipe wake;
    private final Thread io;
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile boolean stopping;
    private volatile boolean lost;
    private boolean receiveEnded; // receiving thread only

    private ZmqChannel(String endpoint, Settings settings) throws IOException {
        this.endpoint = endpoint;
        this.settings = settings;
        this.identity = ("tunekit-" + ProcessHandle.current().pid() + "-" + INSTANCES.incrementAndGet())
                .getBytes(StandardCharsets.US_ASCII);
        this.wake = Pipe.open();
        wake.source().configureBlocking(false);
        wake.sink().configureBlocking(false);
        this.io = new Thread(this::ioLoop, "tunekit-zmq-io");
        io.setDaemon(true);
    }

    /**
     * Connects a DEALER socket to the manager's ROUTER at {@code endpoint} and sends the hello.
     * Returns at once: ZeroMQ connects in the background, and the connect timeout is enforced by {@link #receive}.
     */
    public static ZmqChannel connect(String endpoint, Settings settings) throws IOException {
        if (!endpoint.startsWith("tcp://")) {
            throw new IllegalArgumentException("not a ZeroMQ tcp:// endpoint: " + endpoint);
        }
        ZmqChannel ch = new ZmqChannel(endpoint, settings);
        ch.outbox.add(HELLO);
        ch.io.start();
        return ch;
    }

    /** The routing identity this dispatcher presents to the manager's ROUTER. */
    public byte[] identity() {
        return identity.clone();
    }

    private void ioLoop() {
        try (ZContext context = new ZContext(1)) {
            ZMQ.Socket socket = context.createSocket(SocketType.DEALER);
            socket.setIdentity(identity);
            socket.setHeartbeatIvl((int) settings.heartbeatInterval().toMillis());
            socket.setHeartbeatTimeout((int) settings.heartbeatTimeout().toMillis());
            socket.setHeartbeatTtl((int) settings.heartbeatTimeout().toMillis());
            // jeromq sometimes completes the TCP connect but never starts the ZMTP handshake on the
            // connecting side (zeromq/jeromq#1022); the handshake timer then drops the connection and
            // ZeroMQ reconnects, keeping queued messages. A short timer makes that recovery quick.
            socket.setHandshakeIvl((int) settings.handshakeTimeout().toMillis());
            socket.setReconnectIVL(100);
            socket.setReconnectIVLMax(1000);
            socket.setLinger((int) settings.linger().toMillis());
            String monitorAddress = "inproc://tunekit-monitor-" + new String(identity, StandardCharsets.US_ASCII);
            socket.monitor(monitorAddress, ZMQ.EVENT_CONNECTED | ZMQ.EVENT_HANDSHAKE_PROTOCOL | ZMQ.EVENT_DISCONNECTED);
            ZMQ.Socket monitor = context.createSocket(SocketType.PAIR);
            monitor.connect(monitorAddress);
            socket.connect(endpoint);

            ZMQ.Poller poller = context.createPoller(3);
            int socketIndex = poller.register(socket, ZMQ.Poller.POLLIN);
            int monitorIndex = poller.register(monitor, ZMQ.Poller.POLLIN);
            int wakeIndex = poller.register(wake.source(), ZMQ.Poller.POLLIN);
            ByteBuffer wakeBytes = ByteBuffer.allocate(64);

            long started = System.nanoTime();
            boolean everConnected = false;
            long disconnectedSince = -1;
            while (!stopping && !lost) {
                sendQueued(socket);
                poller.poll(outbox.isEmpty() ? 200 : 10);
                if (poller.pollin(wakeIndex)) {
                    while (wake.source().read(wakeBytes.clear()) > 0) {
                        // drained
                    }
                }
                if (poller.pollin(socketIndex)) {
                    receiveAll(socket);
                }
                if (poller.pollin(monitorIndex)) {
                    ZEvent event;
                    while ((event = ZEvent.recv(monitor, ZMQ.DONTWAIT)) != null) {
                        ZMonitor.Event e = event.getEvent();
                        if (e == ZMonitor.Event.CONNECTED || e == ZMonitor.Event.HANDSHAKE_PROTOCOL) {
                            if (disconnectedSince >= 0) {
                                LOG.info("reconnected to {}", endpoint);
                            }
                            everConnected = true;
                            disconnectedSince = -1;
                        } else if (e == ZMonitor.Event.DISCONNECTED) {
                            LOG.warn("the connection to the manager at {} dropped; waiting up to {} for it to come back",
                                    endpoint, settings.reconnectGrace());
                            disconnectedSince = System.nanoTime();
                        }
                    }
                }
                long now = System.nanoTime();
                if (!everConnected && now - started > settings.connectTimeout().toNanos()) {
                    markLost("no connection to " + endpoint + " within " + settings.connectTimeout());
                } else if (disconnectedSince >= 0 && now - disconnectedSince > settings.reconnectGrace().toNanos()) {
                    markLost("the manager at " + endpoint + " has been unreachable for " + settings.reconnectGrace());
                }
            }
            if (!lost) {
                sendQueued(socket);
            } else {
                socket.setLinger(0);
            }
            poller.close();
            socket.monitor(null, 0);
            monitor.close();
            socket.close();
        } catch (Throwable e) {
            // whatever happens here, the receiver must hear of it rather than wait forever
            LOG.error("the ZeroMQ channel to {} failed", endpoint, e);
            inbox.add(new IOException("the ZeroMQ channel to " + endpoint + " failed: " + e, e));
            if (e instanceof Error error) {
                throw error;
            }
        }
    }

    private void markLost(String why) {
        LOG.error("{}: taking the manager to be gone", why);
        lost = true;
        inbox.add(new End(why));
    }

    /** Hands queued frames to ZeroMQ without blocking; what it cannot take yet stays queued, in order. */
    private void sendQueued(ZMQ.Socket socket) {
        byte[] frame;
        while ((frame = outbox.peek()) != null) {
            if (!socket.send(frame, ZMQ.DONTWAIT)) {
                return;
            }
            outbox.poll();
        }
    }

    private void receiveAll(ZMQ.Socket socket) {
        byte[] frame;
        while ((frame = socket.recv(ZMQ.DONTWAIT)) != null) {
            if (socket.hasReceiveMore()) {
                int parts = 1;
                while (socket.hasReceiveMore()) {
                    socket.recv(0);
                    parts++;
                }
                inbox.add(new ProtocolException("a message of " + parts + " frames from " + endpoint
                        + "; each command is a single frame"));
                continue;
            }
            try {
                Object decoded = decode(frame);
                inbox.add(decoded);
            } catch (ProtocolException e) {
                inbox.add(e);
            }
        }
    }

    /** Decodes one frame from the manager: a command, or an {@link End} for a zero-length frame. */
    static Object decode(byte[] frame) throws ProtocolException {
        if (frame.length == 0) {
            return new End("the manager sent an empty frame (end of stream)");
        }
        if (frame.length < 2) {
            throw new ProtocolException("a frame of 1 byte (" + String.format("0x%02X", frame[0] & 0xff)
                    + "); a command frame starts with 2 code bytes");
        }
        CommandType type = CommandType.ofCode(frame[0], frame[1]);
        if (type == null) {
            throw new ProtocolException("unknown command code in frame: bytes " + String.format("0x%02X 0x%02X", frame[0] & 0xff, frame[1] & 0xff));
        }
        if (!type.toDispatcher()) {
            throw new ProtocolException("command " + type.code() + " is sent by the dispatcher, never to it");
        }
        try {
            String payload = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(frame, 2, frame.length - 2))
                    .toString();
            return new Command(type, payload);
        } catch (CharacterCodingException e) {
            throw new ProtocolException("invalid UTF-8 in the payload of the " + type.code() + " frame: " + e.getMessage());
        }
    }

    /** The frame for a command: two code bytes, then the UTF-8 payload. */
    static byte[] encode(Command command) {
        byte[] payload = command.payload().getBytes(StandardCharsets.UTF_8);
        byte[] frame = new byte[2 + payload.length];
        frame[0] = (byte) command.type().code().charAt(0);
        frame[1] = (byte) command.type().code().charAt(1);
        System.arraycopy(payload, 0, frame, 2, payload.length);
        return frame;
    }

    @Override
    public Command receive() throws IOException {
        while (!receiveEnded) {
            Object o;
            try {
                o = inbox.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for a command from " + endpoint);
            }
            if (o instanceof Command c) {
                if (c.type() == CommandType.TERMINATE) {
                    receiveEnded = true;
                }
                return c;
            } else if (o instanceof ProtocolException e) {
                throw new ProtocolException(e.getMessage());
            } else if (o instanceof IOException e) {
                throw new IOException(e.getMessage(), e);
            } else if (o instanceof End end) {
                LOG.info("end of the command stream from {}: {}", endpoint, end.why());
                receiveEnded = true;
            }
        }
        return null;
    }

    @Override
    public void send(Command command) throws IOException {
        if (lost || closed.get()) {
            LOG.warn("discarding {}: the channel to {} has ended", command, endpoint);
            return;
        }
        outbox.add(encode(command));
        wakeUp();
    }

    private void wakeUp() {
        synchronized (wake) {
            try {
                wake.sink().write(ByteBuffer.wrap(new byte[] {1}));
            } catch (IOException e) {
                LOG.debug("waking the ZeroMQ I/O thread: {}", e.toString());
            }
        }
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        stopping = true;
        wakeUp();
        try {
            io.join(settings.linger().toMillis() + 2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            wake.sink().close();
            wake.source().close();
        } catch (IOException ignored) {
            // nothing left to release
        }
    }

    @Override
    public String describe() {
        return endpoint;
    }
}
