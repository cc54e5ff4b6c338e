package org.tunekit.katib;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.ManagedChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.tunekit.katib.api.Experiment;
import org.tunekit.katib.api.GetSuggestionsReply;
import org.tunekit.katib.api.GetSuggestionsRequest;
import org.tunekit.katib.api.ObjectiveType;
import org.tunekit.katib.api.ParameterAssignment;
import org.tunekit.katib.api.ParameterSpec;
import org.tunekit.katib.api.ParameterType;
import org.tunekit.katib.api.Trial;
import org.tunekit.katib.api.TrialStatus;

/**
 * No state lives in the service: a new server instance (after a kill, or a second replica) given
 * the same trials goes on with no duplicate and answers the same request the same way.
 */
class RestartTest {
    static final List<ParameterSpec> SPACE = List.of(Katib.doubles("lr", "0.01", "0.05"),
            Katib.range("units", ParameterType.INT, "16", "256", "16", org.tunekit.katib.api.Distribution.UNIFORM),
            Katib.list("opt", ParameterType.CATEGORICAL, "sgd", "adam", "ftrl"));

    /** A server that lives for one block. */
    static <T> T withServer(java.util.function.Function<org.tunekit.katib.api.SuggestionGrpc.SuggestionBlockingStub, T> body) {
        try (KatibServer server = KatibServer.start(KatibServer.Options.of("127.0.0.1", 0))) {
            ManagedChannel channel = Katib.channel(server.port());
            try {
                return body.apply(Katib.stub(channel));
            } finally {
                channel.shutdownNow();
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"random", "tpe", "multivariate-tpe", "cmaes", "grid", "sobol", "bayesianoptimization", "SMAC", "Anneal"})
    void aNewInstanceGoesOnWithoutDuplicatesAndAnswersAsTheFirstDid(String algorithm) {
        Experiment e = Katib.experiment("restart-" + algorithm, algorithm, Map.of(), ObjectiveType.MINIMIZE, SPACE);
        List<GetSuggestionsRequest> requests = new ArrayList<>();
        List<GetSuggestionsReply> replies = new ArrayList<>();
        ControllerLoop loop = new ControllerLoop(e, 3);
        // the first instance serves 9 trials, then is gone; a second one serves the rest of the experiment
        withServer(stub -> loop.run(9, 3, r -> {
            requests.add(r);
            GetSuggestionsReply reply = stub.getSuggestions(r);
            replies.add(reply);
            return reply;
        }));
        withServer(stub -> {
            for (int i = 0; i < requests.size(); i++) {
                assertThat(stub.getSuggestions(requests.get(i))).as("request %d answered again", i).isEqualTo(replies.get(i));
            }
            return loop.run(21, 3, stub::getSuggestions);
        });
        assertThat(loop.trials).hasSize(21);
        assertThat(loop.duplicates).isZero();
    }

    @Test
    void aTrialAddedByHandIsNotSuggestedAgain() {
        Experiment e = Katib.experiment("by-hand", "tpe", Map.of("n_startup_trials", "2"), ObjectiveType.MINIMIZE, SPACE);
        withServer(stub -> {
            List<Trial> trials = new ArrayList<>();
            trials.add(Katib.trial("a", Katib.assign("lr", "0.02", "units", "32", "opt", "adam"), TrialStatus.TrialConditionType.SUCCEEDED, 1.0, null));
            trials.add(Katib.trial("b", Katib.assign("lr", "0.04", "units", "64", "opt", "sgd"), TrialStatus.TrialConditionType.SUCCEEDED, 2.0, null));
            GetSuggestionsRequest r = Katib.request(e, trials, 1, 3);
            List<ParameterAssignment> first = stub.getSuggestions(r).getParameterAssignments(0).getAssignmentsList();
            // the same point, started by someone else, is now running: the same call must answer another one
            trials.add(Katib.trial("by-hand", first, TrialStatus.TrialConditionType.RUNNING, null, null));
            List<ParameterAssignment> second = stub.getSuggestions(Katib.request(e, trials, 1, 3)).getParameterAssignments(0).getAssignmentsList();
            assertThat(second).isNotEqualTo(first);
            return null;
        });
    }

    @Test
    void aUsedUpGridVisitsItsPointsAgainRatherThanStallTheExperiment() {
        Experiment e = Katib.experiment("small-grid", "grid", Map.of(), ObjectiveType.MINIMIZE,
                List.of(Katib.list("a", ParameterType.CATEGORICAL, "x", "y"), Katib.list("b", ParameterType.DISCRETE, "1", "2")));
        ControllerLoop loop = withServer(stub -> new ControllerLoop(e, 1).run(7, 2, stub::getSuggestions));
        assertThat(loop.keys).hasSize(4);
        assertThat(loop.trials).hasSize(7);
        assertThat(loop.duplicates).isEqualTo(3);
    }

    @Test
    void aRequestOfFiftyThousandTrialsIsServed() {
        Experiment e = Katib.experiment("large", "tpe", Map.of(), ObjectiveType.MAXIMIZE, SPACE);
        List<Trial> trials = new ArrayList<>();
        java.util.SplittableRandom rng = new java.util.SplittableRandom(5);
        String[] opts = {"sgd", "adam", "ftrl"};
        for (int i = 0; i < 50_000; i++) {
            TrialStatus.TrialConditionType c = i % 10 == 0 ? TrialStatus.TrialConditionType.RUNNING
                    : i % 17 == 0 ? TrialStatus.TrialConditionType.FAILED : TrialStatus.TrialConditionType.SUCCEEDED;
            trials.add(Katib.trial("large-trial-" + i, Katib.assign("lr", KatibSpace.format(0.01 + 0.04 * rng.nextDouble()),
                            "units", Integer.toString(16 * (1 + rng.nextInt(16))), "opt", opts[rng.nextInt(3)]), c,
                    c == TrialStatus.TrialConditionType.SUCCEEDED ? rng.nextDouble() : null, "2026-01-01T00:00:00Z"));
        }
        GetSuggestionsRequest r = Katib.request(e, trials, 5, 50_005);
        assertThat(r.getSerializedSize()).isGreaterThan(4 << 20);
        GetSuggestionsReply reply = withServer(stub -> stub.getSuggestions(r));
        assertThat(reply.getParameterAssignmentsCount()).isEqualTo(5);
        ControllerLoop check = new ControllerLoop(e, 1);
        reply.getParameterAssignmentsList().forEach(a -> check.check(a.getAssignmentsList()));
    }
}
