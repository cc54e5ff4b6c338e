package org.tunekit.dispatcher.channel;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.tunekit.dispatcher.protocol.JsonCodec;
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
 */
public final class WebSocketChannel implements CommandChannel {
    private static final Logger LOG = LoggerFactory.getLogger(WebSocketChannel.class);
    private static final String BYE = "{\"type\":\"_bye_\"}";
    /** The status the JDK reports when the connection ended without a Close frame (RFC 6455, 7.1.5). */
    private static final int ABNORMAL_CLOSURE = 1006;
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

    /** The manager ended the conversation: {@code _bye_}, a server Close, or every reconnection failed. */
    private record End(String why) {}

    /** The connection of this generation failed without a Close. */
    private record Dropped(int generation, Throwable cause) {}

    /** The channel gave up on the manager. */
    private record Lost(String why) {}

    private final URI uri;
    private final Settings settings;
    private final long maxPayloadBytes;
    private final HttpClient client;
    private final BlockingQueue<Object> inbox = new LinkedBlockingQueue<>();
    private final Object connectionLock = new Object();
    private final Object sendLock = new Object();
    private final Deque<String> outbox = new ArrayDeque<>();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final ScheduledExecutorService keepAlive = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "tunekit-ws-keepalive");
        t.setDaemon(true);
        return t;
    });
    private Connection current; // guarded by connectionLock
    private volatile boolean peerEnded;
    private volatile boolean lost;
    private volatile boolean closing;
    private boolean receiveEnded; // receiving thread only
    private boolean backPressured; // guarded by sendLock

    private WebSocketChannel(URI uri, Settings settings, long maxPayloadBytes) {
        this.uri = uri;
        this.settings = settings;
        this.maxPayloadBytes = maxPayloadBytes;
        this.client = HttpClient.newBuilder().connectTimeout(settings.connectTimeout()).build();
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
        WebSocketChannel ch = new WebSocketChannel(uri, settings, maxPayloadBytes);
        synchronized (ch.connectionLock) {
            ch.current = ch.connectWithin(0, "connect");
            if (ch.current == null) {
                ch.keepAlive.shutdownNow();
                throw new ChannelLostException(ch.lostReason);
            }
            long ms = settings.pingInterval().toMillis();
            ch.keepAlive.scheduleWithFixedDelay(ch::checkLiveness, ms, ms, TimeUnit.MILLISECONDS);
            return ch;
        }
    }

    private volatile String lostReason;

    /**
     * Tries to open a connection until the give-up time has passed. Holds {@link #connectionLock}.
     *
     * @return the connection, or {@code null} (with {@link #lostReason} set) when every attempt failed
     */
    private Connection connectWithin(int generation, String what) throws InterruptedIOException {
        long start = System.nanoTime();
        long deadline = start + settings.giveUp().toNanos();
        int attempt = 0;
        String last = "";
        while (true) {
            attempt++;
            Duration delay = settings.delayBefore(attempt);
            if (attempt > 1 && System.nanoTime() + delay.toNanos() >= deadline) {
                break;
            }
            sleep(delay);
            if (closing || peerEnded) {
                lostReason = "the channel was closed while reconnecting";
                return null;
            }
            long remaining = deadline - System.nanoTime();
            if (attempt > 1 && remaining <= 0) {
                break;
            }
            Duration timeout = Duration.ofNanos(Math.max(Math.min(settings.connectTimeout().toNanos(), remaining), 1_000_000));
            try {
                Connection c = open(generation, timeout);
                if (attempt > 1 || generation > 0) {
                    LOG.info("{}ed to {} (attempt {})", what, uri, attempt);
                }
                return c;
            } catch (InterruptedIOException e) {
                throw e;
            } catch (IOException e) {
                last = e.getMessage();
                LOG.warn("{} attempt {} to {} failed: {}", what, attempt, uri, last);
            }
        }
        lostReason = "gave up on the manager at " + uri + ": no connection within the give-up time of "
                + seconds(settings.giveUp()) + " (" + (attempt - 1) + " attempts; last: " + last + ")";
        return null;
    }

    static String seconds(Duration d) {
        return java.math.BigDecimal.valueOf(d.toMillis(), 3).stripTrailingZeros().toPlainString() + " s";
    }

    private Connection open(int generation, Duration timeout) throws IOException {
        Connection c = new Connection(generation);
        CompletableFuture<WebSocket> f = client.newWebSocketBuilder()
                .connectTimeout(timeout)
                .buildAsync(uri, c);
        try {
            c.socket = f.get(timeout.toMillis() + 1000, TimeUnit.MILLISECONDS);
            return c;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new IOException("connection to " + uri + " failed: " + cause, cause);
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new IOException("connection to " + uri + " timed out after " + timeout, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while connecting to " + uri);
        }
    }

    /**
     * Replaces the connection of {@code failedGeneration} by a new one, unless that was done already.
     *
     * @return false when every attempt failed: the manager is gone
     */
    private boolean reconnect(int failedGeneration, Throwable cause) throws InterruptedIOException {
        synchronized (connectionLock) {
            if (lost) {
                return false;
            }
            if (current.generation != failedGeneration) {
                return true;
            }
            current.socket.abort();
            LOG.warn("the connection to {} dropped ({}); reconnecting for up to {}", uri, String.valueOf(cause), seconds(settings.giveUp()));
            Connection c = connectWithin(failedGeneration + 1, "reconnect");
            if (c != null) {
                current = c;
                return true;
            }
            if (closing || peerEnded) {
                return false;
            }
            giveUp(lostReason);
            return false;
        }
    }

    /** Takes the manager to be gone: the receiver hears of it, later sends are discarded. */
    private void giveUp(String why) {
        synchronized (connectionLock) {
            if (lost) {
                return;
            }
            lostReason = why;
            lost = true;
            LOG.error("{}", why);
            inbox.add(new Lost(why));
            if (current != null) {
                current.socket.abort();
            }
        }
    }

    /** Pings the server, or drops a connection on which the server has been silent for too long. */
    private void checkLiveness() {
        if (closing || peerEnded || lost) {
            return;
        }
        Connection c = connection();
        long silentNanos = System.nanoTime() - c.lastHeard;
        if (silentNanos > settings.silenceTimeout().toNanos()) {
            if (c.silenced.compareAndSet(false, true)) {
                LOG.warn("nothing from {} for {} ms: taking the connection as dropped", uri, silentNanos / 1_000_000);
                inbox.add(new Dropped(c.generation, new IOException("the server was silent for " + settings.silenceTimeout())));
                c.socket.abort();
            }
            return;
        }
        try {
            c.socket.sendPing(ByteBuffer.allocate(0));
        } catch (RuntimeException e) {
            LOG.debug("ping to {} not sent: {}", uri, e.toString());
        }
    }

    private Connection connection() {
        synchronized (connectionLock) {
            return current;
        }
    }

    /** Whether the client has heard the current connection end (a Close, a drop or an error) and not yet replaced it. */
    boolean connectionEnded() {
        return connection().closedByServer.isDone();
    }

    @Override
    public Command receive() throws IOException {
        while (!receiveEnded) {
            Object o;
            try {
                o = inbox.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for a command from " + uri);
            }
            if (o instanceof Command c) {
                return c;
            } else if (o instanceof ProtocolException e) {
                throw new ProtocolException(e.getMessage());
            } else if (o instanceof End end) {
                LOG.info("end of the command stream from {}: {}", uri, end.why());
                receiveEnded = true;
            } else if (o instanceof Lost l) {
                receiveEnded = true;
                throw new ChannelLostException(l.why());
            } else if (o instanceof Dropped d) {
                if (!closing && !reconnect(d.generation(), d.cause())) {
                    receiveEnded = true;
                    if (lost) {
                        throw new ChannelLostException(lostReason);
                    }
                }
            }
        }
        return null;
    }

    @Override
    public void send(Command command) throws IOException {
        String text = encode(command);
        synchronized (sendLock) {
            if (peerEnded || lost || closed.get()) {
                LOG.warn("discarding {}: the channel to {} has ended", abbreviate(command.toString()), uri);
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
            if (peerEnded || lost) {
                LOG.warn("discarding {} unsent replies: the channel to {} has ended", outbox.size(), uri);
                outbox.clear();
                if (lost) {
                    throw new ChannelLostException(lostReason);
                }
                return;
            }
            Connection c = connection();
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
                giveUp("gave up on the manager at " + uri + ": it has not read a reply for " + seconds(settings.sendTimeout())
                        + " (the connection is open but the manager stopped reading)");
            } catch (ExecutionException e) {
                Throwable cause = e.getCause() != null ? e.getCause() : e;
                if (peerEnded) {
                    continue;
                }
                reconnect(c.generation, cause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while sending to " + uri);
            }
        }
    }

    /** The text message for a command. */
    static String encode(Command command) {
        StringBuilder sb = new StringBuilder(command.payload().length() + 32);
        sb.append("{\"type\":\"").append(command.type().code()).append('"');
        if (!command.payload().isEmpty()) {
            sb.append(",\"content\":");
            JsonCodec.writeString(command.payload(), sb);
        }
        return sb.append('}').toString();
    }

    /**
     * Decodes one message from the manager.
     *
     * @return the command, {@code null} for {@code _nop_}, or an {@link End} for {@code _bye_}
     */
    static Object decode(String text) throws ProtocolException {
        Object parsed = JsonCodec.parse(text, "WebSocket message");
        if (!(parsed instanceof Map<?, ?> m)) {
            throw new ProtocolException("WebSocket message is not a JSON object: " + abbreviate(text));
        }
        Object type = m.get("type");
        if (!(type instanceof String t)) {
            throw new ProtocolException("WebSocket message has no string \"type\": " + abbreviate(text));
        }
        if (t.equals("_nop_")) {
            return null;
        }
        if (t.equals("_bye_")) {
            Object reason = m.get("reason");
            return new End("the manager said goodbye" + (reason == null ? "" : " (" + reason + ")"));
        }
        CommandType ct = CommandType.ofCode(t);
        if (ct == null) {
            throw new ProtocolException("unknown command type \"" + t + "\" in WebSocket message " + abbreviate(text));
        }
        if (!ct.toDispatcher()) {
            throw new ProtocolException("command " + t + " is sent by the dispatcher, never to it: " + abbreviate(text));
        }
        Object content = m.get("content");
        if (content == null) {
            return Command.of(ct);
        }
        if (!(content instanceof String s)) {
            throw new ProtocolException("\"content\" of the " + t + " message is not a string: " + abbreviate(text));
        }
        return new Command(ct, s);
    }

    private static String abbreviate(String s) {
        return s.length() > 200 ? s.substring(0, 200) + "..." : s;
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        keepAlive.shutdownNow();
        synchronized (sendLock) {
            Connection c = connection();
            closing = true;
            if (c == null) {
                return;
            }
            try {
                if (!peerEnded && !lost) {
                    long ms = settings.closeTimeout().toMillis();
                    c.socket.sendText(BYE, true).get(ms, TimeUnit.MILLISECONDS);
                    c.socket.sendClose(WebSocket.NORMAL_CLOSURE, "").get(ms, TimeUnit.MILLISECONDS);
                    c.closedByServer.get(ms, TimeUnit.MILLISECONDS);
                } else if (peerEnded) {
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

    private static void sleep(Duration d) throws InterruptedIOException {
        if (d.isZero() || d.isNegative()) {
            return;
        }
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting to reconnect");
        }
    }

    /** One connection; the listener feeds the shared inbox. */
    private final class Connection implements WebSocket.Listener {
        final int generation;
        final CompletableFuture<Void> closedByServer = new CompletableFuture<>();
        final StringBuilder partial = new StringBuilder();
        boolean oversized;
        final AtomicBoolean silenced = new AtomicBoolean();
        volatile WebSocket socket;
        volatile long lastHeard = System.nanoTime();

        Connection(int generation) {
            this.generation = generation;
        }

        @Override
        public void onOpen(WebSocket webSocket) {
            lastHeard = System.nanoTime();
            webSocket.request(1);
        }

        @Override
        public CompletionStage<?> onPing(WebSocket webSocket, ByteBuffer message) {
            // the JDK answers with a Pong by itself
            lastHeard = System.nanoTime();
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onPong(WebSocket webSocket, ByteBuffer message) {
            lastHeard = System.nanoTime();
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
            lastHeard = System.nanoTime();
            if (!oversized) {
                partial.append(data);
                // a char is at least one UTF-8 byte: beyond the limit in chars is beyond it in bytes
                if (partial.length() > maxPayloadBytes) {
                    oversized = true;
                    partial.setLength(0);
                    partial.trimToSize();
                    inbox.add(new ProtocolException("a WebSocket message from " + uri + " is larger than the limit of "
                            + maxPayloadBytes + " bytes (--max-frame-bytes)"));
                }
            }
            if (last) {
                if (oversized) {
                    oversized = false;
                } else {
                    String text = partial.toString();
                    partial.setLength(0);
                    if (partial.capacity() > 1 << 16) {
                        partial.trimToSize();
                    }
                    accept(text);
                }
            }
            webSocket.request(1);
            return null;
        }

        private void accept(String text) {
            try {
                if ((long) text.length() * 3 > maxPayloadBytes && utf8Length(text) > maxPayloadBytes) {
                    throw new ProtocolException("a WebSocket message from " + uri + " is larger than the limit of "
                            + maxPayloadBytes + " bytes (--max-frame-bytes)");
                }
                Object decoded = decode(text);
                if (decoded instanceof End) {
                    peerEnded = true;
                }
                if (decoded != null) {
                    inbox.add(decoded);
                } else {
                    LOG.debug("_nop_ from {}", uri);
                }
            } catch (ProtocolException e) {
                inbox.add(e);
            }
        }

        @Override
        public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
            lastHeard = System.nanoTime();
            if (last) {
                inbox.add(new ProtocolException("binary WebSocket message from " + uri + "; commands are text messages"));
            }
            webSocket.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
            closedByServer.complete(null);
            if (statusCode == ABNORMAL_CLOSURE && !closing) {
                // no Close frame came: the connection dropped
                inbox.add(new Dropped(generation, new IOException("connection closed without a Close frame")));
                return null;
            }
            if (!closing) {
                peerEnded = true;
                inbox.add(new End("the server closed the connection (code " + statusCode
                        + (reason == null || reason.isEmpty() ? "" : ", " + reason) + ")"));
            }
            return null;
        }

        @Override
        public void onError(WebSocket webSocket, Throwable error) {
            closedByServer.complete(null);
            if (closing) {
                return;
            }
            if (error instanceof java.net.ProtocolException || !(error instanceof IOException)) {
                // the server broke RFC 6455 (a reserved opcode, a masked or oversized control frame, bad UTF-8...):
                // reconnecting would meet the same server, so this is the manager's error, not a network fault
                inbox.add(new ProtocolException("the manager at " + uri + " sent data that is not a valid WebSocket frame: " + error));
                return;
            }
            inbox.add(new Dropped(generation, error));
        }
    }

    private static long utf8Length(String s) {
        long n = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                n++;
            } else if (c < 0x800) {
                n += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                n += 4;
                i++;
            } else {
                n += 3;
            }
        }
        return n;
    }
}
