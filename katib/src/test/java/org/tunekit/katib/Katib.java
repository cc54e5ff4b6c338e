package org.tunekit.katib;

import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.tunekit.katib.api.AlgorithmSetting;
import org.tunekit.katib.api.AlgorithmSpec;
import org.tunekit.katib.api.Distribution;
import org.tunekit.katib.api.Experiment;
import org.tunekit.katib.api.ExperimentSpec;
import org.tunekit.katib.api.FeasibleSpace;
import org.tunekit.katib.api.GetSuggestionsRequest;
import org.tunekit.katib.api.Metric;
import org.tunekit.katib.api.ObjectiveSpec;
import org.tunekit.katib.api.ObjectiveType;
import org.tunekit.katib.api.Observation;
import org.tunekit.katib.api.ParameterAssignment;
import org.tunekit.katib.api.ParameterSpec;
import org.tunekit.katib.api.ParameterType;
import org.tunekit.katib.api.SuggestionGrpc;
import org.tunekit.katib.api.Trial;
import org.tunekit.katib.api.TrialSpec;
import org.tunekit.katib.api.TrialStatus;

/** Builders of Katib messages and a client of a running server, for the tests. */
final class Katib {
    private Katib() {}

    static ParameterSpec range(String name, ParameterType type, String min, String max, String step, Distribution dist) {
        FeasibleSpace.Builder fs = FeasibleSpace.newBuilder().setMin(min).setMax(max).setDistribution(dist);
        if (step != null) {
            fs.setStep(step);
        }
        return ParameterSpec.newBuilder().setName(name).setParameterType(type).setFeasibleSpace(fs).build();
    }

    static ParameterSpec doubles(String name, String min, String max) {
        return range(name, ParameterType.DOUBLE, min, max, null, Distribution.DISTRIBUTION_UNSPECIFIED);
    }

    static ParameterSpec ints(String name, String min, String max) {
        return range(name, ParameterType.INT, min, max, null, Distribution.DISTRIBUTION_UNSPECIFIED);
    }

    static ParameterSpec list(String name, ParameterType type, String... values) {
        return ParameterSpec.newBuilder().setName(name).setParameterType(type)
                .setFeasibleSpace(FeasibleSpace.newBuilder().addAllList(List.of(values))).build();
    }

    static Experiment experiment(String name, String algorithm, Map<String, String> settings, ObjectiveType type, List<ParameterSpec> params) {
        AlgorithmSpec.Builder alg = AlgorithmSpec.newBuilder().setAlgorithmName(algorithm);
        settings.forEach((k, v) -> alg.addAlgorithmSettings(AlgorithmSetting.newBuilder().setName(k).setValue(v)));
        return Experiment.newBuilder().setName(name).setSpec(ExperimentSpec.newBuilder()
                .setParameterSpecs(ExperimentSpec.ParameterSpecs.newBuilder().addAllParameters(params))
                .setObjective(ObjectiveSpec.newBuilder().setType(type).setObjectiveMetricName("loss"))
                .setAlgorithm(alg)
                .setParallelTrialCount(3)
                .setMaxTrialCount(12)).build();
    }

    static Experiment experiment(String algorithm, List<ParameterSpec> params) {
        return experiment("exp", algorithm, Map.of(), ObjectiveType.MINIMIZE, params);
    }

    static Trial trial(String name, List<ParameterAssignment> assignments, TrialStatus.TrialConditionType condition, Double loss,
                       String completion) {
        Observation.Builder obs = Observation.newBuilder();
        if (loss != null) {
            obs.addMetrics(Metric.newBuilder().setName("loss").setValue(Double.toString(loss)));
        }
        return Trial.newBuilder().setName(name)
                .setSpec(TrialSpec.newBuilder().setParameterAssignments(TrialSpec.ParameterAssignments.newBuilder().addAllAssignments(assignments)))
                .setStatus(TrialStatus.newBuilder().setCondition(condition).setObservation(obs).setCompletionTime(completion == null ? "" : completion))
                .build();
    }

    static GetSuggestionsRequest request(Experiment e, List<Trial> trials, int current, int total) {
        return GetSuggestionsRequest.newBuilder().setExperiment(e).addAllTrials(trials)
                .setCurrentRequestNumber(current).setTotalRequestNumber(total).build();
    }

    static List<ParameterAssignment> assign(String... nameValue) {
        List<ParameterAssignment> out = new ArrayList<>();
        for (int i = 0; i < nameValue.length; i += 2) {
            out.add(ParameterAssignment.newBuilder().setName(nameValue[i]).setValue(nameValue[i + 1]).build());
        }
        return out;
    }

    /** A plaintext channel to a local port, with a large inbound limit for large replies. */
    static ManagedChannel channel(int port) {
        return NettyChannelBuilder.forAddress("127.0.0.1", port).usePlaintext().maxInboundMessageSize(512 << 20).build();
    }

    static SuggestionGrpc.SuggestionBlockingStub stub(ManagedChannel channel) {
        return SuggestionGrpc.newBlockingStub(channel).withDeadlineAfter(60, TimeUnit.SECONDS);
    }
}
