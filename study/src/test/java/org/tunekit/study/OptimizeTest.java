package org.tunekit.study;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.space.SearchSpace;

/** How optimize runs: threads, failures, pruning, callbacks, stop conditions, limits. */
class OptimizeTest {
    static final SearchSpace SPACE = SearchSpace.builder().uniform("x", -5, 5).randint("n", 0, 10).build();

    private static Study study(String tuner) {
        return Study.named("opt").space(SPACE).tuner(tuner).seed(9).open();
    }

    @Test
    void fourThreadsHandOutEveryParameterIdOnceAndKeepEveryResult() {
        try (Study study = study("TPE")) {
            Set<Long> ids = java.util.Collections.synchronizedSet(new HashSet<>());
            study.optimize(trial -> {
                assertThat(ids.add(trial.parameterId())).isTrue();
                Thread.sleep(1);
                return trial.getDouble("x") * trial.getDouble("x");
            }, OptimizeOptions.trials(200).threads(4));
            List<TrialRecord> trials = study.trials();
            assertThat(trials).hasSize(200).allMatch(t -> t.state() == TrialState.SUCCEEDED);
            assertThat(trials.stream().map(TrialRecord::parameterId).distinct().count()).isEqualTo(200);
            assertThat(ids).hasSize(200);
        }
    }

    @Test
    void aFailingObjectiveIsRecordedAndTheStudyGoesOn() {
        try (Study study = study("Random")) {
            study.optimize(trial -> {
                if (trial.number() % 3 == 0) {
                    throw new IOException("disk full at trial " + trial.number());
                }
                if (trial.number() % 3 == 1) {
                    return Double.NaN;
                }
                return trial.getDouble("x");
            }, 9);
            List<TrialRecord> trials = study.trials();
            assertThat(trials).hasSize(9);
            assertThat(trials.get(0).state()).isEqualTo(TrialState.FAILED);
            assertThat(trials.get(0).message()).contains("IOException: disk full at trial 0");
            assertThat(trials.get(1).state()).isEqualTo(TrialState.FAILED);
            assertThat(trials.get(1).message()).contains("NaN");
            assertThat(trials.get(2).state()).isEqualTo(TrialState.SUCCEEDED);
        }
    }

    @Test
    void aPrunedTrialKeepsTheReasonItWasGiven() {
        try (Study study = study("Random")) {
            study.optimize(trial -> {
                trial.report(1, 5.0);
                throw new TrialPrunedException("loss above 4 after one epoch");
            }, 2);
            assertThat(study.trials()).allMatch(t -> t.state() == TrialState.EARLY_STOPPED && t.message().equals("loss above 4 after one epoch"));
        }
    }

    @Test
    void stopOnFirstFailureEndsTheRunWithTheObjectivesException() {
        try (Study study = study("Random")) {
            assertThatThrownBy(() -> study.optimize(trial -> {
                throw new IllegalStateException("bad data");
            }, OptimizeOptions.trials(5).stopOnFirstFailure())).isInstanceOf(StudyException.class).hasMessageContaining("bad data")
                    .hasCauseInstanceOf(IllegalStateException.class);
            assertThat(study.trials()).hasSize(1).allMatch(t -> t.state() == TrialState.FAILED);
        }
    }

    @Test
    void callbacksSeeEachEndedTrialAndMayStop() {
        try (Study study = study("Random")) {
            AtomicInteger seen = new AtomicInteger();
            study.optimize(trial -> trial.getDouble("x"), OptimizeOptions.trials(100).callback((s, t) -> {
                if (seen.incrementAndGet() == 7) {
                    s.stop();
                }
            }));
            assertThat(study.trials()).hasSize(7);
            // a new optimize starts afresh
            study.optimize(trial -> trial.getDouble("x"), OptimizeOptions.trials(100).stopWhen(s -> s.trials().size() >= 12));
            assertThat(study.trials()).hasSize(12);
        }
    }

    @Test
    void aCallbackThatThrowsStopsTheRun() {
        try (Study study = study("Random")) {
            assertThatThrownBy(() -> study.optimize(trial -> 1.0, OptimizeOptions.trials(10).callback((s, t) -> {
                throw new IllegalArgumentException("callback broke");
            }))).isInstanceOf(StudyException.class).hasMessageContaining("callback broke");
            assertThat(study.trials()).hasSize(1);
        }
    }

    @Test
    void aTimeoutStopsStartingTrials() {
        try (Study study = study("Random")) {
            study.optimize(trial -> {
                Thread.sleep(20);
                return 1.0;
            }, OptimizeOptions.timeout(Duration.ofMillis(300)).threads(2));
            int n = study.trials().size();
            assertThat(n).isPositive();
            assertThat(study.trials()).allMatch(t -> t.state() == TrialState.SUCCEEDED);
        }
    }

    @Test
    void aTunerThatRunsOutEndsTheRun() {
        SearchSpace small = SearchSpace.builder().choice("a", "p", "q").choice("b", 1L, 2L).build();
        try (Study study = Study.named("grid").space(small).tuner("GridSearch").open()) {
            study.optimize(trial -> 1.0, OptimizeOptions.trials(50).threads(2));
            assertThat(study.trials()).hasSize(4);
            assertThatThrownBy(study::ask).isInstanceOf(StudyExhaustedException.class).hasMessageContaining("nothing more to suggest")
                    .matches(e -> !((StudyExhaustedException) e).trialsRunning());
        }
    }

    @Test
    void optionsWithoutAnEndAreRefused() {
        assertThatThrownBy(() -> new OptimizeOptions(0, null, 1, false, List.of(), null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no end");
        assertThatThrownBy(() -> OptimizeOptions.trials(5).threads(0)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("threads");
    }
}
