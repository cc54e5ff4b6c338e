package org.tunekit.katib;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.tunekit.katib.api.AlgorithmSetting;
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
 * Katib's hyperband over loopback: the brackets and rungs as Katib's schedule makes them, exactly
 * the number of assignments asked for in every call, and a new server instance (a restart, another
 * replica) that answers every request as the first one did.
 */
class KatibHyperbandTest {
    static final List<ParameterSpec> SPACE = List.of(Katib.doubles("lr", "0.01", "0.05"),
            Katib.list("opt", ParameterType.CATEGORICAL, "sgd", "adam", "ftrl"), Katib.ints("epochs", "1", "9"));

    static Experiment experiment(String name, Map<String, String> settings) {
        return Katib.experiment(name, "hyperband", settings, ObjectiveType.MINIMIZE, SPACE);
    }

    static final Map<String, String> ETA3_R9 = Map.of("resource_name", "epochs", "eta", "3", "r_l", "9");

    /**
     * Lays the settings each reply writes back over the experiment's in the next requests, as
     * Katib's controller does with the Suggestion's status.
     */
    static Function<GetSuggestionsRequest, GetSuggestionsReply> asTheController(Function<GetSuggestionsRequest, GetSuggestionsReply> call) {
        Map<String, String> kept = new LinkedHashMap<>();
        return r -> {
            Map<String, String> settings = new LinkedHashMap<>();
            r.getExperiment().getSpec().getAlgorithm().getAlgorithmSettingsList().forEach(s -> settings.put(s.getName(), s.getValue()));
            settings.putAll(kept);
            GetSuggestionsRequest.Builder b = r.toBuilder();
            var alg = b.getExperimentBuilder().getSpecBuilder().getAlgorithmBuilder().clearAlgorithmSettings();
            settings.forEach((k, v) -> alg.addAlgorithmSettings(AlgorithmSetting.newBuilder().setName(k).setValue(v)));
            GetSuggestionsReply reply = call.apply(b.build());
            reply.getAlgorithm().getAlgorithmSettingsList().forEach(s -> kept.put(s.getName(), s.getValue()));
            return reply;
        };
    }

    private static String value(List<ParameterAssignment> a, String name) {
        return a.stream().filter(x -> x.getName().equals(name)).findFirst().orElseThrow().getValue();
    }

    private static String rest(Trial t) {
        List<ParameterAssignment> a = t.getSpec().getParameterAssignments().getAssignmentsList();
        return value(a, "lr") + "/" + value(a, "opt");
    }

    private static int epochs(Trial t) {
        return Integer.parseInt(value(t.getSpec().getParameterAssignments().getAssignmentsList(), "epochs"));
    }

    private static double loss(Trial t) {
        return Double.parseDouble(t.getStatus().getObservation().getMetrics(0).getValue());
    }

    @Test
    void oneTrialAtATimeRunsKatibsScheduleBracketByBracket() {
        // eta 3, r_l 9: s_max 2; bracket 2 runs 9 at 1 epoch, the best 3 at 3, the best 1 at 9;
        // bracket 1 runs 5 at 3, the best 2 at 9; bracket 0 runs 3 at 9: 23 trials
        ControllerLoop loop = RestartTest.withServer(stub -> new ControllerLoop(experiment("one-at-a-time", ETA3_R9), 7)
                .run(23, 1, asTheController(stub::getSuggestions)));
        List<Trial> t = loop.trials;
        assertThat(t.stream().map(KatibHyperbandTest::epochs).toList())
                .containsExactly(1, 1, 1, 1, 1, 1, 1, 1, 1, 3, 3, 3, 9, 3, 3, 3, 3, 3, 9, 9, 9, 9, 9);
        assertThat(loop.duplicates).isZero();
        // each rung runs again the best of the rung before, with every parameter but the resource unchanged
        assertPromoted(t.subList(0, 9), t.subList(9, 12));
        assertPromoted(t.subList(9, 12), t.subList(12, 13));
        assertPromoted(t.subList(13, 18), t.subList(18, 20));
        // brackets start with new samples
        List<String> fresh = new ArrayList<>();
        for (List<Trial> part : List.of(t.subList(0, 9), t.subList(13, 18), t.subList(20, 23))) {
            part.forEach(x -> fresh.add(rest(x)));
        }
        assertThat(fresh).doesNotHaveDuplicates().hasSize(17);
    }

    private static void assertPromoted(List<Trial> rung, List<Trial> next) {
        List<String> best = rung.stream().sorted(Comparator.comparingDouble(KatibHyperbandTest::loss)).limit(next.size())
                .map(KatibHyperbandTest::rest).toList();
        assertThat(next.stream().map(KatibHyperbandTest::rest).toList()).containsExactlyInAnyOrderElementsOf(best);
        assertThat(next.stream().map(KatibHyperbandTest::epochs).distinct().toList()).hasSize(1);
        assertThat(epochs(next.get(0))).isGreaterThan(epochs(rung.get(0)));
    }

    @Test
    void parallelSlotsAreFilledFromTheNextBracketsWhileARungRuns() {
        ControllerLoop loop = RestartTest.withServer(stub -> new ControllerLoop(experiment("parallel", ETA3_R9), 11)
                .run(60, 4, asTheController(stub::getSuggestions)));
        assertThat(loop.trials).hasSize(60);
        assertThat(loop.duplicates).isZero();
        // every trial run at more than the first budget repeats a trial run before it at the budget below
        Map<String, TreeMap<Integer, Integer>> byRest = new HashMap<>();
        for (int i = 0; i < loop.trials.size(); i++) {
            Trial x = loop.trials.get(i);
            byRest.computeIfAbsent(rest(x), k -> new TreeMap<>()).put(epochs(x), i);
        }
        int promoted = 0;
        for (TreeMap<Integer, Integer> budgets : byRest.values()) {
            Integer before = null;
            for (Map.Entry<Integer, Integer> e : budgets.entrySet()) {
                if (before != null) {
                    assertThat(e.getValue()).as("a promotion comes after its trial").isGreaterThan(before);
                    promoted++;
                }
                before = e.getValue();
            }
        }
        assertThat(promoted).isGreaterThanOrEqualTo(3 + 1 + 2);
    }

    @Test
    void aNewInstanceMidRungAnswersAsTheFirstDidAndGoesOn() {
        Experiment e = experiment("restart-mid-rung", ETA3_R9);
        List<GetSuggestionsRequest> requests = new ArrayList<>();
        List<GetSuggestionsReply> replies = new ArrayList<>();
        ControllerLoop loop = new ControllerLoop(e, 5);
        // 11 trials: bracket 2's first rung has finished and its second is running
        RestartTest.withServer(stub -> loop.run(11, 3, asTheController(r -> {
            requests.add(r);
            GetSuggestionsReply reply = stub.getSuggestions(r);
            replies.add(reply);
            return reply;
        })));
        assertThat(loop.trials.stream().filter(x -> epochs(x) == 3)).isNotEmpty();
        RestartTest.withServer(stub -> {
            for (int i = 0; i < requests.size(); i++) {
                assertThat(stub.getSuggestions(requests.get(i))).as("request %d answered again", i).isEqualTo(replies.get(i));
            }
            return null;
        });
        // the rest of the experiment: a fresh instance for every call
        loop.run(40, 3, asTheController(r -> RestartTest.withServer(stub -> stub.getSuggestions(r))));
        assertThat(loop.trials).hasSize(40);
        assertThat(loop.duplicates).isZero();
    }

    @Test
    void theSettingsWrittenBackAreNotReadAsState() {
        Experiment e = experiment("hints", ETA3_R9);
        ControllerLoop loop = RestartTest.withServer(stub -> new ControllerLoop(e, 2).run(10, 3, stub::getSuggestions));
        GetSuggestionsRequest plain = Katib.request(e, loop.trials, 2, 12);
        Map<String, String> lies = new LinkedHashMap<>(ETA3_R9);
        lies.putAll(Map.of("current_s", "0", "current_i", "0", "evaluating_trials", "0", "s_max", "7", "n", "1", "r", "5"));
        GetSuggestionsRequest withLies = Katib.request(experiment("hints", lies), loop.trials, 2, 12);
        RestartTest.withServer(stub -> {
            GetSuggestionsReply a = stub.getSuggestions(plain);
            assertThat(stub.getSuggestions(withLies)).isEqualTo(a);
            Map<String, String> back = new HashMap<>();
            a.getAlgorithm().getAlgorithmSettingsList().forEach(s -> back.put(s.getName(), s.getValue()));
            assertThat(back).containsEntry("s_max", "2").containsKeys("current_s", "current_i", "evaluating_trials");
            return null;
        });
    }

    @Test
    void aResourceSpaceTooNarrowForTheBudgetsDropsTheRungsItCannotTellApart() {
        // Katib's example: num-epochs in [1, 1] with r_l 2: the second rung would rerun the same trials
        List<ParameterSpec> space = List.of(Katib.doubles("lr", "0.01", "0.05"), Katib.doubles("momentum", "0.5", "0.9"),
                Katib.ints("num-epochs", "1", "1"));
        Experiment e = Katib.experiment("narrow", "hyperband", Map.of("resource_name", "num-epochs", "eta", "2", "r_l", "2"),
                ObjectiveType.MINIMIZE, space);
        ControllerLoop loop = RestartTest.withServer(stub -> new ControllerLoop(e, 3).run(20, 2, asTheController(stub::getSuggestions)));
        assertThat(loop.trials).hasSize(20);
        assertThat(loop.duplicates).isZero();
    }

    @Test
    void failedTrialsAreNotPromotedAndTheRungGoesOn() {
        Experiment e = experiment("failures", ETA3_R9);
        RestartTest.withServer(stub -> {
            List<Trial> trials = new ArrayList<>();
            GetSuggestionsReply first = stub.getSuggestions(Katib.request(e, trials, 9, 9));
            for (int i = 0; i < 9; i++) {
                boolean fails = i < 7;
                trials.add(Katib.trial("t" + i, first.getParameterAssignments(i).getAssignmentsList(),
                        fails ? TrialStatus.TrialConditionType.FAILED : TrialStatus.TrialConditionType.SUCCEEDED, fails ? null : (double) i, null));
            }
            GetSuggestionsReply next = stub.getSuggestions(Katib.request(e, trials, 3, 12));
            assertThat(next.getParameterAssignmentsCount()).isEqualTo(3);
            // the two that succeeded go on at 3 epochs (t7 first: lower loss); the third slot starts bracket 1
            List<String> epochs = next.getParameterAssignmentsList().stream().map(a -> value(a.getAssignmentsList(), "epochs")).toList();
            assertThat(epochs).containsExactly("3", "3", "3");
            assertThat(value(next.getParameterAssignments(0).getAssignmentsList(), "lr"))
                    .isEqualTo(value(first.getParameterAssignments(7).getAssignmentsList(), "lr"));
            assertThat(value(next.getParameterAssignments(1).getAssignmentsList(), "lr"))
                    .isEqualTo(value(first.getParameterAssignments(8).getAssignmentsList(), "lr"));
            List<String> earlier = first.getParameterAssignmentsList().stream().map(a -> value(a.getAssignmentsList(), "lr")).toList();
            assertThat(earlier).doesNotContain(value(next.getParameterAssignments(2).getAssignmentsList(), "lr"));
            return null;
        });
    }

    @Test
    void badSettingsAreNamed() throws Exception {
        ValidationTest.start();
        try {
            ValidationTest.invalid(experiment("v", Map.of("eta", "3", "r_l", "9")), "resource_name is required");
            ValidationTest.invalid(experiment("v", Map.of("resource_name", "epochs", "eta", "3")), "r_l is required");
            ValidationTest.invalid(experiment("v", Map.of("resource_name", "steps", "r_l", "9")),
                    "resource_name steps is not a parameter", "lr, opt, epochs");
            ValidationTest.invalid(experiment("v", Map.of("resource_name", "opt", "r_l", "9")), "resource parameter opt must be INT or DOUBLE");
            ValidationTest.invalid(experiment("v", Map.of("resource_name", "epochs", "r_l", "9", "eta", "1")), "eta must be a number above 1");
            ValidationTest.invalid(experiment("v", Map.of("resource_name", "epochs", "r_l", "9", "eta", "fast")), "eta must be a number");
            ValidationTest.invalid(experiment("v", Map.of("resource_name", "epochs", "r_l", "0")), "r_l must be a number of at least 1");
            ValidationTest.invalid(experiment("v", Map.of("resource_name", "epochs", "r_l", "-3")), "r_l must be a number of at least 1");
            ValidationTest.invalid(experiment("v", Map.of("resource_name", "epochs", "r_l", "9", "etta", "3")),
                    "hyperband has no setting etta", "resource_name, r_l, eta");
        } finally {
            ValidationTest.stop();
        }
    }
}
