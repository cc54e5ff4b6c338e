package org.tunekit.study;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tunekit.dispatcher.DispatcherSettings;
import org.tunekit.dispatcher.Dispatchers;
import org.tunekit.dispatcher.MsgDispatcherBase;
import org.tunekit.dispatcher.channel.InMemoryChannel;
import org.tunekit.dispatcher.plugin.AlgorithmCatalog;
import org.tunekit.dispatcher.plugin.ExperimentConfig;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.internal.Json;
import org.tunekit.sdk.space.SearchSpace;

/**
 * One algorithm core, two doors: a study makes the same suggestions, under the same parameter ids, as the real
 * dispatcher driven over its command channel as a manager drives it (request a trial, report its final metric,
 * end it), for the same tuner, class arguments, seed and results.
 */
class SameSuggestionsAsDispatcherTest {
    static final SearchSpace SPACE = SearchSpace.builder().uniform("x", -5, 5).loguniform("lr", 1e-5, 1e-1).randint("layers", 1, 8)
            .choice("act", "relu", "tanh", "sigmoid").build();
    static final int TRIALS = 30;

    static double objective(Parameters p) {
        double x = p.getDouble("x");
        double lr = Math.log10(p.getDouble("lr")) + 3;
        double layers = p.getLong("layers") - 3;
        return x * x + lr * lr + layers * layers + ("relu".equals(p.get("act")) ? 0 : 1);
    }

    @ParameterizedTest
    @ValueSource(strings = {"TPE", "Random", "Anneal", "Evolution", "GPTuner", "SMAC", "TuRBO", "CMAES", "Sobol", "RegularizedEvolutionTuner"})
    void theStudySuggestsWhatTheDispatcherSuggests(String tuner) throws Exception {
        Map<String, Object> args = new LinkedHashMap<>();
        args.put("optimize_mode", "minimize");
        args.put("seed", 42L);
        List<Parameters> fromDispatcher = throughDispatcher(tuner, args, SameSuggestionsAsDispatcherTest::objective);

        List<Parameters> fromStudy = new ArrayList<>();
        try (Study study = Study.named("same").space(SPACE).tuner(tuner, args).minimize().open()) {
            for (int i = 0; i < TRIALS; i++) {
                Trial t = study.ask();
                assertThat(t.parameterId()).isEqualTo(i);
                fromStudy.add(t.parameters());
                study.tell(t, objective(t.parameters()));
            }
        }
        assertThat(fromStudy).hasSize(TRIALS).containsExactlyElementsOf(fromDispatcher);
    }

    /** The parameter sets the dispatcher sends for {@link #TRIALS} sequential trials, each told its objective's value. */
    static List<Parameters> throughDispatcher(String tuner, Map<String, Object> args, ToDoubleFunction<Parameters> f) throws Exception {
        InMemoryChannel channel = new InMemoryChannel();
        ExperimentConfig config = ExperimentConfig.fromConfig(Map.of("tuner", Map.of("name", tuner, "classArgs", args)));
        MsgDispatcherBase dispatcher = Dispatchers.create(channel, config, AlgorithmCatalog.discover(List.of()),
                new DispatcherSettings(false, null, false, Duration.ofSeconds(10)));
        Thread thread = new Thread(dispatcher::run, "dispatcher");
        thread.start();
        List<Parameters> out = new ArrayList<>();
        try {
            channel.post(new Command(CommandType.INITIALIZE, Json.write(SPACE.definition())));
            assertThat(next(channel).type()).isEqualTo(CommandType.INITIALIZED);
            for (int i = 0; i < TRIALS; i++) {
                channel.post(new Command(CommandType.REQUEST_TRIAL_JOBS, "1"));
                Command tr = next(channel);
                assertThat(tr.type()).as(tr.toString()).isEqualTo(CommandType.NEW_TRIAL_JOB);
                @SuppressWarnings("unchecked")
                Map<String, Object> record = (Map<String, Object>) Json.parse(tr.payload());
                @SuppressWarnings("unchecked")
                Parameters p = Parameters.of((Map<String, Object>) record.get("parameters"));
                out.add(p);
                String job = "job" + i;
                Map<String, Object> me = new LinkedHashMap<>();
                me.put("parameter_id", record.get("parameter_id"));
                me.put("trial_job_id", job);
                me.put("type", "FINAL");
                me.put("sequence", 0L);
                me.put("value", Json.write(f.applyAsDouble(p)));
                channel.post(new Command(CommandType.REPORT_METRIC_DATA, Json.write(me)));
                channel.post(new Command(CommandType.TRIAL_END, Json.write(Map.of("trial_job_id", job, "event", "SUCCEEDED",
                        "hyper_params", tr.payload()))));
            }
        } finally {
            channel.post(new Command(CommandType.TERMINATE, ""));
            thread.join(30_000);
        }
        return out;
    }

    private static Command next(InMemoryChannel channel) throws InterruptedException {
        Command c = channel.poll(30_000);
        assertThat(c).as("the dispatcher answered").isNotNull();
        return c;
    }
}
