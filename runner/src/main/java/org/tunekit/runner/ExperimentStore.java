package org.tunekit.runner;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tunekit.dispatcher.protocol.JsonCodec;
import org.tunekit.experimentdb.ExperimentTables;
import org.tunekit.dispatcher.protocol.Payloads;
import org.tunekit.dispatcher.protocol.ProtocolException;
import org.tunekit.runner.manager.Journal;
import org.tunekit.runner.manager.MetricStream;
import org.tunekit.runner.manager.Placement;
import org.tunekit.runner.manager.StoredTrial;
import org.tunekit.runner.results.ExperimentResults;
import org.tunekit.runner.results.TrialRecord;
import org.tunekit.runner.results.TrialStatus;

/**
 * The record of one experiment: an SQLite database ({@code experiment.db}) in its folder, written as
 * the run goes. Each call is one transaction, committed before it returns, in write-ahead-log mode
 * with full synchronisation: a result the runner acknowledged to a trial is on disk, and a kill of the
 * runner at any instant leaves the database as it was after the last call. Thread-safe (calls are
 * serialised); other processes may read it while it is written ({@code tunekit results}).
 */
final class ExperimentStore implements AutoCloseable, Journal {
    static final String FILE = ExperimentTables.FILE;
    private static final int SCHEMA = ExperimentTables.SCHEMA;

    /**
     * A request to steer the experiment, made by a person while it runs or before it resumes.
     *
     * @param id      its number, in the order made
     * @param kind    what it asks ({@link Steering})
     * @param payload its arguments, as JSON
     * @param state   WAITING, DONE or REFUSED
     * @param answer  what the runner answered, or {@code null} while it waits
     */
    record Request(long id, String kind, String payload, String state, String answer) {}

    private final Connection db;
    private final String id;
    /** The schema of the store's tables (older than {@link #SCHEMA} only when opened to read). */
    private final int schema;

    private ExperimentStore(Connection db, String id, int schema) {
        this.db = db;
        this.id = id;
        this.schema = schema;
    }

    /**
     * Creates the database of a new experiment. The parameter sets of the config's {@code warmStart} are
     * recorded in the same transaction as its first requests, {@code add-trial}s that {@link Steering} hands
     * to the manager before the tuner's first trial: they are made once, whenever the runner stops, and a
     * resumed run takes only those it had not answered.
     */
    static ExperimentStore create(Path dir, String id, ExperimentSpec spec, Map<String, Object> options, Instant now) {
        Path file = dir.resolve(FILE);
        if (Files.exists(file)) {
            throw new RunnerException("an experiment already exists in " + dir);
        }
        Connection c = connect(file, false);
        try (Statement s = c.createStatement()) {
            s.executeUpdate("PRAGMA journal_mode=WAL");
            c.setAutoCommit(false);
            ExperimentTables.create(s);
            try (PreparedStatement p = c.prepareStatement("INSERT INTO experiment (id, schema, name, config, config_file, options, maximize,"
                    + " status, started_ms) VALUES (?, ?, ?, ?, ?, ?, ?, 'RUNNING', ?)")) {
                p.setString(1, id);
                p.setInt(2, SCHEMA);
                p.setString(3, spec.name());
                p.setString(4, spec.toJson());
                p.setString(5, spec.configFile() == null ? null : spec.configFile().toString());
                p.setString(6, JsonCodec.write(options));
                p.setInt(7, spec.maximize() ? 1 : 0);
                p.setLong(8, now.toEpochMilli());
                p.executeUpdate();
            }
            try (PreparedStatement p = c.prepareStatement("INSERT INTO requests (time_ms, kind, payload) VALUES (?, ?, ?)")) {
                for (int i = 0; i < spec.warmStart().size(); i++) {
                    bind(p, now.toEpochMilli(), Steering.ADD_TRIAL, Steering.addTrialPayload(spec.warmStart().get(i),
                            ExperimentSpec.WARM_START + "[" + i + "]"));
                    p.executeUpdate();
                }
            }
            c.commit();
            return new ExperimentStore(c, id, SCHEMA);
        } catch (SQLException e) {
            close(c);
            throw new RunnerException("cannot create the experiment database " + file + ": " + e.getMessage(), e);
        }
    }

    /** Opens an existing experiment's database, to continue it ({@code readOnly} false) or to read it. */
    static ExperimentStore open(Path dir, boolean readOnly) {
        Path file = dir.resolve(FILE);
        if (!Files.isRegularFile(file)) {
            throw new RunnerException("no experiment in " + dir + " (" + FILE + " is missing)");
        }
        Connection c = connect(file, readOnly);
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT id, schema FROM experiment")) {
            if (!r.next()) {
                throw new RunnerException(file + " holds no experiment");
            }
            if (r.getInt(2) > SCHEMA) {
                throw new RunnerException(file + " was written by a newer Tunekit (schema " + r.getInt(2) + ", this one reads " + SCHEMA + ")");
            }
            String id = r.getString(1);
            int schema = r.getInt(2);
            r.close();
            if (schema < SCHEMA && !readOnly) {
                c.setAutoCommit(false);
                ExperimentTables.upgrade(s, schema);
                c.commit();
                schema = SCHEMA;
            }
            c.setAutoCommit(false);
            return new ExperimentStore(c, id, schema);
        } catch (SQLException e) {
            close(c);
            throw new RunnerException("cannot read the experiment database " + file + ": " + e.getMessage(), e);
        }
    }

    private static Connection connect(Path file, boolean readOnly) {
        try {
            org.sqlite.SQLiteConfig config = new org.sqlite.SQLiteConfig();
            config.setSynchronous(org.sqlite.SQLiteConfig.SynchronousMode.FULL);
            config.setBusyTimeout(10_000);
            config.setReadOnly(readOnly);
            config.enforceForeignKeys(true);
            return DriverManager.getConnection("jdbc:sqlite:" + file, config.toProperties());
        } catch (SQLException e) {
            throw new RunnerException("cannot open " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String id() {
        return id;
    }

    synchronized ExperimentSpec spec() {
        return ExperimentSpec.fromJson(queryString("SELECT config FROM experiment"));
    }

    /** The tuner's (or advisor's) {@code objectives} class argument as configured, or empty. */
    synchronized List<Map<String, Object>> objectives() {
        return objectives(spec());
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> objectives(ExperimentSpec spec) {
        for (String kind : List.of("tuner", "advisor")) {
            if (spec.algorithms().get(kind) instanceof Map<?, ?> entry && entry.get("classArgs") instanceof Map<?, ?> args
                    && args.get("objectives") instanceof List<?> list && list.stream().allMatch(o -> o instanceof Map)) {
                return (List<Map<String, Object>>) list;
            }
        }
        return List.of();
    }

    @SuppressWarnings("unchecked")
    synchronized Map<String, Object> options() {
        try {
            return (Map<String, Object>) JsonCodec.parse(queryString("SELECT options FROM experiment"), "stored options");
        } catch (ProtocolException e) {
            throw new RunnerException("the stored options are damaged: " + e.getMessage(), e);
        }
    }

    synchronized String status() {
        return queryString("SELECT status FROM experiment");
    }

    @Override
    public synchronized void setStatus(String status, Instant ended) {
        update("UPDATE experiment SET status = ?, ended_ms = ?", status, ended == null ? null : ended.toEpochMilli());
    }

    @Override
    public synchronized void trialStarted(int sequence, String jobId, long parameterId, String parameterRecord, Instant at) {
        update("INSERT INTO trials (job_id, sequence, parameter_id, parameter_record, status, started_ms) VALUES (?, ?, ?, ?, 'RUNNING', ?)",
                jobId, sequence, parameterId, parameterRecord, at.toEpochMilli());
    }

    /** Records where a trial runs, so that a resumed run can find it again. */
    @Override
    public synchronized void trialPlaced(String jobId, Placement placement) {
        update("UPDATE trials SET handle = ?, machine = ?, gpus = ? WHERE job_id = ?", placement.handle(), placement.machine(),
                placement.gpuText(), jobId);
    }

    /** Records a metric; a final one also becomes the trial's final result. One read from a file is counted, in the same transaction. */
    @Override
    public synchronized void metric(String jobId, MetricStream from, Long parameterId, String type, int sequence, String valueText, double number,
                                    Instant at) {
        try {
            countFrame(jobId, from);
            try (PreparedStatement p = db.prepareStatement("INSERT INTO metrics (job_id, parameter_id, type, sequence, value, value_number,"
                    + " time_ms) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
                bind(p, jobId, parameterId, type, sequence, valueText, Double.isNaN(number) ? null : number, at.toEpochMilli());
                p.executeUpdate();
            }
            if ("FINAL".equals(type)) {
                try (PreparedStatement p = db.prepareStatement("UPDATE trials SET final_metric = ?, final_value = ? WHERE job_id = ?")) {
                    bind(p, valueText, Double.isNaN(number) ? null : number, jobId);
                    p.executeUpdate();
                }
            }
            db.commit();
        } catch (SQLException e) {
            rollback();
            throw new RunnerException("cannot record a metric of trial " + jobId + ": " + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void frameRead(String jobId, MetricStream from) {
        try {
            countFrame(jobId, from);
            db.commit();
        } catch (SQLException e) {
            rollback();
            throw new RunnerException("cannot count a frame of trial " + jobId + ": " + e.getMessage(), e);
        }
    }

    private void countFrame(String jobId, MetricStream from) throws SQLException {
        String column = switch (from) {
            case LIVE -> null;
            case FILE -> "file_frames";
            case OUTPUT -> "output_frames";
        };
        if (column != null) {
            try (PreparedStatement p = db.prepareStatement("UPDATE trials SET " + column + " = " + column + " + 1 WHERE job_id = ?")) {
                p.setString(1, jobId);
                p.executeUpdate();
            }
        }
    }

    /**
     * Records a request in the store of the experiment in {@code dir} (from another process than its
     * runner, or from the runner's own dashboard), and returns its id.
     */
    static long request(Path dir, String kind, String payload, Instant at) {
        try (ExperimentStore store = open(dir, false)) {
            return store.addRequest(kind, payload, at);
        }
    }

    synchronized long addRequest(String kind, String payload, Instant at) {
        try (PreparedStatement p = db.prepareStatement("INSERT INTO requests (time_ms, kind, payload) VALUES (?, ?, ?)",
                Statement.RETURN_GENERATED_KEYS)) {
            bind(p, at.toEpochMilli(), kind, payload);
            p.executeUpdate();
            long n;
            try (ResultSet keys = p.getGeneratedKeys()) {
                keys.next();
                n = keys.getLong(1);
            }
            db.commit();
            return n;
        } catch (SQLException e) {
            rollback();
            throw new RunnerException("cannot record the request: " + e.getMessage(), e);
        }
    }

    /** The requests in {@code state} (all when {@code null}), in the order made; none in a store older than schema 3. */
    synchronized List<Request> requests(String state) {
        List<Request> out = new ArrayList<>();
        if (schema < 3) {
            return out;
        }
        try (PreparedStatement p = db.prepareStatement("SELECT id, kind, payload, state, answer FROM requests"
                + (state == null ? "" : " WHERE state = ?") + " ORDER BY id")) {
            if (state != null) {
                p.setString(1, state);
            }
            try (ResultSet r = p.executeQuery()) {
                while (r.next()) {
                    out.add(new Request(r.getLong(1), r.getString(2), r.getString(3), r.getString(4), r.getString(5)));
                }
            }
            db.commit();
            return out;
        } catch (SQLException e) {
            rollback();
            throw new RunnerException("cannot read the requests: " + e.getMessage(), e);
        }
    }

    /** Records the runner's answer to a request: DONE or REFUSED, and what it said. */
    synchronized void answerRequest(long requestId, String state, String answer, Instant at) {
        update("UPDATE requests SET state = ?, answer = ?, answered_ms = ? WHERE id = ?", state, answer, at.toEpochMilli(), requestId);
    }

    @Override
    public synchronized void trialEnded(String jobId, TrialStatus status, Integer exitCode, String message, Instant at) {
        update("UPDATE trials SET status = ?, exit_code = ?, message = ?, ended_ms = ? WHERE job_id = ?",
                status.name(), exitCode, message, at.toEpochMilli(), jobId);
    }

    @Override
    public synchronized void event(String kind, String jobId, String text, Instant at) {
        update("INSERT INTO events (time_ms, kind, job_id, text) VALUES (?, ?, ?, ?)", at.toEpochMilli(), kind, jobId, text);
    }

    /** Every trial, in order of sequence. */
    @Override
    public synchronized List<StoredTrial> trials() {
        List<StoredTrial> out = new ArrayList<>();
        String placement = schema >= 2 ? "handle, gpus" : "CAST(pid AS TEXT), NULL";
        String frames = schema >= 3 ? "file_frames, output_frames" : "0, 0";
        try (Statement s = db.createStatement(); ResultSet r = s.executeQuery("SELECT sequence, job_id, parameter_id, parameter_record, status,"
                + " final_metric, final_value, " + placement + ", started_ms, " + frames + " FROM trials ORDER BY sequence")) {
            while (r.next()) {
                double v = r.getDouble(7);
                Double value = r.wasNull() ? null : v;
                out.add(new StoredTrial(r.getInt(1), r.getString(2), r.getLong(3), r.getString(4), TrialStatus.valueOf(r.getString(5)),
                        r.getString(6), value, r.getString(8), gpus(r.getString(9)), Instant.ofEpochMilli(r.getLong(10)),
                        r.getInt(11), r.getInt(12)));
            }
            db.commit();
            return out;
        } catch (SQLException e) {
            rollback();
            throw new RunnerException("cannot read the trials: " + e.getMessage(), e);
        }
    }

    /** GPU indices as stored ("0,2"; "" for none), or {@code null}. */
    static List<Integer> gpus(String text) {
        if (text == null) {
            return null;
        }
        return text.isEmpty() ? List.of() : java.util.Arrays.stream(text.split(",")).map(Integer::valueOf).toList();
    }

    /** Everything recorded, as the results model. */
    synchronized ExperimentResults results() {
        try {
            String name;
            boolean maximize;
            String status;
            Instant started;
            Instant ended;
            try (Statement s = db.createStatement(); ResultSet r = s.executeQuery("SELECT name, maximize, status, started_ms, ended_ms FROM experiment")) {
                r.next();
                name = r.getString(1);
                maximize = r.getInt(2) != 0;
                status = r.getString(3);
                started = Instant.ofEpochMilli(r.getLong(4));
                long e = r.getLong(5);
                ended = r.wasNull() ? null : Instant.ofEpochMilli(e);
            }
            Map<String, List<Double>> curves = new HashMap<>();
            try (Statement s = db.createStatement(); ResultSet r = s.executeQuery(
                    "SELECT job_id, value_number FROM metrics WHERE type = 'PERIODICAL' ORDER BY job_id, sequence, id")) {
                while (r.next()) {
                    double v = r.getDouble(2);
                    curves.computeIfAbsent(r.getString(1), k -> new ArrayList<>()).add(r.wasNull() ? Double.NaN : v);
                }
            }
            List<TrialRecord> trials = new ArrayList<>();
            try (Statement s = db.createStatement(); ResultSet r = s.executeQuery("SELECT sequence, job_id, parameter_id, parameter_record,"
                    + " status, final_metric, final_value, started_ms, ended_ms, exit_code, message, " + (schema >= 2 ? "gpus" : "NULL")
                    + " FROM trials ORDER BY sequence")) {
                while (r.next()) {
                    String job = r.getString(2);
                    String finalText = r.getString(6);
                    double fv = r.getDouble(7);
                    Double finalValue = fv;
                    if (r.wasNull()) {
                        finalValue = finalText == null ? null : Double.valueOf(Double.NaN);
                    }
                    long endMs = r.getLong(9);
                    Instant end = r.wasNull() ? null : Instant.ofEpochMilli(endMs);
                    int exit = r.getInt(10);
                    Integer exitCode = r.wasNull() ? null : exit;
                    trials.add(new TrialRecord(r.getInt(1), job, r.getLong(3), org.tunekit.runner.manager.ExperimentManager.parametersOf(r.getString(4)), TrialStatus.valueOf(r.getString(5)),
                            finalValue, finalText == null ? null : metricOf(finalText), curves.getOrDefault(job, List.of()),
                            Instant.ofEpochMilli(r.getLong(8)), end, exitCode, r.getString(11), gpus(r.getString(12))));
                }
            }
            db.commit();
            ExperimentSpec spec = spec();
            return new ExperimentResults(id, name, maximize, started, ended, status, trials, objectives(spec), spec.searchSpace());
        } catch (SQLException e) {
            rollback();
            throw new RunnerException("cannot read the results: " + e.getMessage(), e);
        }
    }

    static Object metricOf(String text) {
        try {
            return Payloads.metricText(text, "a stored metric");
        } catch (ProtocolException e) {
            return text;
        }
    }

    /** The schema of the store's tables. */
    int schema() {
        return schema;
    }

    /** Runs a query on the store's connection, as one transaction. */
    synchronized <T> T read(ExperimentReader.Query<T> query) {
        try {
            T v = query.run(db);
            db.commit();
            return v;
        } catch (SQLException e) {
            rollback();
            throw new RunnerException("cannot read the experiment database: " + e.getMessage(), e);
        }
    }

    private String queryString(String sql) {
        try (Statement s = db.createStatement(); ResultSet r = s.executeQuery(sql)) {
            String v = r.next() ? r.getString(1) : null;
            db.commit();
            return v;
        } catch (SQLException e) {
            rollback();
            throw new RunnerException("cannot read the experiment database: " + e.getMessage(), e);
        }
    }

    private void update(String sql, Object... args) {
        try (PreparedStatement p = db.prepareStatement(sql)) {
            bind(p, args);
            p.executeUpdate();
            db.commit();
        } catch (SQLException e) {
            rollback();
            throw new RunnerException("cannot write the experiment database: " + e.getMessage(), e);
        }
    }

    private static void bind(PreparedStatement p, Object... args) throws SQLException {
        for (int i = 0; i < args.length; i++) {
            Object a = args[i];
            if (a == null) {
                p.setNull(i + 1, Types.NULL);
            } else if (a instanceof String s) {
                p.setString(i + 1, s);
            } else if (a instanceof Integer n) {
                p.setInt(i + 1, n);
            } else if (a instanceof Long n) {
                p.setLong(i + 1, n);
            } else if (a instanceof Double d) {
                p.setDouble(i + 1, d);
            } else {
                throw new IllegalArgumentException("cannot bind " + a.getClass());
            }
        }
    }

    private void rollback() {
        try {
            db.rollback();
        } catch (SQLException ignored) {
            // the connection is broken; the caller reports the first failure
        }
    }

    @Override
    public synchronized void close() {
        close(db);
    }

    private static void close(Connection c) {
        try {
            c.close();
        } catch (SQLException ignored) {
            // closing a broken connection: nothing more to do
        }
    }
}
