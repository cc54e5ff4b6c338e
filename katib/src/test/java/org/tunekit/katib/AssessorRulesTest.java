package org.tunekit.katib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.assertj.core.api.ThrowableAssert;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.tunekit.katib.api.ComparisonType;
import org.tunekit.katib.api.DBManagerGrpc;
import org.tunekit.katib.api.EarlyStoppingGrpc;
import org.tunekit.katib.api.EarlyStoppingRule;
import org.tunekit.katib.api.EarlyStoppingSetting;
import org.tunekit.katib.api.EarlyStoppingSpec;
import org.tunekit.katib.api.Experiment;
import org.tunekit.katib.api.GetEarlyStoppingRulesRequest;
import org.tunekit.katib.api.GetObservationLogReply;
import org.tunekit.katib.api.GetObservationLogRequest;
import org.tunekit.katib.api.Metric;
import org.tunekit.katib.api.MetricLog;
import org.tunekit.katib.api.ObjectiveType;
import org.tunekit.katib.api.ObservationLog;
import org.tunekit.katib.api.Trial;
import org.tunekit.katib.api.TrialStatus;
import org.tunekit.katib.api.ValidateEarlyStoppingSettingsRequest;

/**
 * Tunekit's assessors as Katib early-stopping rules, over loopback sockets, with the trials' curves
 * from a DBManager this test serves. The expected values are worked out by hand in the comments.
 */
class AssessorRulesTest {
    static final String SERVED = "served: medianstop (Katib's), Medianstop, Percentile, Threshold";

    KatibServer server;
    ManagedChannel channel;
    Server db;
    final Map<String, List<Double>> logs = new ConcurrentHashMap<>();

    @BeforeEach
    void start() throws Exception {
        db = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)).addService(new DBManagerGrpc.DBManagerImplBase() {
            @Override
            public void getObservationLog(GetObservationLogRequest r, StreamObserver<GetObservationLogReply> out) {
                ObservationLog.Builder log = ObservationLog.newBuilder();
                for (double v : logs.getOrDefault(r.getTrialName(), List.of())) {
                    log.addMetricLogs(MetricLog.newBuilder().setMetric(Metric.newBuilder().setName(r.getMetricName()).setValue(Double.toString(v))));
                }
                out.onNext(GetObservationLogReply.newBuilder().setObservationLog(log).build());
                out.onCompleted();
            }
        }).build().start();
        server = KatibServer.start(new KatibServer.Options("127.0.0.1", -1, 0, List.of(), 1 << 24, 100, false), new TrialStatusWriter());
        channel = Katib.channel(server.earlyStoppingPort());
        // three completed trials; running averages after 1, 2, 3 reports:
        logs.put("a", List.of(4.0, 2.0, 9.0));    // 4, 3, 5
        logs.put("b", List.of(1.0, 1.0, 1.0));    // 1, 1, 1
        logs.put("c", List.of(10.0, 6.0));        // 10, 8
        logs.put("d", List.of(100.0, 100.0, 100.0)); // running: left out
        logs.put("f", List.of(-50.0, -50.0, -50.0)); // failed: left out
    }

    @AfterEach
    void stop() {
        channel.shutdownNow();
        server.close();
        db.shutdownNow();
    }

    static final List<Trial> TRIALS = List.of(trial("a", TrialStatus.TrialConditionType.SUCCEEDED),
            trial("b", TrialStatus.TrialConditionType.SUCCEEDED), trial("c", TrialStatus.TrialConditionType.SUCCEEDED),
            trial("d", TrialStatus.TrialConditionType.RUNNING), trial("f", TrialStatus.TrialConditionType.FAILED));

    static Trial trial(String name, TrialStatus.TrialConditionType c) {
        return Trial.newBuilder().setName(name).setStatus(TrialStatus.newBuilder().setCondition(c)).build();
    }

    static EarlyStoppingSpec spec(String algorithm, Map<String, String> settings) {
        EarlyStoppingSpec.Builder es = EarlyStoppingSpec.newBuilder().setAlgorithmName(algorithm);
        settings.forEach((k, v) -> es.addAlgorithmSettings(EarlyStoppingSetting.newBuilder().setName(k).setValue(v)));
        return es.build();
    }

    static Experiment experiment(ObjectiveType type, String algorithm, Map<String, String> settings) {
        Experiment e = Katib.experiment("es", "random", Map.of(), type, List.of(Katib.doubles("lr", "0.01", "0.05")));
        return e.toBuilder().setSpec(e.getSpec().toBuilder().setEarlyStopping(spec(algorithm, settings))).build();
    }

    static Map<String, String> settings(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    List<EarlyStoppingRule> rules(ObjectiveType type, String algorithm, Map<String, String> settings, List<Trial> trials) {
        return EarlyStoppingGrpc.newBlockingStub(channel).getEarlyStoppingRules(GetEarlyStoppingRulesRequest.newBuilder()
                .setExperiment(experiment(type, algorithm, settings)).addAllTrials(trials)
                .setDbManagerAddress("127.0.0.1:" + db.getPort()).build()).getEarlyStoppingRulesList();
    }

    static EarlyStoppingRule rule(String value, ComparisonType comparison, int startStep) {
        return EarlyStoppingRule.newBuilder().setName("loss").setValue(value).setComparison(comparison).setStartStep(startStep).build();
    }

    void validate(String algorithm, Map<String, String> settings) {
        EarlyStoppingGrpc.newBlockingStub(channel).validateEarlyStoppingSettings(ValidateEarlyStoppingSettingsRequest.newBuilder()
                .setEarlyStopping(spec(algorithm, settings)).build());
    }

    static void invalid(ThrowableAssert.ThrowingCallable call, String... parts) {
        assertThatThrownBy(call).isInstanceOfSatisfying(StatusRuntimeException.class, x -> {
            assertThat(x.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
            assertThat(x.getStatus().getDescription()).contains(parts);
        });
    }

    @Test
    void medianstopGivesTheMostLenientMedianOfRunningAveragesFromItsStartStep() {
        // minimised, upper medians: report 2 of {3, 1, 8} -> 3; report 3 of {5, 1} -> 5; the largest is 5
        assertThat(rules(ObjectiveType.MINIMIZE, "Medianstop", settings("start_step", "2"), TRIALS))
                .containsExactly(rule("5", ComparisonType.GREATER, 2));
        // maximised, lower medians: report 2 -> 3; report 3 of {1, 5} -> 1; the smallest is 1
        assertThat(rules(ObjectiveType.MAXIMIZE, "medianStop", settings("start_step", "2", "optimize_mode", "maximize"), TRIALS))
                .containsExactly(rule("1", ComparisonType.LESS, 2));
        // start_step 0 (the default) judges from the first report: report 1 of {4, 1, 10} -> 4, below 5; Katib's start step 0
        // compares at every report, 1 would compare at the first only
        assertThat(rules(ObjectiveType.MINIMIZE, "MEDIANSTOP", Map.of(), TRIALS)).containsExactly(rule("5", ComparisonType.GREATER, 0));
        assertThat(rules(ObjectiveType.MINIMIZE, "Medianstop", settings("start_step", "1"), TRIALS))
                .containsExactly(rule("5", ComparisonType.GREATER, 0));
        // only report 3 counts: the minimised upper median of {5, 1} is 5, the maximised lower one 1
        assertThat(rules(ObjectiveType.MINIMIZE, "Medianstop", settings("start_step", "3"), TRIALS))
                .containsExactly(rule("5", ComparisonType.GREATER, 3));
        assertThat(rules(ObjectiveType.MAXIMIZE, "Medianstop", settings("start_step", "3"), TRIALS))
                .containsExactly(rule("1", ComparisonType.LESS, 3));
        // no completed trial reached report 4, and none completed at all: no rule
        assertThat(rules(ObjectiveType.MINIMIZE, "Medianstop", settings("start_step", "4"), TRIALS)).isEmpty();
        assertThat(rules(ObjectiveType.MINIMIZE, "Medianstop", Map.of(), TRIALS.subList(3, 5))).isEmpty();
        // one completed trial is enough (as for the assessor): its own running averages from report 2, 3 and 1
        assertThat(rules(ObjectiveType.MINIMIZE, "Medianstop", settings("start_step", "2"), TRIALS.subList(0, 1)))
                .containsExactly(rule("5", ComparisonType.GREATER, 2));
        // Katib's medianstop on the same trials: the median of the means of the first 2 reports {3, 1, 8}
        assertThat(rules(ObjectiveType.MINIMIZE, "medianstop", settings("start_step", "2"), TRIALS))
                .containsExactly(rule("3", ComparisonType.GREATER, 2));
    }

    @Test
    void aNonFiniteValueEndsATrialsRunningAverageButNotItsLaterValues() {
        logs.put("e", List.of(0.0, Double.NaN, 0.0));
        List<Trial> trials = new ArrayList<>(TRIALS);
        trials.add(trial("e", TrialStatus.TrialConditionType.SUCCEEDED));
        // Medianstop, minimised, from report 1: e counts at report 1 only: {4, 1, 10, 0} -> upper median 4; then 3 and 5 as before
        assertThat(rules(ObjectiveType.MINIMIZE, "Medianstop", Map.of(), trials)).containsExactly(rule("5", ComparisonType.GREATER, 0));
        // Percentile 50, minimised, from report 3: values {9, 1, 0} -> 1
        assertThat(rules(ObjectiveType.MINIMIZE, "Percentile", settings("n_warmup_steps", "2", "n_startup_trials", "1"), trials))
                .containsExactly(rule("1", ComparisonType.GREATER, 3));
    }

    @Test
    void percentileGivesTheMostLenientInterpolatedPercentileOfValuesFromItsWarmUp() {
        // minimised, 25th percentile: report 2 of {1, 2, 6} -> rank 0.5 -> 1.5; report 3 of {1, 9} -> rank 0.25 -> 3; the largest is 3
        assertThat(rules(ObjectiveType.MINIMIZE, "Percentile", settings("percentile", "25", "n_startup_trials", "3", "n_warmup_steps", "1"), TRIALS))
                .containsExactly(rule("3", ComparisonType.GREATER, 2));
        // maximised, the 25th best is the 75th percentile: report 2 -> rank 1.5 -> 4; report 3 -> rank 0.75 -> 7; the smallest is 4
        assertThat(rules(ObjectiveType.MAXIMIZE, "percentile", settings("percentile", "25", "n_startup_trials", "3", "n_warmup_steps", "1"), TRIALS))
                .containsExactly(rule("4", ComparisonType.LESS, 2));
        // defaults: percentile 50, n_warmup_steps 0, but n_startup_trials 5: three completed trials are too few
        assertThat(rules(ObjectiveType.MINIMIZE, "Percentile", Map.of(), TRIALS)).isEmpty();
        // with 3: reports 1 {1, 4, 10} -> 4, 2 {1, 2, 6} -> 2, 3 {1, 9} -> 5: the largest is 5
        assertThat(rules(ObjectiveType.MINIMIZE, "Percentile", settings("n_startup_trials", "3"), TRIALS))
                .containsExactly(rule("5", ComparisonType.GREATER, 0));
    }

    @Test
    void thresholdIsItsBoundWhateverTheTrials() {
        assertThat(rules(ObjectiveType.MAXIMIZE, "Threshold", settings("lower", "0.25", "n_warmup_steps", "2"), List.of()))
                .containsExactly(rule("0.25", ComparisonType.LESS, 3));
        assertThat(rules(ObjectiveType.MINIMIZE, "threshold", settings("upper", "7"), TRIALS))
                .containsExactly(rule("7", ComparisonType.GREATER, 0));
        // the bound on the good side, without a warm-up
        assertThat(rules(ObjectiveType.MAXIMIZE, "Threshold", settings("upper", "1"), List.of()))
                .containsExactly(rule("1", ComparisonType.GREATER, 0));
        invalid(() -> rules(ObjectiveType.MAXIMIZE, "Threshold", settings("upper", "1", "n_warmup_steps", "3"), List.of()),
                "Threshold", "'upper' is served only with n_warmup_steps 0", "crossed it during the warm-up");
        invalid(() -> validate("Threshold", settings("upper", "1", "n_warmup_steps", "3", "optimize_mode", "maximize")),
                "'upper' is served only with n_warmup_steps 0");
        invalid(() -> validate("Threshold", settings("lower", "0", "upper", "1")), "Threshold", "not both", "every rule has held");
        invalid(() -> validate("Threshold", Map.of()), "Threshold", "'lower'", "'upper'", "required");
    }

    @Test
    void assessorsNoRuleCanCarryAreRefusedWithTheReasonAndWhatIsServed() {
        invalid(() -> validate("Curvefitting", settings("epoch_num", "20")), "early-stopping algorithm Curvefitting cannot be served as a Katib rule",
                "extrapolates", "epoch_num", SERVED);
        invalid(() -> validate("patience", settings("patience", "3")), "patience cannot be served", "its own earlier values", SERVED);
        invalid(() -> validate("ASHA", Map.of()), "ASHA cannot be served", "rungs", "Percentile with percentile 100/reduction_factor", SERVED);
        invalid(() -> validate("SuccessiveHalving", Map.of()), "SuccessiveHalving cannot be served", SERVED);
        invalid(() -> validate("nope", Map.of()), "unknown early-stopping algorithm \"nope\"; " + SERVED);
        invalid(() -> validate("", Map.of()), "names no algorithm", SERVED);
        invalid(() -> rules(ObjectiveType.MINIMIZE, "Curvefitting", Map.of(), TRIALS), "Curvefitting cannot be served");
    }

    @Test
    void badArgumentsAreNamed() {
        invalid(() -> validate("Medianstop", settings("start_step", "-1")), "early-stopping algorithm Medianstop", "'start_step'");
        invalid(() -> validate("Medianstop", settings("start_step", "auto")), "'start_step' \"auto\" is not served");
        invalid(() -> validate("Medianstop", settings("patience", "3")), "Medianstop", "unknown class argument 'patience'");
        EarlyStoppingSpec twice = spec("Medianstop", settings("start_step", "2")).toBuilder()
                .addAlgorithmSettings(EarlyStoppingSetting.newBuilder().setName("start_step").setValue("3")).build();
        invalid(() -> EarlyStoppingGrpc.newBlockingStub(channel).validateEarlyStoppingSettings(ValidateEarlyStoppingSettingsRequest.newBuilder()
                .setEarlyStopping(twice).build()), "setting start_step is given twice");
        invalid(() -> validate("Medianstop", settings("optimize_mode", "sideways")), "'optimize_mode'", "sideways");
        invalid(() -> validate("Percentile", settings("interval_steps", "2")), "Percentile", "'interval_steps' must be 1", "cannot skip reports");
        invalid(() -> validate("Percentile", settings("percentile", "150")), "Percentile", "'percentile'");
        invalid(() -> validate("Percentile", settings("n_warmup_steps", "auto")), "'n_warmup_steps' \"auto\" is not served");
        invalid(() -> rules(ObjectiveType.MINIMIZE, "Medianstop", settings("optimize_mode", "maximize"), TRIALS),
                "setting optimize_mode maximize contradicts the objective type MINIMIZE");
        // Katib's medianstop keeps Katib's settings, and points to Tunekit's spelling for NNI's
        invalid(() -> validate("medianstop", settings("optimize_mode", "minimize")), "medianstop has no setting optimize_mode",
                "Tunekit's Medianstop");
        validate("medianstop", settings("min_trials_required", "2", "start_step", "3"));
        validate("Medianstop", settings("start_step", "3", "optimize_mode", "minimize"));
        validate("Percentile", settings("percentile", "25.5", "n_startup_trials", "4", "n_warmup_steps", "2", "interval_steps", "1"));
        validate("Threshold", settings("lower", "-1e3", "n_warmup_steps", "1"));
    }

    @Test
    void aPluginAssessorIsRefusedAsOneThatCannotStateARule() throws Exception {
        assumeTrue(Files.isRegularFile(PluginTunerTest.PLUGINS.resolve("tunekit-fixture-plugins.jar")),
                "the test plugin is not built: no " + PluginTunerTest.PLUGINS.resolve("tunekit-fixture-plugins.jar")
                        + " (build protocol-spec/fixture-plugins)");
        try (KatibServer withPlugins = KatibServer.start(new KatibServer.Options("127.0.0.1", -1, 0, List.of(PluginTunerTest.PLUGINS), 1 << 20,
                10, false), new TrialStatusWriter())) {
            ManagedChannel c = Katib.channel(withPlugins.earlyStoppingPort());
            try {
                invalid(() -> EarlyStoppingGrpc.newBlockingStub(c).validateEarlyStoppingSettings(ValidateEarlyStoppingSettingsRequest.newBuilder()
                        .setEarlyStopping(spec("recordingassessor", Map.of())).build()),
                        "recordingassessor is the assessor RecordingAssessor from", "has no way to state a rule", SERVED);
            } finally {
                c.shutdownNow();
            }
        }
    }
}
