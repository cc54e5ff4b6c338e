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
     * Opens the study {@code name}.
     *
     * @param definition the definition to create it with (and to compare with a stored one); {@code null} with {@link Mode#LOAD}
     * @throws StudyException when it cannot be opened in that mode, or a stored definition differs
     */
    abstract StudyStore open(String name, StudyDefinition definition, Mode mode);
}
