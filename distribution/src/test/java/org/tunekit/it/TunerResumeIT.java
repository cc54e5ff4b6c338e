package org.tunekit.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.tunekit.dispatcher.plugin.ExperimentConfig;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.tunekit.dispatcher.protocol.JsonCodec;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.sdk.spi.TunerProvider;

/**
 * Every built-in tuner, run by the real dispatcher process, killed with SIGKILL while a trial runs
 * and resumed as NNI's manager resumes it ({@code NNI_MODE=resume}, {@code IN}, then {@code FD}
 * with every finished trial): the resumed tuner holds every earlier result and makes, for the
 * parameter ids it is given, exactly the suggestions that an uninterrupted instance with the same
 * seed and the same results makes (built here, in the test's own JVM), none of them a set it has a
 * result for. Tuners without a checkpoint rebuild themselves from the imported results; the few
 * that keep one (grid search) restore it.
 */
class TunerResumeIT {
    private static final Duration LIMIT = Duration.ofSeconds(60);
    private static final int BEFORE = 8;
    private static final int AFTER = 3;
    private static final Map<String, Object> SPACE = space();

    @TempDir
    Path tmp;

    private static Map<String, Object> space() {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("x", Map.of("_type", "uniform", "_value", List.of(0, 1)));
        s.put("lr", Map.of("_type", "loguniform", "_value", List.of(1e-4, 1e-1)));
        s.put("k", Map.of("_type", "choice", "_value", List.of(1, 2, 3, 4)));
        s.put("n", Map.of("_type", "randint", "_value", List.of(1, 10)));
        return s;
    }

    static Stream<Arguments> tuners() {
        return Stream.of(
                Arguments.of("TPE", Map.of("tpe_args", Map.of("n_startup_jobs", 4))),
                Arguments.of("TPE", Map.of("tpe_args", Map.of("n_startup_jobs", 4), "multivariate", true)),
                Arguments.of("Random", Map.of()),
                Arguments.of("Anneal", Map.of()),
                Arguments.of("Evolution", Map.of("population_size", 4)),
                Arguments.of("RegularizedEvolutionTuner", Map.of("population_size", 4, "sample_size", 2)),
                Arguments.of("SMAC", Map.of()),
                Arguments.of("GPTuner", Map.of("cold_start_num", 4)),
                Arguments.of("DNGOTuner", Map.of()),
                Arguments.of("MetisTuner", Map.of("cold_start_num", 4)),
                Arguments.of("TuRBO", Map.of("initial_points", 4)),
                Arguments.of("Auto", Map.of()),
                Arguments.of("CMAES", Map.of()),
                Arguments.of("Sobol", Map.of()),
                Arguments.of("GridSearch", Map.of()));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("tuners")
    void killedWhileATrialRunsAndResumedItCarriesOnAsIfUninterrupted(String name, Map<String, Object> extra) throws Exception {
        killAndResume(name, extra, BEFORE);
    }

    /**
     * {@code Auto} past its hand-over: TuRBO's first trust region collapses within the first 60 results (they
     * seldom improve), TPE goes on from them, and the resumed process replays the results to the same hand-over.
     */
    @Test
    void autoKilledAfterItsHandOverResumesAsIfUninterrupted() throws Exception {
        Runs runs = killAndResume("Auto", Map.of(), 60);
        assertThat(runs.first()).contains("TuRBO's first trust region collapsed at result");
        // the imported results bring the resumed process to the same hand-over
        String handOver = runs.first().substring(runs.first().indexOf("TuRBO's first trust region collapsed at result")).lines().findFirst()
                .orElseThrow();
        assertThat(runs.resumed()).contains(handOver);
    }

    /** The logs ({@code dispatcher.log}) of the process that was killed and of the one that resumed. */
    record Runs(String first, String resumed) {}

    /** Runs {@code before} trials, kills the process while one more runs, resumes it. */
    private Runs killAndResume(String name, Map<String, Object> extra, int before) throws Exception {
        Map<String, Object> arguments = new LinkedHashMap<>(extra);
        if (!name.equals("GridSearch")) {
            arguments.put("seed", 11);
        }
        arguments.put("optimize_mode", "minimize");
        String config = ExperimentConfig.encode(Map.of("tuner", Map.of("name", name, "classArgs", arguments)));
        String space = JsonCodec.write(SPACE);
        Path checkpoints = tmp.resolve("checkpoint");
        List<Trial> finished = new ArrayList<>();

        long inFlight;
        String firstRun;
        String resumed;
        try (TunekitProcess p = TunekitProcess.dispatch(config, env(checkpoints, "start", 0))) {
            initialize(p, space, name);
            for (int i = 0; i < before; i++) {
                finished.add(finish(p, ask(p, name), i));
            }
            // one more trial is running when the dispatcher is killed: its answer also shows that every
            // earlier result and trial end has been handled
            inFlight = ask(p, name).id();
            ProcessHandle.of(p.pid()).ifPresent(ProcessHandle::destroyForcibly);
            assertThat(p.waitFor(LIMIT)).isEqualTo(137);
            firstRun = Files.readString(logDirectory(0).resolve("dispatcher.log"));
        }

        Reference reference = new Reference(name, arguments);
        for (Trial t : finished) {
            assertThat(reference.suggest(t.id())).as("%s: the seed gives the same sequence in both JVMs", name).isEqualTo(t.parameters());
            reference.learn(t);
        }

        try (TunekitProcess p = TunekitProcess.dispatch(config, env(checkpoints, "resume", 1))) {
            initialize(p, space, name);
            List<Map<String, Object>> imported = new ArrayList<>();
            for (Trial t : finished) {
                imported.add(Map.of("parameter", t.parameters(), "value", t.value(), "trialJobId", job(t.id())));
            }
            p.send(new Command(CommandType.IMPORT_DATA, JsonCodec.write(imported)));
            for (int i = 0; i < AFTER; i++) {
                Trial next = ask(p, name);
                assertThat(next.id()).as("%s: parameter ids go on above every earlier one", name).isGreaterThan(inFlight);
                assertThat(finished).as("%s: parameter id %d suggests again a set with a result", name, next.id())
                        .noneMatch(t -> t.parameters().equals(next.parameters()));
                assertThat(next.parameters()).as("%s: after the resume, parameter id %d (stderr:\n%s)", name, next.id(), p.stderr())
                        .isEqualTo(reference.suggest(next.id()));
                Trial done = finish(p, next, before + i);
                reference.learn(done);
                finished.add(done);
            }
            p.send(Command.of(CommandType.TERMINATE));
            assertThat(p.waitFor(LIMIT)).as(p.stderr()).isZero();
            resumed = Files.readString(logDirectory(1).resolve("dispatcher.log"));
        }
        List<String> written;
        try (Stream<Path> files = Files.list(checkpoints)) {
            written = files.map(f -> f.getFileName().toString()).sorted().toList();
        }
        assertThat(Files.exists(checkpoints.resolve("tuner")))
                .as("%s keeps a checkpoint only when results cannot rebuild it: %s", name, written).isEqualTo(name.equals("GridSearch"));
        return new Runs(firstRun, resumed);
    }

    private static void initialize(TunekitProcess p, String space, String name) throws Exception {
        p.send(new Command(CommandType.INITIALIZE, space));
        Command c = p.next(LIMIT);
        assertThat(c).as("%s answered nothing to IN:\n%s", name, p.stderr()).isNotNull();
        assertThat(c.type()).as("%s: %s\n%s", name, c, p.stderr()).isEqualTo(CommandType.INITIALIZED);
    }

    private Map<String, String> env(Path checkpoints, String mode, int run) {
        return Map.of("NNI_CHECKPOINT_DIRECTORY", checkpoints.toString(), "NNI_MODE", mode, "TUNEKIT_CHECKPOINT_INTERVAL_MS", "0",
                "NNI_LOG_DIRECTORY", logDirectory(run).toString());
    }

    private Path logDirectory(int run) {
        return tmp.resolve("log-" + run);
    }

    /** A trial handed out and, once finished, its value. */
    record Trial(long id, Map<String, Object> parameters, double value) {}

    private static Trial ask(TunekitProcess p, String name) throws Exception {
        p.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "1"));
        Command tr = p.next(LIMIT);
        assertThat(tr).as("%s answered nothing:\n%s", name, p.stderr()).isNotNull();
        assertThat(tr.type()).as("%s: %s\n%s", name, tr, p.stderr()).isEqualTo(CommandType.NEW_TRIAL_JOB);
        Map<?, ?> m = (Map<?, ?>) JsonCodec.parse(tr.payload(), "TR");
        return new Trial(((Number) m.get("parameter_id")).longValue(), asMap(m.get("parameters")), Double.NaN);
    }

    /** Reports a trial's final result (a fixed function of its place) and its end. */
    private static Trial finish(TunekitProcess p, Trial t, int place) throws Exception {
        double value = (place * 0.6180339887498949) % 1.0;
        p.send(new Command(CommandType.REPORT_METRIC_DATA, "{\"parameter_id\": " + t.id() + ", \"trial_job_id\": \"" + job(t.id())
                + "\", \"type\": \"FINAL\", \"sequence\": 0, \"value\": \"" + value + "\"}"));
        p.send(new Command(CommandType.TRIAL_END, "{\"trial_job_id\": \"" + job(t.id()) + "\", \"event\": \"SUCCEEDED\", \"hyper_params\": "
                + JsonCodec.write(JsonCodec.write(Map.of("parameter_id", t.id(), "parameter_source", "algorithm", "parameters", t.parameters(),
                        "parameter_index", 0))) + "}"));
        return new Trial(t.id(), t.parameters(), value);
    }

    private static String job(long id) {
        return "T" + id;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object o) {
        return (Map<String, Object>) o;
    }

    /** The uninterrupted instance: the same tuner, made in this JVM, given the same ids and results. */
    private static final class Reference {
        private final Tuner tuner;

        Reference(String name, Map<String, Object> arguments) {
            TunerProvider provider = ServiceLoader.load(TunerProvider.class).stream().map(ServiceLoader.Provider::get)
                    .filter(t -> t.name().equals(name)).findFirst().orElseThrow(() -> new AssertionError("no built-in tuner " + name));
            tuner = provider.create(ClassArguments.of(arguments));
            tuner.open(parameters -> {
                throw new AssertionError("the reference sends no trials");
            });
            tuner.updateSearchSpace(SearchSpace.parse(SPACE));
        }

        /** The suggestion for {@code id}, as the wire carries it. */
        Map<String, Object> suggest(long id) throws Exception {
            Parameters p = tuner.generateParameters(id);
            return asMap(JsonCodec.parse(JsonCodec.write(p.values()), "parameters"));
        }

        void learn(Trial t) {
            Parameters p = Parameters.of(t.parameters());
            tuner.receiveTrialResult(new TrialResult(t.id(), p, Metric.of(t.value()), false, job(t.id())));
            tuner.trialEnd(t.id(), true);
        }
    }
}
