package org.tunekit.study;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A worker program of {@link PostgresWorkersTest}, run in a JVM of its own on the tests' class path:
 *
 * <pre>
 * StudyWorker run   URL USER PASSWORD STUDY TRIALS THREADS   runs TRIALS trials on THREADS threads, then prints
 *                                                            "told NUMBER VALUE" for each value its objective returned
 * StudyWorker block URL USER PASSWORD STUDY                  starts one trial, prints "started NUMBER WORKER", and
 *                                                            waits to be killed (heartbeat every 200 ms)
 * </pre>
 */
final class StudyWorker {
    private StudyWorker() {}

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        StudyBuilder builder = Study.named(args[4]).space(PostgresLab.SPACE).tuner("TPE").minimize()
                .storage(Storage.postgres(args[1], args[2], args[3])).loadIfExists();
        if (mode.equals("block")) {
            Study study = builder.heartbeat(Duration.ofMillis(200), Duration.ofSeconds(2)).open();
            Trial t = study.ask();
            System.out.println("started " + t.number() + " " + study.worker());
            System.out.flush();
            Thread.sleep(Long.MAX_VALUE);
            return;
        }
        int trials = Integer.parseInt(args[5]);
        int threads = Integer.parseInt(args[6]);
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
