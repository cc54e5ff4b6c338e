package org.tunekit.runner;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.tunekit.dispatcher.protocol.JsonCodec;
import org.tunekit.dispatcher.protocol.ProtocolException;
import org.tunekit.nniconfig.ConfigException;
import org.tunekit.sdk.space.SearchSpace;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The commands that steer an experiment by a request in its store ({@link Steering}): a running
 * experiment takes it within a second and the command prints the answer; one not running takes it when
 * resumed.
 */
public final class SteeringCommands {
    /** How long a command waits for the runner's answer. */
    static final Duration ANSWER_WITHIN = Duration.ofSeconds(10);

    private SteeringCommands() {}

    /** What every steering command takes: the experiment. */
    public abstract static class Base implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        ExperimentArgument target;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            String name = spec.qualifiedName();
            try {
                Path folder = target.folder();
                List<ExperimentStore.Request> asked = new ArrayList<>();
                for (Map.Entry<String, String> r : requests(folder)) {
                    long id = ExperimentStore.request(folder, r.getKey(), r.getValue(), Instant.now());
                    asked.add(new ExperimentStore.Request(id, r.getKey(), r.getValue(), "WAITING", null));
                }
                return report(folder, asked, out, err, name);
            } catch (ConfigException | RunnerException | IllegalArgumentException e) {
                err.println(name + ": " + e.getMessage());
                err.flush();
                return 2;
            }
        }

        /** The requests to record, as (kind, payload), after checking them. */
        abstract List<Map.Entry<String, String>> requests(Path folder);
    }

    /** Waits for the answers and prints them: 0 when all were done, 1 when one was refused, 3 when the runner did not answer. */
    static int report(Path folder, List<ExperimentStore.Request> asked, PrintWriter out, PrintWriter err, String name) {
        List<ExperimentReader.Request> answers;
        try {
            answers = ExperimentRequests.await(folder, asked.stream().map(ExperimentStore.Request::id).toList(), ANSWER_WITHIN);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 3;
        }
        int status = 0;
        for (ExperimentReader.Request r : answers) {
            switch (r.state()) {
                case "DONE" -> out.println(r.answer());
                case "REFUSED" -> {
                    err.println(name + ": refused: " + r.answer());
                    status = Math.max(status, 1);
                }
                default -> {
                    out.println("request " + r.id() + " (" + r.kind() + ") waits: no runner answered within " + ANSWER_WITHIN.toSeconds()
                            + " s; it is taken when the experiment runs (tunekit run --resume " + folder.getFileName() + ")");
                    status = 3;
                }
            }
        }
        out.flush();
        err.flush();
        return status;
    }

    @Command(name = "update", mixinStandardHelpOptions = true, sortOptions = false,
            description = "Change a running experiment's limits (or those a resumed run keeps).")
    public static final class Update extends Base {
        @Option(names = "--trial-concurrency", paramLabel = "N", description = "Trials running at once.")
        Integer concurrency;

        @Option(names = "--max-trial-number", paramLabel = "N", description = "Trials to run at most; 0 for no limit.")
        Long maxTrialNumber;

        @Option(names = "--max-experiment-duration", paramLabel = "D",
                description = "How long the experiment may run (30m, 2h, 1d), counted from the run's start; 0 for no limit.")
        String maxExperimentDuration;

        @Override
        List<Map.Entry<String, String>> requests(Path folder) {
            Map<String, Object> limits = new LinkedHashMap<>();
            if (concurrency != null) {
                limits.put("trialConcurrency", (long) concurrency);
            }
            if (maxTrialNumber != null) {
                limits.put("maxTrialNumber", maxTrialNumber);
            }
            if (maxExperimentDuration != null) {
                limits.put("maxExperimentDuration", maxExperimentDuration);
            }
            if (limits.isEmpty()) {
                throw new IllegalArgumentException("give at least one of --trial-concurrency, --max-trial-number, --max-experiment-duration");
            }
            String payload = JsonCodec.write(limits);
            Steering.limits(payload);
            return List.of(Map.entry(Steering.LIMITS, payload));
        }
    }

    @Command(name = "enqueue", mixinStandardHelpOptions = true, sortOptions = false,
            description = "Run trials with given parameters next (NNI's customized trials); the tuner learns their results.")
    public static final class Enqueue extends Base {
        @Parameters(index = "1", paramLabel = "FILE",
                description = "A JSON file: one object of parameter: value, or a list of them; '-' for standard input.")
        String file;

        @Override
        List<Map.Entry<String, String>> requests(Path folder) {
            String text;
            try {
                text = file.equals("-") ? new String(System.in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8) : Files.readString(Path.of(file));
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read " + file + ": " + e.getMessage(), e);
            }
            Object parsed;
            try {
                parsed = JsonCodec.parse(text, file);
            } catch (ProtocolException e) {
                throw new IllegalArgumentException(e.getMessage(), e);
            }
            List<?> sets = parsed instanceof List<?> l ? l : java.util.Collections.singletonList(parsed);
            SearchSpace space;
            try (ExperimentStore store = ExperimentStore.open(folder, true)) {
                space = SearchSpace.parse(store.spec().searchSpace());
            }
            List<Map.Entry<String, String>> out = new ArrayList<>();
            for (int i = 0; i < sets.size(); i++) {
                try {
                    Map<String, Object> p = Steering.checkParameters(space, sets.get(i));
                    out.add(Map.entry(Steering.ADD_TRIAL, Steering.addTrialPayload(p, null)));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(file + (sets.size() > 1 ? " [" + i + "]" : "") + ": " + e.getMessage(), e);
                }
            }
            return out;
        }
    }

    @Command(name = "stop", mixinStandardHelpOptions = true, sortOptions = false,
            description = "Stop a running experiment (it can be resumed), or one of its trials.")
    public static final class Stop extends Base {
        @Option(names = "--trial", paramLabel = "JOB", description = "Stop only this trial (its job id); it ends USER_CANCELED.")
        String trial;

        @Override
        List<Map.Entry<String, String>> requests(Path folder) {
            return trial == null ? List.of(Map.entry(Steering.STOP, "{}"))
                    : List.of(Map.entry(Steering.STOP_TRIAL, JsonCodec.write(Map.of("trialJobId", trial))));
        }
    }
}
