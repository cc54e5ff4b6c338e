package org.tunekit.dispatcher.channel;

import static org.tunekit.dispatcher.channel.WebSocketChannel.seconds;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tunekit.dispatcher.channel.WebSocketChannel.Settings;

/**
 * The WebSocket channel's hold on the manager: one {@link WebSocketConnection} at a time, opened
 * within the give-up time and replaced when it drops, a keep-alive that pings the server and drops a
 * silent connection, and the shared state of the conversation (ended by the manager, being closed by
 * the dispatcher, or lost). Every connection feeds one {@link #inbox}, which the channel reads.
 */
final class ManagerLink {
    private static final Logger LOG = LoggerFactory.getLogger(WebSocketChannel.class);

    final URI uri;
    final long maxPayloadBytes;
    /** Commands, protocol errors and {@link LinkEvent}s, in the order they happened. */
    final BlockingQueue<Object> inbox = new LinkedBlockingQueue<>();
    /** The manager ended the conversation. */
    volatile boolean peerEnded;
    /** The channel gave up on the manager. */
    volatile boolean lost;
    /** The dispatcher is closing the channel. */
    volatile boolean closing;
    private final Settings settings;
    private final HttpClient client;
    private final Object connectionLock = new Object();
    private final ScheduledExecutorService keepAlive = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "tunekit-ws-keepalive");
        t.setDaemon(true);
        return t;
    });
    private WebSocketConnection current; // guarded by connectionLock
    private volatile String lostReason;

    ManagerLink(URI uri, Settings settings, long maxPayloadBytes) {
        this.uri = uri;
        this.settings = settings;
        this.maxPayloadBytes = maxPayloadBytes;
        this.client = HttpClient.newBuilder().connectTimeout(settings.connectTimeout()).build();
    }

    /**
     * Opens the first connection, retrying for up to the give-up time, then starts the keep-alive.
     *
     * @throws ChannelLostException when no attempt succeeds within the give-up time
     */
    void connect() throws IOException {
        synchronized (connectionLock) {
            current = connectWithin(0, "connect");
            if (current == null) {
                keepAlive.shutdownNow();
                throw new ChannelLostException(lostReason);
            }
            long ms = settings.pingInterval().toMillis();
            keepAlive.scheduleWithFixedDelay(this::checkLiveness, ms, ms, TimeUnit.MILLISECONDS);
        }
    }

    /** Why the manager was given up on, once it was. */
    String lostReason() {
        return lostReason;
    }

    /** Stops pinging the server. */
    void stopKeepAlive() {
        keepAlive.shutdownNow();
    }

    /**
     * Tries to open a connection until the give-up time has passed. Holds the connection lock.
     *
     * @return the connection, or {@code null} (with {@link #lostReason} set) when every attempt failed
     */
    private WebSocketConnection connectWithin(int generation, String what) throws InterruptedIOException {
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
                WebSocketConnection c = WebSocketConnection.open(client, this, generation, timeout);
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

    /**
     * Replaces the connection of {@code failedGeneration} by a new one, unless that was done already.
     *
     * @return false when every attempt failed: the manager is gone
     */
    boolean reconnect(int failedGeneration, Throwable cause) throws InterruptedIOException {
        synchronized (connectionLock) {
            if (lost) {
                return false;
            }
            if (current.generation != failedGeneration) {
                return true;
            }
            current.socket.abort();
            LOG.warn("the connection to {} dropped ({}); reconnecting for up to {}", uri, String.valueOf(cause), seconds(settings.giveUp()));
            WebSocketConnection c = connectWithin(failedGeneration + 1, "reconnect");
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
    void giveUp(String why) {
        synchronized (connectionLock) {
            if (lost) {
                return;
            }
            lostReason = why;
            lost = true;
            LOG.error("{}", why);
            inbox.add(new LinkEvent.Lost(why));
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
        WebSocketConnection c = connection();
        long silentNanos = System.nanoTime() - c.lastHeard;
        if (silentNanos > settings.silenceTimeout().toNanos()) {
            if (c.silenced.compareAndSet(false, true)) {
                LOG.warn("nothing from {} for {} ms: taking the connection as dropped", uri, silentNanos / 1_000_000);
                inbox.add(new LinkEvent.Dropped(c.generation, new IOException("the server was silent for " + settings.silenceTimeout())));
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

    /** The current connection. */
    WebSocketConnection connection() {
        synchronized (connectionLock) {
            return current;
        }
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

}
