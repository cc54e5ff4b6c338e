package org.tunekit.sdk.trial;

import org.tunekit.sdk.internal.Json;
import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.tunekit.sdk.JsonValues;
import org.tunekit.sdk.ParameterRecord;

/**
 * NNI 3's trial channel: commands to the manager are {@code PUT}s of a JSON object, commands from it
 * answer long-polling {@code GET}s. The manager holds a {@code GET} for about a second and answers
 * 408 when it had nothing to send (the trial asks again at once), and 410 once it has shut down.
 */
final class HttpTrialChannel implements TrialChannel {
    /** How long to wait for a connection to the manager. */
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /** How long to wait for the answer to a {@code PUT}, which the manager answers at once. */
    static final Duration PUT_TIMEOUT = Duration.ofSeconds(30);
    /** How long to wait for the answer to one poll, which the manager gives within about a second. */
    static final Duration POLL_TIMEOUT = Duration.ofSeconds(60);

    private static final int REQUEST_TIMEOUT = 408;
    private static final int GONE = 410;

    private final URI uri;
    private final HttpClient client;

    HttpTrialChannel(String url) {
        URI parsed;
        try {
            parsed = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException("NNI_TRIAL_COMMAND_CHANNEL is not a URL: " + url, e);
        }
        if (!"http".equalsIgnoreCase(parsed.getScheme()) && !"https".equalsIgnoreCase(parsed.getScheme())) {
            throw new IllegalStateException("NNI_TRIAL_COMMAND_CHANNEL is " + url
                    + ", but a Java trial speaks only NNI's HTTP trial channel (http://...)");
        }
        this.uri = parsed;
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(CONNECT_TIMEOUT)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    @Override
    public Optional<ParameterRecord> requestParameters(int index) throws IOException {
        put("{\"type\":\"request_parameter\"}");
        String body = poll();
        Object command;
        try {
            command = Json.parse(body);
        } catch (IllegalArgumentException e) {
            throw new IOException("GET " + uri + " answered with a body that is not JSON (" + e.getMessage() + "): " + abbreviate(body), e);
        }
        if (!(command instanceof Map<?, ?> map) || !"parameter".equals(map.get("type"))) {
            throw new IOException("GET " + uri + " answered with a command that is not {\"type\": \"parameter\", ...}: " + abbreviate(body));
        }
        if (!map.containsKey("parameter")) {
            throw new IOException("GET " + uri + " answered with a parameter command without \"parameter\": " + abbreviate(body));
        }
        return Optional.of(TrialChannel.parseRecord(map.get("parameter"), "the parameter from " + uri));
    }

    @Override
    public void sendMetric(MetricMessage message) throws IOException {
        Map<String, Object> command = new LinkedHashMap<>();
        command.put("type", "metric");
        command.put("metric", message.toJson());
        put(Json.write(command));
    }

    @Override
    public String describe() {
        return uri.toString();
    }

    /** Sends a command; the manager answers 200 with an empty body. */
    private void put(String json) throws IOException {
        HttpRequest request = HttpRequest.newBuilder(uri)
                .timeout(PUT_TIMEOUT)
                .header("Content-Type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString(json, UTF_8))
                .build();
        HttpResponse<String> response = send(request, "PUT", PUT_TIMEOUT);
        int status = response.statusCode();
        if (status == GONE) {
            throw new ChannelClosedException("PUT " + uri + " answered 410 Gone: the manager has closed this trial's channel");
        }
        if (status < 200 || status > 299) {
            throw new IOException("PUT " + uri + " answered HTTP " + status + ": " + abbreviate(response.body()));
        }
    }

    /** Polls until the manager sends a command, and returns its text. */
    private String poll() throws IOException {
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(POLL_TIMEOUT).GET().build();
        while (true) {
            HttpResponse<String> response = send(request, "GET", POLL_TIMEOUT);
            int status = response.statusCode();
            if (status == 200) {
                return response.body();
            }
            if (status == GONE) {
                throw new ChannelClosedException("GET " + uri + " answered 410 Gone: the manager has closed this trial's channel");
            }
            if (status != REQUEST_TIMEOUT) {
                throw new IOException("GET " + uri + " answered HTTP " + status + ": " + abbreviate(response.body()));
            }
        }
    }

    private HttpResponse<String> send(HttpRequest request, String method, Duration timeout) throws IOException {
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofString(UTF_8));
        } catch (HttpConnectTimeoutException e) {
            throw new IOException(method + " " + uri + ": could not connect within " + CONNECT_TIMEOUT.toSeconds() + " s", e);
        } catch (HttpTimeoutException e) {
            throw new IOException(method + " " + uri + ": no answer within " + timeout.toSeconds() + " s", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            InterruptedIOException interrupted = new InterruptedIOException(method + " " + uri + ": interrupted");
            interrupted.initCause(e);
            throw interrupted;
        } catch (IOException e) {
            throw new IOException(method + " " + uri + " failed: " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + e.getMessage()), e);
        }
    }

    private static String abbreviate(String body) {
        if (body == null || body.isEmpty()) {
            return "(empty body)";
        }
        return body.length() <= 300 ? JsonValues.describe(body) : JsonValues.describe(body.substring(0, 300)) + "...";
    }
}
