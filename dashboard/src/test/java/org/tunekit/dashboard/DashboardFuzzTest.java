package org.tunekit.dashboard;

import com.code_intelligence.jazzer.api.BugDetectors;
import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.tunekit.runner.TestExperiments;
import org.tunekit.runner.results.TrialStatus;

/**
 * Coverage-guided fuzzing of the dashboard's server: hostile and malformed requests, sent as raw bytes
 * over a socket to a live server, get an answer or a closed connection, never a secret, and the server
 * answers a proper request afterwards. The request line's path is drawn from the API's own shapes so
 * that the fuzzer reaches past the routing; the rest (method, headers, body, bytes anywhere) is free.
 */
class DashboardFuzzTest {
    private static final Dashboard SERVER;
    private static final String TOKEN;

    static {
        try {
            Path root = Files.createTempDirectory("tunekit-dashboard-fuzz");
            root.toFile().deleteOnExit();
            TestExperiments exp = TestExperiments.create(root, "exp1", DashboardTest.CONFIG, Instant.parse("2026-03-01T10:00:00Z"));
            exp.started(0, "job0", Map.of("x", 0.5, "width", 32, "lr", 0.01), Instant.parse("2026-03-01T10:00:01Z"));
            exp.metric("job0", 0, true, 0, 0.5, 0.5, Instant.parse("2026-03-01T10:00:02Z"));
            exp.ended("job0", TrialStatus.SUCCEEDED, 0, null, Instant.parse("2026-03-01T10:00:02Z"));
            exp.close();
            Files.writeString(root.resolve("exp1").resolve("secret.txt"), "SECRET-42");
            SERVER = Dashboard.start(new Dashboard.Settings("127.0.0.1", 0, root, null), Duration.ofMillis(50));
            TOKEN = SERVER.token();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static final String[] PATHS = {"/", "/app.js", "/api/experiments", "/api/experiments/exp1/state?revision=",
        "/api/experiments/exp1/trials/", "/api/experiments/exp1/intermediate?jobs=", "/api/experiments/exp1/importance",
        "/api/experiments/exp1/requests", "/api/experiments/", "/api/", "/vendor/echarts-5.3.1.min.js"};
    private static final String[] METHODS = {"GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE", "CONNECT"};

    @FuzzTest(maxDuration = "60s")
    void answersOrClosesAndGoesOn(FuzzedDataProvider data) throws IOException {
        // the test's own connections to the server under test are not a forged request
        BugDetectors.allowNetworkConnections((host, port) -> port == SERVER.port() && (host.equals("127.0.0.1") || host.equals("localhost")));
        String method = data.consumeBoolean() ? data.pickValue(METHODS) : data.consumeAsciiString(10);
        String path = data.pickValue(PATHS) + data.consumeString(40);
        String host = data.consumeBoolean() ? "127.0.0.1:" + SERVER.port() : data.consumeString(30);
        StringBuilder head = new StringBuilder(method + " " + path + " HTTP/1.1\r\nHost: " + host + "\r\n");
        if (data.consumeBoolean()) {
            head.append("X-Tunekit-Token: ").append(data.consumeBoolean() ? TOKEN : data.consumeString(40)).append("\r\n");
        }
        int headers = data.consumeInt(0, 4);
        for (int i = 0; i < headers; i++) {
            head.append(data.consumeString(20)).append(": ").append(data.consumeString(60)).append("\r\n");
        }
        byte[] body = data.consumeBytes(2000);
        if (data.consumeBoolean()) {
            head.append("Content-Length: ").append(data.consumeBoolean() ? body.length : data.consumeInt(-5, 5000)).append("\r\n");
        }
        head.append("Connection: close\r\n\r\n");
        byte[] rest = data.consumeRemainingAsBytes();
        String answer = send(head.toString().getBytes(StandardCharsets.UTF_8), body, rest);
        if (answer.contains("SECRET-42")) {
            throw new AssertionError("a file outside a trial's folder was served for: " + head);
        }
        // the server goes on
        String check = send(("GET /api/experiments HTTP/1.1\r\nHost: 127.0.0.1:" + SERVER.port() + "\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII), new byte[0], new byte[0]);
        if (!check.startsWith("HTTP/1.1 200")) {
            throw new AssertionError("the server stopped answering after: " + head + "\n(answered: " + check + ")");
        }
    }

    private static String send(byte[] head, byte[] body, byte[] rest) throws IOException {
        try (Socket s = new Socket("127.0.0.1", SERVER.port())) {
            s.setSoTimeout(2_000);
            OutputStream out = s.getOutputStream();
            try {
                out.write(head);
                out.write(body);
                out.write(rest);
                out.flush();
                s.shutdownOutput();
            } catch (IOException closedEarly) {
                return ""; // the server closed the connection on a request it refused: fine
            }
            InputStream in = s.getInputStream();
            try {
                return new String(in.readNBytes(64 * 1024), StandardCharsets.ISO_8859_1);
            } catch (SocketTimeoutException | java.net.SocketException e) {
                return "";
            }
        }
    }
}
