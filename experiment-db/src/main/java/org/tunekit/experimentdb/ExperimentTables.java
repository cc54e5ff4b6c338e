package org.tunekit.experimentdb;

import java.sql.SQLException;
import java.sql.Statement;

/**
 * The tables of an experiment's database ({@value #FILE} in its folder), whoever writes it: {@code tunekit run}
 * or a study of the library. {@code tunekit results} and the dashboard read any of them the same way.
 *
 * <ul>
 *   <li>{@code experiment}: one row, the experiment's id, {@link #SCHEMA schema}, name, config (JSON, as
 *       NNI's reader normalises it), options (JSON), direction, status and times;
 *   <li>{@code trials}: one row per trial, keyed by its job id, numbered by {@code sequence} from 0, with its
 *       parameter id and parameter record (NNI's JSON), status, times, final metric (JSON) and value;
 *   <li>{@code metrics}: every metric a trial reported ({@code PERIODICAL} or {@code FINAL}, JSON and number);
 *   <li>{@code events}: what happened, in order; {@code requests}: requests that steer a running experiment.
 * </ul>
 *
 * <p>Times are milliseconds since the epoch.
 */
public final class ExperimentTables {
    /** The database's file name in the experiment's folder. */
    public static final String FILE = "experiment.db";

    /**
     * The schema this version writes. 2: trials have the handle, machine and GPUs of their placement; 3: and
     * the count of frames the manager handled from their metrics file and their output, and the store has the
     * requests that steer the experiment.
     */
    public static final int SCHEMA = 3;

    private static final String REQUESTS = "CREATE TABLE requests (id INTEGER PRIMARY KEY AUTOINCREMENT, time_ms INTEGER NOT NULL,"
            + " kind TEXT NOT NULL, payload TEXT NOT NULL, state TEXT NOT NULL DEFAULT 'WAITING', answer TEXT, answered_ms INTEGER)";

    private ExperimentTables() {}

    /** Creates the tables, empty, in the statement's database (inside the caller's transaction). */
    public static void create(Statement s) throws SQLException {
        s.executeUpdate("CREATE TABLE experiment (id TEXT PRIMARY KEY, schema INTEGER NOT NULL, name TEXT, config TEXT NOT NULL,"
                + " config_file TEXT, options TEXT NOT NULL, maximize INTEGER NOT NULL, status TEXT NOT NULL,"
                + " started_ms INTEGER NOT NULL, ended_ms INTEGER)");
        s.executeUpdate("CREATE TABLE trials (job_id TEXT PRIMARY KEY, sequence INTEGER NOT NULL UNIQUE, parameter_id INTEGER NOT NULL,"
                + " parameter_record TEXT NOT NULL, status TEXT NOT NULL, started_ms INTEGER NOT NULL, ended_ms INTEGER,"
                + " exit_code INTEGER, message TEXT, final_metric TEXT, final_value REAL, pid INTEGER, handle TEXT, machine TEXT, gpus TEXT,"
                + " file_frames INTEGER NOT NULL DEFAULT 0, output_frames INTEGER NOT NULL DEFAULT 0)");
        s.executeUpdate("CREATE TABLE metrics (id INTEGER PRIMARY KEY AUTOINCREMENT, job_id TEXT NOT NULL, parameter_id INTEGER,"
                + " type TEXT NOT NULL, sequence INTEGER NOT NULL, value TEXT NOT NULL, value_number REAL, time_ms INTEGER NOT NULL)");
        s.executeUpdate("CREATE INDEX metrics_by_trial ON metrics (job_id, type, sequence)");
        s.executeUpdate("CREATE TABLE events (id INTEGER PRIMARY KEY AUTOINCREMENT, time_ms INTEGER NOT NULL, kind TEXT NOT NULL,"
                + " job_id TEXT, text TEXT NOT NULL)");
        s.executeUpdate(REQUESTS);
    }

    /**
     * Brings tables of an older {@code schema} to {@link #SCHEMA} (inside the caller's transaction): adds the
     * columns and tables the later schemas have, and records the new schema in {@code experiment}.
     */
    public static void upgrade(Statement s, int schema) throws SQLException {
        if (schema < 2) {
            s.executeUpdate("ALTER TABLE trials ADD COLUMN handle TEXT");
            s.executeUpdate("ALTER TABLE trials ADD COLUMN machine TEXT");
            s.executeUpdate("ALTER TABLE trials ADD COLUMN gpus TEXT");
            s.executeUpdate("UPDATE trials SET handle = CAST(pid AS TEXT) WHERE pid IS NOT NULL");
        }
        if (schema < 3) {
            s.executeUpdate("ALTER TABLE trials ADD COLUMN file_frames INTEGER NOT NULL DEFAULT 0");
            s.executeUpdate("ALTER TABLE trials ADD COLUMN output_frames INTEGER NOT NULL DEFAULT 0");
            s.executeUpdate(REQUESTS.replace("CREATE TABLE", "CREATE TABLE IF NOT EXISTS"));
        }
        s.executeUpdate("UPDATE experiment SET schema = " + SCHEMA);
    }
}
