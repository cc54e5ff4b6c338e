package org.tunekit.dispatcher.channel;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tunekit.dispatcher.protocol.ProtocolException;

/**
 * One WebSocket connection to the manager, from its opening handshake to its end: it takes messages
 * off the socket one at a time ({@code request(1)}), puts together a message sent in parts (refusing
 * one larger than the payload limit), and feeds the link's inbox with commands, protocol errors and
 * {@link LinkEvent}s (the manager's goodbye or Close, a drop). It also notes when the server was last
 * heard, for the link's liveness check.
 */
final class WebSocketConnection implements WebSocket.Listener {
    private static final Logger LOG = LoggerFactory.getLogger(WebSocketChannel.class);
    /** The status the JDK reports when the connection ended without a Close frame (RFC 6455, 7.1.5). */
    private static final int ABNORMAL_CLOSURE = 1006;

    final int generation;
    final CompletableFuture<Void> closedByServer = new CompletableFuture<>();
    final AtomicBoolean silenced = new AtomicBoolean();
    volatile WebSocket socket;
    volatile long lastHeard = System.nanoTime();
    private final ManagerLink link;
    private final StringBuilder partial = new StringBuilder();
    private boolean oversized;

    private WebSocketConnection(ManagerLink link, int generation) {
        this.link = link;
        this.generation = generation;
    }

    /**
     * The opening handshake: connects to the link's manager, waiting at most {@code timeout}.
     *
     * @throws IOException naming the address, when the handshake fails or times out
     */
    static WebSocketConnection open(HttpClient client, ManagerLink link, int generation, Duration timeout) throws IOException {
        URI uri = link.uri;
        WebSocketConnection c = new WebSocketConnection(link, generation);
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
            if (partial.length() > link.maxPayloadBytes) {
                oversized = true;
                partial.setLength(0);
                partial.trimToSize();
                link.inbox.add(new ProtocolException("a WebSocket message from " + link.uri + " is larger than the limit of "
                        + link.maxPayloadBytes + " bytes (--max-frame-bytes)"));
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
            if ((long) text.length() * 3 > link.maxPayloadBytes && WebSocketMessageCodec.utf8Length(text) > link.maxPayloadBytes) {
                throw new ProtocolException("a WebSocket message from " + link.uri + " is larger than the limit of "
                        + link.maxPayloadBytes + " bytes (--max-frame-bytes)");
            }
            Object decoded = WebSocketMessageCodec.decode(text);
            if (decoded instanceof LinkEvent.End) {
                link.peerEnded = true;
            }
            if (decoded != null) {
                link.inbox.add(decoded);
            } else {
                LOG.debug("_nop_ from {}", link.uri);
            }
        } catch (ProtocolException e) {
            link.inbox.add(e);
        }
    }

    @Override
    public CompletionStage<?> onBinary(WebSocket webSocket, ByteBuffer data, boolean last) {
        lastHeard = System.nanoTime();
        if (last) {
            link.inbox.add(new ProtocolException("binary WebSocket message from " + link.uri + "; commands are text messages"));
        }
        webSocket.request(1);
        return null;
    }

    @Override
    public CompletionStage<?> onClose(WebSocket webSocket, int statusCode, String reason) {
        closedByServer.complete(null);
        if (statusCode == ABNORMAL_CLOSURE && !link.closing) {
            // no Close frame came: the connection dropped
            link.inbox.add(new LinkEvent.Dropped(generation, new IOException("connection closed without a Close frame")));
            return null;
        }
        if (!link.closing) {
            link.peerEnded = true;
            link.inbox.add(new LinkEvent.End("the server closed the connection (code " + statusCode
                    + (reason == null || reason.isEmpty() ? "" : ", " + reason) + ")"));
        }
        return null;
    }

    @Override
    public void onError(WebSocket webSocket, Throwable error) {
        closedByServer.complete(null);
        if (link.closing) {
            return;
        }
        if (error instanceof java.net.ProtocolException || !(error instanceof IOException)) {
            // the server broke RFC 6455 (a reserved opcode, a masked or oversized control frame, bad UTF-8...):
            // reconnecting would meet the same server, so this is the manager's error, not a network fault
            link.inbox.add(new ProtocolException("the manager at " + link.uri + " sent data that is not a valid WebSocket frame: " + error));
            return;
        }
        link.inbox.add(new LinkEvent.Dropped(generation, error));
    }
}
