package org.tunekit.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.runner.results.TrialRecord;
import org.tunekit.runner.results.TrialStatus;
import org.tunekit.sdk.space.SearchSpace;

class SteeringTest {
    @TempDir
    Path tmp;

    /** Trials that wait (a minute at most) for the file go-all in the code folder, then report x. */
    private static String heldTrial(Path code) {
        return RunnerFixture.FILE_TRIAL_HELPERS + """
                n=0
                while [ ! -e '%s/go-all' ]; do sleep 0.05; n=$((n + 1)); [ $n -lt 1200 ] || exit 3; done
                metric FINAL 0 "$x"
                """.formatted(code);
    }

    private static void await(String what, BooleanSupplier condition) throws InterruptedException {
        for (int i = 0; i < 600 && !condition.getAsBoolean(); i++) {
            Thread.sleep(50);
        }
        assertThat(condition.getAsBoolean()).as(what).isTrue();
    }

    private static long running(RunnerFixture f) {
        try (ExperimentStore s = ExperimentStore.open(f.folder, true)) {
            return s.results().trials().stream().filter(t -> t.status() == TrialStatus.RUNNING).count();
        } catch (RunnerException e) {
            // the file is there before the transaction that creates its tables has committed
            return -1;
        }
    }

    private static ExperimentStore.Request answered(RunnerFixture f, long id) throws InterruptedException {
        ExperimentStore.Request[] found = new ExperimentStore.Request[1];
        await("request " + id + " answered", () -> {
            try (ExperimentStore s = ExperimentStore.open(f.folder, true)) {
                found[0] = s.requests(null).stream().filter(r -> r.id() == id && !r.state().equals("WAITING")).findFirst().orElse(null);
                return found[0] != null;
            }
        });
        return found[0];
    }

    @Test
    void requestsInTheStoreSteerARunningExperimentAndAreAnswered() throws Exception {
        RunnerFixture f = new RunnerFixture(tmp);
        f.trial("t.sh", heldTrial(f.code));
        String yaml = RunnerFixture.config("sh t.sh", 3, 1, "");
        CompletableFuture<LocalRunner.Outcome> run = CompletableFuture.supplyAsync(() -> {
            try {
                return f.run(yaml);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        await("the experiment runs a trial", () -> f.folder != null && Files.exists(f.folder.resolve(ExperimentStore.FILE)) && running(f) == 1);
        Instant now = Instant.now();

        ExperimentStore.Request more = answered(f, ExperimentStore.request(f.folder, Steering.LIMITS,
                "{\"trialConcurrency\": 2, \"maxTrialNumber\": 4}", now));
        assertThat(more.state()).isEqualTo("DONE");
        assertThat(more.answer()).isEqualTo("trialConcurrency 1 -> 2, maxTrialNumber 3 -> 4");
        await("a second trial runs", () -> running(f) == 2);

        ExperimentStore.Request outside = answered(f, ExperimentStore.request(f.folder, Steering.ADD_TRIAL, "{\"parameters\": {\"x\": 7}}", now));
        assertThat(outside.state()).isEqualTo("REFUSED");
        assertThat(outside.answer()).startsWith("the parameters do not fit the search space: ").contains("'x'");
        ExperimentStore.Request added = answered(f, ExperimentStore.request(f.folder, Steering.ADD_TRIAL, "{\"parameters\": {\"x\": 0.625}}", now));
        assertThat(added.state()).isEqualTo("DONE");

        String first;
        try (ExperimentStore s = ExperimentStore.open(f.folder, true)) {
            first = s.results().trials().get(0).trialJobId();
        }
        ExperimentStore.Request stop = answered(f, ExperimentStore.request(f.folder, Steering.STOP_TRIAL, "{\"trialJobId\": \"" + first + "\"}", now));
        assertThat(stop.answer()).isEqualTo("trial " + first + " is stopping");
        ExperimentStore.Request unknown = answered(f, ExperimentStore.request(f.folder, "pause", "{}", now));
        assertThat(unknown.answer()).startsWith("unknown request kind 'pause'");

        // the added trial takes the freed slot, before the tuner's next
        await("the added trial runs", () -> {
            try (ExperimentStore s = ExperimentStore.open(f.folder, true)) {
                return s.results().trials().stream().anyMatch(t -> t.parameters().equals(Map.of("x", 0.625)));
            }
        });
        Files.writeString(f.code.resolve("go-all"), "");
        assertThat(run.get(60, TimeUnit.SECONDS)).isEqualTo(LocalRunner.Outcome.DONE);
        List<TrialRecord> trials = f.results().trials();
        assertThat(trials).hasSize(4);
        assertThat(trials.get(0).status()).isEqualTo(TrialStatus.USER_CANCELED);
        assertThat(trials.get(2).parameters()).isEqualTo(Map.of("x", 0.625));
        assertThat(trials.get(2).finalValue()).isEqualTo(0.625);
        assertThat(trials).extracting(TrialRecord::parameterId).doesNotHaveDuplicates();
    }

    @Test
    void aResumedRunKeepsTheLimitsChangedBeforeAndTakesRequestsMadeWhileItWasDown() throws Exception {
        RunnerFixture f = new RunnerFixture(tmp);
        f.trial("t.sh", heldTrial(f.code));
        Files.writeString(f.code.resolve("go-all"), "");
        String yaml = RunnerFixture.config("sh t.sh", 2, 1, "");
        assertThat(f.run(yaml)).isEqualTo(LocalRunner.Outcome.DONE);
        // made while no runner runs: they wait for the next
        long limits = ExperimentStore.request(f.folder, Steering.LIMITS, "{\"maxTrialNumber\": 3}", Instant.now());
        long add = ExperimentStore.request(f.folder, Steering.ADD_TRIAL, "{\"parameters\": {\"x\": 0.5}}", Instant.now());
        assertThat(f.store.requests("WAITING")).extracting(ExperimentStore.Request::id).containsExactly(limits, add);
        assertThat(f.resume()).isEqualTo(LocalRunner.Outcome.DONE);
        assertThat(f.store.requests(null)).extracting(ExperimentStore.Request::state).containsExactly("DONE", "DONE");
        assertThat(f.results().trials()).hasSize(3).last().extracting(TrialRecord::parameters).isEqualTo(Map.of("x", 0.5));
        // and the next resume keeps maxTrialNumber 3: nothing more to run
        assertThat(f.resume()).isEqualTo(LocalRunner.Outcome.DONE);
        assertThat(f.results().trials()).hasSize(3);
    }

    @Test
    void limitsAndParametersAreCheckedWithWhatIsWrongNamed() {
        assertThatThrownBy(() -> Steering.limits("{\"trialConcurency\": 2}")).hasMessageStartingWith("unknown limit 'trialConcurency'");
        assertThatThrownBy(() -> Steering.limits("{\"trialConcurrency\": 0}")).hasMessage("trialConcurrency must be at least 1, got 0");
        assertThatThrownBy(() -> Steering.limits("{\"maxTrialNumber\": 2.5}")).hasMessage("maxTrialNumber must be a whole number, got 2.5");
        assertThatThrownBy(() -> Steering.limits("{\"maxExperimentDuration\": \"soon\"}")).hasMessageContaining("not a duration: 'soon'");
        assertThat(Steering.limits("{\"maxExperimentDuration\": \"0\"}").maxExperimentDuration()).isZero();
        SearchSpace space = SearchSpace.parse(Map.of("x", Map.of("_type", "uniform", "_value", List.of(0, 1))));
        assertThatThrownBy(() -> Steering.checkParameters(space, Map.of("y", 1))).hasMessageContaining("parameter 'x' is missing");
        assertThatThrownBy(() -> Steering.checkParameters(space, null)).hasMessageContaining("got nothing");
        assertThat(Steering.checkParameters(space, Map.of("x", 0.5))).isEqualTo(Map.of("x", 0.5));
    }
}
