package org.tunekit.study;

import org.junit.jupiter.api.BeforeEach;

/** Worker processes on one study in PostgreSQL (see {@link PostgresLab}): 4 JVMs of 2 threads, 400 trials; skipped without a server. */
class PostgresWorkersTest extends WorkerProcessesTest {
    @BeforeEach
    void lab() {
        PostgresLab.assume();
    }

    @Override
    String storageArgument(String study) {
        return PostgresLab.URL;
    }

    @Override
    Storage storage(String study) {
        return PostgresLab.storage();
    }

    @Override
    int workers() {
        return 4;
    }

    @Override
    int trialsEach() {
        return 100;
    }

    @Override
    void drop(String study) {
        PostgresLab.drop(study);
    }
}
