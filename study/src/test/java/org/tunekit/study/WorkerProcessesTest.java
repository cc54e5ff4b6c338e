package org.tunekit.study;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Worker programs in JVMs of their own on one stored study: many workers at once hand out each parameter set once and
 * keep every result, and a worker killed in a trial has it failed by another, which runs its parameters again.
 */
abstract class WorkerProcessesTest {
    private final List<String> names = new ArrayList<>();
    private final List<Process> processes = new ArrayList<>();
    @TempDir
    Path logs;

    /** Where the study lives, as {@link StudyWorker} takes it. */
    abstract String storageArgument(String study);

    abstract Storage storage(String study);

    /** How many workers, each running how many trials. */
    abstract int workers();

    abstract int trialsEach();

    /** Removes a study the test made. */
    abstract void drop(String study);

    @AfterEach
    void cleanUp() {
        processes.forEach(Process::destroyForcibly);
        names.forEach(this::drop);
    }

    String name(String prefix) {
        String n = PostgresLab.uniqueName(prefix);
        names.add(n);
        return n;
    }

    @Test
    void workerProcessesOfTwoThreadsRunTheirTrialsOfOneStudy() throws Exception {
        String n = name("workers");
        int workers = workers();
        int each = trialsEach();
        List<CompletableFuture<List<String>>> outputs = new ArrayList<>();
        for (int i = 0; i < workers; i++) {
            Process p = worker("w" + i, "run", n, Integer.toString(each), "2");
            outputs.add(CompletableFuture.supplyAsync(() -> lines(p)));
        }
        Map<Integer, Double> told = new HashMap<>();
        for (int i = 0; i < workers; i++) {
            Process p = processes.get(i);
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("worker %d ended", i).isTrue();
            assertThat(p.exitValue()).as("worker %d's exit status; its errors: %s", i, errors("w" + i)).isZero();
            for (String line : outputs.get(i).get()) {
                String[] f = line.split(" ");
                if (f[0].equals("told")) {
                    Double before = told.put(Integer.parseInt(f[1]), Double.parseDouble(f[2]));
                    assertThat(before).as("trial %s told twice", f[1]).isNull();
                }
            }
        }
        assertThat(told).hasSize(workers * each);
        try (Study study = Study.load(n, storage(n))) {
            List<TrialRecord> trials = study.trials();
            assertThat(trials).hasSize(workers * each);
            assertThat(trials.stream().map(TrialRecord::number)).doesNotHaveDuplicates();
            assertThat(trials.stream().map(TrialRecord::parameterId)).doesNotHaveDuplicates();
            assertThat(trials).allMatch(t -> t.state() == TrialState.SUCCEEDED && t.ended() != null);
            assertThat(trials.stream().map(TrialRecord::worker).distinct()).hasSize(workers);
            for (TrialRecord t : trials) {
                assertThat(t.value()).as("trial %d", t.number()).contains(told.get(t.number()));
                double x = ((Number) t.parameters().values().get("x")).doubleValue();
                double y = ((Number) t.parameters().values().get("y")).doubleValue();
                assertThat(t.value()).contains(x * x + y * y);
            }
            assertThat(study.trials().stream().filter(t -> t.state() == TrialState.RUNNING)).isEmpty();
        }
    }

    @Test
    void aWorkerKilledInATrialIsFailedByAnotherAndItsParametersRunAgain() throws Exception {
        String n = name("killed");
        try (Study detector = Study.named(n).space(PostgresLab.SPACE).tuner("TPE").minimize().storage(storage(n)).loadIfExists().heartbeat(Duration.ofMillis(200), Duration.ofSeconds(2)).retryFailedTrials().open()) {
            Process victim = worker("victim", "block", n);
            BufferedReader out = new BufferedReader(new InputStreamReader(victim.getInputStream(), StandardCharsets.UTF_8));
            String line = CompletableFuture.supplyAsync(() -> {
                try {
                    return out.readLine();
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }).get(60, TimeUnit.SECONDS);
            assertThat(line).as("the victim's first line; its errors: %s", errors("victim")).isNotNull();
            String[] started = line.split(" ");
            assertThat(started[0]).as("the victim's first line; its errors: %s", errors("victim")).isEqualTo("started");
            int number = Integer.parseInt(started[1]);
            String victimWorker = started[2];
            victim.destroyForcibly().waitFor();

            Instant giveUp = Instant.now().plusSeconds(60);
            TrialRecord retried = null;
            while (retried == null) {
                assertThat(Instant.now()).as("the victim's trial failed and ran again within a minute").isBefore(giveUp);
                Trial t = detector.ask();
                TrialRecord r = detector.tell(t, PostgresLab.sphere(t));
                if (r.enqueued()) {
                    retried = r;
                }
                Thread.sleep(200);
            }
            List<TrialRecord> trials = detector.trials();
            TrialRecord killed = trials.get(number);
            assertThat(killed.state()).isEqualTo(TrialState.FAILED);
            assertThat(killed.worker()).isEqualTo(victimWorker);
            assertThat(killed.message()).contains("its worker " + victimWorker + " sent no heartbeat").contains("run again");
            assertThat(retried.parameters()).isEqualTo(killed.parameters());
            assertThat(retried.state()).isEqualTo(TrialState.SUCCEEDED);
            assertThat(retried.number()).isGreaterThan(number);
            assertThat(trials.stream().filter(t -> t.state() == TrialState.FAILED)).hasSize(1);
            assertThat(trials.stream().filter(TrialRecord::enqueued)).hasSize(1);
        }
    }

    /** Starts a {@link StudyWorker} in a JVM of its own; its standard error goes to a file named after it. */
    private Process worker(String label, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx256m", "-cp", System.getProperty("java.class.path"), StudyWorker.class.getName()));
        command.add(args[0]);
        command.add(storageArgument(args[1]));
        command.addAll(List.of(args).subList(1, args.length));
        Process p = new ProcessBuilder(command).redirectError(logs.resolve(label + ".err").toFile()).redirectInput(ProcessBuilder.Redirect.from(
                new File("/dev/null"))).start();
        processes.add(p);
        return p;
    }

    private String errors(String label) {
        try {
            String s = Files.readString(logs.resolve(label + ".err"));
            return s.length() > 4000 ? s.substring(s.length() - 4000) : s;
        } catch (IOException e) {
            return "(none: " + e.getMessage() + ")";
        }
    }

    private static List<String> lines(Process p) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            return r.lines().toList();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
