package org.tunekit.study;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.sqlite.SQLiteConfig;
import org.tunekit.experimentdb.ExperimentTables;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.objectives.Objectives;
import org.tunekit.sdk.internal.Json;

/**
 * A study in an experiment folder's {@code experiment.db}, in the tables {@code tunekit run} writes
 * ({@link ExperimentTables}), plus three of the study's own: its parameter-id counter, the enqueued parameter
 * sets and the workers' heartbeats. A trial's worker is its {@code handle}; its end is an {@code events} row,
 * whose id orders the ends. Each call is one immediate transaction in write-ahead-log mode with full
 * synchronisation, so that processes on this machine share the study and a kill loses nothing committed.
 */
final class SqliteStore implements StudyStore {
    private static final String END = "TRIAL_END";

    private final Connection db;
    private final Path file;
    private final StudyDefinition definition;

    private SqliteStore(Connection db, Path file, StudyDefinition definition) {
        this.db = db;
        this.file = file;
        this.definition = definition;
    }

    static SqliteStore open(Path folder, String name, StudyDefinition definition, Storage.Mode mode) {
        Path file = folder.resolve(ExperimentTables.FILE);
        if (mode == Storage.Mode.LOAD && !Files.isRegularFile(file)) {
            throw new StudyException("no study in " + folder + " (" + ExperimentTables.FILE + " is missing)");
        }
        try {
            Files.createDirectories(folder);
        } catch (IOException e) {
            throw new StudyException("cannot make the study's folder " + folder + ": " + e.getMessage(), e);
        }
        Connection c = connect(file);
        try {
            begin(c, true);
            StudyDefinition stored = readOrCreate(c, file, name, definition, mode);
            try (PreparedStatement p = c.prepareStatement("UPDATE experiment SET status = 'RUNNING', ended_ms = NULL")) {
                p.executeUpdate();
            }
            commit(c);
            markRunning(folder);
            return new SqliteStore(c, file, stored);
        } catch (SQLException | RuntimeException e) {
            rollbackQuietly(c);
            closeQuietly(c);
            if (e instanceof StudyException se) {
                throw se;
            }
            throw new StudyException("cannot open the study in " + file + ": " + e.getMessage(), e);
        }
    }

    private static StudyDefinition readOrCreate(Connection c, Path file, String name, StudyDefinition definition, Storage.Mode mode)
            throws SQLException {
        boolean exists;
        try (Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'experiment'")) {
            exists = r.next() && r.getInt(1) > 0;
        }
        if (!exists) {
            if (mode == Storage.Mode.LOAD) {
                throw new StudyException("no study in " + file);
            }
            create(c, definition);
            return definition;
        }
        if (mode == Storage.Mode.CREATE) {
            throw new StudyException(file + " already holds a study; load it, or open the new one with loadIfExists()");
        }
        String config;
        String options;
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT config, options, schema FROM experiment")) {
            if (!r.next()) {
                throw new StudyException(file + " holds no experiment");
            }
            config = r.getString(1);
            options = r.getString(2);
            if (r.getInt(3) > ExperimentTables.SCHEMA) {
                throw new StudyException(file + " was written by a newer Tunekit (schema " + r.getInt(3) + ")");
            }
        }
        if (!(Json.parse(options) instanceof Map<?, ?> o) || !Boolean.TRUE.equals(o.get("study"))) {
            throw new StudyException(file + " holds an experiment of tunekit run, not a study");
        }
        @SuppressWarnings("unchecked")
        StudyDefinition stored = StudyDefinition.fromConfig((Map<String, Object>) Json.parse(config), file.toString());
        if (!stored.name().equals(name)) {
            throw new StudyException(file + " holds the study '" + stored.name() + "', not '" + name + "'");
        }
        if (definition != null) {
            Definitions.requireSame(stored, definition, file.toString());
        }
        return stored;
    }

    private static void create(Connection c, StudyDefinition d) throws SQLException {
        try (Statement s = c.createStatement()) {
            ExperimentTables.create(s);
            s.executeUpdate("CREATE TABLE study_counter (next_parameter_id INTEGER NOT NULL)");
            s.executeUpdate("INSERT INTO study_counter VALUES (0)");
            s.executeUpdate("CREATE TABLE study_enqueued (id INTEGER PRIMARY KEY AUTOINCREMENT, parameters TEXT NOT NULL, time_ms INTEGER NOT NULL)");
            s.executeUpdate("CREATE TABLE study_workers (worker TEXT PRIMARY KEY, heartbeat_ms INTEGER NOT NULL)");
            s.executeUpdate("CREATE INDEX trials_by_status ON trials (status, handle)");
        }
        try (PreparedStatement p = c.prepareStatement("INSERT INTO experiment (id, schema, name, config, options, maximize, status, started_ms)"
                + " VALUES (?, ?, ?, ?, ?, ?, 'RUNNING', ?)")) {
            p.setString(1, Long.toString(Math.abs(java.util.concurrent.ThreadLocalRandom.current().nextLong()), 36).substring(0, 8));
            p.setInt(2, ExperimentTables.SCHEMA);
            p.setString(3, d.name());
            p.setString(4, Json.write(d.toConfig()));
            p.setString(5, Json.write(Map.of("study", true)));
            p.setInt(6, d.maximize() ? 1 : 0);
            p.setLong(7, System.currentTimeMillis());
            p.executeUpdate();
        }
    }

    private static Connection connect(Path file) {
        try {
            SQLiteConfig config = new SQLiteConfig();
            config.setJournalMode(SQLiteConfig.JournalMode.WAL);
            config.setSynchronous(SQLiteConfig.SynchronousMode.FULL);
            config.setBusyTimeout(30_000);
            // transactions are begun and ended by hand: the driver, left to do it, would begin the next one at each
            // commit and hold the write lock between calls, shutting every other program out
            return DriverManager.getConnection("jdbc:sqlite:" + file, config.toProperties());
        } catch (SQLException e) {
            throw new StudyException("cannot open " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public StudyDefinition definition() {
        return definition;
    }

    @Override
    public boolean shared() {
        return true;
    }

    /** One transaction: done whole, or rolled back and reported. */
    private interface Work<T> {
        T run() throws SQLException;
    }

    /** A transaction that writes: it takes the write lock at its start, so that it never fails half-way on a busy database. */
    private <T> T transaction(String what, Work<T> work) {
        return transaction(what, true, work);
    }

    /** A transaction that only reads: a consistent snapshot, taking no lock from writers. */
    private <T> T reading(String what, Work<T> work) {
        return transaction(what, false, work);
    }

    private synchronized <T> T transaction(String what, boolean writes, Work<T> work) {
        try {
            begin(db, writes);
            T t = work.run();
            commit(db);
            return t;
        } catch (SQLException | RuntimeException e) {
            rollbackQuietly(db);
            if (e instanceof StudyException se) {
                throw se;
            }
            throw new StudyException("study '" + definition.name() + "': cannot " + what + " in " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public TrialRecord startEnqueued(String worker, Instant now) {
        return transaction("start an enqueued trial", () -> {
            long id;
            String params;
            try (Statement s = db.createStatement(); ResultSet r = s.executeQuery("SELECT id, parameters FROM study_enqueued ORDER BY id LIMIT 1")) {
                if (!r.next()) {
                    return null;
                }
                id = r.getLong(1);
                params = r.getString(2);
            }
            update("DELETE FROM study_enqueued WHERE id = ?", id);
            return insert(nextParameterId(), parameters(params), true, worker, now);
        });
    }

    @Override
    public long takeParameterId() {
        return transaction("take a parameter id", this::nextParameterId);
    }

    private long nextParameterId() throws SQLException {
        long id = longValue("SELECT next_parameter_id FROM study_counter");
        update("UPDATE study_counter SET next_parameter_id = ?", id + 1);
        return id;
    }

    @Override
    public TrialRecord start(long parameterId, Parameters parameters, String worker, Instant now) {
        return transaction("start a trial", () -> insert(parameterId, parameters, false, worker, now));
    }

    private TrialRecord insert(long parameterId, Parameters parameters, boolean enqueued, String worker, Instant now) throws SQLException {
        int number = (int) longValue("SELECT COALESCE(MAX(sequence) + 1, 0) FROM trials");
        Map<String, Object> record = new LinkedHashMap<>();
        record.put("parameter_id", parameterId);
        record.put("parameter_source", enqueued ? "customized" : "algorithm");
        record.put("parameters", parameters.values());
        record.put("parameter_index", 0L);
        TrialRecord t = new TrialRecord(number, parameterId, parameters, TrialState.RUNNING, List.of(), TrialRecord.noIntermediate(), enqueued,
                null, worker, now, null);
        update("INSERT INTO trials (job_id, sequence, parameter_id, parameter_record, status, started_ms, handle, machine)"
                + " VALUES (?, ?, ?, ?, 'RUNNING', ?, ?, ?)", t.jobId(), number, parameterId, Json.write(record), now.toEpochMilli(), worker,
                worker.substring(worker.indexOf('@') + 1, worker.indexOf('/') < 0 ? worker.length() : worker.indexOf('/')));
        return t;
    }

    @Override
    public void enqueue(Parameters parameters, Instant now) {
        transaction("enqueue parameters", () -> update("INSERT INTO study_enqueued (parameters, time_ms) VALUES (?, ?)",
                Json.write(parameters.values()), now.toEpochMilli()));
    }

    @Override
    public TrialRecord report(int number, long step, double value, Instant now) {
        return transaction("record an intermediate value", () -> {
            TrialRecord t = runningTrial(number);
            if (!t.intermediate().isEmpty() && t.intermediate().lastKey() >= step) {
                throw new StudyException("trial " + number + " already reported step " + t.intermediate().lastKey()
                        + ": steps must grow, got " + step);
            }
            update("INSERT INTO metrics (job_id, parameter_id, type, sequence, value, value_number, time_ms) VALUES (?, ?, 'PERIODICAL', ?, ?, ?, ?)",
                    t.jobId(), t.parameterId(), step, Json.write(value), value, now.toEpochMilli());
            return t.withIntermediate(step, value);
        });
    }

    @Override
    public TrialRecord finish(int number, TrialState state, List<Double> values, Object reported, String message, Instant now) {
        return transaction("end trial " + number, () -> {
            TrialRecord t = runningTrial(number);
            end(t, state, values, reported, message, now);
            return t.ended(state, values, message, now);
        });
    }

    private void end(TrialRecord t, TrialState state, List<Double> values, Object reported, String message, Instant now) throws SQLException {
        String metric = reported == null ? null : Json.write(reported);
        update("UPDATE trials SET status = ?, ended_ms = ?, message = ?, final_metric = ?, final_value = ? WHERE job_id = ?", state.name(),
                now.toEpochMilli(), message, metric, values.isEmpty() ? null : values.get(0), t.jobId());
        if (metric != null) {
            update("INSERT INTO metrics (job_id, parameter_id, type, sequence, value, value_number, time_ms) VALUES (?, ?, 'FINAL', 0, ?, ?, ?)",
                    t.jobId(), t.parameterId(), metric, values.get(0), now.toEpochMilli());
        }
        update("INSERT INTO events (time_ms, kind, job_id, text) VALUES (?, ?, ?, ?)", now.toEpochMilli(), END, t.jobId(),
                "trial " + t.number() + " " + state.name().toLowerCase(java.util.Locale.ROOT) + (message == null ? "" : ": " + message));
    }

    private TrialRecord runningTrial(int number) throws SQLException {
        List<TrialRecord> found = select("WHERE t.sequence = ?", number);
        if (found.isEmpty()) {
            throw new StudyException("study '" + definition.name() + "' has no trial " + number);
        }
        TrialRecord t = found.get(0);
        if (t.state().ended()) {
            throw new StudyException("trial " + number + " of study '" + definition.name() + "' has already ended as " + t.state());
        }
        return t;
    }

    @Override
    public Ended endedSince(long cursor) {
        return reading("read ended trials", () -> {
            long last = longValue("SELECT COALESCE(MAX(id), 0) FROM events WHERE kind = '" + END + "'");
            if (last <= cursor) {
                return new Ended(List.of(), cursor);
            }
            List<TrialRecord> trials = select("JOIN events e ON e.job_id = t.job_id AND e.kind = '" + END + "' WHERE e.id > ? AND e.id <= ?"
                    + " ORDER BY e.id", cursor, last);
            return new Ended(trials, last);
        });
    }

    @Override
    public List<TrialRecord> trials() {
        return reading("read the trials", () -> select("ORDER BY t.sequence"));
    }

    @Override
    public int running() {
        return reading("count running trials", () -> (int) longValue("SELECT COUNT(*) FROM trials WHERE status = 'RUNNING'"));
    }

    @Override
    public void heartbeat(String worker, Instant now) {
        transaction("record a heartbeat", () -> update("INSERT INTO study_workers (worker, heartbeat_ms) VALUES (?, ?)"
                + " ON CONFLICT (worker) DO UPDATE SET heartbeat_ms = excluded.heartbeat_ms", worker, now.toEpochMilli()));
    }

    @Override
    public List<TrialRecord> failSilentWorkers(Instant silentSince, Instant now, boolean retry) {
        return transaction("fail the trials of silent workers", () -> {
            List<TrialRecord> failed = new ArrayList<>();
            for (TrialRecord t : select("JOIN study_workers w ON w.worker = t.handle WHERE t.status = 'RUNNING' AND w.heartbeat_ms < ?",
                    silentSince.toEpochMilli())) {
                String message = "its worker " + t.worker() + " sent no heartbeat since " + silentSince + (retry ? "; its parameters run again" : "");
                end(t, TrialState.FAILED, List.of(), null, message, now);
                if (retry) {
                    update("INSERT INTO study_enqueued (parameters, time_ms) VALUES (?, ?)", Json.write(t.parameters().values()), now.toEpochMilli());
                }
                failed.add(t.ended(TrialState.FAILED, List.of(), message, now));
            }
            return failed;
        });
    }

    @Override
    public synchronized void close() {
        try {
            begin(db, true);
            update("UPDATE experiment SET status = 'STOPPED', ended_ms = ?", System.currentTimeMillis());
            commit(db);
        } catch (SQLException e) {
            rollbackQuietly(db);
        }
        closeQuietly(db);
        unmarkRunning(file.getParent());
    }

    /**
     * Names this process in the folder's {@code .lock}, where the dashboard and {@code tunekit results} look for the
     * program that runs an experiment (a live Java process), so that a study shows as running while a program holds it.
     * No lock is taken: several programs may hold a study; the last to open it is named.
     */
    private static void markRunning(Path folder) {
        try {
            java.nio.file.Files.writeString(folder.resolve(".lock"), Long.toString(ProcessHandle.current().pid()));
        } catch (java.io.IOException e) {
            // only what the dashboard shows depends on it
        }
    }

    /** Clears the folder's {@code .lock} when it still names this process. */
    private static void unmarkRunning(Path folder) {
        Path lock = folder.resolve(".lock");
        try {
            if (java.nio.file.Files.readString(lock).strip().equals(Long.toString(ProcessHandle.current().pid()))) {
                java.nio.file.Files.writeString(lock, "");
            }
        } catch (java.io.IOException e) {
            // nothing to clear
        }
    }

    private static void begin(Connection c, boolean writes) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(writes ? "BEGIN IMMEDIATE" : "BEGIN");
        }
    }

    private static void commit(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("COMMIT");
        }
    }

    // ---- reading

    /** Trials ({@code t}) with their intermediate values, by the clause given (which may join and order). */
    private List<TrialRecord> select(String clause, Object... args) throws SQLException {
        List<TrialRecord> out = new ArrayList<>();
        Map<String, Integer> byJob = new HashMap<>();
        try (PreparedStatement p = db.prepareStatement("SELECT t.sequence, t.parameter_id, t.parameter_record, t.status, t.final_metric,"
                + " t.message, t.handle, t.started_ms, t.ended_ms, t.job_id FROM trials t " + clause)) {
            bind(p, args);
            try (ResultSet r = p.executeQuery()) {
                while (r.next()) {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> record = (Map<String, Object>) Json.parse(r.getString(3));
                    TrialState state = TrialState.valueOf(r.getString(4));
                    long ended = r.getLong(9);
                    out.add(new TrialRecord(r.getInt(1), r.getLong(2), parameters(Json.write(record.get("parameters"))), state,
                            values(r.getString(5)), new TreeMap<>(), "customized".equals(record.get("parameter_source")), r.getString(6),
                            r.getString(7), Instant.ofEpochMilli(r.getLong(8)), r.wasNull() ? null : Instant.ofEpochMilli(ended)));
                    byJob.put(r.getString(10), out.size() - 1);
                }
            }
        }
        if (out.isEmpty()) {
            return out;
        }
        String jobs = out.size() == 1 ? "= '" + out.get(0).jobId() + "'" : "IN (SELECT t.job_id FROM trials t " + clause.replaceAll("ORDER BY.*", "") + ")";
        try (PreparedStatement p = db.prepareStatement("SELECT job_id, sequence, value_number FROM metrics WHERE type = 'PERIODICAL' AND job_id "
                + jobs + " ORDER BY id")) {
            if (out.size() > 1) {
                bind(p, args);
            }
            try (ResultSet r = p.executeQuery()) {
                while (r.next()) {
                    int i = byJob.get(r.getString(1));
                    out.set(i, out.get(i).withIntermediate(r.getLong(2), r.getDouble(3)));
                }
            }
        }
        return out;
    }

    /** The objective values of a stored final metric, read by the objectives' own rule. */
    private List<Double> values(String metric) {
        if (metric == null) {
            return List.of();
        }
        List<Double> out = new ArrayList<>();
        for (double v : Objectives.of(definition.objectives()).values(Json.parse(metric), "the stored metric of a trial")) {
            out.add(v);
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Parameters parameters(String json) {
        return Parameters.of((Map<String, Object>) Json.parse(json));
    }

    private long longValue(String sql) throws SQLException {
        try (Statement s = db.createStatement(); ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }

    private Void update(String sql, Object... args) throws SQLException {
        try (PreparedStatement p = db.prepareStatement(sql)) {
            bind(p, args);
            p.executeUpdate();
        }
        return null;
    }

    private static void bind(PreparedStatement p, Object... args) throws SQLException {
        for (int i = 0; i < args.length; i++) {
            p.setObject(i + 1, args[i]);
        }
    }

    private static void rollbackQuietly(Connection c) {
        try (Statement s = c.createStatement()) {
            s.execute("ROLLBACK");
        } catch (SQLException ignored) {
            // no transaction was open, or the connection is broken: nothing of it was committed
        }
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException ignored) {
            // nothing more to release
        }
    }
}
