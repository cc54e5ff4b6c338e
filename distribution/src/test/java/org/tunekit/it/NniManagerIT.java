package org.tunekit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.tunekit.dispatcher.protocol.JsonCodec;
import org.tunekit.dispatcher.protocol.ProtocolException;

/**
 * Tunekit as the tuner process of NNI 3's own experiment manager, unmodified and built from source
 * by {@code nni-lab/build.sh}: each case writes an NNI v2 experiment config and a launcher script
 * ({@code exec tunekit "$@"}) that the manager runs as its Python interpreter, runs the experiment
 * with {@code nni-lab/run-experiment.sh} (local training service, real trials), and checks the
 * script's status, the trial table it prints and {@code wire.txt}, the tuner WebSocket as recorded
 * between the manager and the dispatcher.
 *
 * <p>Needs the manager build, named by {@code $NNI_LAB} (as {@code build.sh} makes it, e.g.
 * {@code NNI_LAB=~/nni-lab}), and the scripts in {@code ../shared/nni-lab} next to the repository;
 * without either every case is skipped, saying which is missing (as in CI, which sets no {@code NNI_LAB}:
 * the suite takes minutes). The case with a trial written for NNI in Python also needs NNI's prepared trial
 * side ({@code $NNI_TRIAL_SIDE/v3}, default {@code ~/nni-trial-side/v3}). Everything a case starts
 * carries its temporary folder in its environment (the script's {@code RUN_DIR}, the manager's
 * {@code HOME}); whatever is still running when a case ends is found that way and killed.
 */
class NniManagerIT {
    private static final String LAB_VARIABLE = System.getenv("NNI_LAB");
    private static final Path LAB = LAB_VARIABLE == null ? null : Path.of(LAB_VARIABLE);
    private static final Path MANAGER = LAB == null ? null : LAB.resolve("nni-src/ts/nni_manager/dist/main.js");
    private static final Path SCRIPTS = TunekitProcess.HOME.resolve("../shared/nni-lab").normalize();
    private static final Path RUN_EXPERIMENT = SCRIPTS.resolve("run-experiment.sh");
    private static final Path TRIALS = SCRIPTS.resolve("trials");
    private static final Path NNI_TRIAL_SIDE = Path.of(System.getenv().getOrDefault("NNI_TRIAL_SIDE",
            System.getProperty("user.home") + "/nni-trial-side")).resolve("v3");
    private static final String PYTHON = "/usr/bin/python3";
    /** How long the dispatcher may take to exit once the manager has stopped. */
    private static final Duration DISPATCHER_EXIT = Duration.ofSeconds(15);
    private static final Set<String> CANCELED = Set.of("USER_CANCELED", "EARLY_STOPPED");

    /** x in [0, 1], lr log-uniform in [1e-4, 0.1], units a choice: the space most cases search. */
    private static final Map<String, Object> SPACE = map(
            "x", map("_type", "uniform", "_value", List.of(0, 1)),
            "lr", map("_type", "loguniform", "_value", List.of(0.0001, 0.1)),
            "units", map("_type", "choice", "_value", List.of(16, 32, 64)));

    @TempDir
    Path tmp;

    @BeforeEach
    void needsNnisManager() {
        assumeTrue(LAB != null, "NNI_LAB is not set: set it to a build of NNI 3's manager (" + SCRIPTS.resolve("build.sh")
                + " on a fetch of github:microsoft/nni makes one in ~/nni-lab)");
        assumeTrue(Files.isRegularFile(MANAGER), "NNI 3's manager is not built: " + MANAGER + " is missing (run "
                + SCRIPTS.resolve("build.sh") + " on a fetch of github:microsoft/nni, or set NNI_LAB)");
        assumeTrue(Files.isRegularFile(RUN_EXPERIMENT), "the nni-lab scripts are missing: no " + RUN_EXPERIMENT);
        assumeTrue(Files.isDirectory(TRIALS), "the nni-lab trials are missing: no " + TRIALS);
    }

    // ---------------------------------------------------------------------------------------------
    // tuners

    static Stream<Arguments> tuners() {
        return Stream.of(
                Arguments.of("Random", map("optimize_mode", "maximize", "seed", 7)),
                Arguments.of("TPE", map("optimize_mode", "maximize", "seed", 7, "tpe_args", map("n_startup_jobs", 2))),
                Arguments.of("GPTuner", map("optimize_mode", "maximize", "seed", 7, "cold_start_num", 2)),
                Arguments.of("Evolution", map("optimize_mode", "maximize", "seed", 7, "population_size", 3)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("tuners")
    void eachTunerFamilyRunsAnExperimentToDone(String tuner, Map<String, Object> classArgs) throws Exception {
        Map<String, Object> config = config(SPACE, 2, 4);
        config.put("tuner", map("name", tuner, "classArgs", classArgs));
        Run run = run(tuner, config, Map.of());

        run.assertDone();
        List<Row> rows = run.table();
        assertThat(rows).as(run.describe()).hasSize(4).allSatisfy(r -> {
            assertThat(r.status()).isEqualTo("SUCCEEDED");
            assertThat(r.finalValue()).isNotEmpty();
        });
        Wire wire = run.wire();
        assertThat(wire.fromDispatcher()).first().extracting(Message::type).isEqualTo("ID");
        assertThat(wire.fromDispatcher("ER")).as(run.describe()).isEmpty();
        List<Map<String, Object>> trs = wire.trialRecords();
        assertIdsCountFromZero(trs, 4);
        assertThat(trs).allSatisfy(tr -> {
            assertThat(tr.get("parameter_source")).isEqualTo("algorithm");
            assertInSpace(parameters(tr));
        });
        assertThat(rows).extracting(Row::parameterId).doesNotHaveDuplicates()
                .allSatisfy(id -> assertThat(Long.parseLong(id)).isLessThan(trs.size()));
        // every final result went to the dispatcher, keyed by a parameter id it handed out
        assertThat(wire.metrics("FINAL")).hasSize(4).extracting(NniManagerIT::parameterId).doesNotHaveDuplicates()
                .allSatisfy(id -> assertThat(id).isLessThan(trs.size()));
    }

    @Test
    void gridSearchRunsEachPointOfAFiniteSpaceOnceThenSaysNoMore() throws Exception {
        List<Double> xs = List.of(0.2, 0.8);
        List<Double> lrs = List.of(0.01, 0.001);
        Map<String, Object> space = map("x", map("_type", "choice", "_value", xs), "lr", map("_type", "choice", "_value", lrs));
        // NNI 3's manager leaves "tuner has no more trials" for DONE only at maxTrialNumber or
        // maxExperimentDuration: the duration ends this experiment once the grid is done
        Map<String, Object> config = config(space, 2, 10);
        config.put("maxExperimentDuration", "12s");
        config.put("tuner", map("name", "GridSearch", "classArgs", map("optimize_mode", "maximize")));
        Run run = run("grid", config, Map.of());

        run.assertDone();
        Wire wire = run.wire();
        Set<List<Object>> points = new HashSet<>();
        for (Map<String, Object> tr : wire.trialRecords()) {
            Map<String, Object> p = parameters(tr);
            assertThat(p).containsOnlyKeys("x", "lr");
            assertThat(points.add(List.of(p.get("x"), p.get("lr")))).as("%s is proposed once", p).isTrue();
        }
        Set<List<Object>> grid = new HashSet<>();
        xs.forEach(x -> lrs.forEach(lr -> grid.add(List.of(x, lr))));
        assertThat(points).as("every point of the grid").isEqualTo(grid);
        assertNoMoreAfterTheLastTrial(wire, 4);
        assertThat(run.table()).hasSize(4).extracting(Row::status).containsOnly("SUCCEEDED");
    }

    @Test
    void batchTunerRunsItsListedSetsInOrderThenSaysNoMore() throws Exception {
        List<Map<String, Object>> sets = List.of(map("x", 0.1, "lr", 0.01), map("x", 0.7, "lr", 0.01), map("x", 0.4, "lr", 0.001));
        Map<String, Object> config = config(map("combine_params", map("_type", "choice", "_value", sets)), 2, 6);
        config.put("maxExperimentDuration", "10s");
        config.put("tuner", map("name", "BatchTuner"));
        Run run = run("batch", config, Map.of());

        run.assertDone();
        Wire wire = run.wire();
        assertThat(wire.trialRecords()).extracting(NniManagerIT::parameters).as("the listed sets, in order").isEqualTo(sets);
        assertNoMoreAfterTheLastTrial(wire, 3);
        assertThat(run.table()).hasSize(3).extracting(Row::status).containsOnly("SUCCEEDED");
    }

    /**
     * TR parameter ids are 0, 1, 2, ...: at least one per trial the manager runs. The manager may ask
     * for more than it will run (GE counts free slots, not the trials left): it keeps the extra
     * records in its queue unused.
     */
    private static void assertIdsCountFromZero(List<Map<String, Object>> trs, int trials) {
        List<Long> ids = trs.stream().map(NniManagerIT::parameterId).toList();
        assertThat(ids).as("parameter ids, in order").hasSizeGreaterThanOrEqualTo(trials)
                .isEqualTo(Stream.iterate(0L, i -> i + 1).limit(ids.size()).toList());
    }

    /** A NO after the last TR, none before it, its record's parameters empty; no TR after it. */
    private static void assertNoMoreAfterTheLastTrial(Wire wire, int trials) {
        List<Message> out = wire.fromDispatcher();
        int firstNo = out.stream().map(Message::type).toList().indexOf("NO");
        assertThat(firstNo).as("a NO went to the manager: %s", out).isGreaterThanOrEqualTo(0);
        assertThat(out.subList(0, firstNo)).filteredOn(m -> m.type().equals("TR")).hasSize(trials);
        assertThat(out.subList(firstNo, out.size())).extracting(Message::type).as("after the first NO").containsOnly("NO");
        Map<String, Object> no = wire.json(out.get(firstNo));
        assertThat(no.get("parameters")).isEqualTo("");
    }

    // ---------------------------------------------------------------------------------------------
    // assessor

    @Test
    void medianstopKillsTrialsWhoseCurvesFallBehind() throws Exception {
        // x over [-2, 2] and lr over six decades: final values from about -6 to 1, so curves differ widely
        Map<String, Object> space = map("x", map("_type", "uniform", "_value", List.of(-2, 2)),
                "lr", map("_type", "loguniform", "_value", List.of(0.000001, 0.1)));
        Map<String, Object> config = config(space, 2, 6);
        config.put("tuner", map("name", "Random", "classArgs", map("seed", 5)));
        config.put("assessor", map("name", "Medianstop", "classArgs", map("optimize_mode", "maximize", "start_step", 2)));
        Run run = run("medianstop", config, Map.of("TRIAL_STEPS", "6", "TRIAL_STEP_MS", "150"));

        run.assertDone();
        Wire wire = run.wire();
        List<Message> kills = wire.fromDispatcher("KI");
        assertThat(kills).as("KI went to the manager").isNotEmpty();
        Set<String> killed = new LinkedHashSet<>();
        for (Message k : kills) {
            Object job = JsonCodec.parse(k.content(), "KI payload");
            assertThat(job).as("KI's payload is a JSON string").isInstanceOf(String.class);
            killed.add((String) job);
        }
        // the assessor only judges trials it has seen intermediate results of
        Set<Object> reporting = wire.metrics("PERIODICAL").stream().map(m -> m.get("trial_job_id")).collect(Collectors.toSet());
        assertThat(reporting).containsAll(killed);
        List<Row> rows = run.table();
        assertThat(rows).hasSize(6);
        List<Row> stopped = rows.stream().filter(r -> CANCELED.contains(r.status())).toList();
        assertThat(stopped).as("trials stopped early\n%s", run.output()).isNotEmpty();
        assertThat(stopped).extracting(Row::trialJobId).as("each stopped trial was named by a KI").allMatch(killed::contains);
        assertThat(rows).extracting(Row::status).isSubsetOf("SUCCEEDED", "USER_CANCELED", "EARLY_STOPPED");
    }

    // ---------------------------------------------------------------------------------------------
    // advisors

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"Hyperband", "BOHB"})
    void advisorsSendBudgetsThatReachTheTrials(String advisor) throws Exception {
        Map<String, Object> classArgs = advisor.equals("Hyperband")
                ? map("R", 3, "eta", 3, "optimize_mode", "maximize", "seed", 2)
                : map("min_budget", 1, "max_budget", 3, "eta", 3, "optimize_mode", "maximize", "seed", 2);
        Map<String, Object> space = map("x", SPACE.get("x"), "lr", SPACE.get("lr"));
        Map<String, Object> config = config(space, 2, 7);
        config.put("advisor", map("name", advisor, "classArgs", classArgs));
        Run run = run(advisor, config, Map.of());

        run.assertDone();
        Wire wire = run.wire();
        List<Map<String, Object>> trs = wire.trialRecords();
        assertIdsCountFromZero(trs, 7);
        Map<Long, Long> budgets = new TreeMap<>();
        for (Map<String, Object> tr : trs) {
            Object budget = parameters(tr).get("TRIAL_BUDGET");
            assertThat(budget).as("TRIAL_BUDGET of %s", tr).isIn(1L, 3L);
            budgets.put(parameterId(tr), (Long) budget);
        }
        assertThat(budgets.values()).as("both budgets are used").contains(1L, 3L);
        // trial.js runs TRIAL_BUDGET steps: one intermediate result per unit of budget
        Map<Long, Long> steps = wire.metrics("PERIODICAL").stream()
                .collect(Collectors.groupingBy(NniManagerIT::parameterId, TreeMap::new, Collectors.counting()));
        for (Map<String, Object> fin : wire.metrics("FINAL")) {
            long id = parameterId(fin);
            assertThat(steps.get(id)).as("intermediate results of parameter id %d", id).isEqualTo(budgets.get(id));
        }
        assertThat(wire.metrics("FINAL")).hasSize(7);
        // the best of the budget-1 rung comes back with the same configuration at budget 3
        Set<Map<String, Object>> atOne = new HashSet<>();
        boolean promoted = false;
        for (Map<String, Object> tr : trs) {
            Map<String, Object> configuration = new LinkedHashMap<>(parameters(tr));
            Object budget = configuration.remove("TRIAL_BUDGET");
            if (budget.equals(1L)) {
                atOne.add(configuration);
            } else if (atOne.contains(configuration)) {
                promoted = true;
            }
        }
        assertThat(promoted).as("a configuration run at budget 1 is run again at budget 3: %s", trs).isTrue();
        assertThat(run.table()).hasSize(7).extracting(Row::status).containsOnly("SUCCEEDED");
    }

    // ---------------------------------------------------------------------------------------------
    // plugins

    /**
     * A trial of this test's own: it reports half its {@code param} as its one intermediate result,
     * waits two seconds (time for an assessor's kill to reach it), then reports the same as final.
     */
    private static final String HALF_PARAM_TRIAL = """
            // Reports param / 2 once as an intermediate result and, two seconds later, as the final result.
            const channel = process.env.NNI_TRIAL_COMMAND_CHANNEL;
            const put = body => fetch(channel, {method: 'PUT', headers: {'Content-Type': 'application/json'}, body: JSON.stringify(body)});
            (async () => {
              await put({type: 'request_parameter'});
              let record = null;
              while (record === null) {
                const reply = await fetch(channel);
                if (reply.status === 200) record = JSON.parse((await reply.json()).parameter);
                else if (reply.status === 410) process.exit(3);
              }
              const report = (type, value) => put({type: 'metric', metric: JSON.stringify({parameter_id: record.parameter_id,
                trial_job_id: process.env.NNI_TRIAL_JOB_ID, type, sequence: 0, value: JSON.stringify(value)})});
              const half = record.parameters.param / 2;
              await report('PERIODICAL', half);
              await new Promise(done => setTimeout(done, 2000));
              await report('FINAL', half);
            })().catch(e => { console.error(e); process.exit(1); });
            """;

    @Test
    void pluginsFromAJarDirectoryDriveAnExperiment() throws Exception {
        Path plugins = TunekitProcess.FIXTURE_PLUGINS;
        assertThat(plugins.resolve("tunekit-fixture-plugins.jar")).as("the reactor builds the fixture plugins first").exists();
        Path code = Files.createDirectories(tmp.resolve("trial-code"));
        Files.writeString(code.resolve("half.js"), HALF_PARAM_TRIAL);
        Map<String, Object> config = config(map("x", SPACE.get("x")), 1, 5);
        config.put("trialCommand", "node half.js");
        config.put("trialCodeDirectory", code.toString());
        config.put("maxExperimentDuration", "12s");
        // the tuner by name, from TUNEKIT_PLUGIN_PATH in the manager's environment; the assessor by
        // class name from the config's codeDirectory
        config.put("tuner", map("name", "RecordingTuner", "classArgs", map("limit", 3)));
        config.put("assessor", map("className", "org.tunekit.fixtures.RecordingAssessorProvider", "codeDirectory", plugins.toString()));
        Run run = run("plugins", config, Map.of("TUNEKIT_PLUGIN_PATH", plugins.toString()));

        run.assertDone();
        Wire wire = run.wire();
        List<Map<String, Object>> trs = wire.trialRecords();
        // RecordingTuner: set n is {"param": 2n, "calls": [...]}, and class argument limit 3 is honoured
        assertThat(trs).extracting(tr -> parameters(tr).get("param")).containsExactly(2L, 4L, 6L);
        assertNoMoreAfterTheLastTrial(wire, 3);
        // RecordingAssessor: BAD when the intermediate results add up to an odd integer: 1 and 3 are, 2 is not
        Map<Long, String> jobOf = new TreeMap<>();
        wire.metrics("PERIODICAL").forEach(m -> jobOf.put(parameterId(m), (String) m.get("trial_job_id")));
        assertThat(jobOf).containsOnlyKeys(0L, 1L, 2L);
        List<Object> killed = new ArrayList<>();
        for (Message k : wire.fromDispatcher("KI")) {
            killed.add(JsonCodec.parse(k.content(), "KI payload"));
        }
        assertThat(killed).containsExactlyInAnyOrder(jobOf.get(0L), jobOf.get(2L));
        Map<String, String> statusOf = run.table().stream().collect(Collectors.toMap(Row::trialJobId, Row::status));
        assertThat(statusOf.get(jobOf.get(0L))).isIn(CANCELED);
        assertThat(statusOf.get(jobOf.get(1L))).isEqualTo("SUCCEEDED");
        assertThat(statusOf.get(jobOf.get(2L))).isIn(CANCELED);
        // the tuner heard the killed trial end unsuccessfully, and the successful one's result
        List<Object> calls = new ArrayList<>();
        trs.subList(1, 3).forEach(tr -> calls.addAll((List<?>) parameters(tr).get("calls")));
        assertThat(calls).contains(List.of("trial_end", 0L, false));
        assertThat(calls).anySatisfy(c -> {
            List<?> call = (List<?>) c;
            assertThat(call.get(0)).isEqualTo("receive_trial_result");
            assertThat(call.get(1)).isEqualTo(1L);
            assertThat(((Number) call.get(3)).doubleValue()).isEqualTo(2.0);
        });
    }

    // ---------------------------------------------------------------------------------------------
    // configuration errors

    static Stream<Arguments> badConfigs() {
        return Stream.of(
                Arguments.of("unknown tuner", map("name", "NoSuchTuner"), List.of("unknown tuner 'NoSuchTuner'")),
                Arguments.of("bad class argument", map("name", "TPE", "classArgs", map("optimize_mode", "sideways")),
                        List.of("class argument 'optimize_mode'", "sideways")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badConfigs")
    void aConfigErrorEndsTheExperimentWithTunekitsMessage(String name, Map<String, Object> tuner, List<String> message) throws Exception {
        Map<String, Object> config = config(SPACE, 2, 4);
        config.put("tuner", tuner);
        Run run = run(name.replace(' ', '-'), config, Map.of());

        assertThat(run.exit()).as(run.describe()).isNotZero();
        assertThat(run.status()).as(run.describe()).isEqualTo("ERROR");
        assertThat(run.errors()).as("the status's errors").isNotEqualTo("[]");
        Wire wire = run.wire();
        assertThat(wire.fromDispatcher("ER")).as(run.describe()).singleElement()
                .satisfies(er -> message.forEach(m -> assertThat(er.content()).contains(m)));
        assertThat(wire.fromDispatcher("TR")).isEmpty();
        String managerLog = run.file("nnimanager.log");
        message.forEach(m -> assertThat(managerLog).as("the manager's log").contains(m));
        assertThat(run.table()).isEmpty();
    }

    // ---------------------------------------------------------------------------------------------
    // a trial written for NNI

    @Test
    void aTrialWrittenForNniInPythonReportsThroughNnisOwnTrialSide() throws Exception {
        assumeTrue(Files.isDirectory(NNI_TRIAL_SIDE.resolve("nni")), "NNI's Python trial side is not prepared: no "
                + NNI_TRIAL_SIDE.resolve("nni") + " (run distribution/nni-trial-side.sh, or set NNI_TRIAL_SIDE)");
        assumeTrue(Files.isExecutable(Path.of(PYTHON)), PYTHON + " is missing");
        Map<String, Object> config = config(map("x", SPACE.get("x"), "lr", SPACE.get("lr")), 2, 3);
        config.put("trialCommand", PYTHON + " nni_trial.py");
        config.put("tuner", map("name", "TPE", "classArgs", map("optimize_mode", "maximize", "seed", 3)));
        Run run = run("python", config, Map.of("PYTHONPATH", NNI_TRIAL_SIDE.toString()));

        run.assertDone();
        assertThat(run.table()).hasSize(3).allSatisfy(r -> {
            assertThat(r.status()).isEqualTo("SUCCEEDED");
            assertThat(r.finalValue()).isNotEmpty();
        });
        Wire wire = run.wire();
        assertThat(wire.metrics("FINAL")).extracting(NniManagerIT::parameterId).containsExactlyInAnyOrder(0L, 1L, 2L);
        Map<Long, Long> steps = wire.metrics("PERIODICAL").stream()
                .collect(Collectors.groupingBy(NniManagerIT::parameterId, TreeMap::new, Collectors.counting()));
        assertThat(steps).as("nni.report_intermediate_result, 3 times a trial").isEqualTo(Map.of(0L, 3L, 1L, 3L, 2L, 3L));
    }

    // ---------------------------------------------------------------------------------------------
    // a dispatcher killed, the experiment resumed

    @Test
    void aDispatcherKilledMidExperimentResumesWithoutReusingParameterIds() throws Exception {
        Map<String, Object> config = config(map("x", SPACE.get("x"), "lr", SPACE.get("lr")), 2, 10);
        config.put("tuner", map("name", "TPE", "classArgs", map("optimize_mode", "maximize", "seed", 2)));
        Map<String, String> slowTrials = Map.of("TRIAL_STEP_MS", "300");

        // first run: leave the manager up after 2 trials have succeeded
        Map<String, String> env = new LinkedHashMap<>(slowTrials);
        env.put("KEEP_RUNNING", "1");
        env.put("STOP_AFTER_TRIALS", "2");
        Run first = run("first", config, env);
        assertThat(first.exit()).as(first.describe()).isZero();
        assertThat(first.status()).as(first.describe()).isEqualTo("STOPPED_AFTER_2");
        URI api = URI.create(Files.readString(first.dir().resolve("api")).strip());
        long manager = Long.parseLong(Files.readString(first.dir().resolve("manager.pid")).strip());

        // kill -9 the dispatcher: the java process under the manager with --exp_params on its command line
        List<ProcessHandle> dispatchers = ProcessHandle.of(manager).orElseThrow().descendants()
                .filter(p -> commandLine(p.pid()).contains("--exp_params") && commandLine(p.pid()).contains("org.tunekit.cli.TunekitMain"))
                .toList();
        assertThat(dispatchers).as("the dispatcher under manager %d", manager).hasSize(1);
        ProcessHandle dispatcher = dispatchers.get(0);
        dispatcher.destroyForcibly(); // SIGKILL
        dispatcher.onExit().get(10, TimeUnit.SECONDS);

        // the trials already running end on their own; nothing new starts without a dispatcher
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        List<Map<String, Object>> jobs;
        do {
            Thread.sleep(500);
            jobs = trialJobs(http, api);
        } while (jobs.stream().anyMatch(j -> List.of("WAITING", "RUNNING").contains(j.get("status"))) && System.nanoTime() < deadline);
        assertThat(jobs).as("trials after the kill").allSatisfy(j -> assertThat(j.get("status")).isEqualTo("SUCCEEDED"));
        int before = jobs.size();

        // stop the manager as nnictl stop does, and the proxy the launcher started
        http.send(HttpRequest.newBuilder(api.resolve(api.getPath() + "/experiment")).DELETE().build(), HttpResponse.BodyHandlers.discarding());
        ProcessHandle.of(manager).ifPresent(p -> {
            try {
                p.onExit().get(45, TimeUnit.SECONDS);
            } catch (Exception e) {
                fail("the first run's manager did not stop: " + e);
            }
        });
        killPidFile(first.dir().resolve("proxy.pid"));

        // resume it
        Path experiments = first.dir().resolve("experiments");
        String id;
        try (Stream<Path> s = Files.list(experiments)) {
            id = s.filter(Files::isDirectory).map(p -> p.getFileName().toString()).findFirst().orElseThrow();
        }
        Map<String, String> resumeEnv = new LinkedHashMap<>(slowTrials);
        resumeEnv.put("RESUME_DIR", experiments.toString());
        Run second = run("resumed", config, resumeEnv, "--timeout", "120", "--resume", id);
        second.assertDone();
        assertThat(second.file("dispatcher.env")).as("the second dispatcher's environment").contains("NNI_MODE=resume");
        List<Row> rows = second.table();
        assertThat(rows).as(second.describe()).hasSize(10).extracting(Row::status).containsOnly("SUCCEEDED");
        assertThat(second.wire().trialRecords()).as("trials after the resume").hasSizeGreaterThanOrEqualTo(10 - before);

        List<Long> idsBefore = first.wire().trialRecords().stream().map(NniManagerIT::parameterId).toList();
        List<Long> idsAfter = second.wire().trialRecords().stream().map(NniManagerIT::parameterId).toList();
        assertThat(idsBefore).hasSizeGreaterThanOrEqualTo(before).doesNotHaveDuplicates();
        assertThat(idsAfter).doesNotHaveDuplicates();
        assertThat(idsAfter).as("parameter ids after the resume (before the kill: %s)", idsBefore).doesNotContainAnyElementsOf(idsBefore);
        assertThat(rows).extracting(Row::parameterId).as("parameter ids in the trial table").doesNotHaveDuplicates();
    }

    private static List<Map<String, Object>> trialJobs(HttpClient http, URI api) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(api.resolve(api.getPath() + "/trial-jobs")).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as("GET trial-jobs: %s", r.body()).isEqualTo(200);
        List<Map<String, Object>> jobs = new ArrayList<>();
        for (Object o : (List<?>) JsonCodec.parse(r.body(), "trial-jobs")) {
            jobs.add(asMap(o));
        }
        return jobs;
    }

    // ---------------------------------------------------------------------------------------------
    // running an experiment

    /** An NNI v2 config with the lab's trial.js, without tuner, assessor or advisor. */
    private static Map<String, Object> config(Map<String, Object> space, int concurrency, int maxTrials) {
        Map<String, Object> c = new LinkedHashMap<>();
        c.put("searchSpace", space);
        c.put("trialCommand", "node trial.js");
        c.put("trialCodeDirectory", TRIALS.toString());
        c.put("trialConcurrency", concurrency);
        c.put("maxTrialNumber", maxTrials);
        return c;
    }

    /**
     * Runs run-experiment.sh with RUN_DIR {@code tmp/name}, the launcher and this config; trials get
     * {@code TRIAL_STEP_MS=100} unless {@code env} says otherwise. Unless the manager is kept
     * running, checks that the dispatcher has exited by itself. Kills whatever is left.
     */
    private Run run(String name, Map<String, Object> config, Map<String, String> env, String... options) throws Exception {
        Path launcher = tmp.resolve("launcher");
        if (!Files.exists(launcher)) {
            Files.writeString(launcher, "#!/bin/sh\nexec " + TunekitProcess.HOME.resolve("tunekit") + " \"$@\"\n");
            Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Path configFile = tmp.resolve(name + ".json");
        Files.writeString(configFile, JsonCodec.write(config));
        Path dir = tmp.resolve(name);
        Path out = tmp.resolve(name + ".out");

        List<String> cmd = new ArrayList<>(List.of("bash", RUN_EXPERIMENT.toString()));
        cmd.addAll(List.of(options));
        cmd.addAll(List.of(launcher.toString(), configFile.toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(tmp.toFile()).redirectErrorStream(true).redirectOutput(out.toFile());
        pb.environment().remove("NNI_TUNER_COMMAND_CHANNEL");
        pb.environment().put("NNI_LAB", LAB.toString());
        pb.environment().put("RUN_DIR", dir.toString());
        pb.environment().put("TUNEKIT_NO_BUILD", "1");
        pb.environment().put("TRIAL_STEP_MS", "100");
        pb.environment().putAll(env);
        boolean keptRunning = env.containsKey("KEEP_RUNNING");
        long started = System.nanoTime();
        Process p = pb.start();
        try {
            if (!p.waitFor(300, TimeUnit.SECONDS)) {
                fail("run-experiment.sh did not end within 300 s:\n" + Files.readString(out));
            }
            Run run = new Run(name, dir, p.exitValue(), Files.readString(out), Duration.ofNanos(System.nanoTime() - started));
            System.out.println("== " + name + " (" + run.took().toMillis() + " ms, exit " + run.exit() + ")\n" + run.output());
            if (!keptRunning) {
                List<ProcessHandle> left = awaitExit(dispatchers(), DISPATCHER_EXIT);
                assertThat(left).as("dispatchers still running %s after the manager stopped", DISPATCHER_EXIT).isEmpty();
            }
            return run;
        } finally {
            if (p.isAlive()) {
                p.destroyForcibly();
            }
            if (!keptRunning) {
                stopLeftovers();
            }
        }
    }

    @AfterEach
    void stopEverythingThisCaseStarted() {
        stopLeftovers();
    }

    /** Kills the processes that carry this case's temporary folder in their environment. */
    private void stopLeftovers() {
        List<ProcessHandle> left = processesOfThisCase();
        if (left.isEmpty()) {
            return;
        }
        left.forEach(ProcessHandle::destroyForcibly);
        awaitExit(left, Duration.ofSeconds(10));
    }

    private List<ProcessHandle> processesOfThisCase() {
        String mark = tmp.toString();
        long self = ProcessHandle.current().pid();
        return ProcessHandle.allProcesses()
                .filter(p -> p.pid() != self && environment(p.pid()).contains(mark))
                .toList();
    }

    private List<ProcessHandle> dispatchers() {
        return processesOfThisCase().stream().filter(p -> commandLine(p.pid()).contains("org.tunekit.cli.TunekitMain")).toList();
    }

    private static List<ProcessHandle> awaitExit(List<ProcessHandle> processes, Duration limit) {
        long deadline = System.nanoTime() + limit.toNanos();
        for (ProcessHandle p : processes) {
            try {
                p.onExit().get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (Exception e) {
                // still running: reported below
            }
        }
        return processes.stream().filter(ProcessHandle::isAlive).toList();
    }

    private static void killPidFile(Path pidFile) throws IOException {
        if (Files.exists(pidFile)) {
            ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip())).ifPresent(ProcessHandle::destroy);
        }
    }

    private static String environment(long pid) {
        return procFile(pid, "environ");
    }

    private static String commandLine(long pid) {
        return procFile(pid, "cmdline").replace('\0', ' ');
    }

    private static String procFile(long pid, String name) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), name)), StandardCharsets.UTF_8);
        } catch (IOException | SecurityException e) {
            return "";
        }
    }

    // ---------------------------------------------------------------------------------------------
    // what a run leaves

    /** One line of the printed trial table. */
    record Row(String trialJobId, String status, String parameterId, String finalValue) {}

    /** A command on the tuner WebSocket. */
    record Message(boolean fromDispatcher, String type, String content) {}

    /** The run folder, the script's exit status and output. */
    record Run(String name, Path dir, int exit, String output, Duration took) {
        private static final Pattern STATUS = Pattern.compile("(?m)^status: (\\S+) .*errors: (.*)$");

        String status() {
            Matcher m = STATUS.matcher(output);
            return m.find() ? m.group(1) : "(no status line)";
        }

        String errors() {
            Matcher m = STATUS.matcher(output);
            return m.find() ? m.group(2).strip() : "";
        }

        void assertDone() {
            assertThat(status()).as(describe()).isEqualTo("DONE");
            assertThat(exit()).as(describe()).isZero();
        }

        /** The rows of the table the script prints after the experiment. */
        List<Row> table() {
            List<Row> rows = new ArrayList<>();
            boolean inTable = false;
            for (String line : output.lines().toList()) {
                if (line.startsWith("trial ") && line.contains("param_id")) {
                    inTable = true;
                } else if (inTable) {
                    String[] f = line.strip().split("\\s+", 4);
                    if (line.startsWith("experiment id:") || line.startsWith("manager still up") || f.length < 3) {
                        break;
                    }
                    rows.add(new Row(f[0], f[1], f[2], f.length > 3 ? f[3] : ""));
                }
            }
            return rows;
        }

        Wire wire() throws IOException, ProtocolException {
            return Wire.read(dir.resolve("wire.txt"));
        }

        String file(String name) throws IOException {
            Path f = dir.resolve(name);
            return Files.exists(f) ? Files.readString(f) : "";
        }

        /** The script's output, with the dispatcher's stderr, for assertion messages. */
        String describe() {
            String stderr;
            try {
                stderr = file("dispatcher.stderr");
            } catch (IOException e) {
                stderr = e.toString();
            }
            return name + " (run folder " + dir + "):\n" + output + (stderr.isBlank() ? "" : "\ndispatcher stderr:\n" + stderr);
        }
    }

    /** wire.txt: {@code <ms> D->M <json>} and {@code <ms> M->D <json>} lines, and the proxy's notes. */
    record Wire(List<Message> messages) {
        static Wire read(Path file) throws IOException, ProtocolException {
            assertThat(file).as("the recorded tuner channel").exists();
            List<Message> messages = new ArrayList<>();
            for (String line : Files.readAllLines(file)) {
                String[] f = line.split(" ", 3);
                if (f.length == 3 && (f[1].equals("D->M") || f[1].equals("M->D"))) {
                    Map<String, Object> frame = asMap(JsonCodec.parse(f[2], "wire.txt frame"));
                    Object content = frame.get("content");
                    messages.add(new Message(f[1].equals("D->M"), (String) frame.get("type"), content == null ? "" : (String) content));
                }
            }
            return new Wire(messages);
        }

        List<Message> fromDispatcher() {
            return messages.stream().filter(m -> m.fromDispatcher() && !m.type().startsWith("_")).toList();
        }

        List<Message> fromDispatcher(String type) {
            return fromDispatcher().stream().filter(m -> m.type().equals(type)).toList();
        }

        /** The parameter records of the TR commands, in order. */
        List<Map<String, Object>> trialRecords() {
            return fromDispatcher("TR").stream().map(this::json).toList();
        }

        /** The ME payloads of this type the manager sent. */
        List<Map<String, Object>> metrics(String type) {
            return messages.stream().filter(m -> !m.fromDispatcher() && m.type().equals("ME")).map(this::json)
                    .filter(me -> type.equals(me.get("type"))).toList();
        }

        Map<String, Object> json(Message m) {
            try {
                return asMap(JsonCodec.parse(m.content(), m.type() + " payload"));
            } catch (ProtocolException e) {
                throw new AssertionError(e);
            }
        }
    }

    // ---------------------------------------------------------------------------------------------
    // helpers

    private static long parameterId(Map<String, Object> record) {
        return ((Number) record.get("parameter_id")).longValue();
    }

    private static Map<String, Object> parameters(Map<String, Object> record) {
        return asMap(record.get("parameters"));
    }

    private static void assertInSpace(Map<String, Object> p) {
        assertThat(p).containsOnlyKeys("x", "lr", "units");
        assertThat(((Number) p.get("x")).doubleValue()).isBetween(0.0, 1.0);
        assertThat(((Number) p.get("lr")).doubleValue()).isBetween(0.0001, 0.1);
        assertThat(p.get("units")).isIn(16L, 32L, 64L);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMap(Object o) {
        assertThat(o).isInstanceOf(Map.class);
        return (Map<String, Object>) o;
    }

    /** A mutable map keeping the order of its alternating keys and values. */
    private static Map<String, Object> map(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }
}
