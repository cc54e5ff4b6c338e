package org.tunekit.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.runner.manager.MetricStream;
import org.tunekit.runner.manager.StoredTrial;

class ExperimentStoreTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final String RECORD = "{\"parameter_id\": 0, \"parameters\": {\"x\": 1}}";

    @TempDir
    Path tmp;

    private ExperimentSpec spec() throws Exception {
        Path config = tmp.resolve("config.yml");
        java.nio.file.Files.writeString(config, RunnerFixture.config("sh t.sh", 2, 1, ""));
        return ExperimentSpec.load(config);
    }

    @Test
    void framesReadFromFilesAreCountedPerStreamWithTheMetricAndSurviveAReopen() throws Exception {
        try (ExperimentStore store = ExperimentStore.create(tmp, "exp", spec(), Map.of(), T0)) {
            store.trialStarted(0, "A", 0, RECORD, T0);
            store.trialStarted(1, "B", 1, RECORD, T0);
            store.metric("A", MetricStream.FILE, 0L, "PERIODICAL", 0, "1", 1, T0);
            store.metric("A", MetricStream.FILE, 0L, "PERIODICAL", 1, "2", 2, T0);
            store.frameRead("A", MetricStream.FILE);
            store.metric("A", MetricStream.OUTPUT, 0L, "FINAL", 0, "3", 3, T0);
            store.metric("B", MetricStream.LIVE, 1L, "FINAL", 0, "4", 4, T0);
            store.frameRead("B", MetricStream.LIVE);
        }
        try (ExperimentStore store = ExperimentStore.open(tmp, true)) {
            StoredTrial a = store.trials().get(0);
            StoredTrial b = store.trials().get(1);
            assertThat(a.framesRead(MetricStream.FILE)).isEqualTo(3);
            assertThat(a.framesRead(MetricStream.OUTPUT)).isEqualTo(1);
            assertThat(a.finalValue()).isEqualTo(3.0);
            assertThat(b.fileFrames() + b.outputFrames()).isZero();
            // the results carry the search space, which tells the report how a parameter reads
            assertThat(store.results().searchSpace()).isEqualTo(spec().searchSpace());
        }
    }

    @Test
    void aStoreWithoutFrameCountsIsReadAsNoneAndGainsThemWhenOpenedToWrite() throws Exception {
        try (ExperimentStore store = ExperimentStore.create(tmp, "exp", spec(), Map.of(), T0)) {
            store.trialStarted(0, "A", 0, RECORD, T0);
            store.trialPlaced("A", new org.tunekit.runner.manager.Placement("77", "this machine", null));
        }
        // as a store written by a version before frame counts (schema 2)
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + tmp.resolve(ExperimentStore.FILE)); Statement s = c.createStatement()) {
            s.executeUpdate("ALTER TABLE trials DROP COLUMN file_frames");
            s.executeUpdate("ALTER TABLE trials DROP COLUMN output_frames");
            s.executeUpdate("DROP TABLE requests");
            s.executeUpdate("UPDATE experiment SET schema = 2");
        }
        try (ExperimentStore store = ExperimentStore.open(tmp, true)) {
            assertThat(store.trials()).singleElement().satisfies(t -> {
                assertThat(t.handle()).isEqualTo("77");
                assertThat(t.fileFrames()).isZero();
            });
        }
        try (ExperimentStore store = ExperimentStore.open(tmp, false)) {
            store.metric("A", MetricStream.FILE, 0L, "PERIODICAL", 0, "1", 1, T0);
            assertThat(store.trials().get(0).fileFrames()).isEqualTo(1);
            assertThat(store.requests(null)).isEmpty();
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + tmp.resolve(ExperimentStore.FILE)); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT schema FROM experiment")) {
            assertThat(r.getInt(1)).isEqualTo(3);
        }
    }
}
