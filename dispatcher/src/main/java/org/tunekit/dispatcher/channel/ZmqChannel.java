package org.tunekit.dispatcher.channel;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.BlockingQueue;
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
 *       a disconnection ZeroMQ reconnects by itself, and once the ZMTP handshake succeeds again the
 *       dispatcher sends another hello, so a manager that restarted learns its identity. Replies sent
 *       meanwhile wait in ZeroMQ's queue and go out after the reconnection; a frame that was on the wire
 *       when the connection dropped is lost. When the manager has not come back within
 *       {@link Settings#reconnectGrace}, or the first handshake does not come within
 *       {@link Settings#connectTimeout} (only a ZMTP 3 handshake counts, so a peer that does not speak ZMTP 3
 *       never completes one however long it stays connected), the manager
 *       is taken to be gone: {@link #receive} throws {@link ChannelLostException} and later replies are
 *       discarded. The process therefore never waits for a vanished manager.</li>
 *   <li>Back-pressure: replies wait in a queue of at most {@link Settings#maxQueued} frames (then in
 *       ZeroMQ's own queue of as many, its send high-water mark, then in the kernel's socket buffer).
 *       When the queue is full {@link #send} blocks; when it stays full for {@link Settings#sendTimeout}
 *       (the manager stopped reading) the manager is taken to be gone.</li>
 *   <li>A frame larger than the payload limit (plus the two code bytes) is a protocol error.</li>
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
     * Timing and bounds of the channel.
     *
     * @param connectTimeout    how long the first connection (its ZMTP handshake) may take
     * @param handshakeTimeout  how long a ZMTP handshake may take before the connection is retried
     * @param heartbeatInterval how often ZMTP PINGs go out
     * @param heartbeatTimeout  silence after which the connection is dropped
     * @param reconnectGrace    how long the manager may stay disconnected before it is taken to be gone
     * @param linger            how long queued replies may take to leave on close
     * @param sendTimeout       how long {@link #send} may wait for room in a full queue before the manager is
     *                          taken to be gone
     * @param maxQueued         the most replies waiting in the channel's queue (and in ZeroMQ's)
     */
    public record Settings(Duration connectTimeout, Duration handshakeTimeout, Duration heartbeatInterval, Duration heartbeatTimeout,
                           Duration reconnectGrace, Duration linger, Duration sendTimeout, int maxQueued) {
        /** The default give-up time. */
        public static final Duration DEFAULT_GIVE_UP = Duration.ofSeconds(30);

        /** {@link #withGiveUp} of {@link #DEFAULT_GIVE_UP}. */
        public static final Settings DEFAULT = withGiveUp(DEFAULT_GIVE_UP);

        /** The default bound of the reply queue. */
        public static final int DEFAULT_MAX_QUEUED = 1000;

        /** Checks the values. */
        public Settings {
            for (Duration d : List.of(connectTimeout, handshakeTimeout, heartbeatInterval, heartbeatTimeout, reconnectGrace, sendTimeout)) {
                if (d.isNegative() || d.isZero()) {
                    throw new IllegalArgumentException("channel timings must be positive, got " + d);
                }
            }
            if (maxQueued < 1) {
                throw new IllegalArgumentException("maxQueued must be >= 1, got " + maxQueued);
            }
        }

        /**
         * One give-up time {@code g} for everything: the first connection, a disconnection and a full queue may each
         * last {@code g}; a handshake min(1 s, g), a heartbeat every min(1 s, g / 5), min(5 s, g) of silence drops the
         * connection; 2 s of linger; {@value #DEFAULT_MAX_QUEUED} queued replies.
         */
        public static Settings withGiveUp(Duration g) {
            if (g.isNegative() || g.isZero()) {
                throw new IllegalArgumentException("the give-up time must be positive, got " + g);
            }
            Duration fifth = g.dividedBy(5).isZero() ? Duration.ofMillis(1) : g.dividedBy(5);
            return new Settings(g, min(Duration.ofSeconds(1), g), min(Duration.ofSeconds(1), fifth), min(Duration.ofSeconds(5), g),
                    g, Duration.ofSeconds(2), g, DEFAULT_MAX_QUEUED);
        }

        private static Duration min(Duration a, Duration b) {
            return a.compareTo(b) <= 0 ? a : b;
        }
    }

    private record End(String why) {}

    private record Lost(String why) {}

    private final String endpoint;
    private final Settings settings;
    private final byte[] identity;
    private final BlockingQueue<Object> inbox = new LinkedBlockingQueue<>();
    private final BlockingQueue<byte[]> outbox;
    private final long maxFrameBytes;
    private final Pipe wake;
    private final Thread io;
    private final AtomicBoolean closed = new AtomicBoolean();
    private volatile boolean stopping;
    private volatile boolean lost;
    private volatile String lostReason;
    private volatile boolean backPressured;
    private boolean receiveEnded; // receiving thread only

    private ZmqChannel(String endpoint, Settings settings, long maxPayloadBytes) throws IOException {
        this.endpoint = endpoint;
        this.settings = settings;
        this.outbox = new LinkedBlockingQueue<>(settings.maxQueued());
        this.maxFrameBytes = maxPayloadBytes + 2;
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
        return connect(endpoint, settings, org.tunekit.dispatcher.protocol.PipeFrameCodec.DEFAULT_MAX_PAYLOAD);
    }

    /**
     * {@link #connect(String, Settings)}, accepting payloads of at most {@code maxPayloadBytes}.
     */
    public static ZmqChannel connect(String endpoint, Settings settings, long maxPayloadBytes) throws IOException {
        if (!endpoint.startsWith("tcp://")) {
            throw new IllegalArgumentException("not a ZeroMQ tcp:// endpoint: " + endpoint);
        }
        ZmqChannel ch = new ZmqChannel(endpoint, settings, maxPayloadBytes);
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
            socket.setSndHWM(settings.maxQueued());
            String monitorAddress = "inproc://tunekit-monitor-" + new String(identity, StandardCharsets.US_ASCII);
            socket.monitor(monitorAddress, ZMQ.EVENT_CONNECTED | ZMQ.EVENT_HANDSHAKE_PROTOCOL | ZMQ.EVENT_DISCONNECTED
                    | zmq.ZMQ.ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL | zmq.ZMQ.ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL
                    | zmq.ZMQ.ZMQ_EVENT_HANDSHAKE_FAILED_AUTH);
            ZMQ.Socket monitor = context.createSocket(SocketType.PAIR);
            monitor.connect(monitorAddress);
            socket.connect(endpoint);

            ZMQ.Poller poller = context.createPoller(3);
            int socketIndex = poller.register(socket, ZMQ.Poller.POLLIN);
            int monitorIndex = poller.register(monitor, ZMQ.Poller.POLLIN);
            int wakeIndex = poller.register(wake.source(), ZMQ.Poller.POLLIN);
            ByteBuffer wakeBytes = ByteBuffer.allocate(64);

            long started = System.nanoTime();
            boolean receivedSomething = false;
            boolean everConnected = false;
            long disconnectedSince = -1;
            boolean helloAgain = false;
            long handshakeAt = -1;
            int handshakes = 0;
            boolean warnedNotZmtp3 = false;
            // how long a handshaken connection must last to count as the manager being there
            long stableNanos = Math.min(Duration.ofSeconds(1).toNanos(), settings.reconnectGrace().toNanos() / 2);
            while (!stopping && !lost) {
                sendQueued(socket);
                if (backPressured && outbox.isEmpty()) {
                    backPressured = false;
                    LOG.info("the manager at {} reads again: the reply queue has drained", endpoint);
                }
                poller.poll(outbox.isEmpty() ? 200 : 10);
                if (poller.pollin(wakeIndex)) {
                    while (wake.source().read(wakeBytes.clear()) > 0) {
                        // drained
                    }
                }
                if (poller.pollin(socketIndex)) {
                    receivedSomething = receiveAll(socket) > 0;
                }
                if (poller.pollin(monitorIndex)) {
                    ZEvent event;
                    while ((event = ZEvent.recv(monitor, ZMQ.DONTWAIT)) != null) {
                        ZMonitor.Event e = event.getEvent();
                        if (e == ZMonitor.Event.HANDSHAKE_PROTOCOL && protocol(event) >= 3) {
                            // a TCP connection alone proves nothing, nor does this event alone; the connection must
                            // also last
                            handshakeAt = System.nanoTime();
                            handshakes++;
                        } else if (e == ZMonitor.Event.HANDSHAKE_PROTOCOL) {
                            // jeromq takes any greeting that is not ZMTP 2 or 3 (an HTTP reply, random bytes) for an
                            // unversioned ZMTP 1.0 one and reports a handshake; a manager speaks ZMTP 3, so this is
                            // a peer that does not speak ZMTP, however long it keeps the connection open
                            handshakeAt = -1;
                            if (!warnedNotZmtp3) {
                                warnedNotZmtp3 = true;
                                LOG.warn("the peer at {} does not speak ZMTP 3 (its greeting reads as ZMTP {}); waiting for a "
                                        + "manager that does", endpoint, protocol(event) == 2 ? "2.0" : "1.0");
                            }
                        } else if (e == ZMonitor.Event.DISCONNECTED || e == ZMonitor.Event.HANDSHAKE_FAILED_NO_DETAIL
                                || e == ZMonitor.Event.HANDSHAKE_FAILED_PROTOCOL || e == ZMonitor.Event.HANDSHAKE_FAILED_AUTH) {
                            // a failed handshake ends the connection too, and jeromq does not always
                            // report a DISCONNECTED after it: without this a peer that does not speak ZMTP
                            // could pass for a manager that stays connected
                            handshakeAt = -1;
                            if (everConnected && disconnectedSince < 0) {
                                LOG.warn("the connection to the manager at {} dropped; waiting up to {} for it to come back",
                                        endpoint, WebSocketChannel.seconds(settings.reconnectGrace()));
                                disconnectedSince = System.nanoTime();
                            }
                        }
                    }
                }
                if (handshakeAt >= 0 && (System.nanoTime() - handshakeAt > stableNanos || receivedSomething)) {
                    handshakeAt = -1;
                    if (handshakes > 1) {
                        // the manager may be a new one (restarted on the same endpoint): tell it who this is
                        LOG.info("reconnected to {}; saying hello again", endpoint);
                        helloAgain = true;
                    }
                    everConnected = true;
                    disconnectedSince = -1;
                }
                receivedSomething = false;
                if (helloAgain) {
                    // after whatever waited for the reconnection; a manager that knows the identity ignores it
                    helloAgain = !socket.send(HELLO, ZMQ.DONTWAIT);
                }
                long now = System.nanoTime();
                if (!everConnected && now - started > settings.connectTimeout().toNanos()) {
                    markLost("gave up on the manager at " + endpoint + ": no ZeroMQ connection within the give-up time of "
                            + WebSocketChannel.seconds(settings.connectTimeout())
                            + " (nothing listening, or a peer that does not speak ZMTP)");
                } else if (disconnectedSince >= 0 && now - disconnectedSince > settings.reconnectGrace().toNanos()) {
                    markLost("gave up on the manager at " + endpoint + ": it has been unreachable for the give-up time of "
                            + WebSocketChannel.seconds(settings.reconnectGrace()));
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

    /**
     * The protocol of a {@code HANDSHAKE_PROTOCOL} event: jeromq's ordinal, 0 and 1 for ZMTP 1.0 (unversioned and
     * versioned), 2 for ZMTP 2.0, 3 for ZMTP 3; -1 when the event carries none.
     */
    private static int protocol(ZEvent event) {
        return event.<Object>getValue() instanceof Integer ordinal ? ordinal : -1;
    }

    private void markLost(String why) {
        synchronized (outbox) {
            if (lost) {
                return;
            }
            lostReason = why;
            lost = true;
        }
        LOG.error("{}", why);
        inbox.add(new Lost(why));
        wakeUp();
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

    /** Takes every message ZeroMQ holds into the inbox; returns how many. */
    private int receiveAll(ZMQ.Socket socket) {
        byte[] frame;
        int n = 0;
        while ((frame = socket.recv(ZMQ.DONTWAIT)) != null) {
            n++;
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
            if (frame.length > maxFrameBytes) {
                inbox.add(new ProtocolException("a frame of " + frame.length + " bytes from " + endpoint + "; the limit is "
                        + (maxFrameBytes - 2) + " bytes of payload (--max-frame-bytes)"));
                continue;
            }
            try {
                Object decoded = decode(frame);
                inbox.add(decoded);
            } catch (ProtocolException e) {
                inbox.add(e);
            }
        }
        return n;
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
        byte[] payload = command.wireText().getBytes(StandardCharsets.UTF_8);
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
            } else if (o instanceof Lost l) {
                receiveEnded = true;
                throw new ChannelLostException(l.why());
            }
        }
        return null;
    }

    /**
     * Queues a reply for the I/O thread. Blocks while the queue is full.
     *
     * @throws ChannelLostException when the queue stays full for the send timeout (the manager stopped reading;
     *                              later replies are discarded), or when this is the first reply after the
     *                              manager was taken to be gone
     */
    @Override
    public void send(Command command) throws IOException {
        if (lost || closed.get()) {
            LOG.warn("discarding {}: the channel to {} has ended", command, endpoint);
            return;
        }
        byte[] frame = encode(command);
        try {
            if (!outbox.offer(frame)) {
                wakeUp();
                if (!backPressured) {
                    backPressured = true;
                    LOG.warn("back-pressure: the queue of replies to {} is full ({}); waiting up to {} for the manager to read",
                            endpoint, settings.maxQueued(), WebSocketChannel.seconds(settings.sendTimeout()));
                }
                long deadline = System.nanoTime() + settings.sendTimeout().toNanos();
                while (!outbox.offer(frame, 50, TimeUnit.MILLISECONDS)) {
                    if (lost || closed.get()) {
                        LOG.warn("discarding {}: the channel to {} has ended", command, endpoint);
                        return;
                    }
                    if (System.nanoTime() > deadline) {
                        markLost("gave up on the manager at " + endpoint + ": it has not taken a reply for "
                                + WebSocketChannel.seconds(settings.sendTimeout()) + " (" + outbox.size()
                                + " replies waiting in the channel's queue, its bound, and as many in ZeroMQ's)");
                        throw new ChannelLostException(lostReason);
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for room in the queue to " + endpoint);
        }
        wakeUp();
    }

    /** How many replies wait in the channel's queue (for tests and diagnostics). */
    int queued() {
        return outbox.size();
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
