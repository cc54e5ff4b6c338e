package org.tunekit.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.runner.TestExperiments;
import org.tunekit.runner.results.TrialStatus;

/** The dashboard's server over real HTTP, on stores written as a runner writes them. */
class DashboardTest {
    private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");
    static final String CONFIG = """
            experimentName: quadratic
            searchSpace:
              x: {_type: uniform, _value: [0, 1]}
              width: {_type: choice, _value: [16, 32, 64]}
              lr: {_type: loguniform, _value: [0.0001, 1]}
            trialCommand: sh trial.sh
            trialConcurrency: 2
            maxTrialNumber: 30
            tuner:
              name: Random
              classArgs: {seed: 1, optimize_mode: minimize}
            """;

    @TempDir
    Path tmp;

    private TestExperiments exp;
    private Dashboard dashboard;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeEach
    void start() throws Exception {
        exp = TestExperiments.create(tmp, "exp1", CONFIG, T0);
        for (int i = 0; i < 3; i++) {
            exp.started(i, "job" + i, params(0.1 * (i + 1), 32, 0.01), T0.plusSeconds(i));
            for (int s = 0; s < 5; s++) {
                exp.metric("job" + i, i, false, s, 1.0 - 0.1 * s + i, 1.0 - 0.1 * s + i, T0.plusSeconds(i + s));
            }
        }
        exp.metric("job0", 0, true, 5, 0.25, 0.25, T0.plusSeconds(10));
        exp.ended("job0", TrialStatus.SUCCEEDED, 0, null, T0.plusSeconds(10));
        exp.metric("job1", 1, true, 5, 0.1, 0.1, T0.plusSeconds(11));
        exp.ended("job1", TrialStatus.LOST, null, "the machine went away", T0.plusSeconds(11));
        Path trialDir = Files.createDirectories(exp.folder().resolve("trials").resolve("job0"));
        Files.writeString(trialDir.resolve("trial.stdout"), "epoch 1\nepoch 2\n");
        Files.writeString(trialDir.resolve("trial.stderr"), "warning: slow\n");
        Files.writeString(exp.folder().resolve("secret.txt"), "not for the web");
        dashboard = Dashboard.start(new Dashboard.Settings("127.0.0.1", 0, tmp, null), Duration.ofSeconds(2));
    }

    @AfterEach
    void stop() {
        dashboard.close();
        exp.close();
    }

    private static Map<String, Object> params(double x, int width, double lr) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("x", x);
        p.put("width", width);
        p.put("lr", lr);
        return p;
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + dashboard.port() + path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(String path, String body, Map<String, String> headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + dashboard.port() + path))
                .POST(HttpRequest.BodyPublishers.ofString(body)).header("Content-Type", "application/json");
        headers.forEach(b::header);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonObject json(HttpResponse<String> r) {
        return JsonParser.parseString(r.body()).getAsJsonObject();
    }

    @Test
    void servesThePageItsScriptsAndTheChartLibraryFromTheJar() throws Exception {
        HttpResponse<String> page = get("/");
        assertThat(page.statusCode()).isEqualTo(200);
        assertThat(page.body()).contains("<meta name=\"tunekit-token\" content=\"" + dashboard.token() + "\">").doesNotContain("{{token}}");
        assertThat(page.headers().firstValue("Content-Security-Policy")).get().asString().contains("default-src 'self'");
        assertThat(get("/app.js").body()).contains("function route()");
        HttpResponse<String> echarts = get("/vendor/echarts-5.3.1.min.js");
        assertThat(echarts.statusCode()).isEqualTo(200);
        assertThat(echarts.body()).contains("echarts");
        assertThat(echarts.headers().firstValue("Cache-Control")).contains("public, max-age=31536000, immutable");
        assertThat(page.body()).contains("<script src=\"/vendor/echarts-5.3.1.min.js\">");
        assertThat(get("/api/experiments").headers().firstValue("Cache-Control")).contains("no-store");
        assertThat(get("/nothing").statusCode()).isEqualTo(404);
    }

    @Test
    void listsTheExperimentsWithTheirBestValueALostTrialNotAmongThem() throws Exception {
        HttpResponse<String> r = get("/api/experiments");
        assertThat(r.statusCode()).isEqualTo(200);
        JsonObject e = JsonParser.parseString(r.body()).getAsJsonArray().get(0).getAsJsonObject();
        assertThat(e.get("id").getAsString()).isEqualTo("exp1");
        assertThat(e.get("name").getAsString()).isEqualTo("quadratic");
        assertThat(e.get("trials").getAsInt()).isEqualTo(3);
        assertThat(e.get("running").getAsBoolean()).isFalse();
        // job1 (LOST) reported 0.1, job0 (SUCCEEDED) 0.25
        assertThat(e.get("best").getAsDouble()).isEqualTo(0.25);
    }

    @Test
    void aPageIsSentOnlyWhatChangedSinceTheRevisionItHas() throws Exception {
        JsonObject first = json(get("/api/experiments/exp1/state?revision=0"));
        assertThat(first.get("full").getAsBoolean()).isTrue();
        assertThat(first.getAsJsonArray("trials")).hasSize(3);
        JsonObject overview = first.getAsJsonObject("overview");
        assertThat(overview.get("trialConcurrency").getAsInt()).isEqualTo(2);
        assertThat(overview.getAsJsonObject("searchSpace").keySet()).containsExactly("x", "width", "lr");
        JsonObject job0 = first.getAsJsonArray("trials").get(0).getAsJsonObject();
        assertThat(job0.get("job").getAsString()).isEqualTo("job0");
        assertThat(job0.get("steps").getAsInt()).isEqualTo(5);
        assertThat(job0.get("last").getAsDouble()).isEqualTo(0.6, org.assertj.core.data.Offset.offset(1e-9));
        long revision = first.get("revision").getAsLong();

        JsonObject nothing = json(get("/api/experiments/exp1/state?revision=" + revision));
        assertThat(nothing.keySet()).containsExactly("revision");

        exp.metric("job2", 2, true, 5, 0.05, 0.05, T0.plusSeconds(20));
        exp.ended("job2", TrialStatus.SUCCEEDED, 0, null, T0.plusSeconds(20));
        JsonObject next = awaitChange(revision);
        assertThat(next.get("full").getAsBoolean()).isFalse();
        JsonArray changed = next.getAsJsonArray("trials");
        assertThat(changed).hasSize(1);
        assertThat(changed.get(0).getAsJsonObject().get("job").getAsString()).isEqualTo("job2");
        assertThat(changed.get(0).getAsJsonObject().get("status").getAsString()).isEqualTo("SUCCEEDED");
        assertThat(next.has("overview")).isFalse();

        // between changes only new trials and those still running are read again: a new one comes, the ended ones do not
        exp.started(3, "job3", params(0.9, 16, 0.001), T0.plusSeconds(30));
        JsonObject third = awaitChange(next.get("revision").getAsLong());
        assertThat(third.getAsJsonArray("trials")).hasSize(1);
        assertThat(third.getAsJsonArray("trials").get(0).getAsJsonObject().get("job").getAsString()).isEqualTo("job3");
        JsonObject all = json(get("/api/experiments/exp1/state?revision=0"));
        assertThat(all.getAsJsonArray("trials")).extracting(t -> t.getAsJsonObject().get("job").getAsString())
                .containsExactly("job0", "job1", "job2", "job3");
    }

    private JsonObject awaitChange(long revision) throws Exception {
        long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            JsonObject s = json(get("/api/experiments/exp1/state?revision=" + revision));
            if (s.get("revision").getAsLong() != revision || System.nanoTime() > until) {
                return s;
            }
            Thread.sleep(100);
        }
    }

    @Test
    void aTrialsPageHasItsMetricsAndTheEndOfItsOutputFromItsOwnFolderOnly() throws Exception {
        JsonObject t = json(get("/api/experiments/exp1/trials/job0"));
        assertThat(t.getAsJsonObject("trial").getAsJsonObject("params").get("width").getAsInt()).isEqualTo(32);
        assertThat(t.getAsJsonArray("metrics")).hasSize(6);
        assertThat(t.get("stdout").getAsString()).isEqualTo("epoch 1\nepoch 2\n");
        assertThat(t.get("stderr").getAsString()).isEqualTo("warning: slow\n");
        assertThat(get("/api/experiments/exp1/trials/nosuch").statusCode()).isEqualTo(404);
        for (String hostile : List.of("..%2Fsecret.txt", "..%2F..%2Fexp1%2Fsecret.txt", "%2E%2E", "job0%00")) {
            HttpResponse<String> r = get("/api/experiments/exp1/trials/" + hostile);
            assertThat(r.statusCode()).as(hostile).isEqualTo(404);
            assertThat(r.body()).doesNotContain("not for the web");
        }
        assertThat(get("/api/experiments/..%2Fexp1/state").statusCode()).isEqualTo(404);
    }

    @Test
    void intermediateResultsAreThinnedToAtMostTwoHundredPointsKeepingTheLast() {
        List<Double> many = new java.util.ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            many.add((double) i);
        }
        List<Object[]> thin = Api.thin(many);
        assertThat(thin.size()).isLessThanOrEqualTo(Api.MAX_POINTS + 1);
        assertThat(thin.get(0)).containsExactly(1, 0.0);
        assertThat(thin.get(thin.size() - 1)).containsExactly(1000, 999.0);
        assertThat(Api.thin(List.of(1.0, 2.0))).hasSize(2);
        assertThat(Api.thin(List.of())).isEmpty();
    }

    @Test
    void aControlNeedsTheTokenAndComesFromTheDashboardsOwnPage() throws Exception {
        String body = "{\"kind\": \"stop\", \"payload\": {}}";
        assertThat(post("/api/experiments/exp1/requests", body, Map.of()).statusCode()).isEqualTo(403);
        assertThat(post("/api/experiments/exp1/requests", body, Map.of("X-Tunekit-Token", "wrong")).statusCode()).isEqualTo(403);
        assertThat(post("/api/experiments/exp1/requests", body, Map.of("X-Tunekit-Token", dashboard.token(), "Origin", "http://evil.example"))
                .statusCode()).isEqualTo(403);
        assertThat(exp.requests()).isEmpty();
    }

    @Test
    void aControlIsCheckedRecordedAndAnsweredAsTheRunnerAnswers() throws Exception {
        Map<String, String> token = Map.of("X-Tunekit-Token", dashboard.token(), "Origin", "http://127.0.0.1:" + dashboard.port());
        HttpResponse<String> bad = post("/api/experiments/exp1/requests", "{\"kind\": \"add-trial\", \"payload\": {\"parameters\": {\"x\": 3, \"width\": 32, \"lr\": 0.1}}}", token);
        assertThat(bad.statusCode()).isEqualTo(400);
        assertThat(json(bad).get("error").getAsString()).contains("x");
        assertThat(post("/api/experiments/exp1/requests", "{\"kind\": \"reboot\"}", token).statusCode()).isEqualTo(400);
        assertThat(post("/api/experiments/exp1/requests", "[1, 2", token).statusCode()).isEqualTo(400);
        assertThat(post("/api/experiments/exp1/requests", "{\"kind\": \"limits\", \"payload\": {\"trialConcurrency\": 0.5}}", token).statusCode()).isEqualTo(400);
        assertThat(exp.requests()).isEmpty();

        // no runner: the request waits, and says so
        HttpResponse<String> waiting = post("/api/experiments/exp1/requests", "{\"kind\": \"limits\", \"payload\": {\"trialConcurrency\": 4}}", token);
        assertThat(waiting.statusCode()).isEqualTo(202);
        assertThat(json(waiting).get("answer").getAsString()).contains("taken when the experiment runs");

        // a runner answers (here the test, as the runner's Steering does)
        CompletableFuture<HttpResponse<String>> asked = CompletableFuture.supplyAsync(() -> {
            try {
                return post("/api/experiments/exp1/requests", "{\"kind\": \"add-trial\", \"payload\": {\"parameters\": {\"x\": 0.5, \"width\": 64, \"lr\": 0.1}}}", token);
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        long id = awaitRequest("add-trial");
        exp.answer(id, true, "trial 3 (parameter id 3) runs next");
        HttpResponse<String> done = asked.get();
        assertThat(done.statusCode()).isEqualTo(200);
        assertThat(json(done).get("answer").getAsString()).isEqualTo("trial 3 (parameter id 3) runs next");
        assertThat(exp.requests()).hasSize(2);
    }

    private long awaitRequest(String kind) throws InterruptedException {
        long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (System.nanoTime() < until) {
            for (Object[] r : exp.requests()) {
                if (r[1].equals(kind) && r[3].equals("WAITING")) {
                    return (Long) r[0];
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no " + kind + " request was recorded");
    }

    @Test
    void onALoopbackAddressItAnswersOnlyToLoopbackNames() throws Exception {
        assertThat(raw("GET / HTTP/1.1\r\nHost: 127.0.0.1:" + dashboard.port() + "\r\n\r\n")).startsWith("HTTP/1.1 200");
        assertThat(raw("GET / HTTP/1.1\r\nHost: localhost:" + dashboard.port() + "\r\n\r\n")).startsWith("HTTP/1.1 200");
        // a site that points its own name at 127.0.0.1 (DNS rebinding) is refused
        assertThat(raw("GET /api/experiments HTTP/1.1\r\nHost: attacker.example:" + dashboard.port() + "\r\n\r\n")).startsWith("HTTP/1.1 403");
        assertThat(raw("GET / HTTP/1.1\r\n\r\n")).startsWith("HTTP/1.1 4");
    }

    @Test
    void onAnyOtherAddressEveryRequestNeedsTheTokenWhichTheAddressTradesForACookie() throws Exception {
        try (Dashboard open = Dashboard.start(new Dashboard.Settings("0.0.0.0", 0, tmp, exp.folder()))) {
            int port = open.port();
            assertThat(open.address()).startsWith("http://0.0.0.0:" + port + "/?token=" + open.token());
            HttpClient c = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
            assertThat(c.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/experiments")).build(),
                    HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(403);
            HttpResponse<String> traded = c.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/?token=" + open.token())).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(traded.statusCode()).isEqualTo(303);
            assertThat(traded.headers().firstValue("Location")).contains("/");
            String cookie = traded.headers().firstValue("Set-Cookie").orElseThrow();
            assertThat(cookie).contains("HttpOnly").contains("SameSite=Strict");
            HttpResponse<String> withCookie = c.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/experiments"))
                    .header("Cookie", cookie.substring(0, cookie.indexOf(';'))).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(withCookie.statusCode()).isEqualTo(200);
            assertThat(c.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/api/experiments"))
                    .header("Cookie", "tunekit_token=guess").build(), HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(403);
        }
    }

    @Test
    void aBusyPortGivesTheNextFreeOne() throws Exception {
        try (Dashboard second = Dashboard.start(new Dashboard.Settings("127.0.0.1", dashboard.port(), tmp, null))) {
            assertThat(second.port()).isGreaterThan(dashboard.port());
        }
    }

    @Test
    void importanceWaitsForEnoughTrialsThenRanksTheParameterThatMatters() throws Exception {
        JsonObject few = json(get("/api/experiments/exp1/importance"));
        assertThat(few.getAsJsonObject("importance").size()).isZero();
        assertThat(few.get("note").getAsString()).contains("at least");
        java.util.Random r = new java.util.Random(5);
        exp.bulk(10, 200, i -> params(r.nextDouble(), List.of(16, 32, 64).get(i % 3), Math.exp(-9 * r.nextDouble())), i -> 0, T0);
        // the values: x matters, the others do not
        try (var c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + exp.folder().resolve("experiment.db"));
             var s = c.createStatement()) {
            s.executeUpdate("UPDATE trials SET final_value = CAST(json_extract(parameter_record, '$.parameters.x') AS REAL) * 10 WHERE sequence >= 10");
        }
        long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        JsonObject imp;
        do {
            Thread.sleep(100);
            imp = json(get("/api/experiments/exp1/importance"));
        } while (imp.get("trials").getAsInt() < 200 && System.nanoTime() < until);
        JsonObject importance = imp.getAsJsonObject("importance");
        assertThat(importance.keySet()).first().isEqualTo("x");
        assertThat(importance.get("x").getAsDouble()).isGreaterThan(0.9);
    }

    /** Sends raw bytes and returns the response's first line (or what came). */
    String raw(String request) throws IOException {
        try (Socket s = new Socket("127.0.0.1", dashboard.port())) {
            s.setSoTimeout(10_000);
            OutputStream out = s.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = s.getInputStream();
            byte[] buf = in.readNBytes(12);
            return new String(buf, StandardCharsets.ISO_8859_1);
        }
    }
}
