package org.tunekit.dispatcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointStoreTest {
    @TempDir
    Path root;

    private static Checkpoints.CheckpointCall writing(String text) {
        return dir -> Files.writeString(dir.resolve("state.txt"), text);
    }

    @Test
    void eachSaveIsANewGenerationThatTheLinkNamesOnceComplete() throws Exception {
        CheckpointStore store = new CheckpointStore(root);
        assertThat(store.current("tuner")).isNull();
        store.save("tuner", writing("one"), "{\"given\": []}");
        store.save("tuner", writing("two"), "{\"given\": [{\"x\": 1}]}");
        assertThat(Files.readString(store.current("tuner").resolve("state.txt"))).isEqualTo("two");
        assertThat(store.sidecar("tuner")).isEqualTo("{\"given\": [{\"x\": 1}]}");
        assertThat(Files.readSymbolicLink(root.resolve("tuner")).toString()).isEqualTo("tuner.2");
        try (var files = Files.list(root)) {
            assertThat(files.map(p -> p.getFileName().toString()).sorted()).containsExactly("tuner", "tuner.2", "tuner.2.json");
        }
    }

    @Test
    void aSaveThatDiesHalfwayLeavesThePreviousGenerationCurrentAndIsClearedLater() throws Exception {
        CheckpointStore store = new CheckpointStore(root);
        store.save("tuner", writing("good"), null);
        assertThatThrownBy(() -> store.save("tuner", dir -> {
            Files.writeString(dir.resolve("state.txt"), "half");
            throw new IllegalStateException("killed here");
        }, null)).hasMessage("killed here");
        assertThat(Files.readString(store.current("tuner").resolve("state.txt"))).isEqualTo("good");
        // a link the kill left behind unrenamed, as well
        Files.createSymbolicLink(root.resolve(".tuner.link-9"), Path.of("tuner.2"));
        store.save("tuner", writing("later"), null);
        assertThat(Files.readString(store.current("tuner").resolve("state.txt"))).isEqualTo("later");
        try (var files = Files.list(root)) {
            assertThat(files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("tuner.")).toList()).containsExactly("tuner.3");
        }
    }

    @Test
    void aPlainFolderFromAnEarlierVersionIsReadAndThenAdopted() throws Exception {
        Files.createDirectories(root.resolve("tuner"));
        Files.writeString(root.resolve("tuner").resolve("state.txt"), "old");
        CheckpointStore store = new CheckpointStore(root);
        assertThat(Files.readString(store.current("tuner").resolve("state.txt"))).isEqualTo("old");
        assertThat(store.sidecar("tuner")).isNull();
        store.save("tuner", writing("new"), null);
        assertThat(Files.isSymbolicLink(root.resolve("tuner"))).isTrue();
        assertThat(Files.readString(store.current("tuner").resolve("state.txt"))).isEqualTo("new");
    }

    @Test
    void idsAreReservedAheadInBlocksAndTheCleanStopRecordsTheExactNext() throws Exception {
        CheckpointStore store = new CheckpointStore(root);
        ParameterIds ids = new ParameterIds(store);
        assertThat(ids.take()).isZero();
        assertThat(store.reservedIds()).isEqualTo(ParameterIds.BLOCK);
        for (int i = 1; i < ParameterIds.BLOCK; i++) {
            ids.take();
        }
        assertThat(store.reservedIds()).isEqualTo(ParameterIds.BLOCK);
        assertThat(ids.take()).isEqualTo(ParameterIds.BLOCK);
        assertThat(store.reservedIds()).isEqualTo(2L * ParameterIds.BLOCK);

        // a crash now: a new dispatcher starts above every id handed out
        ParameterIds afterCrash = new ParameterIds(store);
        afterCrash.resume();
        assertThat(afterCrash.take()).isEqualTo(2L * ParameterIds.BLOCK);
        afterCrash.close();
        assertThat(store.reservedIds()).isEqualTo(2L * ParameterIds.BLOCK + 1);

        ParameterIds afterStop = new ParameterIds(store);
        afterStop.resume();
        afterStop.after(500);
        assertThat(afterStop.take()).isEqualTo(501);
    }

    @Test
    void aDamagedIdFileIsAnErrorThatNamesIt() throws Exception {
        Files.writeString(root.resolve(CheckpointStore.NEXT_ID), "lots");
        assertThatThrownBy(() -> new CheckpointStore(root).reservedIds()).hasMessageContaining("next-parameter-id does not hold a number");
    }
}
