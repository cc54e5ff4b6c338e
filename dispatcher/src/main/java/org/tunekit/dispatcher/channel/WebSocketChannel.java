package org.tunekit.dispatcher.channel;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.WebSocket;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.ProtocolException;

/**
 * NNI 3's command channel: the dispatcher is a WebSocket client of the manager.
 *
 * <p>Each command is one text message {@code {"type": "GE", "content": "3"}}; an absent
 * {@code content} is an empty payload. From the manager, {@code {"type": "_nop_"}} is ignored and
 * {@code {"type": "_bye_", ...}} ends the stream, as does a Close from the server (NNI closes with code
 * 4000 after {@code TE}). {@link #close} sends {@code {"type": "_bye_"}} and a normal Close.
 *
 * <p>Faults. When the connection drops without a Close (status 1006, a reset, a truncated frame), the
 * channel reconnects, waiting {@link Settings#retryDelays} (the last one repeated) between attempts, until
 * {@link Settings#giveUp} has passed since the drop; replies not yet sent are kept and sent on the new
 * connection, in order. The protocol has no acknowledgements: a reply the socket accepted in the instant
 * before the drop became known (before the peer's reset reached this host) goes down with the old
 * connection, and so does a command the manager wrote on it. When the give-up time passes without a
 * connection (the first one included), or a send stays blocked for {@link Settings#sendTimeout} (the
 * manager stopped reading), the manager is taken to be gone: {@link #receive} and that send throw
 * {@link ChannelLostException}, and later replies are discarded with a warning. A message larger than
 * the payload limit, a binary message, and a frame that breaks RFC 6455 are protocol errors.
 *
 * <p>Pings are answered by the JDK's client. The client also pings the server every
 * {@link Settings#pingInterval}; a server silent for {@link Settings#silenceTimeout} (a half-open
 * connection, a hung manager) is treated as a dropped connection, so the process never waits forever.
 * Messages are taken off the socket one at a time ({@code request(1)}) into a queue, so none is lost
 * before {@link #receive} asks for it. Sends are serialised and synchronous (the JDK client allows one
 * outstanding send): at most one reply is in the client's hands at a time, the rest wait in the callers.
 *
 * <p>The parts: {@code WebSocketMessageCodec} (the messages), {@code WebSocketConnection} (one
 * connection, its handshake and its listener), {@code ManagerLink} (connecting, reconnecting, the
 * keep-alive, giving up); this class receives, sends in order and closes.
 */
public final class WebSocketChannel implements CommandChannel {
    private static final Logger LOG = LoggerFactory.getLogger(WebSocketChannel.class);
    /** A send blocked for longer is logged as back-pressure. */
    private static final long BACK_PRESSURE_NOTICE_MS = 500;

    /**
     * Timing of the channel.
     *
     * @param connectTimeout how long one connection attempt may take
     * @param sendTimeout    how long one send may stay blocked (the manager not reading) before the manager is
     *                       taken to be gone
     * @param retryDelays    the wait before each connection attempt; the last one is repeated
     * @param closeTimeout   how long {@link #close} waits for the goodbye and the server's Close
     * @param pingInterval   how often the client pings the server
     * @param silenceTimeout how long the server may stay silent (no message, ping or pong) before the
     *                       connection is taken as dropped
     * @param giveUp         how long the channel tries to (re)connect before it takes the manager to be gone
     */
    public record Settings(Duration connectTimeout, Duration sendTimeout, List<Duration> retryDelays, Duration closeTimeout,
                           Duration pingInterval, Duration silenceTimeout, Duration giveUp) {
        /** The default give-up time: as long as an NNI manager keeps a dropped channel open. */
        public static final Duration DEFAULT_GIVE_UP = Duration.ofSeconds(30);

        /** {@link #withGiveUp} of {@link #DEFAULT_GIVE_UP}. */
        public static final Settings DEFAULT = withGiveUp(DEFAULT_GIVE_UP);

        /** Copies the delays; checks that the durations are positive. */
        public Settings {
            retryDelays = List.copyOf(retryDelays);
            if (retryDelays.isEmpty()) {
                throw new IllegalArgumentException("retryDelays must not be empty");
            }
            for (Duration d : List.of(connectTimeout, sendTimeout, closeTimeout, pingInterval, silenceTimeout, giveUp)) {
                if (d.isNegative() || d.isZero()) {
                    throw new IllegalArgumentException("channel timings must be positive, got " + d);
                }
            }
        }

        /**
         * NNI's schedule, bounded by one give-up time {@code g}: connection attempts after 0, 1, 2, 3, 4, 4, ... s
         * for up to {@code g}, each taking at most min(10 s, g); a send blocked for {@code g} gives up; a ping every
         * min(10 s, g / 4), and {@code g} of silence drops the connection.
         */
        public static Settings withGiveUp(Duration g) {
            if (g.isNegative() || g.isZero()) {
                throw new IllegalArgumentException("the give-up time must be positive, got " + g);
            }
            Duration ten = Duration.ofSeconds(10);
            Duration quarter = g.dividedBy(4).isZero() ? Duration.ofMillis(1) : g.dividedBy(4);
            return new Settings(min(ten, g), g,
                    List.of(Duration.ZERO, Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(3), Duration.ofSeconds(4)),
                    Duration.ofSeconds(5), min(ten, quarter), g, g);
        }

        private static Duration min(Duration a, Duration b) {
            return a.compareTo(b) <= 0 ? a : b;
        }

        /** The wait before connection attempt {@code attempt} (1 for the first). */
        Duration delayBefore(int attempt) {
            return retryDelays.get(Math.min(attempt - 1, retryDelays.size() - 1));
        }
    }

    private final URI uri;
    private final Settings settings;
    private final ManagerLink link;
    private final Object sendLock = new Object();
    private final Deque<String> outbox = new ArrayDeque<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private boolean receiveEnded; // receiving thread only
    private boolean backPressured; // guarded by sendLock

    private WebSocketChannel(ManagerLink link, Settings settings) {
        this.uri = link.uri;
        this.settings = settings;
        this.link = link;
    }

    /** {@link #connect(URI, Settings, long)} with the default payload limit. */
    public static WebSocketChannel connect(URI uri, Settings settings) throws IOException {
        return connect(uri, settings, org.tunekit.dispatcher.protocol.PipeFrameCodec.DEFAULT_MAX_PAYLOAD);
    }

    /**
     * Connects to the manager, retrying for up to the give-up time.
     *
     * @param maxPayloadBytes the largest message accepted from the manager, in UTF-8 bytes
     * @throws ChannelLostException when no attempt succeeds within the give-up time
     */
    public static WebSocketChannel connect(URI uri, Settings settings, long maxPayloadBytes) throws IOException {
        String scheme = uri.getScheme();
        if (!"ws".equalsIgnoreCase(scheme) && !"wss".equalsIgnoreCase(scheme)) {
            throw new IllegalArgumentException("not a WebSocket URI (ws:// or wss://): " + uri);
        }
        ManagerLink link = new ManagerLink(uri, settings, maxPayloadBytes);
        link.connect();
        return new WebSocketChannel(link, settings);
    }

    /** A duration as messages write it: seconds, without trailing zeros ({@code 1.5 s}). */
    static String seconds(Duration d) {
        return java.math.BigDecimal.valueOf(d.toMillis(), 3).stripTrailingZeros().toPlainString() + " s";
    }

    /** Whether the client has heard the current connection end (a Close, a drop or an error) and not yet replaced it. */
    boolean connectionEnded() {
        return link.connection().closedByServer.isDone();
    }

    @Override
    public Command receive() throws IOException {
        while (!receiveEnded) {
            Object o;
            try {
                o = link.inbox.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for a command from " + uri);
            }
            if (o instanceof Command c) {
                return c;
            } else if (o instanceof ProtocolException e) {
                throw new ProtocolException(e.getMessage());
            } else if (o instanceof LinkEvent.End end) {
                LOG.info("end of the command stream from {}: {}", uri, end.why());
                receiveEnded = true;
            } else if (o instanceof LinkEvent.Lost l) {
                receiveEnded = true;
                throw new ChannelLostException(l.why());
            } else if (o instanceof LinkEvent.Dropped d) {
                if (!link.closing && !link.reconnect(d.generation(), d.cause())) {
                    receiveEnded = true;
                    if (link.lost) {
                        throw new ChannelLostException(link.lostReason());
                    }
                }
            }
        }
        return null;
    }

    @Override
    public void send(Command command) throws IOException {
        String text = WebSocketMessageCodec.encode(command);
        synchronized (sendLock) {
            if (link.peerEnded || link.lost || closed.get()) {
                LOG.warn("discarding {}: the channel to {} has ended", WebSocketMessageCodec.abbreviate(command.toString()), uri);
                return;
            }
            outbox.add(text);
            drain();
        }
    }

    /**
     * Sends the outbox in order; on a failed send, reconnects and carries on. Holds {@link #sendLock}.
     *
     * @throws ChannelLostException when a send stays blocked for the send timeout, or the manager is gone
     */
    private void drain() throws IOException {
        while (!outbox.isEmpty()) {
            if (link.peerEnded || link.lost) {
                LOG.warn("discarding {} unsent replies: the channel to {} has ended", outbox.size(), uri);
                outbox.clear();
                if (link.lost) {
                    throw new ChannelLostException(link.lostReason());
                }
                return;
            }
            WebSocketConnection c = link.connection();
            try {
                CompletableFuture<WebSocket> sent = c.socket.sendText(outbox.peekFirst(), true);
                long noticeMs = Math.min(BACK_PRESSURE_NOTICE_MS, settings.sendTimeout().toMillis());
                try {
                    sent.get(noticeMs, TimeUnit.MILLISECONDS);
                    if (backPressured) {
                        backPressured = false;
                        LOG.info("the manager at {} reads again", uri);
                    }
                } catch (TimeoutException slow) {
                    if (!backPressured) {
                        backPressured = true;
                        LOG.warn("back-pressure: a reply to {} has waited {} ms for the manager to read; waiting up to {} in all",
                                uri, noticeMs, seconds(settings.sendTimeout()));
                    }
                    sent.get(settings.sendTimeout().toMillis() - noticeMs, TimeUnit.MILLISECONDS);
                }
                outbox.pollFirst();
            } catch (TimeoutException e) {
                link.giveUp("gave up on the manager at " + uri + ": it has not read a reply for " + seconds(settings.sendTimeout())
                        + " (the connection is open but the manager stopped reading)");
            } catch (ExecutionException e) {
                Throwable cause = e.getCause() != null ? e.getCause() : e;
                if (link.peerEnded) {
                    continue;
                }
                link.reconnect(c.generation, cause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while sending to " + uri);
            }
        }
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        link.stopKeepAlive();
        synchronized (sendLock) {
            WebSocketConnection c = link.connection();
            link.closing = true;
            if (c == null) {
                return;
            }
            try {
                if (!link.peerEnded && !link.lost) {
                    long ms = settings.closeTimeout().toMillis();
                    c.socket.sendText(WebSocketMessageCodec.BYE, true).get(ms, TimeUnit.MILLISECONDS);
                    c.socket.sendClose(WebSocket.NORMAL_CLOSURE, "").get(ms, TimeUnit.MILLISECONDS);
                    c.closedByServer.get(ms, TimeUnit.MILLISECONDS);
                } else if (link.peerEnded) {
                    // NNI follows _bye_ with a Close, which the JDK answers by itself a moment after
                    // onClose: let that answer go out (or close ourselves if the server never does)
                    long ms = settings.closeTimeout().toMillis();
                    try {
                        c.closedByServer.get(ms, TimeUnit.MILLISECONDS);
                    } catch (TimeoutException e) {
                        c.socket.sendClose(WebSocket.NORMAL_CLOSURE, "").get(ms, TimeUnit.MILLISECONDS);
                    }
                    long deadline = System.nanoTime() + settings.closeTimeout().toNanos();
                    while (!c.socket.isOutputClosed() && System.nanoTime() < deadline) {
                        Thread.sleep(5);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException | RuntimeException e) {
                LOG.debug("closing the connection to {}: {}", uri, e.toString());
            } finally {
                c.socket.abort();
            }
        }
    }

    @Override
    public String describe() {
        return uri.toString();
    }
}
