package org.tunekit.study;

import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.internal.Json;

/**
 * A study in a PostgreSQL database, shared by workers in any number of programs on any number of machines. The
 * tables are the store's own and hold any number of studies apart by name; every row carries its study's id:
 *
 * <ul>
 *   <li>{@code tunekit_studies}: a study's name (unique), its definition as an NNI experiment config, its counters
 *       (next parameter id, next trial number, trials ended) and its schema version;
 *   <li>{@code tunekit_trials}: a trial by study and number (its parameter id unique in the study), its parameters,
 *       state, objective values, final metric as NNI reports it, message, worker, start and end, and its end's
 *       position ({@code end_seq});
 *   <li>{@code tunekit_intermediate}: the intermediate values, by study, trial and step;
 *   <li>{@code tunekit_enqueued}: parameter sets waiting to run;
 *   <li>{@code tunekit_workers}: each worker's last heartbeat.
 * </ul>
 *
 * <p>Every call is one transaction (read committed). Numbers, parameter ids and end positions are taken by
 * {@code UPDATE ... RETURNING} on the study's row, whose lock is held to the commit: they are unique, without
 * gaps, and ends are numbered in the order they commit, so that a reader of the ends after a position misses none.
 * Every transaction that ends trials locks the study's row before a trial's, so two of them never wait on each
 * other. An enqueued set is taken by deleting its row, skipping rows another worker is taking.
 *
 * <p>Heartbeats are the database's clock ({@code now()}), and so is the check for silent workers: workers on machines
 * whose clocks differ agree on who is silent. A trial's start and end are the worker's clock, as it tells them.
 *
 * <p>A connection that breaks fails the call under way with a {@link StudyException} (its transaction rolled back:
 * nothing of it is kept), and the next call connects again. A call whose first statement finds the connection
 * broken (the server restarted since the last call) connects again and runs once more, since nothing of it reached
 * the database.
 */
final class PostgresStore implements StudyStore {
    /** The version of the tables; a study written by a newer one is not loaded. */
    static final int SCHEMA = 1;
    /** The advisory lock under which the tables are created, so that workers starting together do not collide. */
    private static final long CREATE_LOCK = 0x74756e656b6974L;
    private static final String[] TABLES = {"tunekit_studies", "tunekit_trials", "tunekit_intermediate", "tunekit_enqueued", "tunekit_workers"};
    private static final String COLUMNS = "number, parameter_id, parameters, state, objective_values, message, worker, started, ended, enqueued";

    private final String url;
    private final Properties properties;
    private final String where;
    private final StudyDefinition definition;
    private final long studyId;
    private Connection db;
    private int statements;
    private boolean closed;

    private PostgresStore(String url, Properties properties, String where, Connection db, StudyDefinition definition, long studyId) {
        this.url = url;
        this.properties = properties;
        this.where = where;
        this.db = db;
        this.definition = definition;
        this.studyId = studyId;
    }

    /** The storage as messages name it: the URL without its parameters (which may hold a password). */
    static String describe(String jdbcUrl) {
        return "PostgreSQL at " + withoutParameters(jdbcUrl);
    }

    static String withoutParameters(String jdbcUrl) {
        int q = jdbcUrl.indexOf('?');
        return q < 0 ? jdbcUrl : jdbcUrl.substring(0, q);
    }

    static PostgresStore open(String url, String user, String password, String name, StudyDefinition definition, Storage.Mode mode) {
        String where = describe(url);
        Properties p = new Properties();
        if (user != null) {
            p.setProperty("user", user);
        }
        if (password != null) {
            p.setProperty("password", password);
        }
        p.setProperty("ApplicationName", "tunekit study " + name);
        p.setProperty("connectTimeout", "10");
        p.setProperty("tcpKeepAlive", "true");
        Connection c = connect(url, p, where);
        try {
            createTables(c);
            c.commit();
            long id;
            StudyDefinition stored;
            if (mode == Storage.Mode.LOAD) {
                Object[] row = find(c, name, where);
                id = (Long) row[0];
                stored = (StudyDefinition) row[1];
            } else {
                Long created = insert(c, definition);
                if (created != null) {
                    id = created;
                    stored = definition;
                } else if (mode == Storage.Mode.CREATE) {
                    throw new StudyException(where + " already holds a study named '" + name + "'; load it, or open the new one with loadIfExists()");
                } else {
                    Object[] row = find(c, name, where);
                    id = (Long) row[0];
                    stored = (StudyDefinition) row[1];
                    Definitions.requireSame(stored, definition, where);
                }
            }
            c.commit();
            return new PostgresStore(url, p, where, c, stored, id);
        } catch (SQLException | RuntimeException e) {
            rollbackQuietly(c);
            closeQuietly(c);
            if (e instanceof StudyException se) {
                throw se;
            }
            throw new StudyException("cannot open the study '" + name + "' in " + where + ": " + e.getMessage(), e);
        }
    }

    private static void createTables(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            StringBuilder exists = new StringBuilder("SELECT");
            for (int i = 0; i < TABLES.length; i++) {
                exists.append(i == 0 ? " " : " AND ").append("to_regclass('").append(TABLES[i]).append("') IS NOT NULL");
            }
            try (ResultSet r = s.executeQuery(exists.toString())) {
                r.next();
                if (r.getBoolean(1)) {
                    return;
                }
            }
            // released at the commit: a second worker waits here, then finds the tables made
            s.execute("SELECT pg_advisory_xact_lock(" + CREATE_LOCK + ")");
            s.executeUpdate("CREATE TABLE IF NOT EXISTS tunekit_studies ("
                    + " id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
                    + " name TEXT NOT NULL UNIQUE,"
                    + " config TEXT NOT NULL,"
                    + " schema INTEGER NOT NULL,"
                    + " next_parameter_id BIGINT NOT NULL DEFAULT 0,"
                    + " next_number INTEGER NOT NULL DEFAULT 0,"
                    + " ended_count BIGINT NOT NULL DEFAULT 0,"
                    + " created TIMESTAMPTZ NOT NULL DEFAULT now())");
            s.executeUpdate("CREATE TABLE IF NOT EXISTS tunekit_trials ("
                    + " study_id BIGINT NOT NULL REFERENCES tunekit_studies (id) ON DELETE CASCADE,"
                    + " number INTEGER NOT NULL,"
                    + " parameter_id BIGINT NOT NULL,"
                    + " parameters TEXT NOT NULL,"
                    + " enqueued BOOLEAN NOT NULL,"
                    + " state TEXT NOT NULL,"
                    + " objective_values DOUBLE PRECISION[],"
                    + " final_metric TEXT,"
                    + " message TEXT,"
                    + " worker TEXT NOT NULL,"
                    + " started TIMESTAMPTZ NOT NULL,"
                    + " ended TIMESTAMPTZ,"
                    + " end_seq BIGINT,"
                    + " PRIMARY KEY (study_id, number),"
                    + " UNIQUE (study_id, parameter_id),"
                    + " UNIQUE (study_id, end_seq))");
            s.executeUpdate("CREATE INDEX IF NOT EXISTS tunekit_trials_running ON tunekit_trials (study_id, worker) WHERE state = 'RUNNING'");
            s.executeUpdate("CREATE TABLE IF NOT EXISTS tunekit_intermediate ("
                    + " study_id BIGINT NOT NULL,"
                    + " number INTEGER NOT NULL,"
                    + " step BIGINT NOT NULL,"
                    + " value DOUBLE PRECISION NOT NULL,"
                    + " PRIMARY KEY (study_id, number, step),"
                    + " FOREIGN KEY (study_id, number) REFERENCES tunekit_trials (study_id, number) ON DELETE CASCADE)");
            s.executeUpdate("CREATE TABLE IF NOT EXISTS tunekit_enqueued ("
                    + " id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,"
                    + " study_id BIGINT NOT NULL REFERENCES tunekit_studies (id) ON DELETE CASCADE,"
                    + " parameters TEXT NOT NULL,"
                    + " enqueued TIMESTAMPTZ NOT NULL)");
            s.executeUpdate("CREATE INDEX IF NOT EXISTS tunekit_enqueued_by_study ON tunekit_enqueued (study_id, id)");
            s.executeUpdate("CREATE TABLE IF NOT EXISTS tunekit_workers ("
                    + " study_id BIGINT NOT NULL REFERENCES tunekit_studies (id) ON DELETE CASCADE,"
                    + " worker TEXT NOT NULL,"
                    + " heartbeat TIMESTAMPTZ NOT NULL,"
                    + " PRIMARY KEY (study_id, worker))");
        }
    }

    /** Inserts the study's row; {@code null} when a study of that name exists (made now by another worker, or before). */
    private static Long insert(Connection c, StudyDefinition d) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("INSERT INTO tunekit_studies (name, config, schema) VALUES (?, ?, ?)"
                + " ON CONFLICT (name) DO NOTHING RETURNING id")) {
            p.setString(1, d.name());
            p.setString(2, Json.write(d.toConfig()));
            p.setInt(3, SCHEMA);
            try (ResultSet r = p.executeQuery()) {
                return r.next() ? r.getLong(1) : null;
            }
        }
    }

    /** The stored study's id and definition. */
    @SuppressWarnings("unchecked")
    private static Object[] find(Connection c, String name, String where) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("SELECT id, config, schema FROM tunekit_studies WHERE name = ?")) {
            p.setString(1, name);
            try (ResultSet r = p.executeQuery()) {
                if (!r.next()) {
                    throw new StudyException("no study named '" + name + "' in " + where);
                }
                if (r.getInt(3) > SCHEMA) {
                    throw new StudyException("the study '" + name + "' in " + where + " was written by a newer Tunekit (schema " + r.getInt(3) + ")");
                }
                String what = "the study '" + name + "' in " + where;
                Object config;
                try {
                    config = Json.parse(r.getString(2));
                } catch (IllegalArgumentException e) {
                    throw new StudyException(what + " has a config that is not JSON: " + e.getMessage(), e);
                }
                if (!(config instanceof Map<?, ?>)) {
                    throw new StudyException(what + " has a config that is not a JSON object");
                }
                return new Object[] {r.getLong(1), StudyDefinition.fromConfig((Map<String, Object>) config, what)};
            }
        }
    }

    private static Connection connect(String url, Properties p, String where) {
        try {
            Connection c = DriverManager.getConnection(url, p);
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            return c;
        } catch (SQLException e) {
            throw new StudyException("cannot connect to " + where + (p.containsKey("user") ? " as " + p.getProperty("user") : "") + ": "
                    + e.getMessage(), e);
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

    private synchronized <T> T transaction(String what, Work<T> work) {
        if (closed) {
            throw new StudyException("study '" + definition.name() + "' is closed: cannot " + what);
        }
        for (int attempt = 1; ; attempt++) {
            boolean fresh = db == null;
            if (fresh) {
                try {
                    db = connect(url, properties, where);
                } catch (StudyException e) {
                    throw new StudyException("study '" + definition.name() + "': cannot " + what + ": " + e.getMessage(), e);
                }
            }
            statements = 0;
            boolean committing = false;
            try {
                T t = work.run();
                committing = true;
                db.commit();
                return t;
            } catch (SQLException | RuntimeException e) {
                rollbackQuietly(db);
                if (e instanceof StudyException se) {
                    throw se;
                }
                boolean broken = broken(e);
                if (broken) {
                    closeQuietly(db);
                    db = null;
                }
                boolean nothingSent = broken && !fresh && statements == 0 && !committing;
                boolean conflict = e instanceof SQLException s && !committing && ("40001".equals(s.getSQLState()) || "40P01".equals(s.getSQLState()));
                if (attempt < 3 && (nothingSent || conflict)) {
                    continue;
                }
                String outcome = !broken ? "" : committing
                        ? " (the connection broke while committing: the call was kept whole or not at all; the next call connects again)"
                        : " (the connection broke: nothing of the call was kept; the next call connects again)";
                throw new StudyException("study '" + definition.name() + "': cannot " + what + " in " + where + ": " + e.getMessage() + outcome, e);
            }
        }
    }

    /** True when the connection is no longer usable. */
    private boolean broken(Exception e) {
        if (e instanceof SQLException s && s.getSQLState() != null
                && (s.getSQLState().startsWith("08") || Set.of("57P01", "57P02", "57P03").contains(s.getSQLState()))) {
            return true;
        }
        try {
            return db.isClosed() || !db.isValid(2);
        } catch (SQLException ignored) {
            return true;
        }
    }

    @Override
    public TrialRecord startEnqueued(String worker, Instant now) {
        return transaction("start an enqueued trial", () -> {
            String params = null;
            try (PreparedStatement p = prepare("DELETE FROM tunekit_enqueued WHERE id = (SELECT id FROM tunekit_enqueued WHERE study_id = ?"
                    + " ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING parameters", studyId); ResultSet r = query(p)) {
                if (r.next()) {
                    params = r.getString(1);
                }
            }
            if (params == null) {
                return null;
            }
            long[] ids = longs("UPDATE tunekit_studies SET next_parameter_id = next_parameter_id + 1, next_number = next_number + 1 WHERE id = ?"
                    + " RETURNING next_parameter_id - 1, next_number - 1", studyId);
            return insert((int) ids[1], ids[0], parameters(params), true, worker, now);
        });
    }

    @Override
    public long takeParameterId() {
        return transaction("take a parameter id", () -> longs("UPDATE tunekit_studies SET next_parameter_id = next_parameter_id + 1 WHERE id = ?"
                + " RETURNING next_parameter_id - 1", studyId)[0]);
    }

    @Override
    public TrialRecord start(long parameterId, Parameters parameters, String worker, Instant now) {
        return transaction("start a trial", () -> {
            long number = longs("UPDATE tunekit_studies SET next_number = next_number + 1 WHERE id = ? RETURNING next_number - 1", studyId)[0];
            return insert((int) number, parameterId, parameters, false, worker, now);
        });
    }

    private TrialRecord insert(int number, long parameterId, Parameters parameters, boolean enqueued, String worker, Instant now) throws SQLException {
        Instant at = now.truncatedTo(ChronoUnit.MICROS);
        update("INSERT INTO tunekit_trials (study_id, number, parameter_id, parameters, enqueued, state, worker, started)"
                + " VALUES (?, ?, ?, ?, ?, 'RUNNING', ?, ?)", studyId, number, parameterId, Json.write(parameters.values()), enqueued, worker, time(at));
        return new TrialRecord(number, parameterId, parameters, TrialState.RUNNING, List.of(), TrialRecord.noIntermediate(), enqueued, null, worker,
                at, null);
    }

    @Override
    public void enqueue(Parameters parameters, Instant now) {
        transaction("enqueue parameters", () -> update("INSERT INTO tunekit_enqueued (study_id, parameters, enqueued) VALUES (?, ?, ?)", studyId,
                Json.write(parameters.values()), time(now)));
    }

    @Override
    public TrialRecord report(int number, long step, double value, Instant now) {
        return transaction("record an intermediate value of trial " + number, () -> {
            TrialRecord t = runningTrial(number);
            if (!t.intermediate().isEmpty() && t.intermediate().lastKey() >= step) {
                throw new StudyException("trial " + number + " already reported step " + t.intermediate().lastKey() + ": steps must grow, got " + step);
            }
            update("INSERT INTO tunekit_intermediate (study_id, number, step, value) VALUES (?, ?, ?, ?)", studyId, number, step, value);
            return t.withIntermediate(step, value);
        });
    }

    @Override
    public TrialRecord finish(int number, TrialState state, List<Double> values, Object reported, String message, Instant now) {
        return transaction("end trial " + number, () -> {
            // the study's row first, as every transaction that ends trials: its lock orders the ends
            long seq = nextEnd();
            TrialRecord t = runningTrial(number);
            return end(t, seq, state, values, reported, message, now);
        });
    }

    /** The next end's position, under the study row's lock (held to the commit, so that ends commit in this order). */
    private long nextEnd() throws SQLException {
        return longs("UPDATE tunekit_studies SET ended_count = ended_count + 1 WHERE id = ? RETURNING ended_count", studyId)[0];
    }

    private TrialRecord end(TrialRecord t, long seq, TrialState state, List<Double> values, Object reported, String message, Instant now)
            throws SQLException {
        Instant at = now.truncatedTo(ChronoUnit.MICROS);
        Array array = values.isEmpty() ? null : db.createArrayOf("float8", values.toArray());
        update("UPDATE tunekit_trials SET state = ?, objective_values = ?, final_metric = ?, message = ?, ended = ?, end_seq = ?"
                + " WHERE study_id = ? AND number = ?", state.name(), array, reported == null ? null : Json.write(reported), message, time(at), seq,
                studyId, t.number());
        return t.ended(state, values, message, at);
    }

    /** The trial, its row locked; throws when it is not running. */
    private TrialRecord runningTrial(int number) throws SQLException {
        List<TrialRecord> found = select("number = ? FOR UPDATE", number);
        if (found.isEmpty()) {
            throw new StudyException("study '" + definition.name() + "' has no trial " + number);
        }
        TrialRecord t = found.get(0);
        if (t.state().ended()) {
            throw new StudyException("trial " + number + " of study '" + definition.name() + "' has already ended as " + t.state()
                    + (t.message() == null ? "" : " (" + t.message() + ")"));
        }
        return t;
    }

    @Override
    public Ended endedSince(long cursor) {
        return transaction("read ended trials", () -> {
            long last = longs("SELECT ended_count FROM tunekit_studies WHERE id = ?", studyId)[0];
            if (last <= cursor) {
                return new Ended(List.of(), cursor);
            }
            // every end up to 'last' has committed: they commit in the order of their positions
            return new Ended(select("end_seq > ? AND end_seq <= ? ORDER BY end_seq", cursor, last), last);
        });
    }

    @Override
    public List<TrialRecord> trials() {
        return transaction("read the trials", () -> select("TRUE ORDER BY number"));
    }

    @Override
    public int running() {
        return transaction("count running trials", () -> (int) longs("SELECT COUNT(*) FROM tunekit_trials WHERE study_id = ? AND state = 'RUNNING'",
                studyId)[0]);
    }

    @Override
    public void heartbeat(String worker, Instant now) {
        transaction("record a heartbeat", () -> update("INSERT INTO tunekit_workers (study_id, worker, heartbeat) VALUES (?, ?, now())"
                + " ON CONFLICT (study_id, worker) DO UPDATE SET heartbeat = excluded.heartbeat", studyId, worker));
    }

    /**
     * {@inheritDoc}
     *
     * <p>Silence is measured in the database's clock: a worker is silent when its last heartbeat is older than
     * {@code now - silentSince} by the database's time. Workers checking at once fail each trial once: the check
     * locks the study's row, and fails only trials still running.
     */
    @Override
    public List<TrialRecord> failSilentWorkers(Instant silentSince, Instant now, boolean retry) {
        Duration grace = Duration.between(silentSince, now);
        double seconds = grace.toNanos() / 1e9;
        return transaction("fail the trials of silent workers", () -> {
            if (silent(seconds).isEmpty()) {
                return List.of();
            }
            update("SELECT 1 FROM tunekit_studies WHERE id = ? FOR UPDATE", studyId);
            // again under the lock: another worker may have failed them meanwhile, or they may have spoken
            Map<String, Instant> silent = silent(seconds);
            List<TrialRecord> failed = new ArrayList<>();
            if (silent.isEmpty()) {
                return failed;
            }
            String[] workers = silent.keySet().toArray(String[]::new);
            for (TrialRecord t : select("state = 'RUNNING' AND worker = ANY (?) ORDER BY number FOR UPDATE", (Object) db.createArrayOf("text", workers))) {
                String message = "its worker " + t.worker() + " sent no heartbeat for more than " + seconds + " s (the last at " + silent.get(t.worker())
                        + ")" + (retry ? "; its parameters run again" : "");
                failed.add(end(t, nextEnd(), TrialState.FAILED, List.of(), null, message, now));
                if (retry) {
                    update("INSERT INTO tunekit_enqueued (study_id, parameters, enqueued) VALUES (?, ?, ?)", studyId,
                            Json.write(t.parameters().values()), time(now));
                }
            }
            // a silent worker that speaks again is recorded again by its next heartbeat
            update("DELETE FROM tunekit_workers WHERE study_id = ? AND worker = ANY (?)", studyId, db.createArrayOf("text", workers));
            return failed;
        });
    }

    /** The workers silent for more than {@code seconds}, with their last heartbeat. */
    private Map<String, Instant> silent(double seconds) throws SQLException {
        Map<String, Instant> out = new LinkedHashMap<>();
        try (PreparedStatement p = prepare("SELECT worker, heartbeat FROM tunekit_workers WHERE study_id = ?"
                + " AND heartbeat < clock_timestamp() - make_interval(secs => ?) ORDER BY worker", studyId, seconds); ResultSet r = query(p)) {
            while (r.next()) {
                out.put(r.getString(1), r.getObject(2, OffsetDateTime.class).toInstant());
            }
        }
        return out;
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (db != null) {
            rollbackQuietly(db);
            closeQuietly(db);
            db = null;
        }
    }

    @Override
    public String toString() {
        return where + ", study '" + definition.name() + "'";
    }

    // ---- reading and writing

    /** The study's trials matching {@code clause} (which may order and lock), with their intermediate values. */
    private List<TrialRecord> select(String clause, Object... args) throws SQLException {
        Object[] all = new Object[args.length + 1];
        all[0] = studyId;
        System.arraycopy(args, 0, all, 1, args.length);
        List<TrialRecord> out = new ArrayList<>();
        Map<Integer, Integer> index = new HashMap<>();
        try (PreparedStatement p = prepare("SELECT " + COLUMNS + " FROM tunekit_trials WHERE study_id = ? AND " + clause, all); ResultSet r = query(p)) {
            while (r.next()) {
                List<Double> values = new ArrayList<>();
                Array a = r.getArray(5);
                if (a != null) {
                    for (Object v : (Object[]) a.getArray()) {
                        values.add(((Number) v).doubleValue());
                    }
                }
                OffsetDateTime ended = r.getObject(9, OffsetDateTime.class);
                TrialRecord t = new TrialRecord(r.getInt(1), r.getLong(2), parameters(r.getString(3)), TrialState.valueOf(r.getString(4)), values,
                        TrialRecord.noIntermediate(), r.getBoolean(10), r.getString(6), r.getString(7), r.getObject(8, OffsetDateTime.class).toInstant(),
                        ended == null ? null : ended.toInstant());
                index.put(t.number(), out.size());
                out.add(t);
            }
        }
        if (out.isEmpty()) {
            return out;
        }
        Integer[] numbers = index.keySet().toArray(Integer[]::new);
        try (PreparedStatement p = prepare("SELECT number, step, value FROM tunekit_intermediate WHERE study_id = ? AND number = ANY (?)"
                + " ORDER BY number, step", studyId, db.createArrayOf("int4", numbers)); ResultSet r = query(p)) {
            while (r.next()) {
                int i = index.get(r.getInt(1));
                out.set(i, out.get(i).withIntermediate(r.getLong(2), r.getDouble(3)));
            }
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Parameters parameters(String json) {
        return Parameters.of((Map<String, Object>) Json.parse(json));
    }

    private static OffsetDateTime time(Instant i) {
        return OffsetDateTime.ofInstant(i, ZoneOffset.UTC);
    }

    private PreparedStatement prepare(String sql, Object... args) throws SQLException {
        PreparedStatement p = db.prepareStatement(sql);
        try {
            for (int i = 0; i < args.length; i++) {
                p.setObject(i + 1, args[i]);
            }
            return p;
        } catch (SQLException e) {
            p.close();
            throw e;
        }
    }

    private ResultSet query(PreparedStatement p) throws SQLException {
        ResultSet r = p.executeQuery();
        statements++;
        return r;
    }

    /** The first row's numbers of a query (or of a statement returning a row). */
    private long[] longs(String sql, Object... args) throws SQLException {
        try (PreparedStatement p = prepare(sql, args); ResultSet r = query(p)) {
            if (!r.next()) {
                throw new StudyException("study '" + definition.name() + "' is no longer in " + where);
            }
            long[] out = new long[r.getMetaData().getColumnCount()];
            for (int i = 0; i < out.length; i++) {
                out[i] = r.getLong(i + 1);
            }
            return out;
        }
    }

    private Void update(String sql, Object... args) throws SQLException {
        try (PreparedStatement p = prepare(sql, args)) {
            p.execute();
            statements++;
        }
        return null;
    }

    private static void rollbackQuietly(Connection c) {
        try {
            c.rollback();
        } catch (SQLException ignored) {
            // the connection is broken: the transaction did not commit
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
