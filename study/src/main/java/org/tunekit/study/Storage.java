package org.tunekit.study;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where a study keeps its trials:
 *
 * <ul>
 *   <li>{@link #inMemory()}: in this program's memory, gone when it ends;
 *   <li>{@link #sqlite(Path)}: an experiment folder whose {@code experiment.db} has the tables a {@code tunekit run}
 *       writes, so that {@code tunekit results FOLDER} and {@code tunekit view FOLDER} show the study; several
 *       programs on one machine may share it;
 *   <li>{@link #postgres}: a PostgreSQL database, shared by workers in several programs on several machines, that
 *       holds any number of studies apart by name.
 * </ul>
 *
 * <p>A storage is a description: a study opens its own connection when it is created or loaded, and closes it
 * with the study.
 */
public abstract class Storage {

    /** How a study is opened. */
    enum Mode {
        /** Create it; it must not exist. */
        CREATE,
        /** Load it; it must exist. */
        LOAD,
        /** Load it if it exists (its definition must then be the same), else create it. */
        CREATE_OR_LOAD
    }

    Storage() {}

    /** Trials in memory. */
    public static Storage inMemory() {
        return new Storage() {
            @Override
            StudyStore open(String name, StudyDefinition definition, Mode mode) {
                if (mode == Mode.LOAD) {
                    throw new StudyException("no study '" + name + "' to load: a study in memory lives only as long as its Study");
                }
                return new MemoryStore(definition);
            }

            @Override
            public String toString() {
                return "in memory";
            }
        };
    }

    /** Trials in {@code folder/experiment.db} (the folder is made when missing), one study per folder. */
    public static Storage sqlite(Path folder) {
        Objects.requireNonNull(folder, "folder");
        return new Storage() {
            @Override
            StudyStore open(String name, StudyDefinition definition, Mode mode) {
                return SqliteStore.open(folder, name, definition, mode);
            }

            @Override
            public String toString() {
                return "SQLite in " + folder;
            }
        };
    }

    /**
     * Trials in a PostgreSQL database, shared by workers in any number of programs on any number of machines: each
     * opens the study by the same name (with {@link StudyBuilder#loadIfExists()}, so that whichever comes first creates
     * it) and they work on it together. Every parameter set is handed out once, every trial has its own number and
     * parameter id, and each worker's tuner learns every other's results. A worker that stops sending heartbeats
     * ({@link StudyBuilder#heartbeat}) has its running trials failed by the others, and run again with
     * {@link StudyBuilder#retryFailedTrials()}.
     *
     * <p>The database holds any number of studies, apart by name, in tables of its own ({@code tunekit_studies},
     * {@code tunekit_trials}, {@code tunekit_intermediate}, {@code tunekit_enqueued}, {@code tunekit_workers}), which
     * the first study to open adds when they are missing; the user needs the right to create them then, and to read
     * and write them after. Every call is one transaction: when the database cannot be reached or the connection
     * breaks, the call fails with a {@link StudyException} naming the database and what could not be done, nothing of
     * it is kept, and the next call connects again, so that a study outlives a restart of the server.
     *
     * @param jdbcUrl  the database, as the PostgreSQL JDBC driver names it ({@code jdbc:postgresql://host:5432/db}), with
     *                 any of its parameters ({@code ?sslmode=require}; the URL's parameters win over the other arguments)
     * @param user     the user to connect as, or {@code null} for the driver's default
     * @param password the user's password, or {@code null} (for example when the server trusts the host, or the URL has it)
     * @throws IllegalArgumentException when the URL is not a PostgreSQL JDBC URL
     */
    public static Storage postgres(String jdbcUrl, String user, String password) {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        if (!jdbcUrl.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException("not a PostgreSQL JDBC URL (jdbc:postgresql://host:port/database): " + PostgresStore.withoutParameters(jdbcUrl));
        }
        return new Storage() {
            @Override
            StudyStore open(String name, StudyDefinition definition, Mode mode) {
                return PostgresStore.open(jdbcUrl, user, password, name, definition, mode);
            }

            @Override
            public String toString() {
                return PostgresStore.describe(jdbcUrl);
            }
        };
    }

    /**
     * Opens the study {@code name}.
     *
     * @param definition the definition to create it with (and to compare with a stored one); {@code null} with {@link Mode#LOAD}
     * @throws StudyException when it cannot be opened in that mode, or a stored definition differs
     */
    abstract StudyStore open(String name, StudyDefinition definition, Mode mode);
}
