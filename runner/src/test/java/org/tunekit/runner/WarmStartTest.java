package org.tunekit.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.runner.manager.ExperimentManager;
import org.tunekit.runner.manager.ManagerListener;
import org.tunekit.runner.manager.ManagerSettings;
import org.tunekit.runner.manager.RecordingTuner;
import org.tunekit.runner.manager.SimulatedTrials;
import org.tunekit.runner.manager.StoredTrial;
import org.tunekit.runner.results.TrialStatus;

/**
 * A config's warmStart run by the runner as {@code tunekit run} runs it (the store, its requests, {@link Steering}),
 * over simulated trials that report their x at once and a tuner that records what it hears.
 */
class WarmStartTest {
    private static final String WARM_START = """
            warmStart:
              - {x: 0.125}
              - {x: 0.25}
              - {x: 0.375}
            """;
    private static final List<Map<String, Object>> SETS = List.of(Map.of("x", 0.125), Map.of("x", 0.25), Map.of("x", 0.375));

    @TempDir
    Path tmp;

    /** A new experiment of the config with 5 trials, 2 at a time, and the warm start: created, not yet run. */
    private ExperimentStore create() throws Exception {
        Path config = tmp.resolve("config.yml");
        Files.writeString(config, RunnerFixture.config("sh t.sh", 5, 2, WARM_START));
        ExperimentSpec spec = ExperimentSpec.load(config);
        assertThat(spec.warmStart()).isEqualTo(SETS);
        return ExperimentStore.create(Files.createDirectories(tmp.resolve("exp")), "exp", spec, Map.of(), Instant.now());
    }

    /** Runs (or resumes) the stored experiment as tunekit run does, its config as the store keeps it. */
    private static LocalRunner.Outcome run(ExperimentStore store, RecordingTuner tuner, boolean resume) throws Exception {
        ExperimentSpec spec = store.spec();
        SimulatedTrials trials = new SimulatedTrials((launch, p) -> new SimulatedTrials.Curve() {
            @Override
            public int epochs() {
                return 1;
            }

            @Override
            public double valueAt(int epoch) {
                return p.getDouble("x");
            }
        }, 0);
        ManagerSettings settings = new ManagerSettings(spec.searchSpace(), spec.trialConcurrency(), spec.maxTrialNumber(), null, null, null,
                Duration.ZERO);
        LocalRunner runner = new LocalRunner(spec, new ExperimentManager(settings, trials, tuner::dispatcher, ManagerListener.SILENT,
                Clock.systemUTC()));
        runner.prepare();
        return runner.run(store, resume);
    }

    private static List<Map<String, Object>> parameters(List<StoredTrial> trials) {
        return trials.stream().map(t -> ExperimentManager.parametersOf(t.parameterRecord())).toList();
    }

    @Test
    void theSetsAreTheFirstTrialsInOrderTheTunerLearnsThemAndAResumeDoesNotAddThemAgain() throws Exception {
        try (ExperimentStore store = create()) {
            // recorded with the experiment, as its first requests
            assertThat(store.requests(null)).extracting(ExperimentStore.Request::payload).containsExactly(
                    "{\"parameters\": {\"x\": 0.125}, \"from\": \"warmStart[0]\"}",
                    "{\"parameters\": {\"x\": 0.25}, \"from\": \"warmStart[1]\"}",
                    "{\"parameters\": {\"x\": 0.375}, \"from\": \"warmStart[2]\"}");
            assertThat(store.requests("WAITING")).extracting(ExperimentStore.Request::kind).containsOnly(Steering.ADD_TRIAL).hasSize(3);

            RecordingTuner tuner = new RecordingTuner();
            assertThat(run(store, tuner, false)).isEqualTo(LocalRunner.Outcome.DONE);
            List<StoredTrial> trials = store.trials();
            assertThat(trials).hasSize(5).allMatch(t -> t.status() == TrialStatus.SUCCEEDED);
            assertThat(parameters(trials.subList(0, 3))).isEqualTo(SETS);
            assertThat(trials.subList(0, 3)).allSatisfy(t -> assertThat(t.parameterRecord()).contains("\"parameter_source\": \"customized\""));
            assertThat(trials).extracting(StoredTrial::parameterId).containsExactly(0L, 1L, 2L, 3L, 4L);
            assertThat(store.requests(null)).extracting(ExperimentStore.Request::state).containsOnly("DONE");
            assertThat(store.requests(null)).extracting(ExperimentStore.Request::answer)
                    .containsExactly("parameters 0 added: they run next", "parameters 1 added: they run next", "parameters 2 added: they run next");
            // the tuner heard of them before it was first asked, and learnt their results as NNI's customized trials
            assertThat(tuner.calls("generate")).containsExactly("generate 3", "generate 4");
            assertThat(tuner.calls("import")).containsExactly("import {x=0.125} 0.125", "import {x=0.25} 0.25", "import {x=0.375} 0.375");
            assertThat(tuner.calls("result")).containsExactly("result 3 0.503", "result 4 0.504");

            // two more trials, resumed: only the tuner's
            store.addRequest(Steering.LIMITS, "{\"maxTrialNumber\": 7}", Instant.now());
            RecordingTuner resumed = new RecordingTuner();
            assertThat(run(store, resumed, true)).isEqualTo(LocalRunner.Outcome.DONE);
            List<StoredTrial> after = store.trials();
            assertThat(after).hasSize(7).allMatch(t -> t.status() == TrialStatus.SUCCEEDED);
            assertThat(after.subList(0, 5)).isEqualTo(trials);
            assertThat(after.subList(5, 7)).allSatisfy(t -> assertThat(t.parameterRecord()).doesNotContain("customized"));
            assertThat(parameters(after)).filteredOn(SETS::contains).hasSize(3);
            assertThat(resumed.calls("generate")).containsExactly("generate 5", "generate 6");
            assertThat(store.requests(null)).hasSize(4).extracting(ExperimentStore.Request::state).containsOnly("DONE");
        }
    }

    @Test
    void aRunnerKilledBeforeItTookTheSetsRunsThemFirstWhenResumed() throws Exception {
        // created, then killed before the run took its requests: they wait in the store
        create().close();
        try (ExperimentStore store = ExperimentStore.open(tmp.resolve("exp"), false)) {
            RecordingTuner tuner = new RecordingTuner();
            assertThat(run(store, tuner, true)).isEqualTo(LocalRunner.Outcome.DONE);
            List<StoredTrial> trials = store.trials();
            assertThat(trials).hasSize(5);
            assertThat(parameters(trials.subList(0, 3))).isEqualTo(SETS);
            assertThat(parameters(trials.subList(3, 5))).doesNotContainAnyElementsOf(SETS);
            assertThat(tuner.calls("generate")).containsExactly("generate 3", "generate 4");
            assertThat(store.requests(null)).extracting(ExperimentStore.Request::state).containsOnly("DONE");
        }
    }
}
