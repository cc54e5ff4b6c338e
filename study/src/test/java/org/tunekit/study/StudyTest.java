package org.tunekit.study;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.space.SearchSpace;

class StudyTest {
    static final SearchSpace SPACE = SearchSpace.builder().uniform("x", -5, 5).uniform("y", -5, 5).build();

    static double sphere(Trial t) {
        return t.getDouble("x") * t.getDouble("x") + t.getDouble("y") * t.getDouble("y");
    }

    @Test
    void optimizeFindsALowValueAndKeepsEveryTrial() {
        try (Study study = Study.named("sphere").space(SPACE).tuner("TPE").seed(1).minimize().open()) {
            study.optimize(StudyTest::sphere, 60);
            List<TrialRecord> trials = study.trials();
            assertThat(trials).hasSize(60);
            assertThat(trials).allMatch(t -> t.state() == TrialState.SUCCEEDED);
            assertThat(trials.stream().map(TrialRecord::parameterId)).containsExactlyElementsOf(
                    java.util.stream.LongStream.range(0, 60).boxed().toList());
            assertThat(study.bestTrial().value().orElseThrow()).isLessThan(1.0);
        }
    }

    @Test
    void askAndTellWithEnqueuedParametersFirst() {
        try (Study study = Study.named("s").space(SPACE).tuner("Random").seed(3).open()) {
            study.enqueue(Map.of("x", 1.0, "y", 2.0));
            Trial first = study.ask();
            assertThat(first.parameters().values()).isEqualTo(Map.of("x", 1.0, "y", 2.0));
            TrialRecord told = study.tell(first, 5.0);
            assertThat(told.enqueued()).isTrue();
            assertThat(told.value()).contains(5.0);
            Trial second = study.ask();
            assertThat(second.parameterId()).isEqualTo(1);
            assertThatThrownBy(() -> study.tell(first, 1.0)).isInstanceOf(StudyException.class).hasMessageContaining("already ended as SUCCEEDED");
            assertThatThrownBy(() -> study.tell(second, Double.NaN)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NaN");
            assertThatThrownBy(() -> study.enqueue(Map.of("x", 9.0, "y", 0.0))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("x");
        }
    }
}
