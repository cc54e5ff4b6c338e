package org.tunekit.nni;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The entries of {@code ~/nni-experiments/.experiment}, byte for byte as nnictl writes them. */
class ExperimentRegistryTest {
    @TempDir
    Path dir;

    /**
     * What NNI 3.0's {@code Experiments(dir).add_experiment(...)} writes for these two calls (its
     * output, kept as the expected text): the entries in order, an indent of 4, no final newline.
     */
    private static final String NNICTL_WRITES = """
            {
                "ab12cd34": {
                    "id": "ab12cd34",
                    "port": 8080,
                    "startTime": 1700000000000,
                    "endTime": "N/A",
                    "status": "INITIALIZED",
                    "platform": "local",
                    "experimentName": "mnist",
                    "tag": [],
                    "pid": 4242,
                    "webuiUrl": [],
                    "logDir": "/home/u/nni-experiments",
                    "prefixUrl": null
                },
                "zz99yy88": {
                    "id": "zz99yy88",
                    "port": 8081,
                    "startTime": 1700000001000,
                    "endTime": "N/A",
                    "status": "INITIALIZED",
                    "platform": "remote",
                    "experimentName": null,
                    "tag": [],
                    "pid": 4343,
                    "webuiUrl": [],
                    "logDir": "/data/exps",
                    "prefixUrl": "nni"
                }
            }""";

    @Test
    void entriesAreWrittenAsNnictlWritesThem() throws IOException {
        ExperimentRegistry r = new ExperimentRegistry(dir.resolve("nni-experiments"));
        r.put(ExperimentRegistry.entry("ab12cd34", 8080, 1700000000000L, "local", "mnist", 4242, Path.of("/home/u/nni-experiments"), null));
        r.put(ExperimentRegistry.entry("zz99yy88", 8081, 1700000001000L, "remote", null, 4343, Path.of("/data/exps"), "nni"));
        assertThat(Files.readString(r.file())).isEqualTo(NNICTL_WRITES);
        assertThat(r.file()).isEqualTo(dir.resolve("nni-experiments/.experiment"));
        try (var files = Files.list(r.file().getParent())) {
            assertThat(files.map(p -> p.getFileName().toString())).as("no lock or temporary file left").containsExactly(".experiment");
        }
    }

    @Test
    void theManagersUpdatesAndOtherEntriesAreKept() throws IOException {
        ExperimentRegistry r = new ExperimentRegistry(dir);
        Files.writeString(r.file(), NNICTL_WRITES.replace("\"endTime\": \"N/A\",\n        \"status\": \"INITIALIZED\",\n        \"platform\": \"local\"",
                "\"endTime\": 1700000009000,\n        \"status\": \"DONE\",\n        \"platform\": \"local\""));
        r.put(ExperimentRegistry.entry("new00000", 9000, 5L, "local", "n", 1, dir, null));
        Map<String, Map<String, Object>> all = r.read();
        assertThat(all.keySet()).containsExactly("ab12cd34", "zz99yy88", "new00000");
        assertThat(all.get("ab12cd34")).containsEntry("status", "DONE").containsEntry("endTime", 1700000009000L).containsEntry("port", 8080L);
        r.set("zz99yy88", "status", "STOPPED");
        assertThat(r.read().get("zz99yy88")).containsEntry("status", "STOPPED");
    }

    @Test
    void experimentsWhoseManagerIsGoneAreMarkedStoppedAsNnictlDoes() throws IOException {
        ExperimentRegistry r = new ExperimentRegistry(dir);
        Files.writeString(r.file(), NNICTL_WRITES);
        r.markGoneAsStopped(pid -> pid == 4343);
        assertThat(r.read().get("ab12cd34")).containsEntry("status", "STOPPED");
        assertThat(r.read().get("zz99yy88")).containsEntry("status", "INITIALIZED");
        assertThat(ExperimentRegistry.running(r.read())).extracting(e -> e.get("id")).containsExactly("zz99yy88");
    }

    @Test
    void aFreshLockOfAnotherProcessIsWaitedForAndAStaleOneIgnored() throws Exception {
        ExperimentRegistry r = new ExperimentRegistry(dir);
        Path stale = dir.resolve(".experiment.lock.1");
        Files.createFile(stale);
        Files.setLastModifiedTime(stale, FileTime.from(Instant.now().minusSeconds(10)));
        r.put(ExperimentRegistry.entry("a0000000", 1, 1L, "local", null, 1, dir, null));
        assertThat(r.read()).containsKey("a0000000");

        Path fresh = dir.resolve(".experiment.lock.2");
        Files.createFile(fresh);
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> {
            try {
                r.put(ExperimentRegistry.entry("b0000000", 1, 1L, "local", null, 1, dir, null));
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        Thread.sleep(500);
        assertThat(writer).as("waits while another process holds the lock").isNotDone();
        Files.delete(fresh);
        writer.get(5, TimeUnit.SECONDS);
        assertThat(r.read()).containsKeys("a0000000", "b0000000");
    }

    @Test
    void anUnreadableListIsKeptAsideRatherThanLost() throws IOException {
        ExperimentRegistry r = new ExperimentRegistry(dir);
        Files.writeString(r.file(), "{not json");
        r.put(ExperimentRegistry.entry("c0000000", 1, 1L, "local", null, 1, dir, null));
        assertThat(Files.readString(dir.resolve(".experiment.unreadable"))).isEqualTo("{not json");
        assertThat(r.read()).containsOnlyKeys("c0000000");
    }
}
