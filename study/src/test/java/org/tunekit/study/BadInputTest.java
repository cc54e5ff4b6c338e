package org.tunekit.study;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.space.SearchSpace;

/** Bad input gets an error that names what is wrong, and nothing is stored half-way. */
class BadInputTest {
    static final SearchSpace SPACE = SearchSpace.builder().uniform("x", 0, 1).build();

    @TempDir
    Path dir;

    @Test
    void anUnknownTunerIsNamedWithWhatThereIs() {
        assertThatThrownBy(() -> Study.named("s").space(SPACE).tuner("TPEE").storage(Storage.sqlite(dir)).open())
                .isInstanceOf(StudyException.class).hasMessageContaining("no tuner named 'TPEE'").hasMessageContaining("GPTuner");
        assertThat(dir.resolve("experiment.db")).doesNotExist();
        assertThatThrownBy(() -> Study.named("s").space(SPACE).tuner("Hyperband").open()).isInstanceOf(StudyException.class)
                .hasMessageContaining("'Hyperband' is an advisor");
        assertThatThrownBy(() -> Study.named("s").space(SPACE).assessor("Medianstp").open()).isInstanceOf(StudyException.class)
                .hasMessageContaining("no assessor named 'Medianstp'").hasMessageContaining("Medianstop");
    }

    @Test
    void aBadClassArgumentIsNamed() {
        assertThatThrownBy(() -> Study.named("s").space(SPACE).tuner("TPE", Map.of("sede", 3L)).storage(Storage.sqlite(dir)).open())
                .isInstanceOf(StudyException.class).hasMessageContaining("tuner 'TPE'").hasMessageContaining("'sede'")
                .hasMessageContaining("did you mean 'seed'");
        assertThat(dir.resolve("experiment.db")).doesNotExist();
        assertThatThrownBy(() -> Study.named("s").space(SPACE).tuner("TPE", Map.of("optimize_mode", "maximize")).minimize().open())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("optimize_mode is maximize");
        assertThatThrownBy(() -> Study.named("s").space(SPACE).assessor("Medianstop", Map.of("start_step", "soon")).open())
                .isInstanceOf(StudyException.class).hasMessageContaining("assessor 'Medianstop'").hasMessageContaining("start_step");
    }

    @Test
    void aSpaceIsRequiredAndChecked() {
        assertThatThrownBy(() -> Study.named("s").open()).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no search space");
        assertThatThrownBy(() -> Study.named("s").spaceJson("{\"x\": {\"_type\": \"uniform\", \"_value\": [1, 0]}}"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("x");
        assertThatThrownBy(() -> Study.named("s").spaceJson("{\"x\": ")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not JSON");
        assertThatThrownBy(() -> Study.named(" ")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("name");
    }

    @Test
    void aClosedStudyRefusesEverything() {
        Study study = Study.named("s").space(SPACE).open();
        Trial t = study.ask();
        study.close();
        study.close();
        assertThatThrownBy(study::ask).isInstanceOf(StudyException.class).hasMessageContaining("closed");
        assertThatThrownBy(() -> study.tell(t, 1.0)).isInstanceOf(StudyException.class).hasMessageContaining("closed");
        assertThatThrownBy(() -> t.report(1, 1.0)).isInstanceOf(StudyException.class).hasMessageContaining("closed");
        assertThatThrownBy(() -> study.enqueue(Map.of("x", 0.5))).isInstanceOf(StudyException.class).hasMessageContaining("closed");
        assertThat(study.trials()).singleElement().matches(r -> r.state() == TrialState.FAILED);
    }

    @Test
    void valuesMustMatchTheObjectives() {
        try (Study study = Study.named("s").space(SPACE).objective("a", OptimizeMode.MINIMIZE).objective("b", OptimizeMode.MAXIMIZE)
                .tuner("MOTPE").open()) {
            Trial t = study.ask();
            assertThatThrownBy(() -> study.tell(t, 1.0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2 objectives");
            assertThatThrownBy(() -> study.tell(t, 1.0, Double.POSITIVE_INFINITY)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("objective 'b'");
            assertThatThrownBy(() -> study.optimize(x -> 1.0, 3)).isInstanceOf(StudyException.class).hasMessageContaining("optimizeMulti");
            assertThatThrownBy(study::bestTrial).isInstanceOf(StudyException.class).hasMessageContaining("bestTrials");
            TrialRecord r = study.tell(t, 1.0, 2.0);
            assertThat(r.values()).containsExactly(1.0, 2.0);
            assertThat(study.bestTrials()).containsExactly(r);
        }
    }

    @Test
    void aTrialOfAnotherStudyIsRefused() {
        try (Study a = Study.named("a").space(SPACE).open(); Study b = Study.named("b").space(SPACE).open()) {
            Trial t = a.ask();
            assertThatThrownBy(() -> b.tell(t, 1.0)).isInstanceOf(StudyException.class).hasMessageContaining("another study");
        }
    }

    @Test
    void anUnreadableStoreIsNamed() throws Exception {
        Files.writeString(dir.resolve("experiment.db"), "this is not a database, it is a sentence that is long enough to be read");
        assertThatThrownBy(() -> Study.named("s").space(SPACE).storage(Storage.sqlite(dir)).loadIfExists().open())
                .isInstanceOf(StudyException.class).hasMessageContaining(dir.resolve("experiment.db").toString());
    }
}
