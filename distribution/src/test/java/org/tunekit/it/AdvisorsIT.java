package org.tunekit.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tunekit.dispatcher.plugin.ExperimentConfig;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.tunekit.dispatcher.protocol.JsonCodec;

/**
 * The built-in advisors through the real process: {@code Hyperband} with R=9, eta=3 and {@code BOHB}
 * with budgets 1..9, eta=3. The first bracket's 9 trials run at budget 1; one fails (it had the
 * largest x, so it would have been best); the best 3 of the others come back as new trials with the
 * same hyper-parameters at budget 3 only when the manager asks, and the best of those at budget 9;
 * then the next bracket starts at budget 3. No {@code NO} is ever sent.
 */
class AdvisorsIT {
    private static final Duration LIMIT = Duration.ofSeconds(60);
    private static final String SPACE = "{\"x\":{\"_type\":\"uniform\",\"_value\":[0,1]},"
            + "\"units\":{\"_type\":\"choice\",\"_value\":[16,32,64]},\"depth\":{\"_type\":\"randint\",\"_value\":[1,9]}}";

    /** A TR as the manager reads it. */
    private record Trial(long id, Map<String, Object> parameters, String record) {
        double x() {
            return ((Number) parameters.get("x")).doubleValue();
        }

        Object budget() {
            return parameters.get("TRIAL_BUDGET");
        }

        Map<String, Object> config() {
            Map<String, Object> m = new LinkedHashMap<>(parameters);
            m.remove("TRIAL_BUDGET");
            return m;
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"Hyperband", "BOHB"})
    void theBestOfEachRungArePromotedAsNewTrialsWithLargerBudgets(String advisor) throws Exception {
        Map<String, Object> classArgs = advisor.equals("Hyperband")
                ? Map.of("R", 9, "eta", 3, "seed", 1)
                : Map.of("min_budget", 1, "max_budget", 9, "eta", 3, "seed", 1);
        String config = ExperimentConfig.encode(Map.of("advisor", Map.of("name", advisor, "classArgs", classArgs)));
        try (TunekitProcess p = TunekitProcess.dispatch(config, Map.of())) {
            p.send(new Command(CommandType.INITIALIZE, SPACE));
            assertThat(p.next(LIMIT).type()).as(p.stderr()).isEqualTo(CommandType.INITIALIZED);

            p.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "9"));
            List<Trial> rung0 = trials(p, 9);
            assertThat(rung0).extracting(Trial::id).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L);
            assertThat(rung0).extracting(Trial::budget).containsOnly(1L);
            assertThat(rung0.stream().map(Trial::config).distinct()).hasSize(9);

            Trial failing = rung0.stream().max(Comparator.comparingDouble(Trial::x)).orElseThrow();
            for (Trial t : rung0) {
                if (t == failing) {
                    periodical(p, t, 0.99);
                    end(p, t, "FAILED");
                } else {
                    finish(p, t, t.x());
                }
            }
            // the manager asks again; the promoted trials are handed out in order of their results
            p.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "3"));
            List<Trial> rung1 = trials(p, 3);
            List<Map<String, Object>> top3 = rung0.stream().filter(t -> t != failing)
                    .sorted(Comparator.comparingDouble(Trial::x).reversed()).limit(3).map(Trial::config).toList();
            assertThat(rung1).extracting(Trial::id).containsExactly(9L, 10L, 11L);
            assertThat(rung1).extracting(Trial::budget).containsOnly(3L);
            assertThat(rung1.stream().map(Trial::config).toList()).isEqualTo(top3);

            // at budget 3 the smallest x does best
            for (Trial t : rung1) {
                finish(p, t, 1 - t.x());
            }
            p.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "1"));
            Trial last = trials(p, 1).get(0);
            assertThat(last.id()).isEqualTo(12L);
            assertThat(last.budget()).isEqualTo(9L);
            assertThat(last.config()).isEqualTo(top3.get(2));
            finish(p, last, 0.5);

            // bracket s=2 is done; the next one (s=1) starts 5 new configurations at budget 3
            p.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "2"));
            List<Trial> next = trials(p, 2);
            assertThat(next).extracting(Trial::id).containsExactly(13L, 14L);
            assertThat(next).extracting(Trial::budget).containsOnly(3L);

            p.send(Command.of(CommandType.TERMINATE));
            assertThat(p.readAll(LIMIT)).as("nothing more than what was asked for, and no NO").isEmpty();
            assertThat(p.waitFor(LIMIT)).as(p.stderr()).isZero();
        }
    }

    /**
     * NNI 3's config classes move {@code advisor} into {@code tuner} before the manager sees it, so
     * under NNI's manager (started by nnictl, NNI's Python API or {@code tunekit nni create}) an
     * advisor arrives as {@code tuner}; an assessor next to it is not used.
     */
    @ParameterizedTest
    @ValueSource(strings = {"Hyperband", "BOHB"})
    void anAdvisorNamedAsTheTunerRunsAsTheAdvisor(String advisor) throws Exception {
        Map<String, Object> classArgs = advisor.equals("Hyperband")
                ? Map.of("R", 9, "eta", 3, "seed", 1)
                : Map.of("min_budget", 1, "max_budget", 9, "eta", 3, "seed", 1);
        String config = ExperimentConfig.encode(Map.of("tuner", Map.of("name", advisor, "classArgs", classArgs),
                "assessor", Map.of("name", "Medianstop")));
        try (TunekitProcess p = TunekitProcess.dispatch(config, Map.of())) {
            p.send(new Command(CommandType.INITIALIZE, SPACE));
            assertThat(p.next(LIMIT).type()).as(p.stderr()).isEqualTo(CommandType.INITIALIZED);
            p.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "9"));
            List<Trial> rung0 = trials(p, 9);
            assertThat(rung0).extracting(Trial::budget).containsOnly(1L);
            p.send(Command.of(CommandType.TERMINATE));
            assertThat(p.waitFor(LIMIT)).as(p.stderr()).isZero();
            assertThat(p.stderr()).contains("the assessor 'Medianstop' is not used");
        }
    }

    @org.junit.jupiter.api.Test
    void serialHyperbandKeepsRequestsUntilARungCompletes() throws Exception {
        try (TunekitProcess p = start("Hyperband", Map.of("R", 9, "eta", 3, "seed", 1, "exec_mode", "serial"))) {
            p.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "9"));
            List<Trial> rung0 = trials(p, 9);
            // each end frees a slot and the manager asks for one more; nothing is ready until the rung is complete
            finishEachAndAskAgain(p, rung0, Trial::x);
            List<Trial> rung1 = trials(p, 3);
            assertThat(rung1).extracting(Trial::id).containsExactly(9L, 10L, 11L);
            assertThat(rung1).extracting(Trial::budget).containsOnly(3L);
            assertThat(rung1.stream().map(Trial::config).toList()).isEqualTo(best(rung0, 3));
            finishEachAndAskAgain(p, rung1, Trial::x);
            Trial top = trials(p, 1).get(0);
            assertThat(top.id()).isEqualTo(12L);
            assertThat(top.budget()).isEqualTo(9L);
            assertThat(top.config()).isEqualTo(best(rung1, 1).get(0));
            finishEachAndAskAgain(p, List.of(top), Trial::x);
            // the bracket is done: the held requests go to the next bracket, 5 configurations at budget 3
            List<Trial> next = trials(p, 5);
            assertThat(next).extracting(Trial::id).containsExactly(13L, 14L, 15L, 16L, 17L);
            assertThat(next).extracting(Trial::budget).containsOnly(3L);
            p.send(Command.of(CommandType.TERMINATE));
            assertThat(p.readAll(LIMIT)).as("the other requests stay pending, no NO").isEmpty();
            assertThat(p.waitFor(LIMIT)).as(p.stderr()).isZero();
        }
    }

    @org.junit.jupiter.api.Test
    void bohbRunsBracketsSideBySideAndPromotesWhenARungCompletes() throws Exception {
        try (TunekitProcess p = start("BOHB", Map.of("min_budget", 1, "max_budget", 9, "eta", 3, "seed", 1))) {
            p.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "9"));
            List<Trial> rung0 = trials(p, 9);
            finishEachAndAskAgain(p, rung0, Trial::x);
            List<Trial> after = trials(p, 9);
            assertThat(after).extracting(Trial::id).containsExactly(9L, 10L, 11L, 12L, 13L, 14L, 15L, 16L, 17L);
            // bracket s=1 (5 at budget 3), bracket s=0 (3 at budget 9), then the first promotion of bracket s=2
            assertThat(after).extracting(Trial::budget).containsExactly(3L, 3L, 3L, 3L, 3L, 9L, 9L, 9L, 3L);
            assertThat(after.get(8).config()).isEqualTo(best(rung0, 1).get(0));
            p.send(Command.of(CommandType.TERMINATE));
            assertThat(p.readAll(LIMIT)).isEmpty();
            assertThat(p.waitFor(LIMIT)).as(p.stderr()).isZero();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"Hyperband", "BOHB"})
    void aResumedExperimentPromotesFromTheCheckpoint(String advisor, @org.junit.jupiter.api.io.TempDir java.nio.file.Path tmp)
            throws Exception {
        Map<String, Object> classArgs = advisor.equals("Hyperband")
                ? Map.of("R", 9, "eta", 3, "seed", 2)
                : Map.of("min_budget", 1, "max_budget", 9, "eta", 3, "seed", 2);
        Map<String, String> env = Map.of("NNI_CHECKPOINT_DIRECTORY", tmp.toString());
        List<Trial> rung0;
        try (TunekitProcess p = start(advisor, classArgs, env)) {
            p.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "9"));
            rung0 = trials(p, 9);
            for (Trial t : rung0) {
                finish(p, t, t.x());
            }
            p.send(Command.of(CommandType.TERMINATE));
            assertThat(p.waitFor(LIMIT)).as(p.stderr()).isZero();
        }
        Map<String, String> resume = Map.of("NNI_CHECKPOINT_DIRECTORY", tmp.toString(), "NNI_MODE", "resume");
        try (TunekitProcess p = start(advisor, classArgs, resume)) {
            p.send(new Command(CommandType.ADD_CUSTOMIZED_TRIAL_JOB,
                    "[" + String.join(",", rung0.stream().map(Trial::record).toList()) + "]"));
            p.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "3"));
            List<Trial> rung1 = trials(p, 3);
            assertThat(rung1).extracting(Trial::id).as("ids continue after the resumed ones").containsExactly(9L, 10L, 11L);
            assertThat(rung1).extracting(Trial::budget).containsOnly(3L);
            assertThat(rung1.stream().map(Trial::config).toList()).isEqualTo(best(rung0, 3));
            p.send(Command.of(CommandType.TERMINATE));
            assertThat(p.waitFor(LIMIT)).as(p.stderr()).isZero();
        }
    }

    private static TunekitProcess start(String advisor, Map<String, Object> classArgs) throws Exception {
        return start(advisor, classArgs, Map.of());
    }

    private static TunekitProcess start(String advisor, Map<String, Object> classArgs, Map<String, String> env) throws Exception {
        String config = ExperimentConfig.encode(Map.of("advisor", Map.of("name", advisor, "classArgs", classArgs)));
        TunekitProcess p = TunekitProcess.dispatch(config, env);
        p.send(new Command(CommandType.INITIALIZE, SPACE));
        assertThat(p.next(LIMIT).type()).as(p.stderr()).isEqualTo(CommandType.INITIALIZED);
        return p;
    }

    @ParameterizedTest
    @ValueSource(strings = {"Hyperband", "BOHB"})
    void minBudgetAutoFindsTheScheduleFromTheFirstFullBudgetCurves(String advisor) throws Exception {
        Map<String, Object> classArgs = advisor.equals("Hyperband")
                ? Map.of("R", 9, "eta", 3, "seed", 1, "min_budget", "auto", "n_startup_trials", 3)
                : Map.of("min_budget", "auto", "n_startup_trials", 3, "max_budget", 9, "eta", 3, "seed", 1);
        String config = ExperimentConfig.encode(Map.of("advisor", Map.of("name", advisor, "classArgs", classArgs)));
        try (TunekitProcess p = TunekitProcess.dispatch(config, Map.of())) {
            p.send(new Command(CommandType.INITIALIZE, SPACE));
            assertThat(p.next(LIMIT).type()).as(p.stderr()).isEqualTo(CommandType.INITIALIZED);
            p.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "3"));
            List<Trial> startup = trials(p, 3);
            assertThat(startup).extracting(Trial::budget).as("start-up trials run the full budget").containsOnly(9L);
            for (Trial t : startup) {
                // values rank the trials in reverse for two steps, then as their final values do
                for (int step = 1; step <= 9; step++) {
                    sendMetric(p, t, "PERIODICAL", step - 1, step < 3 ? 1 - t.x() : t.x());
                }
                sendMetric(p, t, "FINAL", 0, t.x());
                end(p, t, "SUCCEEDED");
            }
            p.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "3"));
            List<Trial> next = trials(p, 3);
            assertThat(next).extracting(Trial::budget).as("settled at step 3: s_max 1, the bracket starts at 9 / 3").containsOnly(3L);
            assertThat(next).extracting(Trial::id).containsExactly(3L, 4L, 5L);
        }
    }

    private static void sendMetric(TunekitProcess p, Trial t, String type, int sequence, double value) throws Exception {
        p.send(new Command(CommandType.REPORT_METRIC_DATA, "{\"parameter_id\": " + t.id() + ", \"trial_job_id\": \"J" + t.id()
                + "\", \"type\": \"" + type + "\", \"sequence\": " + sequence + ", \"value\": \"" + value + "\"}"));
    }

    private static void finishEachAndAskAgain(TunekitProcess p, List<Trial> trials, java.util.function.ToDoubleFunction<Trial> metric)
            throws Exception {
        for (Trial t : trials) {
            finish(p, t, metric.applyAsDouble(t));
            p.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "1"));
        }
    }

    private static List<Map<String, Object>> best(List<Trial> trials, int n) {
        return trials.stream().sorted(Comparator.comparingDouble(Trial::x).reversed()).limit(n).map(Trial::config).toList();
    }

    private static List<Trial> trials(TunekitProcess p, int n) throws Exception {
        List<Trial> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            Command c = p.next(LIMIT);
            assertThat(c).as(p.stderr()).isNotNull();
            assertThat(c.type()).as(c + "\n" + p.stderr()).isEqualTo(CommandType.NEW_TRIAL_JOB);
            @SuppressWarnings("unchecked")
            Map<String, Object> record = (Map<String, Object>) JsonCodec.parse(c.payload(), "TR");
            @SuppressWarnings("unchecked")
            Map<String, Object> parameters = (Map<String, Object>) record.get("parameters");
            out.add(new Trial(((Number) record.get("parameter_id")).longValue(), parameters, c.payload()));
        }
        return out;
    }

    private static void periodical(TunekitProcess p, Trial t, double value) throws Exception {
        p.send(new Command(CommandType.REPORT_METRIC_DATA, "{\"parameter_id\": " + t.id() + ", \"trial_job_id\": \"J" + t.id()
                + "\", \"type\": \"PERIODICAL\", \"sequence\": 0, \"value\": \"" + value + "\"}"));
    }

    private static void finish(TunekitProcess p, Trial t, double value) throws Exception {
        periodical(p, t, value / 2);
        p.send(new Command(CommandType.REPORT_METRIC_DATA, "{\"parameter_id\": " + t.id() + ", \"trial_job_id\": \"J" + t.id()
                + "\", \"type\": \"FINAL\", \"sequence\": 0, \"value\": \"" + value + "\"}"));
        end(p, t, "SUCCEEDED");
    }

    private static void end(TunekitProcess p, Trial t, String event) throws Exception {
        p.send(new Command(CommandType.TRIAL_END, "{\"trial_job_id\": \"J" + t.id() + "\", \"event\": \"" + event
                + "\", \"hyper_params\": " + JsonCodec.write(t.record()) + "}"));
    }
}
