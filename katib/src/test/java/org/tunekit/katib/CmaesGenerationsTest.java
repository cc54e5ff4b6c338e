package org.tunekit.katib;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunekit.katib.api.Experiment;
import org.tunekit.katib.api.GetSuggestionsReply;
import org.tunekit.katib.api.GetSuggestionsRequest;
import org.tunekit.katib.api.ObjectiveType;
import org.tunekit.katib.api.ParameterAssignment;
import org.tunekit.katib.api.ParameterSpec;
import org.tunekit.katib.api.Trial;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.dispatcher.plugin.AlgorithmCatalog;

/**
 * Katib's {@code cmaes} on a service that keeps nothing between calls: each call replays the
 * completed trials as CMA-ES generations and goes on with the next members of the current one, so
 * the experiment follows the path one live tuner would take.
 */
class CmaesGenerationsTest {
    private static final List<ParameterSpec> SPACE = List.of(Katib.doubles("lr", "0.01", "0.05"), Katib.doubles("momentum", "0.5", "0.9"));
    private static final Algorithms ALGORITHMS = new Algorithms(AlgorithmCatalog.discover(List.of()));

    @Test
    void theStatelessServiceWalksThePathOfALiveTunerWithThreeTrialsRunning() throws Exception {
        Experiment e = Katib.experiment("cma-live", "cmaes", Map.of(), ObjectiveType.MINIMIZE, SPACE);
        List<GetSuggestionsRequest> requests = new ArrayList<>();
        List<GetSuggestionsReply> replies = new ArrayList<>();
        ControllerLoop loop = RestartTest.withServer(stub -> new ControllerLoop(e, 5).run(30, 3, r -> {
            requests.add(r);
            GetSuggestionsReply reply = stub.getSuggestions(r);
            replies.add(reply);
            return reply;
        }));
        assertThat(loop.duplicates).isZero();

        // the same experiment with one tuner that lives through it: asked as the controller asked, told as trials finished
        KatibSpace space = KatibSpace.of(SPACE);
        Suggester.Setup setup = new Suggester.Setup(space, Algorithms.forParameters(ALGORITHMS.resolve("cmaes", List.of()), space.size()),
                OptimizeMode.MINIMIZE, "loss");
        Tuner live = setup.recipe().create(OptimizeMode.MINIMIZE, Suggester.seed(setup, "cma-live", 0));
        live.updateSearchSpace(space.space());
        List<Trial> trials = loop.trials;
        List<Integer> running = new ArrayList<>();
        int asked = 0;
        int finished = 0;
        while (finished < 30) {
            int want = Math.min(3, 30 - finished) - running.size();
            for (int i = 0; i < want; i++, asked++) {
                Parameters p = live.generateParameters(asked);
                assertClose(space.toKatib(p), trials.get(asked).getSpec().getParameterAssignments().getAssignmentsList(), asked);
                running.add(asked);
            }
            int done = running.remove(0); // the controller loop finishes the oldest running trial
            Trial t = trials.get(done);
            Parameters p = space.toTunekit(t.getSpec().getParameterAssignments().getAssignmentsList());
            live.receiveTrialResult(new TrialResult(done, p, Metric.of(Double.parseDouble(t.getStatus().getObservation().getMetrics(0).getValue())), false, null));
            finished++;
        }
        assertThat(asked).isEqualTo(30);

        // and a fresh instance answers every request of the experiment as the first one did
        RestartTest.withServer(stub -> {
            for (int i = 0; i < requests.size(); i++) {
                assertThat(stub.getSuggestions(requests.get(i))).as("request %d answered again", i).isEqualTo(replies.get(i));
            }
            return null;
        });
    }

    private static void assertClose(List<ParameterAssignment> live, List<ParameterAssignment> served, int trial) {
        assertThat(served).hasSize(live.size());
        for (int i = 0; i < live.size(); i++) {
            assertThat(served.get(i).getName()).isEqualTo(live.get(i).getName());
            assertThat(Double.parseDouble(served.get(i).getValue())).as("trial %d, %s", trial, live.get(i).getName())
                    .isCloseTo(Double.parseDouble(live.get(i).getValue()), within(1e-9));
        }
    }
}
