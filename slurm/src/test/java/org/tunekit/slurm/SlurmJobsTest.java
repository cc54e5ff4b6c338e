package org.tunekit.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.runner.manager.MetricStream;
import org.tunekit.runner.manager.Placement;
import org.tunekit.runner.manager.StoredTrial;
import org.tunekit.runner.manager.TrainingService;
import org.tunekit.runner.manager.TrainingServiceContext;
import org.tunekit.runner.manager.TrialEvents;
import org.tunekit.runner.manager.TrialLaunch;
import org.tunekit.runner.results.TrialStatus;

/**
 * The Slurm service against stand-in {@code sbatch}, {@code squeue}, {@code sacct}, {@code scancel}
 * and {@code sinfo}: scripts that log their calls and keep each job's state in a file that the test
 * sets, while the test plays the trial by writing its files.
 */
class SlurmJobsTest {
    @TempDir
    Path tmp;
    Path bin;
    Path state;
    Path experiment;
    Path code;

    @BeforeEach
    void standIns() throws IOException {
        bin = Files.createDirectories(tmp.resolve("bin"));
        state = Files.createDirectories(tmp.resolve("state"));
        Files.createDirectories(state.resolve("jobs"));
        Files.createDirectories(state.resolve("acct"));
        experiment = Files.createDirectories(tmp.resolve("exp"));
        code = Files.createDirectories(tmp.resolve("code"));
        String s = "S='" + state + "'\n";
        script("sbatch", s + """
                printf '%s\\n' "$*" >> "$S/sbatch.log"
                id=$(cat "$S/next" 2>/dev/null || echo 100)
                echo $((id + 1)) > "$S/next"
                echo PENDING > "$S/jobs/$id"
                echo "$id"
                """);
        script("squeue", s + """
                echo "$*" >> "$S/squeue.log"
                for f in "$S"/jobs/*; do [ -f "$f" ] && echo "$(basename "$f")|$(cat "$f")"; done
                exit 0
                """);
        script("sacct", s + """
                echo "$*" >> "$S/sacct.log"
                [ -f "$S/sacct.disabled" ] && { echo 'Slurm accounting storage is disabled' >&2; exit 1; }
                for f in "$S"/acct/*; do [ -f "$f" ] && echo "$(basename "$f")|$(cat "$f")"; done
                exit 0
                """);
        script("scancel", s + """
                echo "$*" >> "$S/scancel.log"
                case "$*" in *--signal*) exit 0;; esac
                for id in "$@"; do [ -f "$S/jobs/$id" ] && echo CANCELLED > "$S/jobs/$id"; done
                exit 0
                """);
        script("sinfo", "printf 'debug*\\nbatch\\n'\n");
    }

    private void script(String name, String body) throws IOException {
        Path p = bin.resolve(name);
        Files.writeString(p, "#!/bin/bash\n" + body);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** Records the events; like the manager, it collects a trial's leftovers when the trial ends. */
    static final class Recorder implements TrialEvents {
        final List<String> seen = new ArrayList<>();
        final Map<String, int[]> frames = new HashMap<>();
        TrainingService service;

        @Override
        public void parameterRequest(String trialJobId, boolean byFile, int index) {
            seen.add(trialJobId + " asks");
        }

        @Override
        public void metric(String trialJobId, String text, MetricStream from) {
            seen.add(trialJobId + " metric " + text);
            frames.computeIfAbsent(trialJobId, k -> new int[2])[from == MetricStream.FILE ? 0 : 1]++;
        }

        /** The frames handled from the trial's metrics file and from its output, as the store counts them. */
        int[] framesRead(String trialJobId) {
            return frames.getOrDefault(trialJobId, new int[2]);
        }

        @Override
        public void problem(String trialJobId, String text) {
            seen.add(trialJobId + " problem " + text);
        }

        @Override
        public void exited(String trialJobId, int exitCode) {
            service.collect(trialJobId);
            seen.add(trialJobId + " exited " + exitCode);
        }

        @Override
        public void ended(String trialJobId, TrialStatus status, String reason) {
            service.collect(trialJobId);
            seen.add(trialJobId + " ended " + status + ": " + reason);
        }
    }

    private Map<String, Object> settings(Map<String, Object> more) {
        Map<String, Object> m = new HashMap<>(Map.of("platform", "slurm", "trialCommand", "true", "trialCodeDirectory", code.toString(),
                "sbatchOptions", List.of(), "pollInterval", 0L));
        m.putAll(more);
        return m;
    }

    private TrainingService service(Map<String, Object> more, Duration maxTrialDuration) {
        TrainingServiceContext c = new TrainingServiceContext("EXP1", settings(more), "python3 train.py", code, experiment, maxTrialDuration,
                Map.of(SlurmProvider.PATH_OPTION, bin.toString()));
        return new SlurmProvider().create(c);
    }

    private Recorder open(TrainingService s) throws IOException {
        Recorder r = new Recorder();
        r.service = s;
        s.open(r);
        return r;
    }

    private static TrialLaunch launch(String jobId, int sequence) {
        return new TrialLaunch("EXP1", jobId, sequence, sequence, "{\"parameter_id\": " + sequence + ", \"parameters\": {\"x\": 1}}");
    }

    private void setState(String slurmId, String s) throws IOException {
        Files.writeString(state.resolve("jobs").resolve(slurmId), s + "\n");
    }

    private List<String> log(String name) throws IOException {
        Path p = state.resolve(name + ".log");
        return Files.exists(p) ? Files.readAllLines(p) : List.of();
    }

    private Path trialDir(String jobId) {
        return experiment.resolve("trials").resolve(jobId);
    }

    private static void appendMetric(Path dir, String json) throws IOException {
        byte[] text = (json + "\n").getBytes(StandardCharsets.UTF_8);
        Files.createDirectories(dir.resolve(".nni"));
        Files.write(dir.resolve(".nni/metrics"), (("ME" + String.format("%06d", text.length)) + json + "\n").getBytes(StandardCharsets.UTF_8),
                java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
    }

    private static void exit(Path dir, int code) throws IOException {
        Files.writeString(dir.resolve(".nni/exit"), Integer.toString(code));
    }

    @Test
    void eachTrialIsOneSbatchWithItsSettingsAndItsScriptInTheTrialsFolder() throws Exception {
        TrainingService s = service(Map.of("partition", "debug", "account", "lab", "sbatchOptions", List.of("--mem=1G", "--qos=low"),
                "trialGpuNumber", 2L), Duration.ofSeconds(61));
        open(s);
        Placement p = s.start(launch("AbCdE", 0));
        Path dir = trialDir("AbCdE");
        assertThat(p.handle()).isEqualTo("100@" + dir);
        assertThat(log("sbatch")).containsExactly("--parsable --no-requeue --job-name=tunekit-EXP1-AbCdE --output=" + dir.resolve("slurm.out")
                + " --chdir=" + dir + " --time=2 --gres=gpu:2 --partition=debug --account=lab --mem=1G --qos=low " + dir.resolve("slurm.sh"));
        assertThat(Files.readString(dir.resolve("parameter.cfg"))).contains("\"x\": 1");
        assertThat(Files.readString(dir.resolve("slurm.sh"))).contains("export NNI_PLATFORM='slurm'").contains("export NNI_TRIAL_JOB_ID='AbCdE'")
                .doesNotContain("CUDA_VISIBLE_DEVICES");
        s.close();
        assertThat(log("scancel")).containsExactly("100");
    }

    @Test
    void noGpusMeansNoGresAndNoVisibleGpuAndAFractionIsRefused() throws Exception {
        TrainingService s = service(Map.of("trialGpuNumber", 0L), null);
        open(s);
        s.start(launch("AbCdE", 0));
        assertThat(log("sbatch").get(0)).doesNotContain("--gres").doesNotContain("--time").doesNotContain("--partition");
        assertThat(Files.readString(trialDir("AbCdE").resolve("slurm.sh"))).contains("export CUDA_VISIBLE_DEVICES=''");
        s.close();
        assertThatThrownBy(() -> service(Map.of("trialGpuNumber", 0.5), null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("trainingService.trialGpuNumber: Slurm gives whole GPUs: give a whole number, got 0.5");
        assertThatThrownBy(() -> service(Map.of("sbatchOptions", List.of("--mem=1G", 3L)), null))
                .hasMessage("trainingService.sbatchOptions[1]: must be a string, got 3");
    }

    @Test
    void checkNamesAMissingCommandAnUnknownPartitionAndAnUnwritableFolder() throws Exception {
        service(Map.of("partition", "batch"), null).check();
        assertThat(experiment.resolve("trials")).isDirectory();
        assertThatThrownBy(() -> service(Map.of("partition", "gpu"), null).check())
                .hasMessage("trainingService.partition: the cluster has no partition 'gpu' (it has: batch, debug)");
        Files.delete(bin.resolve("sacct"));
        assertThatThrownBy(() -> service(Map.of(), null).check()).hasMessageStartingWith(
                "trainingService.platform: slurm needs 'sacct' and it is not on the PATH (" + bin + ")");
        script("sacct", "exit 0\n");
        Path file = Files.writeString(tmp.resolve("file"), "");
        assertThatThrownBy(() -> service(Map.of("sharedDirectory", file.toString()), null).check())
                .hasMessageStartingWith("trainingService.sharedDirectory: cannot write in " + file.resolve("EXP1"));
    }

    @Test
    void pollDeliversTheMetricsThenTheExitAndAsksSlurmOnceForAllJobs() throws Exception {
        TrainingService s = service(Map.of(), null);
        Recorder r = open(s);
        s.start(launch("A", 0));
        s.start(launch("B", 1));
        s.start(launch("C", 2));
        setState("100", "RUNNING");
        appendMetric(trialDir("A"), "{\"type\": \"PERIODICAL\", \"sequence\": 0, \"value\": \"1\"}");
        s.poll();
        assertThat(log("squeue")).hasSize(1);
        assertThat(r.seen).containsExactly("A metric {\"type\": \"PERIODICAL\", \"sequence\": 0, \"value\": \"1\"}");
        appendMetric(trialDir("A"), "{\"type\": \"FINAL\", \"sequence\": 0, \"value\": \"2\"}");
        exit(trialDir("A"), 0);
        setState("100", "COMPLETED");
        s.poll();
        assertThat(log("squeue")).hasSize(2);
        assertThat(r.seen).containsExactly("A metric {\"type\": \"PERIODICAL\", \"sequence\": 0, \"value\": \"1\"}",
                "A metric {\"type\": \"FINAL\", \"sequence\": 0, \"value\": \"2\"}", "A exited 0");
        assertThat(r.framesRead("A")).isEqualTo(new int[] {2, 0});
        s.close();
        assertThat(log("scancel")).containsExactly("101 102");
    }

    @Test
    void aJobThatEndedWithoutItsExitStatusEndsAsItsSlurmStateSays() throws Exception {
        TrainingService s = service(Map.of(), null);
        Recorder r = open(s);
        List<String> states = List.of("NODE_FAIL", "PREEMPTED", "CANCELLED", "TIMEOUT", "OUT_OF_MEMORY", "FAILED");
        for (int i = 0; i < states.size(); i++) {
            s.start(launch("J" + i, i));
            setState(Integer.toString(100 + i), states.get(i));
        }
        s.poll();
        assertThat(r.seen).as("a final state is taken on the second look, in case the exit file is on its way").isEmpty();
        s.poll();
        assertThat(r.seen).containsExactly(
                "J0 ended LOST: Slurm job 100 ended NODE_FAIL",
                "J1 ended LOST: Slurm job 101 ended PREEMPTED",
                "J2 ended USER_CANCELED: Slurm job 102 was cancelled outside Tunekit (scancel)",
                "J3 ended USER_CANCELED: Slurm job 103 reached its time limit (TIMEOUT)",
                "J4 ended FAILED: Slurm job 104 ended OUT_OF_MEMORY without an exit status; see " + trialDir("J4").resolve("slurm.out"),
                "J5 ended FAILED: Slurm job 105 ended FAILED without an exit status; see " + trialDir("J5").resolve("slurm.out"));
        s.close();
        assertThat(log("scancel")).isEmpty();
    }

    @Test
    void aSignalsExitStatusWaitsForSlurmsStateWhichSaysWhetherSlurmEndedTheJob() throws Exception {
        // Slurm's SIGTERM reached the trial before the job's script, which wrote 143: the state decides
        TrainingService s = service(Map.of(), null);
        Recorder r = open(s);
        List<String> states = List.of("NODE_FAIL", "CANCELLED", "TIMEOUT", "FAILED", "FAILED");
        List<Integer> codes = List.of(143, 143, 143, 137, 1);
        for (int i = 0; i < states.size(); i++) {
            s.start(launch("J" + i, i));
            setState(Integer.toString(100 + i), "RUNNING");
            exit(trialDir("J" + i), codes.get(i));
        }
        s.poll();
        assertThat(r.seen).as("a status below 129 is the script's own, at once").containsExactly("J4 exited 1");
        for (int i = 0; i < states.size(); i++) {
            setState(Integer.toString(100 + i), states.get(i));
        }
        s.poll();
        assertThat(r.seen).hasSize(1);
        s.poll();
        assertThat(r.seen).containsExactly("J4 exited 1",
                "J0 ended LOST: Slurm job 100 ended NODE_FAIL",
                "J1 ended USER_CANCELED: Slurm job 101 was cancelled outside Tunekit (scancel)",
                "J2 ended USER_CANCELED: Slurm job 102 reached its time limit (TIMEOUT)",
                "J3 exited 137");
    }

    @Test
    void aSignalsExitStatusIsTakenAtOnceWhenTunekitStoppedTheTrialAndWhenSlurmForgotTheJob() throws Exception {
        TrainingService s = service(Map.of(), null);
        Recorder r = open(s);
        s.start(launch("A", 0));
        s.start(launch("B", 1));
        setState("100", "RUNNING");
        setState("101", "RUNNING");
        s.poll();
        s.stop("A", Duration.ofMinutes(1));
        exit(trialDir("A"), 130);
        exit(trialDir("B"), 143);
        Files.delete(state.resolve("jobs/101"));
        s.poll();
        assertThat(r.seen).containsExactly("A exited 130");
        s.poll();
        assertThat(r.seen).containsExactly("A exited 130", "B exited 143");
    }

    @Test
    void aTimeLimitIsNamedMaxTrialDurationsOnlyWhenTunekitSetIt() throws Exception {
        TrainingService s = service(Map.of(), Duration.ofSeconds(61));
        Recorder r = open(s);
        s.start(launch("A", 0));
        setState("100", "TIMEOUT");
        s.poll();
        s.poll();
        assertThat(r.seen).containsExactly(
                "A ended USER_CANCELED: Slurm job 100 reached its time limit (TIMEOUT; --time is maxTrialDuration rounded up to minutes)");
    }

    @Test
    void aJobSqueueForgotIsAskedOfSacctAndOneNeitherKnowsIsLost() throws Exception {
        TrainingService s = service(Map.of(), null);
        Recorder r = open(s);
        s.start(launch("A", 0));
        s.start(launch("B", 1));
        Files.delete(state.resolve("jobs/100"));
        Files.delete(state.resolve("jobs/101"));
        Files.writeString(state.resolve("acct/100"), "CANCELLED by 0\n");
        s.poll();
        s.poll();
        assertThat(log("squeue")).hasSize(2);
        assertThat(log("sacct")).hasSize(2).allMatch(l -> l.contains("--jobs=100,101"));
        assertThat(r.seen).containsExactly("A ended USER_CANCELED: Slurm job 100 was cancelled outside Tunekit (scancel)",
                "B ended LOST: Slurm no longer knows job 101 and it left no exit status");
    }

    @Test
    void stopSendsSigintThenCancelsAfterTheGraceAndAPendingJobIsCancelledAtOnce() throws Exception {
        TrainingService s = service(Map.of(), null);
        Recorder r = open(s);
        s.start(launch("A", 0));
        s.start(launch("B", 1));
        setState("100", "RUNNING");
        s.poll();
        s.stop("A", Duration.ZERO);
        s.stop("B", Duration.ZERO);
        assertThat(log("scancel")).containsExactly("--signal=INT --full 100", "101");
        s.poll();
        assertThat(log("scancel")).containsExactly("--signal=INT --full 100", "101", "100");
        s.poll();
        assertThat(r.seen).containsExactly("A ended USER_CANCELED: Slurm job 100 was cancelled as asked",
                "B ended USER_CANCELED: Slurm job 101 was cancelled as asked");
    }

    @Test
    void aReattachedJobDeliversOnlyTheMetricsNotDeliveredBeforeAndAnEndedOneItsResults() throws Exception {
        TrainingService first = service(Map.of(), null);
        Recorder r1 = open(first);
        String running = first.start(launch("A", 0)).handle();
        String ended = first.start(launch("B", 1)).handle();
        setState("100", "RUNNING");
        setState("101", "RUNNING");
        for (int i = 0; i < 2; i++) {
            appendMetric(trialDir("A"), "{\"type\": \"PERIODICAL\", \"sequence\": " + i + ", \"value\": \"" + i + "\"}");
        }
        appendMetric(trialDir("B"), "{\"type\": \"PERIODICAL\", \"sequence\": 0, \"value\": \"0\"}");
        first.poll();
        assertThat(r1.seen).hasSize(3);
        // the runner is killed (nothing is cancelled); the jobs go on
        appendMetric(trialDir("A"), "{\"type\": \"PERIODICAL\", \"sequence\": 2, \"value\": \"2\"}");
        appendMetric(trialDir("B"), "{\"type\": \"FINAL\", \"sequence\": 0, \"value\": \"5\"}");
        exit(trialDir("B"), 0);
        Files.delete(state.resolve("jobs/101"));

        TrainingService second = service(Map.of(), null);
        Recorder r2 = open(second);
        assertThat(second.reattach(stored("A", running, r1))).isEqualTo(new TrainingService.Reattached(true, "took back Slurm job 100 (RUNNING)"));
        assertThat(second.reattach(stored("B", ended, r1))).isEqualTo(new TrainingService.Reattached(true,
                "Slurm job 101 ended while the runner was away; its results are read now"));
        assertThat(second.reattach(stored("C", "999@" + trialDir("C"), r1))).isEqualTo(new TrainingService.Reattached(false,
                "Slurm no longer knows job 999 and it left no exit status"));
        second.poll();
        assertThat(r2.seen).containsExactly("A metric {\"type\": \"PERIODICAL\", \"sequence\": 2, \"value\": \"2\"}",
                "B metric {\"type\": \"FINAL\", \"sequence\": 0, \"value\": \"5\"}", "B exited 0");
        second.close();
        assertThat(log("scancel")).containsExactly("100");
    }

    @Test
    void metricsNnisPackagePrintsAreReadFromTheOutputOnceEvenAfterAReattach() throws Exception {
        TrainingService first = service(Map.of(), null);
        Recorder r1 = open(first);
        String handle = first.start(launch("A", 0)).handle();
        setState("100", "RUNNING");
        Path out = trialDir("A").resolve("trial.stdout");
        Files.writeString(out, "epoch 0\nNNISDK_MEb'{\"type\": \"PERIODICAL\", \"sequence\": 0, \"value\": \"1\"}'\nNNISDK_MEb'{\"type\"");
        first.poll();
        assertThat(r1.seen).containsExactly("A metric {\"type\": \"PERIODICAL\", \"sequence\": 0, \"value\": \"1\"}");
        Files.writeString(out, ": \"FINAL\", \"sequence\": 0, \"value\": \"2\"}'\ndone\n", java.nio.file.StandardOpenOption.APPEND);
        exit(trialDir("A"), 0);

        TrainingService second = service(Map.of(), null);
        Recorder r2 = open(second);
        assertThat(second.reattach(stored("A", handle, r1)).running()).isTrue();
        second.poll();
        assertThat(r2.seen).containsExactly("A metric {\"type\": \"FINAL\", \"sequence\": 0, \"value\": \"2\"}", "A exited 0");
    }

    /** The trial as the store holds it after the first manager handled what {@code r} saw of it. */
    private static StoredTrial stored(String jobId, String handle, Recorder r) {
        int[] frames = r.framesRead(jobId);
        return new StoredTrial(0, jobId, 0, "{}", TrialStatus.RUNNING, null, null, handle, null, Instant.EPOCH, frames[0], frames[1]);
    }

    @Test
    void theJobsScriptRunsTheTrialOnNnisFileChannelAndWritesItsExitStatus() throws Exception {
        Files.writeString(code.resolve("train.sh"), """
                cat "$NNI_SYS_DIR/parameter.cfg" > seen.txt
                echo "platform=$NNI_PLATFORM gpus=[$CUDA_VISIBLE_DEVICES]" >> seen.txt
                m='{"type": "FINAL", "sequence": 0, "value": "7"}'
                printf 'ME%06d%s\\n' $(( ${#m} + 1 )) "$m" >> "$NNI_SYS_DIR/.nni/metrics"
                exit 3
                """);
        TrainingServiceContext c = new TrainingServiceContext("EXP1", settings(Map.of("trialGpuNumber", 0L)), "bash train.sh", code, experiment,
                null, Map.of(SlurmProvider.PATH_OPTION, bin.toString()));
        TrainingService s = new SlurmProvider().create(c);
        Recorder r = open(s);
        s.start(launch("A", 0));
        Process p = new ProcessBuilder("bash", trialDir("A").resolve("slurm.sh").toString()).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(3);
        assertThat(Files.readString(code.resolve("seen.txt"))).contains("\"x\": 1").contains("platform=slurm gpus=[]");
        s.poll();
        assertThat(r.seen).containsExactly("A metric {\"type\": \"FINAL\", \"sequence\": 0, \"value\": \"7\"}", "A exited 3");
        s.close();
    }
}
