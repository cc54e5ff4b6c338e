package org.tunekit.runner;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.tunekit.dispatcher.protocol.JsonCodec;
import org.tunekit.dispatcher.protocol.ProtocolException;

/**
 * NNI 3's HTTP trial command channel, served on the loopback interface: one URL per trial,
 * {@code http://127.0.0.1:PORT/trial/TOKEN/JOBID} (the token keeps other local users' processes from
 * posting into an experiment).
 *
 * <ul>
 *   <li>{@code PUT} with {@code {"type":"request_parameter"}} or {@code {"type":"metric","metric":"<ME text>"}}:
 *       handed to the {@link Listener}, which records it before the 200 goes back (so an acknowledged
 *       metric is on disk); a body that is not one of these gets 400 with what is wrong.</li>
 *   <li>{@code GET}: long poll. 200 with the next queued command ({@code {"type":"parameter","parameter":"<TR text>"}}),
 *       or 408 after {@link #POLL_MILLIS} with nothing queued.</li>
 *   <li>Both get 410 once the trial has ended or the runner shuts down, and 404 for a trial it never had.</li>
 * </ul>
 */
final class HttpTrialServer implements AutoCloseable {
    static final long POLL_MILLIS = 1000;
    private static final int MAX_BODY = 4 << 20;

    /** What the runner does with a trial's messages; called on the server's threads. */
    interface Listener {
        /** The trial asks for (more) parameters. */
        void requestParameter(String trialJobId);

        /**
         * The trial reports a metric ({@code ME} text); returns once it is recorded.
         *
         * @throws IllegalArgumentException naming what is wrong with it
         */
        void metric(String trialJobId, String metricText);
    }

    private static final class Endpoint {
        final BlockingQueue<String> outgoing = new LinkedBlockingQueue<>();
        volatile boolean gone;
    }

    private final HttpServer server;
    private final ExecutorService threads;
    private final String base;
    private final Listener listener;
    private final Map<String, Endpoint> endpoints = new ConcurrentHashMap<>();
    private volatile boolean shutDown;

    HttpTrialServer(Listener listener) throws IOException {
        this.listener = listener;
        byte[] token = new byte[12];
        new SecureRandom().nextBytes(token);
        String prefix = "/trial/" + HexFormat.of().formatHex(token) + "/";
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
        threads = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "tunekit-trial-channel");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(threads);
        server.createContext(prefix, exchange -> handle(exchange, exchange.getRequestURI().getPath().substring(prefix.length())));
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort() + prefix;
    }

    /** Opens the channel of a trial and returns its URL ({@code NNI_TRIAL_COMMAND_CHANNEL}). */
    String open(String trialJobId) {
        endpoints.put(trialJobId, new Endpoint());
        return base + trialJobId;
    }

    /** Queues a command for the trial's next {@code GET}. */
    void send(String trialJobId, String commandJson) {
        Endpoint e = endpoints.get(trialJobId);
        if (e != null && !e.gone) {
            e.outgoing.add(commandJson);
        }
    }

    /** Ends a trial's channel: its requests get 410 from now on. */
    void close(String trialJobId) {
        Endpoint e = endpoints.get(trialJobId);
        if (e != null) {
            e.gone = true;
        }
    }

    private void handle(HttpExchange exchange, String trialJobId) throws IOException {
        try (exchange) {
            Endpoint e = endpoints.get(trialJobId);
            if (e == null) {
                reply(exchange, 404, "no trial '" + trialJobId + "' in this experiment");
                return;
            }
            if (e.gone || shutDown) {
                reply(exchange, 410, "");
                return;
            }
            switch (exchange.getRequestMethod()) {
                case "GET" -> {
                    String c = e.outgoing.poll(POLL_MILLIS, TimeUnit.MILLISECONDS);
                    if (c == null) {
                        reply(exchange, e.gone || shutDown ? 410 : 408, "");
                    } else {
                        exchange.getResponseHeaders().set("Content-Type", "application/json");
                        reply(exchange, 200, c);
                    }
                }
                case "PUT", "POST" -> put(exchange, trialJobId);
                default -> reply(exchange, 405, "use GET or PUT");
            }
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
        }
    }

    private void put(HttpExchange exchange, String trialJobId) throws IOException {
        String body;
        try (InputStream in = exchange.getRequestBody()) {
            byte[] bytes = in.readNBytes(MAX_BODY + 1);
            if (bytes.length > MAX_BODY) {
                reply(exchange, 413, "a trial command may hold at most " + MAX_BODY + " bytes");
                return;
            }
            body = new String(bytes, StandardCharsets.UTF_8);
        }
        Object command;
        try {
            command = JsonCodec.parse(body, "the trial's command");
        } catch (ProtocolException ex) {
            reply(exchange, 400, ex.getMessage());
            return;
        }
        if (!(command instanceof Map<?, ?> m)) {
            reply(exchange, 400, "a trial command must be a JSON object with a \"type\"");
            return;
        }
        Object type = m.get("type");
        try {
            if ("request_parameter".equals(type)) {
                listener.requestParameter(trialJobId);
            } else if ("metric".equals(type)) {
                if (!(m.get("metric") instanceof String text)) {
                    reply(exchange, 400, "a metric command needs \"metric\": the ME payload as a JSON string");
                    return;
                }
                listener.metric(trialJobId, text);
            } else {
                reply(exchange, 400, "unknown trial command type " + type + " (expected request_parameter or metric)");
                return;
            }
        } catch (IllegalArgumentException ex) {
            reply(exchange, 400, ex.getMessage());
            return;
        } catch (RuntimeException ex) {
            reply(exchange, 500, String.valueOf(ex.getMessage()));
            return;
        }
        reply(exchange, 200, "");
    }

    private static void reply(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    /** Stops serving: pending and later requests get 410; waits briefly for polls in progress to answer. */
    @Override
    public void close() {
        shutDown = true;
        endpoints.values().forEach(e -> e.gone = true);
        server.stop(0);
        threads.shutdownNow();
    }
}
