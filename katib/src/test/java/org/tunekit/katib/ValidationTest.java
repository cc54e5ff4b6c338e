package org.tunekit.katib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.tunekit.katib.api.Distribution;
import org.tunekit.katib.api.Experiment;
import org.tunekit.katib.api.ExperimentSpec;
import org.tunekit.katib.api.GetSuggestionsRequest;
import org.tunekit.katib.api.ObjectiveSpec;
import org.tunekit.katib.api.ObjectiveType;
import org.tunekit.katib.api.ParameterSpec;
import org.tunekit.katib.api.ParameterType;
import org.tunekit.katib.api.SuggestionGrpc;
import org.tunekit.katib.api.TrialStatus;
import org.tunekit.katib.api.ValidateAlgorithmSettingsRequest;

/** Bad experiments, settings and requests get a clear status and a message naming the problem. */
class ValidationTest {
    static KatibServer server;
    static ManagedChannel channel;

    @BeforeAll
    static void start() throws Exception {
        server = KatibServer.start(new KatibServer.Options("127.0.0.1", 0, -1, List.of(), 1 << 20, 100, false));
        channel = Katib.channel(server.port());
    }

    @AfterAll
    static void stop() {
        channel.shutdownNow();
        server.close();
    }

    static SuggestionGrpc.SuggestionBlockingStub stub() {
        return Katib.stub(channel);
    }

    static final List<ParameterSpec> SPACE = List.of(Katib.doubles("lr", "0.01", "0.05"));

    /** The status ValidateAlgorithmSettings answers, and GetSuggestions answers the same. */
    static StatusRuntimeException rejected(Experiment e) {
        StatusRuntimeException validate = (StatusRuntimeException) org.assertj.core.api.Assertions.catchThrowable(
                () -> stub().validateAlgorithmSettings(ValidateAlgorithmSettingsRequest.newBuilder().setExperiment(e).build()));
        assertThat(validate).as("ValidateAlgorithmSettings rejects").isNotNull();
        StatusRuntimeException get = (StatusRuntimeException) org.assertj.core.api.Assertions.catchThrowable(
                () -> stub().getSuggestions(Katib.request(e, List.of(), 1, 1)));
        assertThat(get).as("GetSuggestions rejects").isNotNull();
        assertThat(get.getStatus().getCode()).isEqualTo(validate.getStatus().getCode());
        assertThat(get.getStatus().getDescription()).isEqualTo(validate.getStatus().getDescription());
        return validate;
    }

    static void invalid(Experiment e, String... fragments) {
        StatusRuntimeException x = rejected(e);
        assertThat(x.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
        assertThat(x.getStatus().getDescription()).contains(fragments);
    }

    @Test
    void unknownAlgorithmIsNamedAndTheKnownOnesListed() {
        invalid(Katib.experiment("bogus", SPACE), "unknown algorithm bogus", "tpe", "multivariate-tpe", "cmaes", "GPTuner", "SMAC");
        invalid(Katib.experiment("", SPACE), "names no algorithm", "random");
        invalid(Katib.experiment("pbt", SPACE), "pbt is not served", "known algorithms: random");
        invalid(Katib.experiment("Hyperband", SPACE), "is a Tunekit advisor");
    }

    @Test
    void unknownOrBadSettingsAreNamed() {
        invalid(Katib.experiment("e", "tpe", Map.of("gama", "0.3"), ObjectiveType.MINIMIZE, SPACE),
                "algorithm tpe has no setting gama", "gamma, prior_weight, n_EI_candidates");
        invalid(Katib.experiment("e", "grid", Map.of("seed", "1"), ObjectiveType.MINIMIZE, SPACE), "grid has no setting seed", "(none)");
        invalid(Katib.experiment("e", "tpe", Map.of("gamma", "2"), ObjectiveType.MINIMIZE, SPACE), "setting gamma must be a number in (0.0, 1.0]");
        invalid(Katib.experiment("e", "random", Map.of("random_state", "abc"), ObjectiveType.MINIMIZE, SPACE),
                "setting random_state must be an integer, got \"abc\"");
        invalid(Katib.experiment("e", "cmaes", Map.of("restart_strategy", "bipop"), ObjectiveType.MINIMIZE, SPACE), "restart_strategy \"bipop\"");
        invalid(Katib.experiment("e", "bayesianoptimization", Map.of("base_estimator", "GBRT"), ObjectiveType.MINIMIZE, SPACE),
                "base_estimator \"GBRT\"");
        invalid(Katib.experiment("e", "bayesianoptimization", Map.of("acq_func", "XX"), ObjectiveType.MINIMIZE, SPACE), "acq_func \"XX\"");
        // a Tunekit name takes its NNI class arguments, checked by the tuner itself
        invalid(Katib.experiment("e", "TPE", Map.of("bogus_arg", "1"), ObjectiveType.MINIMIZE, SPACE), "algorithm TPE", "bogus_arg");
        invalid(Katib.experiment("e", "TPE", Map.of("optimize_mode", "maximize"), ObjectiveType.MINIMIZE, SPACE), "optimize_mode is not taken");
        invalid(Katib.experiment("e", "GPTuner", Map.of("nu", "0.7"), ObjectiveType.MINIMIZE, SPACE), "nu");
    }

    @Test
    void goodSettingsAreAccepted() {
        for (var e : List.of(
                Katib.experiment("e", "tpe", Map.of("gamma", "0.3", "n_EI_candidates", "12", "prior_weight", "0.5", "random_state", "3",
                        "n_startup_trials", "4"), ObjectiveType.MAXIMIZE, SPACE),
                Katib.experiment("e", "cmaes", Map.of("restart_strategy", "None", "sigma", "0.2"), ObjectiveType.MINIMIZE, SPACE),
                Katib.experiment("e", "bayesianoptimization", Map.of("base_estimator", "RF", "n_initial_points", "3", "acq_func", "LCB"),
                        ObjectiveType.MINIMIZE, SPACE),
                Katib.experiment("e", "TPE", Map.of("tpe_args", "{\"n_startup_jobs\": 3}", "seed", "5"), ObjectiveType.MINIMIZE, SPACE),
                Katib.experiment("e", "Evolution", Map.of("population_size", "8"), ObjectiveType.MINIMIZE, SPACE))) {
            stub().validateAlgorithmSettings(ValidateAlgorithmSettingsRequest.newBuilder().setExperiment(e).build());
            assertThat(stub().getSuggestions(Katib.request(e, List.of(), 2, 2)).getParameterAssignmentsCount()).isEqualTo(2);
        }
    }

    @Test
    void badSpacesAreNamed() {
        invalid(Katib.experiment("tpe", List.of()), "no parameters");
        invalid(Katib.experiment("tpe", List.of(Katib.doubles("lr", "0.5", "0.1"))), "parameter lr (DOUBLE): min 0.5 is greater than max 0.1");
        invalid(Katib.experiment("tpe", List.of(Katib.doubles("lr", "x", "0.1"))), "parameter lr (DOUBLE): min \"x\" is not a number");
        invalid(Katib.experiment("tpe", List.of(Katib.doubles("lr", "", "0.1"))), "parameter lr (DOUBLE) has no min");
        invalid(Katib.experiment("tpe", List.of(Katib.ints("n", "1.5", "3"))), "parameter n (INT): min and max must be integers");
        invalid(Katib.experiment("tpe", List.of(Katib.range("lr", ParameterType.DOUBLE, "0", "1", null, Distribution.LOG_UNIFORM))),
                "LOG_UNIFORM needs min > 0");
        invalid(Katib.experiment("tpe", List.of(Katib.range("lr", ParameterType.DOUBLE, "0", "1", "-1", Distribution.UNIFORM))),
                "step \"-1\" is not a positive number");
        invalid(Katib.experiment("tpe", List.of(Katib.range("n", ParameterType.INT, "0", "10", "0.5", Distribution.UNIFORM))),
                "step \"0.5\" is not an integer");
        invalid(Katib.experiment("tpe", List.of(Katib.list("opt", ParameterType.CATEGORICAL))), "parameter opt (CATEGORICAL) has an empty list");
        invalid(Katib.experiment("tpe", List.of(Katib.list("h", ParameterType.DISCRETE, "1", "two"))), "list value \"two\" is not a number");
        invalid(Katib.experiment("tpe", List.of(Katib.list("h", ParameterType.DISCRETE, "1", "1.0"))), "list value \"1.0\" is given twice");
        invalid(Katib.experiment("tpe", List.of(Katib.doubles("lr", "0", "1"), Katib.doubles("lr", "0", "2"))), "parameter lr is given twice");
        invalid(Katib.experiment("tpe", List.of(ParameterSpec.newBuilder().setName("x").build())), "parameter x has parameter type 0");
    }

    @Test
    void badObjectivesAreNamed() {
        Experiment e = Katib.experiment("tpe", SPACE);
        Experiment noMetric = e.toBuilder().setSpec(e.getSpec().toBuilder().setObjective(ObjectiveSpec.newBuilder().setType(ObjectiveType.MINIMIZE))).build();
        invalid(noMetric, "objective has no objective_metric_name");
        Experiment noType = e.toBuilder().setSpec(e.getSpec().toBuilder()
                .setObjective(ObjectiveSpec.newBuilder().setObjectiveMetricName("loss"))).build();
        invalid(noType, "objective type must be MINIMIZE or MAXIMIZE");
        invalid(e.toBuilder().clearSpec().build(), "no experiment spec");
    }

    @Test
    void assignmentCountsOutsideTheLimitsAreRefused() {
        Experiment e = Katib.experiment("random", SPACE);
        for (int n : new int[] {0, -1, 101, 10_000}) {
            assertThatThrownBy(() -> stub().getSuggestions(Katib.request(e, List.of(), n, 10_000)))
                    .isInstanceOfSatisfying(StatusRuntimeException.class, x -> {
                        assertThat(x.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
                        assertThat(x.getStatus().getDescription()).contains("current_request_number must be between 1 and 100, got " + n);
                    });
        }
        assertThat(stub().getSuggestions(Katib.request(e, List.of(), 100, 100)).getParameterAssignmentsCount()).isEqualTo(100);
        assertThatThrownBy(() -> stub().getSuggestions(GetSuggestionsRequest.newBuilder().setCurrentRequestNumber(1).build()))
                .hasMessageContaining("INVALID_ARGUMENT: the request has no experiment");
    }

    @Test
    void requestsOverTheConfiguredSizeAreRefusedAndTheServerGoesOn() {
        Experiment e = Katib.experiment("random", SPACE);
        var trials = new java.util.ArrayList<org.tunekit.katib.api.Trial>();
        for (int i = 0; i < 40_000; i++) {
            trials.add(Katib.trial("t" + i, Katib.assign("lr", "0.02"), TrialStatus.TrialConditionType.FAILED, null, null));
        }
        GetSuggestionsRequest big = Katib.request(e, trials, 1, 40_001);
        assertThat(big.getSerializedSize()).isGreaterThan(1 << 20);
        assertThatThrownBy(() -> stub().getSuggestions(big))
                .isInstanceOfSatisfying(StatusRuntimeException.class, x -> assertThat(x.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED));
        assertThat(stub().getSuggestions(Katib.request(e, List.of(), 1, 1)).getParameterAssignmentsCount()).isEqualTo(1);
    }

    @Test
    void trialsWithUnparsableOrForeignValuesAreNotDataButDoNotFailTheCall() {
        Experiment e = Katib.experiment("tpe", List.of(Katib.doubles("lr", "0.01", "0.05"), Katib.list("opt", ParameterType.CATEGORICAL, "a", "b")));
        var trials = List.of(
                Katib.trial("ok", Katib.assign("lr", "0.02", "opt", "a"), TrialStatus.TrialConditionType.SUCCEEDED, 0.5, null),
                Katib.trial("nan-metric", Katib.assign("lr", "0.03", "opt", "a"), TrialStatus.TrialConditionType.SUCCEEDED, Double.NaN, null),
                Katib.trial("out", Katib.assign("lr", "0.9", "opt", "a"), TrialStatus.TrialConditionType.SUCCEEDED, 0.1, null),
                Katib.trial("bad", Katib.assign("lr", "zero", "opt", "a"), TrialStatus.TrialConditionType.SUCCEEDED, 0.1, null),
                Katib.trial("foreign", Katib.assign("lr", "0.02", "opt", "c"), TrialStatus.TrialConditionType.SUCCEEDED, 0.1, null),
                Katib.trial("missing", Katib.assign("lr", "0.02"), TrialStatus.TrialConditionType.SUCCEEDED, 0.1, null));
        var reply = stub().getSuggestions(Katib.request(e, trials, 3, 9));
        assertThat(reply.getParameterAssignmentsCount()).isEqualTo(3);
    }

    static Experiment withSpec(Experiment e, ExperimentSpec spec) {
        return e.toBuilder().setSpec(spec).build();
    }
}
