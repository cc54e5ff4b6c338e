package org.tunekit.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.nniconfig.ConfigException;
import org.tunekit.runner.results.ExperimentResults;
import org.tunekit.runner.results.TrialRecord;
import org.tunekit.runner.results.TrialStatus;

/** Real experiments with real trial processes (shell scripts) over both trial channels. */
class LocalRunnerTest {
    @TempDir
    Path tmp;

    @Test
    void httpTrialsRunAndEveryResultIsRecorded() throws Exception {
        RunnerFixture f = new RunnerFixture(tmp).trial("t.sh", RunnerFixture.HTTP_TRIAL_HELPERS + """
                ask
                metric PERIODICAL 0 "$x"
                metric PERIODICAL 1 "$x"
                metric FINAL 0 "$x"
                """);
        f.channels = LocalRunner.TrialChannels.HTTP;
        assertThat(f.run(RunnerFixture.config("sh t.sh", 6, 2, ""))).isEqualTo(LocalRunner.Outcome.DONE);
        ExperimentResults r = f.results();
        assertThat(r.status()).isEqualTo("DONE");
        assertThat(r.trials()).hasSize(6).allSatisfy(t -> {
            assertThat(t.status()).isEqualTo(TrialStatus.SUCCEEDED);
            assertThat(t.exitCode()).isZero();
            assertThat(t.finalValue()).isEqualTo(((Number) t.parameters().get("x")).doubleValue(), org.assertj.core.data.Offset.offset(1e-9));
            assertThat(t.intermediate()).hasSize(2);
        });
        assertThat(r.trials().stream().map(TrialRecord::parameterId).distinct()).hasSize(6);
        assertThat(r.best().orElseThrow().finalValue()).isEqualTo(r.trials().stream().mapToDouble(TrialRecord::finalValue).min().orElseThrow());
    }

    @Test
    void fileChannelTrialsRunWithoutTheHttpVariableAndSplitFramesReadWhole() throws Exception {
        RunnerFixture f = new RunnerFixture(tmp).trial("t.sh", RunnerFixture.FILE_TRIAL_HELPERS + """
                [ -z "${NNI_TRIAL_COMMAND_CHANNEL:-}" ] || exit 7
                metric PERIODICAL 0 "$x"
                # a frame written in two pieces, with the runner free to read in between
                body="{\\"parameter_id\\": $id, \\"trial_job_id\\": \\"$NNI_TRIAL_JOB_ID\\", \\"type\\": \\"FINAL\\", \\"sequence\\": 0, \\"value\\": \\"$x\\"}"
                n=$(printf '%s\\n' "$body" | wc -c)
                printf 'ME%06d{"param' "$n" >> "$NNI_SYS_DIR/.nni/metrics"
                sleep 0.4
                printf '%s\\n' "${body#\\{\\"param}" >> "$NNI_SYS_DIR/.nni/metrics"
                """);
        f.channels = LocalRunner.TrialChannels.FILE;
        assertThat(f.run(RunnerFixture.config("sh t.sh", 3, 3, ""))).isEqualTo(LocalRunner.Outcome.DONE);
        assertThat(f.results().trials()).hasSize(3).allSatisfy(t -> {
            assertThat(t.status()).as(String.valueOf(t.message())).isEqualTo(TrialStatus.SUCCEEDED);
            assertThat(t.finalValue()).isEqualTo(((Number) t.parameters().get("x")).doubleValue(), org.assertj.core.data.Offset.offset(1e-9));
            assertThat(t.intermediate()).hasSize(1);
        });
    }

    @Test
    void aTruncatedMetricsFileFailsThatTrialAloneWithTheByteItStoppedAt() throws Exception {
        RunnerFixture f = new RunnerFixture(tmp).trial("t.sh", RunnerFixture.FILE_TRIAL_HELPERS + """
                if [ "$NNI_TRIAL_SEQ_ID" = 1 ]; then
                  metric PERIODICAL 0 "$x"
                  printf 'ME000090{"parameter_id": ' >> "$NNI_SYS_DIR/.nni/metrics"
                  exit 0
                fi
                metric FINAL 0 "$x"
                """);
        f.channels = LocalRunner.TrialChannels.BOTH;
        assertThat(f.run(RunnerFixture.config("sh t.sh", 3, 1, ""))).isEqualTo(LocalRunner.Outcome.DONE);
        List<TrialRecord> trials = f.results().trials();
        assertThat(trials.get(1).status()).isEqualTo(TrialStatus.FAILED);
        assertThat(trials.get(1).message()).contains("ends inside a frame").contains("announcing 000090 bytes").containsPattern("from byte \\d+");
        assertThat(trials.get(1).intermediate()).hasSize(1);
        assertThat(List.of(trials.get(0), trials.get(2))).allSatisfy(t -> {
            assertThat(t.status()).isEqualTo(TrialStatus.SUCCEEDED);
            assertThat(t.finalValue()).isNotNull();
        });
    }

    @Test
    void aFailingTrialIsRecordedWithItsStatusAndTheExperimentGoesOn() throws Exception {
        RunnerFixture f = new RunnerFixture(tmp).trial("t.sh", RunnerFixture.FILE_TRIAL_HELPERS + """
                metric FINAL 0 "$x"
                [ "$NNI_TRIAL_SEQ_ID" = 0 ] && { echo "boom" >&2; exit 3; }
                exit 0
                """);
        assertThat(f.run(RunnerFixture.config("sh t.sh", 3, 1, ""))).isEqualTo(LocalRunner.Outcome.DONE);
        TrialRecord first = f.results().trials().get(0);
        assertThat(first.status()).isEqualTo(TrialStatus.FAILED);
        assertThat(first.exitCode()).isEqualTo(3);
        assertThat(first.message()).contains("exited with status 3").contains("trial.stderr");
        assertThat(first.finalValue()).as("a failed trial's final result still counts").isNotNull();
        assertThat(Files.readString(f.folder.resolve("trials").resolve(first.trialJobId()).resolve("trial.stderr"))).contains("boom");
        assertThat(f.results().trials().subList(1, 3)).extracting(TrialRecord::status).containsOnly(TrialStatus.SUCCEEDED);
    }

    @Test
    void aTrialPastMaxTrialDurationIsInterruptedThenCancelled() throws Exception {
        RunnerFixture f = new RunnerFixture(tmp).trial("t.sh", """
                trap 'echo interrupted > "$NNI_OUTPUT_DIR/signal"; exit 130' INT
                sleep 60 &
                wait
                """);
        assertThat(f.run(RunnerFixture.config("sh t.sh", 1, 1, "maxTrialDuration: 1s"))).isEqualTo(LocalRunner.Outcome.DONE);
        TrialRecord t = f.results().trials().get(0);
        assertThat(t.status()).isEqualTo(TrialStatus.USER_CANCELED);
        assertThat(t.message()).contains("maxTrialDuration");
        assertThat(Files.readString(f.folder.resolve("trials").resolve(t.trialJobId()).resolve("signal"))).contains("interrupted");
    }

    @Test
    void aTrialThatIgnoresTheInterruptIsKilledAfterTheGracePeriod() throws Exception {
        RunnerFixture f = new RunnerFixture(tmp).trial("t.sh", """
                trap '' INT
                while :; do sleep 0.1; done
                """);
        f.stopGrace = java.time.Duration.ofMillis(300);
        assertThat(f.run(RunnerFixture.config("sh t.sh", 1, 1, "maxTrialDuration: 1s"))).isEqualTo(LocalRunner.Outcome.DONE);
        assertThat(f.results().trials().get(0).status()).isEqualTo(TrialStatus.USER_CANCELED);
    }

    @Test
    void aSilentTrialIsStoppedAsFailedAndOneThatNeverAskedOverHttpIsFailed() throws Exception {
        RunnerFixture f = new RunnerFixture(tmp).trial("t.sh", """
                [ "$NNI_TRIAL_SEQ_ID" = 0 ] && exec sleep 60
                exit 0
                """);
        f.silence = java.time.Duration.ofSeconds(1);
        f.channels = LocalRunner.TrialChannels.HTTP;
        assertThat(f.run(RunnerFixture.config("sh t.sh", 2, 2, ""))).isEqualTo(LocalRunner.Outcome.DONE);
        List<TrialRecord> trials = f.results().trials();
        assertThat(trials.get(0).status()).isEqualTo(TrialStatus.FAILED);
        assertThat(trials.get(0).message()).contains("neither asked for its parameters nor reported").contains("--silence-timeout");
        assertThat(trials.get(1).status()).isEqualTo(TrialStatus.FAILED);
        assertThat(trials.get(1).message()).contains("never asked for its parameters");
    }

    @Test
    void theAssessorStopsPoorTrialsEarly() throws Exception {
        // after the first five, every other trial reports values far worse than the rest at every step
        RunnerFixture f = new RunnerFixture(tmp).trial("t.sh", RunnerFixture.FILE_TRIAL_HELPERS + """
                bad=$(( NNI_TRIAL_SEQ_ID % 2 ))
                for s in 0 1 2 3 4 5 6 7 8 9; do
                  if [ "$bad" = 1 ] && [ "$NNI_TRIAL_SEQ_ID" -gt 4 ]; then v=100; else v=0; fi
                  metric PERIODICAL $s "$v"
                  sleep 0.15
                done
                metric FINAL 0 "$x"
                """);
        String assessor = """
                assessor:
                  name: Medianstop
                  classArgs: {optimize_mode: minimize, start_step: 2}
                """;
        assertThat(f.run(RunnerFixture.config("sh t.sh", 10, 2, assessor))).isEqualTo(LocalRunner.Outcome.DONE);
        List<TrialRecord> stopped = f.results().trials().stream().filter(t -> t.status() == TrialStatus.EARLY_STOPPED).toList();
        assertThat(stopped).isNotEmpty().allSatisfy(t -> {
            assertThat(t.sequence() % 2).isEqualTo(1);
            assertThat(t.message()).contains("assessor");
        });
    }

    @Test
    void maxExperimentDurationStopsTheRunningTrials() throws Exception {
        RunnerFixture f = new RunnerFixture(tmp).trial("t.sh", "exec sleep 60\n");
        assertThat(f.run(RunnerFixture.config("sh t.sh", 10, 2, "maxExperimentDuration: 1s"))).isEqualTo(LocalRunner.Outcome.DONE);
        assertThat(f.results().trials()).hasSize(2).extracting(TrialRecord::status).containsOnly(TrialStatus.USER_CANCELED);
    }

    @Test
    void aMisspeltTunerArgumentIsRefusedBeforeTheExperimentIsMade() throws Exception {
        RunnerFixture f = new RunnerFixture(tmp).trial("t.sh", "exit 0\n");
        String yaml = RunnerFixture.config("sh t.sh", 3, 1, "").replace("classArgs: {seed: 3, optimize_mode: minimize}",
                "classArgs: {seed: 3, optimize_mode: minimize, no_such_argument: 1}");
        assertThatThrownBy(() -> f.run(yaml)).isInstanceOf(ConfigException.class).hasMessageContaining("no_such_argument");
        assertThat(f.folder).doesNotExist();
    }

    @Test
    void aResumeRunsTheLostTrialsAgainWithTheirParametersAndReusesNoParameterId() throws Exception {
        RunnerFixture f = new RunnerFixture(tmp).trial("t.sh", RunnerFixture.FILE_TRIAL_HELPERS + "metric FINAL 0 \"$x\"\n");
        String yaml = RunnerFixture.config("sh t.sh", 6, 2, "");
        assertThat(f.run(yaml.replace("maxTrialNumber: 6", "maxTrialNumber: 3"))).isEqualTo(LocalRunner.Outcome.DONE);
        // as if the runner had been killed while a fourth trial ran
        String record = "{\"parameter_id\": 3, \"parameter_source\": \"algorithm\", \"parameters\": {\"x\": 0.25}, \"parameter_index\": 0}";
        f.store.trialStarted(3, "lost1", 3, record, Clock.systemUTC().instant());
        ExperimentSpec six = ExperimentSpec.load(f.config(yaml));
        LocalRunner.Outcome outcome = f.resume(six);
        assertThat(outcome).isEqualTo(LocalRunner.Outcome.DONE);
        List<TrialRecord> trials = f.results().trials();
        assertThat(trials.get(3).status()).isEqualTo(TrialStatus.LOST);
        TrialRecord rerun = trials.stream().filter(t -> t.sequence() > 3 && t.parameterId() == 3).findFirst().orElseThrow();
        assertThat(rerun.parameters()).isEqualTo(Map.of("x", 0.25));
        assertThat(rerun.status()).isEqualTo(TrialStatus.SUCCEEDED);
        List<Long> ids = trials.stream().filter(t -> t.status() != TrialStatus.LOST).map(TrialRecord::parameterId).toList();
        assertThat(ids).doesNotHaveDuplicates().hasSize(6);
    }

    @Test
    void aTrialWhoseFinalResultWasStoredEndsSucceededOnResumeAndDoesNotRunAgain() throws Exception {
        RunnerFixture f = new RunnerFixture(tmp).trial("t.sh", RunnerFixture.FILE_TRIAL_HELPERS + "metric FINAL 0 \"$x\"\n");
        String yaml = RunnerFixture.config("sh t.sh", 5, 2, "");
        assertThat(f.run(yaml.replace("maxTrialNumber: 5", "maxTrialNumber: 3"))).isEqualTo(LocalRunner.Outcome.DONE);
        // as if the runner had been killed after a fourth trial's final result was stored, before the trial ended
        String record = "{\"parameter_id\": 3, \"parameter_source\": \"algorithm\", \"parameters\": {\"x\": 0.0625}, \"parameter_index\": 0}";
        java.time.Instant now = Clock.systemUTC().instant();
        f.store.trialStarted(3, "done1", 3, record, now);
        f.store.metric("done1", org.tunekit.runner.manager.MetricStream.LIVE, 3L, "FINAL", 0, "0.0625", 0.0625, now);
        assertThat(f.resume(ExperimentSpec.load(f.config(yaml)))).isEqualTo(LocalRunner.Outcome.DONE);
        List<TrialRecord> trials = f.results().trials();
        assertThat(trials).hasSize(5).extracting(TrialRecord::status).containsOnly(TrialStatus.SUCCEEDED);
        assertThat(trials.get(3).trialJobId()).isEqualTo("done1");
        assertThat(trials.get(3).finalValue()).isEqualTo(0.0625);
        assertThat(trials).extracting(TrialRecord::parameterId).doesNotHaveDuplicates();
    }

    @Test
    void aMultiPhaseTrialGetsMoreParametersOnTheChannelItAskedOn() throws Exception {
        // over HTTP: a second request gets the tuner's next parameters; over files: a REQUEST_PARAMETER
        // frame with parameter_index 1 makes parameter_1.cfg appear
        RunnerFixture f = new RunnerFixture(tmp).trial("t.sh", RunnerFixture.HTTP_TRIAL_HELPERS + """
                if [ "$NNI_TRIAL_SEQ_ID" = 0 ]; then
                  ask; first=$id
                  metric FINAL 0 "$x"
                  ask; [ "$id" != "$first" ] || exit 5
                  metric FINAL 0 "$x"
                  exit 0
                fi
                p=$(cat "$NNI_SYS_DIR/parameter.cfg")
                mkdir -p "$NNI_SYS_DIR/.nni"
                body="{\\"trial_job_id\\": \\"$NNI_TRIAL_JOB_ID\\", \\"type\\": \\"REQUEST_PARAMETER\\", \\"sequence\\": 0, \\"parameter_index\\": 1}"
                n=$(printf '%s\\n' "$body" | wc -c)
                printf 'ME%06d%s\\n' "$n" "$body" >> "$NNI_SYS_DIR/.nni/metrics"
                i=0
                while [ ! -s "$NNI_SYS_DIR/parameter_1.cfg" ]; do i=$((i+1)); [ $i -lt 100 ] || exit 6; sleep 0.1; done
                grep -q '"parameter_index": 1' "$NNI_SYS_DIR/parameter_1.cfg" || exit 8
                """);
        assertThat(f.run(RunnerFixture.config("sh t.sh", 2, 1, ""))).isEqualTo(LocalRunner.Outcome.DONE);
        List<TrialRecord> trials = f.results().trials();
        assertThat(trials).extracting(TrialRecord::status).as(trials.toString()).containsOnly(TrialStatus.SUCCEEDED);
    }

    @Test
    void theSameSeedGivesTheSameParametersInEveryRun() throws Exception {
        String trial = RunnerFixture.FILE_TRIAL_HELPERS + "metric FINAL 0 \"$x\"\n";
        String yaml = """
                searchSpace:
                  x: {_type: uniform, _value: [0, 1]}
                  lr: {_type: loguniform, _value: [0.0001, 0.1]}
                  units: {_type: choice, _value: [16, 32, 64]}
                  depth: {_type: randint, _value: [1, 8]}
                trialCommand: sh t.sh
                trialConcurrency: 1
                maxTrialNumber: 8
                tuner:
                  name: TPE
                  classArgs: {seed: 11, optimize_mode: minimize}
                """;
        RunnerFixture first = new RunnerFixture(tmp.resolve("a")).trial("t.sh", trial);
        first.run(yaml);
        RunnerFixture second = new RunnerFixture(tmp.resolve("b")).trial("t.sh", trial);
        second.run(yaml);
        assertThat(second.results().trials()).extracting(TrialRecord::parameters)
                .isEqualTo(first.results().trials().stream().map(TrialRecord::parameters).toList());
        assertThat(first.results().trials().get(0).parameters().keySet()).containsExactly("x", "lr", "units", "depth");
    }
}
