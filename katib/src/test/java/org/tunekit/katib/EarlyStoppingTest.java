package org.tunekit.katib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.health.v1.HealthCheckRequest;
import io.grpc.health.v1.HealthCheckResponse;
import io.grpc.health.v1.HealthGrpc;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
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
import org.tunekit.katib.api.SetTrialStatusRequest;
import org.tunekit.katib.api.Trial;
import org.tunekit.katib.api.TrialStatus;
import org.tunekit.katib.api.ValidateEarlyStoppingSettingsRequest;

/**
 * The early-stopping service over loopback sockets: medianstop's rules from a DBManager this test
 * serves, and SetTrialStatus against a mock Kubernetes API server.
 */
@EnableKubernetesMockClient(crud = true)
class EarlyStoppingTest {
    static KubernetesClient client;

    KatibServer server;
    ManagedChannel channel;
    Server db;
    final Map<String, List<Double>> logs = new ConcurrentHashMap<>();
    final AtomicInteger dbCalls = new AtomicInteger();

    @BeforeEach
    void start() throws Exception {
        db = NettyServerBuilder.forAddress(new InetSocketAddress("127.0.0.1", 0)).addService(new DBManagerGrpc.DBManagerImplBase() {
            @Override
            public void getObservationLog(GetObservationLogRequest r, StreamObserver<GetObservationLogReply> out) {
                dbCalls.incrementAndGet();
                ObservationLog.Builder log = ObservationLog.newBuilder();
                int step = 0;
                for (double v : logs.getOrDefault(r.getTrialName(), List.of())) {
                    log.addMetricLogs(MetricLog.newBuilder().setTimeStamp("2026-01-01T00:00:" + String.format("%02d", step++) + "Z")
                            .setMetric(Metric.newBuilder().setName(r.getMetricName()).setValue(Double.toString(v))));
                }
                out.onNext(GetObservationLogReply.newBuilder().setObservationLog(log).build());
                out.onCompleted();
            }
        }).build().start();
        server = KatibServer.start(new KatibServer.Options("127.0.0.1", 0, 0, List.of(), 1 << 24, 100, false), new TrialStatusWriter(() -> client));
        channel = Katib.channel(server.earlyStoppingPort());
    }

    @AfterEach
    void stop() {
        channel.shutdownNow();
        server.close();
        db.shutdownNow();
    }

    EarlyStoppingGrpc.EarlyStoppingBlockingStub stub() {
        return EarlyStoppingGrpc.newBlockingStub(channel);
    }

    static Experiment experiment(ObjectiveType type, Map<String, String> settings) {
        Experiment e = Katib.experiment("es", "random", Map.of(), type, List.of(Katib.doubles("lr", "0.01", "0.05")));
        EarlyStoppingSpec.Builder es = EarlyStoppingSpec.newBuilder().setAlgorithmName("medianstop");
        settings.forEach((k, v) -> es.addAlgorithmSettings(EarlyStoppingSetting.newBuilder().setName(k).setValue(v)));
        return e.toBuilder().setSpec(e.getSpec().toBuilder().setEarlyStopping(es)).build();
    }

    static Trial trial(String name, TrialStatus.TrialConditionType c) {
        return Trial.newBuilder().setName(name).setStatus(TrialStatus.newBuilder().setCondition(c)).build();
    }

    List<EarlyStoppingRule> rules(Experiment e, List<Trial> trials) {
        return stub().getEarlyStoppingRules(GetEarlyStoppingRulesRequest.newBuilder().setExperiment(e).addAllTrials(trials)
                .setDbManagerAddress("127.0.0.1:" + db.getPort()).build()).getEarlyStoppingRulesList();
    }

    @Test
    void healthIsServing() {
        assertThat(HealthGrpc.newBlockingStub(channel).check(HealthCheckRequest.newBuilder().setService(KatibServer.EARLY_STOPPING_HEALTH_NAME).build())
                .getStatus()).isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
    }

    @Test
    void theEarlyStoppingServiceRunsAloneWhenTheSuggestionPortIsMinusOne() throws Exception {
        try (KatibServer alone = KatibServer.start(new KatibServer.Options("127.0.0.1", -1, 0, List.of(), 1 << 20, 10, false),
                new TrialStatusWriter(() -> client))) {
            assertThat(alone.port()).isEqualTo(-1);
            ManagedChannel c = Katib.channel(alone.earlyStoppingPort());
            try {
                assertThat(HealthGrpc.newBlockingStub(c).check(HealthCheckRequest.newBuilder().setService("").build()).getStatus())
                        .isEqualTo(HealthCheckResponse.ServingStatus.SERVING);
            } finally {
                c.shutdownNow();
            }
        }
        assertThatThrownBy(() -> new KatibServer.Options("127.0.0.1", -1, -1, List.of(), 1 << 20, 10, false))
                .hasMessageContaining("neither service is to be served");
    }

    @Test
    void noRuleUntilEnoughTrialsSucceededThenTheMedianOfTheirEarlyMeans() {
        logs.put("a", List.of(4.0, 2.0, 9.0));       // first 2: mean 3
        logs.put("b", List.of(1.0, 1.0, 0.0));       // mean 1
        logs.put("c", List.of(10.0, 6.0));           // mean 8
        logs.put("d", List.of(100.0, 100.0));        // running: not used
        Experiment e = experiment(ObjectiveType.MINIMIZE, Map.of("min_trials_required", "3", "start_step", "2"));
        List<Trial> two = List.of(trial("a", TrialStatus.TrialConditionType.SUCCEEDED), trial("b", TrialStatus.TrialConditionType.SUCCEEDED),
                trial("d", TrialStatus.TrialConditionType.RUNNING), trial("x", TrialStatus.TrialConditionType.FAILED));
        assertThat(rules(e, two)).isEmpty();
        List<Trial> three = new java.util.ArrayList<>(two);
        three.add(trial("c", TrialStatus.TrialConditionType.SUCCEEDED));
        assertThat(rules(e, three)).containsExactly(EarlyStoppingRule.newBuilder().setName("loss").setValue("3")
                .setComparison(ComparisonType.GREATER).setStartStep(2).build());
        // maximised: stop what falls below; defaults min_trials_required 3, start_step 4
        EarlyStoppingRule max = rules(experiment(ObjectiveType.MAXIMIZE, Map.of()), three).get(0);
        assertThat(max.getComparison()).isEqualTo(ComparisonType.LESS);
        assertThat(max.getStartStep()).isEqualTo(4);
        assertThat(max.getValue()).isEqualTo("5");  // means 5, 0.6667, 8
        // a succeeded trial's log is read once
        int calls = dbCalls.get();
        rules(e, three);
        assertThat(dbCalls.get()).isEqualTo(calls);
    }

    @Test
    void badSettingsAndAddressesAreNamed() {
        for (var bad : List.of(Map.of("min_trials_required", "0"), Map.of("start_step", "x"), Map.of("patience", "3"))) {
            Experiment e = experiment(ObjectiveType.MINIMIZE, bad);
            assertThatThrownBy(() -> stub().validateEarlyStoppingSettings(ValidateEarlyStoppingSettingsRequest.newBuilder()
                    .setEarlyStopping(e.getSpec().getEarlyStopping()).build()))
                    .isInstanceOfSatisfying(StatusRuntimeException.class, x -> {
                        assertThat(x.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
                        assertThat(x.getStatus().getDescription()).contains(bad.keySet().iterator().next());
                    });
        }
        assertThatThrownBy(() -> stub().validateEarlyStoppingSettings(ValidateEarlyStoppingSettingsRequest.newBuilder()
                .setEarlyStopping(EarlyStoppingSpec.newBuilder().setAlgorithmName("curvefitting")).build()))
                .hasMessageContaining("early-stopping algorithm curvefitting cannot be served as a Katib rule");
        stub().validateEarlyStoppingSettings(ValidateEarlyStoppingSettingsRequest.newBuilder()
                .setEarlyStopping(experiment(ObjectiveType.MINIMIZE, Map.of("start_step", "3")).getSpec().getEarlyStopping()).build());
        assertThatThrownBy(() -> stub().getEarlyStoppingRules(GetEarlyStoppingRulesRequest.newBuilder()
                .setExperiment(experiment(ObjectiveType.MINIMIZE, Map.of())).setDbManagerAddress("nowhere").build()))
                .hasMessageContaining("db_manager_address must be host:port, got \"nowhere\"");
    }

    @Test
    void setTrialStatusAppendsTheEarlyStoppedConditionToTheTrialResource() {
        String ns = client.getNamespace() == null ? "default" : client.getNamespace();
        GenericKubernetesResource trial = new GenericKubernetesResourceBuilder().withApiVersion("kubeflow.org/v1beta1").withKind("Trial")
                .withNewMetadata().withName("es-trial-1").withNamespace(ns).endMetadata().build();
        trial.getAdditionalProperties().put("status", Map.of("conditions", List.of(
                Map.of("type", "Created", "status", "True", "reason", "TrialCreated"),
                Map.of("type", "Running", "status", "True", "reason", "TrialRunning"))));
        client.genericKubernetesResources(TrialStatusWriter.TRIALS).inNamespace(ns).resource(trial).create();

        stub().setTrialStatus(SetTrialStatusRequest.newBuilder().setTrialName("es-trial-1").build());
        stub().setTrialStatus(SetTrialStatusRequest.newBuilder().setTrialName("es-trial-1").build());

        GenericKubernetesResource after = client.genericKubernetesResources(TrialStatusWriter.TRIALS).inNamespace(ns).withName("es-trial-1").get();
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> conditions = (List<Map<String, Object>>) ((Map<String, Object>) after.getAdditionalProperties().get("status"))
                .get("conditions");
        assertThat(conditions).hasSize(3);
        assertThat(conditions.get(2)).containsEntry("type", "EarlyStopped").containsEntry("status", "True")
                .containsEntry("reason", "TrialEarlyStopped").containsKey("lastTransitionTime");

        assertThatThrownBy(() -> stub().setTrialStatus(SetTrialStatusRequest.newBuilder().setTrialName("no-such-trial").build()))
                .isInstanceOfSatisfying(StatusRuntimeException.class, x -> {
                    assertThat(x.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND);
                    assertThat(x.getStatus().getDescription()).contains("no Trial no-such-trial");
                });
    }
}
