package org.tunekit.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.dispatcher.protocol.JsonCodec;
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
        return create(2);
    }

    private ExperimentStore create(int concurrency) throws Exception {
        Path config = tmp.resolve("config.yml");
        Files.writeString(config, RunnerFixture.config("sh t.sh", 5, concurrency, WARM_START));
        ExperimentSpec spec = ExperimentSpec.load(config);
        assertThat(spec.warmStart()).isEqualTo(SETS);
        return ExperimentStore.create(Files.createDirectories(tmp.resolve("exp")), "exp", spec, Map.of(), Instant.now());
    }

    /** Runs (or resumes) the stored experiment as tunekit run does, its config as the store keeps it. */
    private static LocalRunner.Outcome run(ExperimentStore store, RecordingTuner tuner, boolean resume) throws Exception {
        return run(store, tuner, resume, manager -> ManagerListener.SILENT);
    }

    /** The same, the manager telling a listener made for it. */
    private static LocalRunner.Outcome run(ExperimentStore store, RecordingTuner tuner, boolean resume,
                                           Function<ExperimentManager, ManagerListener> listener) throws Exception {
        ExperimentSpec spec = store.spec();
        SimulatedTrials trials = new SimulatedTrials((launch, p) -> SimulatedTrials.Curve.of(1, epoch -> p.getDouble("x")), 0);
        ManagerSettings settings = new ManagerSettings(spec.searchSpace(), spec.trialConcurrency(), spec.maxTrialNumber(), null, null, null,
                Duration.ZERO);
        ExperimentManager[] manager = new ExperimentManager[1];
        ManagerListener told = new ManagerListener() {
            private ManagerListener delegate;

            private ManagerListener delegate() {
                if (delegate == null) {
                    delegate = listener.apply(manager[0]);
                }
                return delegate;
            }

            @Override
            public void trialStarted(String trialJobId, int sequence, Map<String, Object> parameters) {
                delegate().trialStarted(trialJobId, sequence, parameters);
            }

            @Override
            public void trialEnded(String trialJobId, int sequence, TrialStatus status, String message, Duration took) {
                delegate().trialEnded(trialJobId, sequence, status, message, took);
            }
        };
        manager[0] = new ExperimentManager(settings, trials, tuner::dispatcher, told, Clock.systemUTC());
        LocalRunner runner = new LocalRunner(spec, manager[0]);
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
    void aSetsAnswerIsOnDiskBeforeItsTrialStartsSoThatAKilledRunnerDoesNotAddItTwice() throws Exception {
        try (ExperimentStore store = create()) {
            List<String> seen = new ArrayList<>();
            assertThat(run(store, new RecordingTuner(), false, manager -> new ManagerListener() {
                @Override
                public void trialStarted(String trialJobId, int sequence, Map<String, Object> parameters) {
                    // the trial is recorded and started: what a runner killed now would find of its request
                    for (ExperimentStore.Request r : store.requests(null)) {
                        if (r.payload().contains(JsonCodec.write(parameters))) {
                            seen.add(parameters + " " + r.state() + " " + r.answer());
                        }
                    }
                }
            })).isEqualTo(LocalRunner.Outcome.DONE);
            assertThat(seen).containsExactly("{x=0.125} DONE parameters 0 added: they run next", "{x=0.25} DONE parameters 1 added: they run next",
                    "{x=0.375} DONE parameters 2 added: they run next");
        }
    }

    @Test
    void aRunStoppedWhileSetsWaitedForASlotRunsThoseWhenResumedAndNoneTwice() throws Exception {
        try (ExperimentStore store = create(1)) {
            // one at a time, stopped (Ctrl-C) as the first ends: the second starts and is cancelled, the third never starts
            assertThat(run(store, new RecordingTuner(), false, manager -> new ManagerListener() {
                @Override
                public void trialEnded(String trialJobId, int sequence, TrialStatus status, String message, Duration took) {
                    manager.requestStop("interrupted");
                }
            })).isEqualTo(LocalRunner.Outcome.STOPPED);
            List<StoredTrial> before = store.trials();
            assertThat(parameters(before)).isEqualTo(SETS.subList(0, 2));
            assertThat(before).extracting(StoredTrial::status).containsExactly(TrialStatus.SUCCEEDED, TrialStatus.USER_CANCELED);
            assertThat(store.requests(null)).extracting(ExperimentStore.Request::state).containsOnly("DONE");

            RecordingTuner tuner = new RecordingTuner();
            assertThat(run(store, tuner, true)).isEqualTo(LocalRunner.Outcome.DONE);
            List<StoredTrial> after = store.trials();
            assertThat(after).hasSize(5);
            assertThat(parameters(after.subList(2, 3))).isEqualTo(SETS.subList(2, 3));
            assertThat(parameters(after.subList(3, 5))).doesNotContainAnyElementsOf(SETS);
            // under a new parameter id, after the stored ones, which its request's answer now names
            assertThat(after.get(2).parameterId()).isEqualTo(2L);
            assertThat(store.requests(null).get(2).answer()).isEqualTo("parameters 2 added: they run next");
            assertThat(tuner.calls("generate")).containsExactly("generate 3", "generate 4");

            // nothing is left to add: a further resume runs none of them again
            store.addRequest(Steering.LIMITS, "{\"maxTrialNumber\": 6}", Instant.now());
            assertThat(run(store, new RecordingTuner(), true)).isEqualTo(LocalRunner.Outcome.DONE);
            assertThat(parameters(store.trials())).hasSize(6).filteredOn(SETS::contains).hasSize(3);
        }
    }

    @Test
    void aRunnerKilledAfterTheManagerTookTheSetsButBeforeTheyStartedRunsThemWhenResumed() throws Exception {
        try (ExperimentStore store = create()) {
            // as a runner killed right after the manager took them: answered, no trial recorded
            for (ExperimentStore.Request r : store.requests(null)) {
                store.answerRequest(r.id(), "DONE", "parameters " + (r.id() - 1) + " added: they run next", Instant.now());
            }
            RecordingTuner tuner = new RecordingTuner();
            assertThat(run(store, tuner, true)).isEqualTo(LocalRunner.Outcome.DONE);
            List<StoredTrial> trials = store.trials();
            assertThat(trials).hasSize(5);
            assertThat(parameters(trials.subList(0, 3))).isEqualTo(SETS);
            assertThat(tuner.calls("generate")).containsExactly("generate 3", "generate 4");
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
