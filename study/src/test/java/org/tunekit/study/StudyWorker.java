package org.tunekit.study;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A worker program of {@link WorkerProcessesTest}, run in a JVM of its own on the tests' class path. STORAGE is the
 * lab's JDBC URL (PostgreSQL, with the lab's user) or a folder (SQLite):
 *
 * <pre>
 * StudyWorker run   STORAGE STUDY TRIALS THREADS   runs TRIALS trials on THREADS threads, then prints
 *                                                  "told NUMBER VALUE" for each value its objective returned
 * StudyWorker block STORAGE STUDY                  starts one trial, prints "started NUMBER WORKER", and
 *                                                  waits to be killed (heartbeat every 200 ms)
 * </pre>
 */
final class StudyWorker {
    private StudyWorker() {}

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        Storage storage = args[1].startsWith("jdbc:") ? Storage.postgres(args[1], PostgresLab.USER, PostgresLab.PASSWORD)
                : Storage.sqlite(java.nio.file.Path.of(args[1]));
        StudyBuilder builder = Study.named(args[2]).space(PostgresLab.SPACE).tuner("TPE").minimize().storage(storage).loadIfExists();
        if (mode.equals("block")) {
            Study study = builder.heartbeat(Duration.ofMillis(200), Duration.ofSeconds(2)).open();
            Trial t = study.ask();
            System.out.println("started " + t.number() + " " + study.worker());
            System.out.flush();
            Thread.sleep(Long.MAX_VALUE);
            return;
        }
        int trials = Integer.parseInt(args[3]);
        int threads = Integer.parseInt(args[4]);
        List<String> told = Collections.synchronizedList(new ArrayList<>());
        try (Study study = builder.open()) {
            ObjectiveFunction objective = t -> {
                Thread.sleep(5);
                double v = PostgresLab.sphere(t);
                told.add("told " + t.number() + " " + v);
                return v;
            };
            study.optimize(objective, OptimizeOptions.trials(trials).threads(threads));
        }
        told.forEach(System.out::println);
        System.out.flush();
    }
}
