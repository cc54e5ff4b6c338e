package org.tunekit.nni;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Resume and view find a stopped experiment and read its config from the manager's database. */
class StoredExperimentTest {
    @TempDir
    Path tmp;

    private void database(Path experiments, String id, String... paramsByRevision) throws Exception {
        Path db = Files.createDirectories(experiments.resolve(id).resolve("db")).resolve("nni.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
            // the manager's table (ts/nni_manager/core/sqlDatabase.ts)
            st.execute("create table ExperimentProfile (params text, id text, execDuration integer, startTime integer, endTime integer, "
                    + "logDir text, nextSequenceId integer, revision integer)");
            for (int rev = 0; rev < paramsByRevision.length; rev++) {
                try (PreparedStatement p = c.prepareStatement("insert into ExperimentProfile values (?,?,0,0,null,?,0,?)")) {
                    p.setString(1, paramsByRevision[rev]);
                    p.setString(2, id);
                    p.setString(3, experiments.resolve(id).toString());
                    p.setInt(4, rev);
                    p.execute();
                }
            }
        }
    }

    @Test
    void theNewestRevisionOfAStoppedExperimentsConfigIsRead() throws Exception {
        Path experiments = tmp.resolve("exps");
        database(experiments, "ab12cd34", "{\"trialConcurrency\": 1, \"trainingService\": {\"platform\": \"local\"}}",
                "{\"experimentName\": \"m\", \"trialConcurrency\": 2, \"logLevel\": \"debug\", \"trainingService\": {\"platform\": \"remote\"}}");
        ExperimentRegistry registry = new ExperimentRegistry(tmp.resolve("home/nni-experiments"));
        registry.put(ExperimentRegistry.entry("ab12cd34", 8080, 1L, "local", "m", Long.MAX_VALUE, experiments, null));

        StoredExperiment s = StoredExperiment.find("ab12cd34", null, registry, "resumed");
        assertThat(s.experimentsDir()).isEqualTo(experiments);
        assertThat(s.config()).containsEntry("trialConcurrency", 2L);
        assertThat(s.mode()).isEqualTo("remote");
        assertThat(s.logLevel()).isEqualTo("debug");
        assertThat(s.experimentName()).isEqualTo("m");
        assertThat(registry.read().get("ab12cd34")).as("its manager is gone").containsEntry("status", "STOPPED");

        assertThat(StoredExperiment.find("ab12cd34", experiments, new ExperimentRegistry(tmp.resolve("elsewhere")), "viewed").mode())
                .isEqualTo("remote");
    }

    @Test
    void aRunningOrUnknownExperimentIsRefused() throws Exception {
        ExperimentRegistry registry = new ExperimentRegistry(tmp.resolve("home/nni-experiments"));
        registry.put(ExperimentRegistry.entry("running1", 8080, 1L, "local", null, ProcessHandle.current().pid(), tmp, null));
        assertThatThrownBy(() -> StoredExperiment.find("running1", null, registry, "resumed")).isInstanceOf(LaunchException.class)
                .hasMessageContaining("is not stopped (status INITIALIZED, port 8080)").hasMessageContaining("tunekit nni stop running1");
        assertThatThrownBy(() -> StoredExperiment.find("nothere1", null, registry, "resumed")).isInstanceOf(LaunchException.class)
                .hasMessageContaining("no experiment nothere1 in").hasMessageContaining("--experiment-dir");
        assertThatThrownBy(() -> StoredExperiment.find("nothere1", tmp, registry, "viewed")).isInstanceOf(LaunchException.class)
                .hasMessageContaining("has no database at " + tmp.resolve("nothere1/db/nni.sqlite"));
    }
}
