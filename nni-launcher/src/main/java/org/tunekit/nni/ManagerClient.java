package org.tunekit.nni;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonParseException;
import com.google.gson.ToNumberPolicy;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The REST API of NNI's manager, {@code http://localhost:PORT[/PREFIX]/api/v1/nni/...}, as nnictl uses
 * it ({@code nni/experiment/rest.py}): 20 s per request.
 */
final class ManagerClient {
    static final Gson GSON = new GsonBuilder().serializeNulls().disableHtmlEscaping()
            .setObjectToNumberStrategy(ToNumberPolicy.LONG_OR_DOUBLE).create();
    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    /** An answer: its HTTP status and body. */
    record Answer(int status, String body) {
        boolean ok() {
            return status >= 200 && status < 300;
        }

        /** The manager's {@code {"error": "..."}}, or the body. */
        String error() {
            try {
                Object o = GSON.fromJson(body, Object.class);
                if (o instanceof Map<?, ?> m && m.get("error") != null) {
                    return String.valueOf(m.get("error"));
                }
            } catch (JsonParseException e) {
                // not JSON
            }
            return body.isBlank() ? "HTTP " + status : "HTTP " + status + ": " + body.strip();
        }
    }

    private final int port;
    private final String prefix;
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    ManagerClient(int port, String urlPrefix) {
        this.port = port;
        this.prefix = urlPrefix == null || urlPrefix.isBlank() ? "" : "/" + urlPrefix;
    }

    URI uri(String api) {
        return URI.create("http://localhost:" + port + prefix + "/api/v1/nni" + api);
    }

    Answer get(String api) throws IOException {
        return send(HttpRequest.newBuilder(uri(api)).timeout(TIMEOUT).GET().build());
    }

    Answer post(String api, Object body) throws IOException {
        return send(HttpRequest.newBuilder(uri(api)).timeout(TIMEOUT).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(GSON.toJson(body), StandardCharsets.UTF_8)).build());
    }

    Answer delete(String api) throws IOException {
        return send(HttpRequest.newBuilder(uri(api)).timeout(TIMEOUT).DELETE().build());
    }

    /** {@code GET /check-status}: {@code {"status": ..., "errors": [...]}}. */
    Map<?, ?> status() throws IOException {
        Answer a = get("/check-status");
        if (!a.ok()) {
            throw new IOException(a.error());
        }
        // before its API is mounted, the server answers other paths with the web UI's page
        if (parse(a.body()) instanceof Map<?, ?> m && m.containsKey("status")) {
            return m;
        }
        throw new IOException("not NNI's API yet");
    }

    private static Object parse(String body) {
        try {
            return GSON.fromJson(body, Object.class);
        } catch (JsonParseException e) {
            return null;
        }
    }

    /** {@code GET /trial-jobs}: every trial. */
    List<?> trialJobs() throws IOException {
        Answer a = get("/trial-jobs");
        if (!a.ok()) {
            throw new IOException(a.error());
        }
        if (parse(a.body()) instanceof List<?> l) {
            return l;
        }
        throw new IOException("GET /trial-jobs: not a list: " + a.body());
    }

    private Answer send(HttpRequest request) throws IOException {
        try {
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
            return new Answer(r.statusCode(), r.body());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
