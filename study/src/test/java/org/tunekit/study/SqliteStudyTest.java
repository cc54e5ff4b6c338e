package org.tunekit.study;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.space.SearchSpace;

/** A study kept in an experiment folder's experiment.db: what is told is stored, and a loaded study goes on where it stopped. */
class SqliteStudyTest {
    static final SearchSpace SPACE = SearchSpace.builder().uniform("x", -5, 5).loguniform("lr", 1e-5, 1e-1).choice("act", "relu", "tanh").build();

    @TempDir
    Path dir;

    static double f(Parameters p) {
        double lr = Math.log10(p.getDouble("lr")) + 3;
        return p.getDouble("x") * p.getDouble("x") + lr * lr + ("relu".equals(p.get("act")) ? 0 : 0.5);
    }

    private StudyBuilder builder() {
        return Study.named("stored").space(SPACE).tuner("TPE", Map.of("tpe_args", Map.of("n_startup_jobs", 5L))).seed(11).minimize()
                .storage(Storage.sqlite(dir));
    }

    @Test
    void aLoadedStudySuggestsWhatAnUninterruptedOneWouldHave() {
        List<Parameters> uninterrupted = new ArrayList<>();
        try (Study study = Study.named("stored").space(SPACE).tuner("TPE", Map.of("tpe_args", Map.of("n_startup_jobs", 5L))).seed(11).minimize()
                .open()) {
            for (int i = 0; i < 16; i++) {
                Trial t = study.ask();
                uninterrupted.add(t.parameters());
                study.tell(t, f(t.parameters()));
            }
        }
        List<Parameters> resumed = new ArrayList<>();
        try (Study study = builder().open()) {
            for (int i = 0; i < 10; i++) {
                Trial t = study.ask();
                resumed.add(t.parameters());
                study.tell(t, f(t.parameters()));
            }
        }
        try (Study study = Study.load("stored", Storage.sqlite(dir))) {
            assertThat(study.trials()).hasSize(10);
            for (int i = 10; i < 16; i++) {
                Trial t = study.ask();
                assertThat(t.parameterId()).isEqualTo(i);
                resumed.add(t.parameters());
                study.tell(t, f(t.parameters()));
            }
        }
        assertThat(resumed).containsExactlyElementsOf(uninterrupted);
    }

    @Test
    void everythingToldIsStoredAndReadBack() {
        try (Study study = builder().assessor("Medianstop", Map.of("start_step", 2L)).open()) {
            study.enqueue(Map.of("x", 0.5, "lr", 1e-3, "act", "tanh"));
            Trial a = study.ask();
            a.report(1, 3.0);
            a.report(2, 2.5);
            study.tell(a, 2.0);
            Trial b = study.ask();
            study.fail(b, new IllegalStateException("diverged"));
            Trial c = study.ask();
            c.report(1, 9.0);
            study.prune(c);
            Trial d = study.ask();
            d.report(1, 1.0);
            assertThatThrownBy(() -> d.report(1, 2.0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("steps must grow");
            assertThatThrownBy(() -> d.report(2, Double.NaN)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("finite");
        }
        try (Study study = Study.load("stored", Storage.sqlite(dir))) {
            List<TrialRecord> trials = study.trials();
            assertThat(trials).extracting(TrialRecord::state).containsExactly(TrialState.SUCCEEDED, TrialState.FAILED, TrialState.EARLY_STOPPED,
                    TrialState.FAILED);
            assertThat(trials.get(0).enqueued()).isTrue();
            assertThat(trials.get(0).parameters().values()).isEqualTo(Map.of("x", 0.5, "lr", 1e-3, "act", "tanh"));
            assertThat(trials.get(0).values()).containsExactly(2.0);
            assertThat(trials.get(0).intermediate()).containsExactly(Map.entry(1L, 3.0), Map.entry(2L, 2.5));
            assertThat(trials.get(1).message()).contains("IllegalStateException: diverged");
            assertThat(trials.get(2).intermediate()).containsExactly(Map.entry(1L, 9.0));
            assertThat(trials.get(3).message()).contains("closed before the trial was told");
            assertThat(trials.get(3).intermediate()).containsExactly(Map.entry(1L, 1.0));
            assertThat(study.bestTrial().number()).isZero();
            assertThat(study.ask().parameterId()).isEqualTo(4);
        }
    }

    @Test
    void aStudyIsCreatedOnceAndLoadedOnlyWithItsOwnDefinition() {
        builder().open().close();
        assertThatThrownBy(() -> builder().open()).isInstanceOf(StudyException.class).hasMessageContaining("already holds a study")
                .hasMessageContaining("loadIfExists");
        builder().loadIfExists().open().close();
        // whole numbers given as int read back as long: still the same definition
        builder().tuner("TPE", Map.of("tpe_args", Map.of("n_startup_jobs", 5))).loadIfExists().open().close();
        assertThatThrownBy(() -> builder().tuner("Random").loadIfExists().open()).isInstanceOf(StudyException.class)
                .hasMessageContaining("another definition").hasMessageContaining("tuner TPE");
        assertThatThrownBy(() -> Study.load("other", Storage.sqlite(dir))).isInstanceOf(StudyException.class)
                .hasMessageContaining("holds the study 'stored', not 'other'");
        assertThatThrownBy(() -> Study.load("stored", Storage.sqlite(dir.resolve("nothing")))).isInstanceOf(StudyException.class)
                .hasMessageContaining("no study in");
    }

    @Test
    void aRunsExperimentFolderIsNotTakenForAStudy() throws Exception {
        try (var c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("experiment.db")); var s = c.createStatement()) {
            org.tunekit.experimentdb.ExperimentTables.create(s);
            s.executeUpdate("INSERT INTO experiment (id, schema, name, config, options, maximize, status, started_ms)"
                    + " VALUES ('abc', 3, 'run', '{}', '{}', 0, 'DONE', 0)");
        }
        assertThatThrownBy(() -> builder().loadIfExists().open()).isInstanceOf(StudyException.class)
                .hasMessageContaining("an experiment of tunekit run, not a study");
        assertThat(Files.size(dir.resolve("experiment.db"))).isPositive();
    }
}
