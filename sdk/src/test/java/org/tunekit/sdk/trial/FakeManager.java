package org.tunekit.sdk.trial;

import org.tunekit.sdk.internal.Json;
import static java.nio.charset.StandardCharsets.UTF_8;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A trial channel server that behaves as NNI 3's manager does: a {@code PUT} is a command from the
 * trial (answered 200 with an empty body); a {@code GET} is held until there is a command for the
 * trial, or answered 408 after a short wait; once closed, both are answered 410.
 */
final class FakeManager implements AutoCloseable {
    static final String PATH = "/env/e1/t1";

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final BlockingQueue<String> outgoing = new LinkedBlockingQueue<>();
    /** Commands to send, one per {@code request_parameter}, in order; none left: nothing is sent. */
    final Queue<String> parameterReplies = new ConcurrentLinkedQueue<>();
    final List<String> putBodies = new CopyOnWriteArrayList<>();
    final List<String> putContentTypes = new CopyOnWriteArrayList<>();
    final AtomicInteger gets = new AtomicInteger();
    final AtomicInteger timeouts = new AtomicInteger();
    /** The first this many polls are answered 408, whatever there is to send. */
    volatile int forcedTimeouts = 1;
    /** Once set, every request is answered 410, as by a manager that has shut down. */
    volatile boolean closed;
    /** When not 0, every poll is answered with this status and {@link #statusBody}. */
    volatile int pollStatus;
    volatile String statusBody = "";

    FakeManager() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(executor);
        server.createContext(PATH, this::handle);
        server.start();
    }

    String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + PATH;
    }

    /** Queues a parameter command holding this parameter record's JSON text. */
    static String parameterCommand(String recordJson) {
        return "{\"type\": \"parameter\", \"parameter\": " + Json.quote(recordJson) + "}";
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (exchange.getRequestMethod().equals("PUT")) {
                String body = new String(exchange.getRequestBody().readAllBytes(), UTF_8);
                if (closed) {
                    respond(exchange, 410, "Gone");
                    return;
                }
                putBodies.add(body);
                putContentTypes.add(String.valueOf(exchange.getRequestHeaders().getFirst("Content-Type")));
                if (body.contains("\"request_parameter\"")) {
                    String reply = parameterReplies.poll();
                    if (reply != null) {
                        outgoing.add(reply);
                    }
                }
                exchange.sendResponseHeaders(200, -1);
            } else if (exchange.getRequestMethod().equals("GET")) {
                int n = gets.getAndIncrement();
                if (closed) {
                    respond(exchange, 410, "Gone");
                } else if (pollStatus != 0) {
                    respond(exchange, pollStatus, statusBody);
                } else {
                    String command = n < forcedTimeouts ? null : outgoing.poll(200, TimeUnit.MILLISECONDS);
                    if (command == null) {
                        Thread.sleep(20);
                        timeouts.incrementAndGet();
                        respond(exchange, 408, "Request Timeout");
                    } else {
                        respond(exchange, 200, command);
                    }
                }
            } else {
                respond(exchange, 405, "");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void respond(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(UTF_8);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
