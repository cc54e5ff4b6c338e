package org.tunekit.runner;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.tunekit.runner.manager.ExperimentManager;
import org.tunekit.runner.results.ExperimentResults;
import org.tunekit.runner.results.TrialStatus;

/**
 * An experiment's store opened to read, for those who watch it while it runs or after (the dashboard):
 * its overview, its trials, a trial's metrics and events, and the requests made to steer it. It reads
 * while the runner writes (the store is in write-ahead-log mode) and tells cheaply whether anything
 * changed since the last look ({@link #changeCount()}). Thread-safe; close it when done.
 */
public final class ExperimentReader implements AutoCloseable {
    private final ExperimentStore store;
    private final Path folder;
    /** What the config says, read once: it does not change while the experiment lives. */
    private ExperimentSpec spec;
    private Map<String, Object> config;
    private List<Map<String, Object>> objectives;

    private ExperimentReader(ExperimentStore store, Path folder) {
        this.store = store;
        this.folder = folder;
    }

    /**
     * Opens the experiment in {@code folder} to read.
     *
     * @throws RunnerException when the folder holds no experiment or its store cannot be read
     */
    public static ExperimentReader open(Path folder) {
        Path dir = folder.toAbsolutePath().normalize();
        return new ExperimentReader(ExperimentStore.open(dir, true), dir);
    }

    /** Finds an experiment's folder from its id or its folder, as {@code tunekit results} does ({@code root} may be {@code null}). */
    public static Path find(String idOrFolder, Path root) {
        return ExperimentFolders.find(idOrFolder, root, System.getenv());
    }

    /**
     * The folders of the experiments under {@code root}, or, when it is {@code null}, under the default
     * root and in its list of every experiment made; newest first (by when their store last changed).
     */
    public static List<Path> folders(Path root) {
        Path defaultRoot = ExperimentFolders.defaultRoot(System.getenv());
        Set<Path> found = new LinkedHashSet<>();
        Path r = root == null ? defaultRoot : root.toAbsolutePath();
        if (Files.isDirectory(r)) {
            try (Stream<Path> children = Files.list(r)) {
                children.filter(c -> Files.isRegularFile(c.resolve(ExperimentStore.FILE))).forEach(c -> found.add(c.toAbsolutePath().normalize()));
            } catch (IOException e) {
                // an unreadable root lists nothing
            }
        }
        if (root == null) {
            try {
                for (Map.Entry<String, Path> e : ExperimentFolders.registered(System.getenv())) {
                    Path dir = e.getValue().toAbsolutePath().normalize();
                    if (Files.isRegularFile(dir.resolve(ExperimentStore.FILE))) {
                        found.add(dir);
                    }
                }
            } catch (RunnerException e) {
                // a damaged list adds nothing
            }
        }
        List<Path> out = new ArrayList<>(found);
        out.sort(java.util.Comparator.comparingLong(ExperimentReader::lastChange).reversed());
        return out;
    }

    /** When the store of the experiment in {@code folder} last changed (its file's or its write-ahead log's time), in epoch ms. */
    public static long lastChange(Path folder) {
        return Math.max(modifiedOrZero(folder.resolve(ExperimentStore.FILE)), modifiedOrZero(folder.resolve(ExperimentStore.FILE + "-wal")));
    }

    private static long modifiedOrZero(Path file) {
        try {
            return Files.getLastModifiedTime(file).toMillis();
        } catch (IOException e) {
            return 0;
        }
    }

    /** The experiment's folder. */
    public Path folder() {
        return folder;
    }

    /**
     * A number that changes whenever the runner commits anything to the store, as seen from this reader
     * (SQLite's {@code data_version}): equal numbers mean nothing changed.
     */
    public long changeCount() {
        return store.read(s -> {
            try (Statement q = s.createStatement(); ResultSet r = q.executeQuery("PRAGMA data_version")) {
                r.next();
                return r.getLong(1);
            }
        });
    }

    /**
     * What the experiment is and where it stands.
     *
     * @param id                    its id
     * @param name                  its name, or {@code null}
     * @param status                RUNNING, DONE, STOPPED or ERROR (RUNNING also after its runner was killed)
     * @param running               whether a runner holds it now
     * @param maximize              whether larger final values are better
     * @param started               when it started
     * @param ended                 when it ended, or {@code null}
     * @param config                its config as stored (plain JSON values)
     * @param searchSpace           its search space, in the config's order
     * @param trialConcurrency      trials at once, with the limits changed while it ran
     * @param maxTrialNumber        the trial budget (0: none), with the limits changed while it ran
     * @param maxExperimentDuration how long it may run, or {@code null} for no limit, with the limits changed while it ran
     * @param objectives            the objectives of a multi-objective experiment, as configured (empty for one)
     * @param tuner                 the tuner's (or advisor's) name, or {@code null}
     */
    public record Overview(String id, String name, String status, boolean running, boolean maximize, Instant started, Instant ended,
                           Map<String, Object> config, Map<String, Object> searchSpace, int trialConcurrency, long maxTrialNumber,
                           Duration maxExperimentDuration, List<Map<String, Object>> objectives, String tuner) {}

    /** The experiment's overview. */
    @SuppressWarnings("unchecked")
    public synchronized Overview overview() {
        if (spec == null) {
            spec = store.spec();
            objectives = store.objectives();
            try {
                config = (Map<String, Object>) org.tunekit.dispatcher.protocol.JsonCodec.parse(spec.toJson(), "the stored config");
            } catch (org.tunekit.dispatcher.protocol.ProtocolException e) {
                config = Map.of();
            }
        }
        int concurrency = spec.trialConcurrency();
        long max = spec.maxTrialNumber();
        Duration duration = spec.maxExperimentDuration();
        for (ExperimentStore.Request r : store.requests("DONE")) {
            if (Steering.LIMITS.equals(r.kind())) {
                try {
                    var limits = Steering.limits(r.payload());
                    concurrency = limits.trialConcurrency() != null ? limits.trialConcurrency() : concurrency;
                    max = limits.maxTrialNumber() != null ? limits.maxTrialNumber() : max;
                    if (limits.maxExperimentDuration() != null) {
                        duration = limits.maxExperimentDuration().isZero() ? null : limits.maxExperimentDuration();
                    }
                } catch (IllegalArgumentException e) {
                    // a request that was done was valid; one damaged since changes nothing
                }
            }
        }
        String tuner = null;
        for (String kind : List.of("advisor", "tuner")) {
            if (spec.algorithms().get(kind) instanceof Map<?, ?> m) {
                Object n = m.get("name") != null ? m.get("name") : m.get("className");
                tuner = n == null ? null : n.toString();
            }
        }
        Object[] head = store.read(s -> {
            try (Statement q = s.createStatement(); ResultSet r = q.executeQuery("SELECT status, started_ms, ended_ms FROM experiment")) {
                r.next();
                String status = r.getString(1);
                Instant started = Instant.ofEpochMilli(r.getLong(2));
                long e = r.getLong(3);
                return new Object[] {status, started, r.wasNull() ? null : Instant.ofEpochMilli(e)};
            }
        });
        return new Overview(store.id(), spec.name(), (String) head[0], running(folder), spec.maximize(), (Instant) head[1], (Instant) head[2],
                config, spec.searchSpace(), concurrency, max, duration, objectives, tuner);
    }

    /** Whether a runner runs the experiment in {@code folder} now (it holds the folder's lock). */
    public static boolean running(Path folder) {
        return ExperimentFolders.locked(folder);
    }

    /**
     * One trial as the dashboard lists it.
     *
     * @param sequence          its number in the experiment, from 0
     * @param jobId             its job id
     * @param parameterId       its parameters' id
     * @param parameters        its parameters
     * @param status            its state
     * @param value             the number the tuner optimises from its final result, or {@code null}
     * @param metric            its whole final result (a number or a map), or {@code null}
     * @param started           when it started
     * @param ended             when it ended, or {@code null}
     * @param exitCode          its exit status, or {@code null}
     * @param message           why it failed or was stopped, or {@code null}
     * @param machine           the machine it ran on, or {@code null} for this one
     * @param gpus              its GPUs, or {@code null} when GPUs were not scheduled
     * @param intermediateCount how many intermediate results it reported
     * @param lastIntermediate  its last intermediate result's number, or {@code null}
     */
    public record Trial(int sequence, String jobId, long parameterId, Map<String, Object> parameters, TrialStatus status, Double value,
                        Object metric, Instant started, Instant ended, Integer exitCode, String message, String machine, List<Integer> gpus,
                        int intermediateCount, Double lastIntermediate) {
        /** The trial in the results model (without its intermediate results), for what reads results: the Pareto front, importance. */
        public org.tunekit.runner.results.TrialRecord record() {
            return new org.tunekit.runner.results.TrialRecord(sequence, jobId, parameterId, parameters, status, value, metric, List.of(), started,
                    ended, exitCode, message, gpus);
        }
    }

    /** Every trial, in order of sequence. */
    public List<Trial> trials() {
        return trials(-1, List.of());
    }

    /**
     * The trials whose sequence is above {@code afterSequence} and those of {@code alsoJobs}, in order of
     * sequence: what a reader that has seen the others, and knows which of them may still change (the
     * running ones), reads again.
     */
    public List<Trial> trials(int afterSequence, java.util.Collection<String> alsoJobs) {
        String which = "sequence > ?" + (alsoJobs.isEmpty() ? "" : " OR job_id IN (" + String.join(", ", java.util.Collections.nCopies(alsoJobs.size(), "?")) + ")");
        return store.read(s -> {
            Map<String, Object[]> last = new HashMap<>();
            try (var q = s.prepareStatement("SELECT job_id, COUNT(*), MAX(sequence), value_number FROM metrics WHERE type = 'PERIODICAL'"
                    + " AND job_id IN (SELECT job_id FROM trials WHERE " + which + ") GROUP BY job_id")) {
                bindWhich(q, afterSequence, alsoJobs);
                try (ResultSet r = q.executeQuery()) {
                    while (r.next()) {
                        double v = r.getDouble(4);
                        last.put(r.getString(1), new Object[] {r.getInt(2), r.wasNull() ? null : v});
                    }
                }
            }
            boolean placed = store.schema() >= 2;
            List<Trial> out = new ArrayList<>();
            try (var q = s.prepareStatement("SELECT sequence, job_id, parameter_id, parameter_record, status,"
                    + " final_metric, final_value, started_ms, ended_ms, exit_code, message, " + (placed ? "machine, gpus" : "NULL, NULL")
                    + " FROM trials WHERE " + which + " ORDER BY sequence")) {
                bindWhich(q, afterSequence, alsoJobs);
                try (ResultSet r = q.executeQuery()) {
                    while (r.next()) {
                        String job = r.getString(2);
                        String finalText = r.getString(6);
                        double fv = r.getDouble(7);
                        Double value = r.wasNull() ? null : fv;
                        long endMs = r.getLong(9);
                        Instant end = r.wasNull() ? null : Instant.ofEpochMilli(endMs);
                        int exit = r.getInt(10);
                        Integer exitCode = r.wasNull() ? null : exit;
                        Object[] l = last.getOrDefault(job, new Object[] {0, null});
                        out.add(new Trial(r.getInt(1), job, r.getLong(3), ExperimentManager.parametersOf(r.getString(4)),
                                TrialStatus.valueOf(r.getString(5)), value, finalText == null ? null : ExperimentStore.metricOf(finalText),
                                Instant.ofEpochMilli(r.getLong(8)), end, exitCode, r.getString(11), r.getString(12),
                                ExperimentStore.gpus(r.getString(13)), (Integer) l[0], (Double) l[1]));
                    }
                }
            }
            return out;
        });
    }

    private static void bindWhich(java.sql.PreparedStatement q, int afterSequence, java.util.Collection<String> jobs) throws SQLException {
        q.setInt(1, afterSequence);
        int i = 2;
        for (String j : jobs) {
            q.setString(i++, j);
        }
    }

    /**
     * A metric a trial reported.
     *
     * @param type     FINAL or PERIODICAL
     * @param sequence its number among the trial's metrics
     * @param value    what it reported (a number or a map)
     * @param number   the number the tuner reads from it, or {@code null}
     * @param at       when it arrived
     */
    public record Metric(String type, int sequence, Object value, Double number, Instant at) {}

    /** The metrics of a trial, in the order they arrived. */
    public List<Metric> metrics(String jobId) {
        return store.read(s -> {
            List<Metric> out = new ArrayList<>();
            try (var p = s.prepareStatement("SELECT type, sequence, value, value_number, time_ms FROM metrics WHERE job_id = ? ORDER BY id")) {
                p.setString(1, jobId);
                try (ResultSet r = p.executeQuery()) {
                    while (r.next()) {
                        double v = r.getDouble(4);
                        Double number = r.wasNull() ? null : v;
                        out.add(new Metric(r.getString(1), r.getInt(2), ExperimentStore.metricOf(r.getString(3)), number,
                                Instant.ofEpochMilli(r.getLong(5))));
                    }
                }
            }
            return out;
        });
    }

    /**
     * The intermediate results' numbers of the given trials (all when {@code null}), each trial's in order of
     * sequence, a {@code null} for one without a number.
     */
    public Map<String, List<Double>> intermediate(Set<String> jobIds) {
        return store.read(s -> {
            Map<String, List<Double>> out = new LinkedHashMap<>();
            try (Statement q = s.createStatement(); ResultSet r = q.executeQuery(
                    "SELECT job_id, value_number FROM metrics WHERE type = 'PERIODICAL' ORDER BY job_id, sequence, id")) {
                while (r.next()) {
                    String job = r.getString(1);
                    if (jobIds == null || jobIds.contains(job)) {
                        double v = r.getDouble(2);
                        out.computeIfAbsent(job, k -> new ArrayList<>()).add(r.wasNull() ? null : v);
                    }
                }
            }
            return out;
        });
    }

    /**
     * Something that happened to the experiment or a trial, as the runner recorded it.
     *
     * @param at    when
     * @param kind  its kind (started, ended, lost, steered, error...)
     * @param jobId the trial it concerns, or {@code null}
     * @param text  what happened
     */
    public record Event(Instant at, String kind, String jobId, String text) {}

    /** The last {@code limit} events, of one trial when {@code jobId} is given, oldest first. */
    public List<Event> events(String jobId, int limit) {
        return store.read(s -> {
            List<Event> out = new ArrayList<>();
            try (var p = s.prepareStatement("SELECT time_ms, kind, job_id, text FROM events" + (jobId == null ? "" : " WHERE job_id = ?")
                    + " ORDER BY id DESC LIMIT ?")) {
                int i = 1;
                if (jobId != null) {
                    p.setString(i++, jobId);
                }
                p.setInt(i, limit);
                try (ResultSet r = p.executeQuery()) {
                    while (r.next()) {
                        out.add(0, new Event(Instant.ofEpochMilli(r.getLong(1)), r.getString(2), r.getString(3), r.getString(4)));
                    }
                }
            }
            return out;
        });
    }

    /**
     * A request made to steer the experiment.
     *
     * @param id      its number
     * @param kind    what it asks: limits, add-trial, stop-trial, stop
     * @param payload its arguments, as JSON
     * @param state   WAITING, DONE or REFUSED
     * @param answer  the runner's answer, or {@code null} while it waits
     */
    public record Request(long id, String kind, String payload, String state, String answer) {}

    /** The requests made to steer the experiment, in the order made. */
    public List<Request> requests() {
        return store.requests(null).stream().map(r -> new Request(r.id(), r.kind(), r.payload(), r.state(), r.answer())).toList();
    }

    /** Everything recorded, as the results model (the report's and {@code tunekit results}'). */
    public ExperimentResults results() {
        return store.results();
    }

    /**
     * The end of a trial's standard output or error, from the trial's own folder only.
     *
     * @param jobId  the trial's job id (as stored: a name, never a path)
     * @param stderr the error stream rather than the output
     * @param bytes  at most this many bytes from the end
     * @return the text, empty when the trial has no such file
     * @throws IllegalArgumentException when no trial of this experiment has that job id
     */
    public String outputTail(String jobId, boolean stderr, int bytes) {
        boolean known = store.read(s -> {
            try (var p = s.prepareStatement("SELECT 1 FROM trials WHERE job_id = ?")) {
                p.setString(1, jobId);
                try (ResultSet r = p.executeQuery()) {
                    return r.next();
                }
            }
        });
        if (!known) {
            throw new IllegalArgumentException("no trial '" + jobId + "' in experiment " + store.id());
        }
        Path trials = folder.resolve("trials");
        Path file = trials.resolve(jobId).resolve(stderr ? org.tunekit.runner.manager.TrialScript.STDERR
                : org.tunekit.runner.manager.TrialScript.STDOUT).normalize();
        if (!file.startsWith(trials) || !file.getParent().getParent().equals(trials) || !Files.isRegularFile(file)) {
            return "";
        }
        try (var ch = java.nio.channels.FileChannel.open(file)) {
            long size = ch.size();
            long from = Math.max(0, size - bytes);
            java.nio.ByteBuffer buf = java.nio.ByteBuffer.allocate((int) (size - from));
            while (buf.hasRemaining() && ch.read(buf, from + buf.position()) > 0) {
                // read on
            }
            String text = new String(buf.array(), 0, buf.position(), StandardCharsets.UTF_8);
            if (from > 0) {
                int nl = text.indexOf('\n');
                text = nl >= 0 ? text.substring(nl + 1) : text;
            }
            return text;
        } catch (IOException e) {
            return "";
        }
    }

    @Override
    public void close() {
        store.close();
    }

    /** A query run on the store's connection. */
    @FunctionalInterface
    interface Query<T> {
        T run(java.sql.Connection connection) throws SQLException;
    }
}
