package org.tunekit.dashboard;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPOutputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The web dashboard: an HTTP server on one address that serves the page, its scripts and the JSON API
 * over the experiments it shows ({@link Api}). It reads experiments from their stores and steers them by
 * requests recorded there, so it may run in the runner's process ({@code tunekit run}) or in its own
 * ({@code tunekit view}). Who may do what: {@link Access}.
 *
 * <p>Requests are answered by a small pool of threads; a request that takes too long to arrive is
 * dropped by the JDK's server ({@code sun.net.httpserver.maxReqTime}), so slow or hostile clients cannot
 * hold the threads.
 */
public final class Dashboard implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(Dashboard.class);
    /** How many ports after the one asked for are tried when it is busy. */
    static final int PORTS_TRIED = 100;
    private static final String WEB = "/org/tunekit/dashboard/web/";
    private static final String ECHARTS_VERSION = echartsVersion();
    private static final String ECHARTS = "/META-INF/resources/webjars/echarts/" + ECHARTS_VERSION + "/dist/echarts.min.js";
    /** The chart library's address names its version, so a browser keeps it as long as it likes. */
    private static final String ECHARTS_PATH = "/vendor/echarts-" + ECHARTS_VERSION + ".min.js";

    static {
        // the JDK server's own limits, unless the user set them: a request must arrive within 30 s, and idle connections go after 60 s
        System.setProperty("sun.net.httpserver.maxReqTime", System.getProperty("sun.net.httpserver.maxReqTime", "30"));
        System.setProperty("sun.net.httpserver.idleInterval", System.getProperty("sun.net.httpserver.idleInterval", "60"));
        System.setProperty("sun.net.httpserver.maxReqHeaders", System.getProperty("sun.net.httpserver.maxReqHeaders", "100"));
    }

    /**
     * What to serve, and where.
     *
     * @param host   the address to listen on; a loopback one (the default, 127.0.0.1) serves this machine only, any other needs the token
     * @param port   the port to try first (0: any free one)
     * @param root   the experiments folder the experiments page lists ({@code null}: the default one)
     * @param pinned an experiment to show first and to serve even when it is not under {@code root}, or {@code null}
     */
    public record Settings(String host, int port, Path root, Path pinned) {}

    private final HttpServer server;
    private final ExecutorService threads;
    private final Access access;
    private final Api api;
    private final String address;
    private final Map<String, byte[]> resources = new ConcurrentHashMap<>();
    /** The jar's files compressed, by their array (identity: arrays do not override equals). */
    private final Map<byte[], byte[]> gzipped = new ConcurrentHashMap<>();

    private Dashboard(HttpServer server, ExecutorService threads, Access access, Api api, String address) {
        this.server = server;
        this.threads = threads;
        this.access = access;
        this.api = api;
        this.address = address;
    }

    /**
     * Starts serving.
     *
     * @throws IOException when neither the port asked for nor the {@value #PORTS_TRIED} after it is free
     */
    public static Dashboard start(Settings settings) throws IOException {
        return start(settings, Api.ANSWER_WITHIN);
    }

    /** Starts serving; a control waits {@code answerWithin} for the runner's answer. */
    static Dashboard start(Settings settings, java.time.Duration answerWithin) throws IOException {
        HttpServer server = bind(settings.host(), settings.port());
        int port = server.getAddress().getPort();
        boolean loopback = Access.isLoopback(settings.host());
        Access access = new Access(Access.newToken(), loopback, port);
        Api api = new Api(settings.root(), settings.pinned(), answerWithin);
        String host = settings.host().contains(":") ? "[" + settings.host() + "]" : settings.host();
        String path = settings.pinned() == null ? "/" : "/#/e/" + api.pinnedId();
        String address = "http://" + host + ":" + port + (loopback ? path : "/?token=" + access.token() + path.substring(1));
        AtomicInteger n = new AtomicInteger();
        ExecutorService threads = Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "tunekit-dashboard-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
        Dashboard d = new Dashboard(server, threads, access, api, address);
        server.createContext("/", d::handle);
        server.setExecutor(threads);
        server.start();
        return d;
    }

    private static HttpServer bind(String host, int port) throws IOException {
        BindException last = null;
        for (int p = port; p < port + (port == 0 ? 1 : PORTS_TRIED) && p <= 65535; p++) {
            try {
                return HttpServer.create(new InetSocketAddress(host, p), 64);
            } catch (BindException e) {
                last = e;
            }
        }
        throw new IOException("no free port from " + port + " to " + Math.min(65535, port + PORTS_TRIED - 1) + " on " + host
                + (last == null ? "" : " (" + last.getMessage() + ")"));
    }

    /** The address to open: with the token when it serves other machines. */
    public String address() {
        return address;
    }

    /** The port served. */
    public int port() {
        return server.getAddress().getPort();
    }

    /** The token that other machines and controls need. */
    public String token() {
        return access.token();
    }

    private void handle(HttpExchange x) {
        try (x) {
            String refused = access.refusal(x);
            if (refused != null) {
                send(x, 403, "text/plain; charset=utf-8", refused.getBytes(StandardCharsets.UTF_8));
                return;
            }
            if (access.tokenInAddress(x) && !access.loopback()) {
                // trade the token in the address for a cookie, and drop it from the address (and from the history)
                x.getResponseHeaders().add("Set-Cookie", access.cookieHeader());
                x.getResponseHeaders().add("Location", x.getRequestURI().getRawPath());
                send(x, 303, "text/plain; charset=utf-8", new byte[0]);
                return;
            }
            String path = x.getRequestURI().getRawPath();
            if (path.startsWith("/api/")) {
                Api.Response r = api.answer(x.getRequestMethod(), path, x.getRequestURI().getRawQuery(), x.getRequestBody());
                send(x, r.status(), r.contentType(), r.body());
                return;
            }
            if (!x.getRequestMethod().equals("GET") && !x.getRequestMethod().equals("HEAD")) {
                send(x, 405, "text/plain; charset=utf-8", "only GET here".getBytes(StandardCharsets.UTF_8));
                return;
            }
            if (path.equals(ECHARTS_PATH)) {
                x.getResponseHeaders().set("Cache-Control", "public, max-age=31536000, immutable");
                send(x, 200, "text/javascript; charset=utf-8", resource(ECHARTS));
                return;
            }
            switch (path) {
                case "/", "/index.html" -> send(x, 200, "text/html; charset=utf-8", page());
                case "/app.js" -> send(x, 200, "text/javascript; charset=utf-8", resource(WEB + "app.js"));
                case "/app.css" -> send(x, 200, "text/css; charset=utf-8", resource(WEB + "app.css"));
                default -> send(x, 404, "text/plain; charset=utf-8", ("no page " + printable(path)).getBytes(StandardCharsets.UTF_8));
            }
        } catch (IOException e) {
            LOG.debug("a dashboard request broke off: {}", e.getMessage());
        } catch (RuntimeException e) {
            LOG.warn("a dashboard request failed", e);
            try {
                send(x, 500, "text/plain; charset=utf-8", ("the dashboard failed: " + e).getBytes(StandardCharsets.UTF_8));
            } catch (IOException | RuntimeException ignored) {
                // the answer had started: the client sees a broken response
            }
        }
    }

    /** The page, with the token its controls send. */
    private byte[] page() {
        String html = new String(resource(WEB + "index.html"), StandardCharsets.UTF_8);
        return html.replace("{{token}}", access.token()).replace("{{echarts}}", ECHARTS_PATH).getBytes(StandardCharsets.UTF_8);
    }

    private byte[] resource(String name) {
        return resources.computeIfAbsent(name, n -> {
            try (InputStream in = Dashboard.class.getResourceAsStream(n)) {
                if (in == null) {
                    throw new IllegalStateException("the dashboard's " + n + " is missing from its jar");
                }
                return in.readAllBytes();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
    }

    private void send(HttpExchange x, int status, String type, byte[] body) throws IOException {
        var h = x.getResponseHeaders();
        h.set("Content-Type", type);
        h.set("X-Content-Type-Options", "nosniff");
        h.set("X-Frame-Options", "DENY");
        h.set("Referrer-Policy", "no-referrer");
        if (!h.containsKey("Cache-Control")) {
            h.set("Cache-Control", "no-store");
        }
        h.set("Content-Security-Policy", "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'");
        String accepts = x.getRequestHeaders().getFirst("Accept-Encoding");
        if (body.length > 1024 && accepts != null && accepts.contains("gzip")) {
            byte[] plain = body;
            // a file of the jar is compressed once; an answer of the API each time
            body = resources.containsValue(plain) ? gzipped.computeIfAbsent(plain, Dashboard::gzip) : gzip(plain);
            h.set("Content-Encoding", "gzip");
        }
        boolean head = x.getRequestMethod().equals("HEAD");
        x.sendResponseHeaders(status, head || body.length == 0 ? -1 : body.length);
        if (!head && body.length > 0) {
            try (OutputStream out = x.getResponseBody()) {
                out.write(body);
            }
        }
    }

    private static byte[] gzip(byte[] in) {
        ByteArrayOutputStream b = new ByteArrayOutputStream(in.length / 4);
        try (GZIPOutputStream z = new GZIPOutputStream(b)) {
            z.write(in);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return b.toByteArray();
    }

    /** A path as it may be shown: printable characters only, at most 100. */
    static String printable(String s) {
        String p = s.codePoints().filter(c -> c >= 0x20 && c < 0x7f).limit(100)
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append).toString();
        return p;
    }

    private static String echartsVersion() {
        try (InputStream in = Dashboard.class.getResourceAsStream("/META-INF/maven/org.webjars.npm/echarts/pom.properties")) {
            java.util.Properties p = new java.util.Properties();
            if (in != null) {
                p.load(in);
            }
            return p.getProperty("version", "5.3.1");
        } catch (IOException e) {
            return "5.3.1";
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
        api.close();
    }
}
