package org.tunekit.dashboard;

import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.tunekit.runner.ExperimentReader;
import org.tunekit.runner.ExperimentRequests;

/**
 * The dashboard's JSON API. Every answer is a JSON object; an error is {@code {"error": "..."}} with a
 * 4xx status that says whose fault it was.
 *
 * <ul>
 *   <li>{@code GET /api/experiments}: the experiments of the experiments folder, newest first;</li>
 *   <li>{@code GET /api/experiments/ID/state?revision=R}: what changed after revision R ({@link ExperimentFeed});</li>
 *   <li>{@code GET /api/experiments/ID/trials/JOB}: one trial with its metrics, events and output's tail;</li>
 *   <li>{@code GET /api/experiments/ID/intermediate?jobs=A,B}: intermediate results (all trials' when no jobs are given);</li>
 *   <li>{@code GET /api/experiments/ID/importance}: each parameter's importance to the final value ({@link Importances});</li>
 *   <li>{@code GET /api/experiments/ID/requests}: the requests made to steer it, and their answers;</li>
 *   <li>{@code POST /api/experiments/ID/requests} with {@code {"kind": ..., "payload": {...}}}: a request to
 *       steer it ({@link ExperimentRequests}); answers once the runner has (200, or 409 when it refused), or
 *       after {@link #ANSWER_WITHIN} with the request still waiting (202).</li>
 * </ul>
 */
final class Api implements AutoCloseable {
    static final Duration ANSWER_WITHIN = Duration.ofSeconds(10);
    /** The largest request body read. */
    static final int MAX_BODY = 64 * 1024;
    /** How many points of one trial's intermediate results are sent at most (evenly picked, the last always). */
    static final int MAX_POINTS = 200;
    /** The tail of a trial's output sent. */
    static final int OUTPUT_TAIL = 64 * 1024;

    /** Absent values are left out (a page reads a missing key as null): 10,000 trials make a third less to send. */
    private static final Gson GSON = new GsonBuilder().disableHtmlEscaping().create();

    private final Path root;
    private final Path pinned;
    private final String pinnedId;
    private final Map<String, ExperimentFeed> feeds = new ConcurrentHashMap<>();
    private final Map<String, Path> folders = new ConcurrentHashMap<>();
    private final Map<Path, Listed> listed = new ConcurrentHashMap<>();
    private final Importances importances = new Importances();
    private final Duration answerWithin;

    /** A response: status, type and body. */
    record Response(int status, String contentType, byte[] body) {}

    Api(Path root, Path pinned, Duration answerWithin) {
        this.answerWithin = answerWithin;
        this.root = root;
        this.pinned = pinned;
        if (pinned != null) {
            // read now, so that the first page is answered from what is already read
            ExperimentFeed feed = feedOf(pinned.toAbsolutePath().normalize());
            pinnedId = feed.overview().id();
            feed.since(0);
        } else {
            pinnedId = null;
        }
    }

    String pinnedId() {
        return pinnedId;
    }

    Response answer(String method, String rawPath, String rawQuery, InputStream body) {
        try {
            String[] parts = rawPath.substring("/api/".length()).split("/", -1);
            List<String> p = new ArrayList<>();
            for (String part : parts) {
                p.add(URLDecoder.decode(part, StandardCharsets.UTF_8));
            }
            Map<String, String> query = query(rawQuery);
            if (p.size() == 1 && p.get(0).equals("experiments")) {
                return get(method, () -> experiments());
            }
            if (p.size() >= 3 && p.get(0).equals("experiments")) {
                ExperimentFeed feed = feed(p.get(1));
                String what = p.get(2);
                if (p.size() == 3 && what.equals("state")) {
                    return get(method, () -> feed.since(whole(query.getOrDefault("revision", "0"), "revision")));
                }
                if (p.size() == 4 && what.equals("trials")) {
                    return get(method, () -> trial(feed, p.get(3)));
                }
                if (p.size() == 3 && what.equals("intermediate")) {
                    return get(method, () -> intermediate(feed, query.get("jobs")));
                }
                if (p.size() == 3 && what.equals("importance")) {
                    return get(method, () -> importances.of(feed));
                }
                if (p.size() == 3 && what.equals("requests")) {
                    if (method.equals("POST")) {
                        return request(feed, body);
                    }
                    return get(method, () -> Map.of("requests", feed.reader().requests().stream().map(Views::request).toList()));
                }
            }
            return error(404, "no API " + Dashboard.printable(rawPath));
        } catch (IllegalArgumentException e) {
            return error(400, e.getMessage());
        } catch (NotFound e) {
            return error(404, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return error(503, "the dashboard is stopping");
        } catch (org.tunekit.runner.RunnerException e) {
            return error(500, e.getMessage());
        }
    }

    private interface Getter {
        Object get() throws InterruptedException;
    }

    private static Response get(String method, Getter g) throws InterruptedException {
        if (!method.equals("GET") && !method.equals("HEAD")) {
            return error(405, method + " is not served here (GET is)");
        }
        return json(200, g.get());
    }

    private List<Map<String, Object>> experiments() {
        Set<Path> all = new java.util.LinkedHashSet<>(ExperimentReader.folders(root));
        if (pinned != null) {
            all.add(pinned.toAbsolutePath().normalize());
        }
        List<Map<String, Object>> out = new ArrayList<>();
        for (Path folder : all) {
            long changed = ExperimentReader.lastChange(folder);
            Listed l = listed.get(folder);
            if (l == null || l.changed != changed) {
                try (ExperimentReader r = ExperimentReader.open(folder)) {
                    l = new Listed(changed, summary(r.overview(), r.trials(), folder));
                } catch (RuntimeException e) {
                    continue; // a damaged or vanished experiment is not listed
                }
                listed.put(folder, l);
            }
            Map<String, Object> m = new LinkedHashMap<>(l.summary);
            m.put("running", ExperimentReader.running(folder));
            out.add(m);
        }
        return out;
    }

    /** An experiment's line in the list, as read when its store last changed. */
    private record Listed(long changed, Map<String, Object> summary) {}

    private static Map<String, Object> summary(ExperimentReader.Overview o, List<ExperimentReader.Trial> trials, Path folder) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("id", o.id());
        m.put("name", o.name());
        m.put("status", o.status());
        m.put("started", Views.millis(o.started()));
        m.put("ended", Views.millis(o.ended()));
        m.put("tuner", o.tuner());
        m.put("trials", trials.size());
        m.put("maxTrialNumber", o.maxTrialNumber());
        m.put("maximize", o.maximize());
        m.put("objectives", o.objectives().size());
        Double best = null;
        for (ExperimentReader.Trial t : trials) {
            if (t.value() != null && Double.isFinite(t.value()) && t.status().ranked()
                    && (best == null || (o.maximize() ? t.value() > best : t.value() < best))) {
                best = t.value();
            }
        }
        m.put("best", best);
        m.put("folder", folder.toString());
        return m;
    }

    private Map<String, Object> trial(ExperimentFeed feed, String job) {
        ExperimentReader.Trial t = feed.trials().stream().filter(x -> x.jobId().equals(job)).findFirst()
                .orElseThrow(() -> new NotFound("no trial '" + Dashboard.printable(job) + "' in experiment " + feed.overview().id()));
        ExperimentReader r = feed.reader();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("trial", Views.trial(t));
        m.put("metrics", r.metrics(job).stream().map(Views::metric).toList());
        m.put("events", r.events(job, 200).stream().map(Views::event).toList());
        m.put("stdout", r.outputTail(job, false, OUTPUT_TAIL));
        m.put("stderr", r.outputTail(job, true, OUTPUT_TAIL));
        return m;
    }

    private static Map<String, Object> intermediate(ExperimentFeed feed, String jobs) {
        Set<String> wanted = null;
        if (jobs != null && !jobs.isBlank()) {
            wanted = new HashSet<>(List.of(jobs.split(",")));
            if (wanted.size() > 5000) {
                throw new IllegalArgumentException("at most 5000 trials at once, got " + wanted.size());
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        feed.reader().intermediate(wanted).forEach((job, values) -> out.put(job, thin(values)));
        return Map.of("curves", out);
    }

    /** At most {@link #MAX_POINTS} points of a curve, as [step, value] pairs, evenly picked, the last always among them. */
    static List<Object[]> thin(List<Double> values) {
        List<Object[]> out = new ArrayList<>();
        int n = values.size();
        double stride = Math.max(1.0, (double) n / MAX_POINTS);
        int last = -1;
        for (double i = 0; i < n; i += stride) {
            int k = (int) i;
            if (k != last) {
                out.add(new Object[] {k + 1, Views.number(values.get(k))});
                last = k;
            }
        }
        if (n > 0 && last != n - 1) {
            out.add(new Object[] {n, Views.number(values.get(n - 1))});
        }
        return out;
    }

    private Response request(ExperimentFeed feed, InputStream body) throws InterruptedException {
        JsonObject o;
        try {
            byte[] bytes = body.readNBytes(MAX_BODY + 1);
            if (bytes.length > MAX_BODY) {
                return error(413, "a request body holds at most " + MAX_BODY + " bytes");
            }
            JsonElement e = JsonParser.parseString(new String(bytes, StandardCharsets.UTF_8));
            if (!e.isJsonObject()) {
                throw new IllegalArgumentException("the body must be a JSON object {\"kind\": ..., \"payload\": {...}}");
            }
            o = e.getAsJsonObject();
        } catch (IOException e) {
            return error(400, "could not read the body: " + e.getMessage());
        } catch (JsonParseException | StackOverflowError e) {
            return error(400, "the body is not JSON: " + e.getMessage());
        }
        JsonElement k = o.get("kind");
        if (k == null || !k.isJsonPrimitive() || !k.getAsJsonPrimitive().isString()) {
            throw new IllegalArgumentException("the body needs \"kind\": one of limits, add-trial, stop-trial, stop");
        }
        JsonElement payload = o.has("payload") ? o.get("payload") : new JsonObject();
        long id = ExperimentRequests.submit(feed.reader().folder(), k.getAsString(), payload.toString());
        List<ExperimentReader.Request> answers = ExperimentRequests.await(feed.reader().folder(), List.of(id), answerWithin);
        ExperimentReader.Request r = answers.get(0);
        int status = switch (r.state()) {
            case "DONE" -> 200;
            case "REFUSED" -> 409;
            default -> 202;
        };
        Map<String, Object> m = Views.request(r);
        if (status == 202) {
            m.put("answer", "no runner answered within " + answerWithin.toSeconds() + " s; the request is taken when the experiment runs");
        }
        return json(status, m);
    }

    private ExperimentFeed feed(String id) {
        Path folder = folders.get(id);
        if (folder == null) {
            for (Path f : ExperimentReader.folders(root)) {
                if (f.getFileName().toString().equals(id)) {
                    folder = f;
                    break;
                }
            }
        }
        if (folder == null) {
            throw new NotFound("no experiment '" + Dashboard.printable(id) + "'");
        }
        return feedOf(folder);
    }

    private ExperimentFeed feedOf(Path folder) {
        String key = folder.toString();
        ExperimentFeed f = feeds.get(key);
        if (f == null) {
            synchronized (feeds) {
                f = feeds.get(key);
                if (f == null) {
                    f = new ExperimentFeed(ExperimentReader.open(folder));
                    feeds.put(key, f);
                    folders.putIfAbsent(f.overview().id(), folder);
                }
            }
        }
        return f;
    }

    private static long whole(String text, String name) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " must be a whole number, got '" + Dashboard.printable(text) + "'");
        }
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> m = new LinkedHashMap<>();
        if (raw != null) {
            for (String part : raw.split("&")) {
                int eq = part.indexOf('=');
                if (eq > 0) {
                    m.put(URLDecoder.decode(part.substring(0, eq), StandardCharsets.UTF_8), URLDecoder.decode(part.substring(eq + 1), StandardCharsets.UTF_8));
                }
            }
        }
        return m;
    }

    static Response json(int status, Object value) {
        return new Response(status, "application/json; charset=utf-8", GSON.toJson(value).getBytes(StandardCharsets.UTF_8));
    }

    static Response error(int status, String message) {
        return json(status, Map.of("error", message == null ? "error" : message));
    }

    /** No such experiment or trial. */
    private static final class NotFound extends RuntimeException {
        NotFound(String message) {
            super(message);
        }
    }

    @Override
    public void close() {
        feeds.values().forEach(ExperimentFeed::close);
        feeds.clear();
    }
}
