package org.tunekit.study;

import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Worker processes on one study in an experiment folder's SQLite database: 2 JVMs of 2 threads, 100 trials. */
class SqliteWorkersTest extends WorkerProcessesTest {
    @TempDir
    Path folders;

    @Override
    String storageArgument(String study) {
        return folders.resolve(study).toString();
    }

    @Override
    Storage storage(String study) {
        return Storage.sqlite(folders.resolve(study));
    }

    @Override
    int workers() {
        return 2;
    }

    @Override
    int trialsEach() {
        return 50;
    }

    @Override
    void drop(String study) {
        // the folder goes with the test's temporary directory
    }
}
