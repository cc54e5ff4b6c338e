package org.tunekit.sdk.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.SearchSpace;

class TrialRequestsTest {
    /** A tuner that records its calls and gives {x: id} until it has given {@code budget} sets. */
    static class Counting implements Tuner {
        final List<String> calls = new ArrayList<>();
        int budget;
        Function<Long, Parameters> make = id -> Parameters.of(Map.of("x", id));

        Counting(int budget) {
            this.budget = budget;
        }

        @Override
        public void updateSearchSpace(SearchSpace space) {}

        @Override
        public Parameters generateParameters(long parameterId) throws NoMoreTrialsException {
            calls.add("one " + parameterId);
            if (budget == 0) {
                throw new NoMoreTrialsException("spent");
            }
            budget--;
            return make.apply(parameterId);
        }

        @Override
        public List<Parameters> generateMultipleParameters(List<Long> parameterIds) {
            calls.add("many " + parameterIds);
            List<Parameters> out = new ArrayList<>();
            for (long id : parameterIds) {
                if (budget == 0) {
                    break;
                }
                budget--;
                out.add(make.apply(id));
            }
            return out;
        }

        @Override
        public void receiveTrialResult(TrialResult result) {}
    }

    private long next;

    private static List<Long> ids(TrialRequests.Answer a) {
        return a.trials().stream().map(TrialRequests.Trial::parameterId).toList();
    }

    @Test
    void oneIsAskedWithGenerateParametersAndMoreWithGenerateMultipleParametersWithIdsInOrder() {
        Counting tuner = new Counting(10);
        TrialRequests requests = new TrialRequests(tuner, () -> next++);
        assertThat(ids(requests.request(1))).containsExactly(0L);
        assertThat(ids(requests.request(3))).containsExactly(1L, 2L, 3L);
        assertThat(tuner.calls).containsExactly("one 0", "many [1, 2, 3]");
        TrialRequests.Answer none = requests.request(0);
        assertThat(none.trials()).isEmpty();
        assertThat(none.ranOut()).isFalse();
        assertThat(tuner.calls).hasSize(2);
    }

    @Test
    void addedTrialsGoFirstAndTheTunerIsAskedOnlyForTheSlotsTheyLeave() {
        Counting tuner = new Counting(10);
        TrialRequests requests = new TrialRequests(tuner, () -> next++);
        requests.add(next++, Parameters.of(Map.of("x", "added 0")));
        requests.add(next++, Parameters.of(Map.of("x", "added 1")));
        assertThat(requests.waiting()).isEqualTo(2);
        TrialRequests.Answer a = requests.request(3);
        assertThat(ids(a)).containsExactly(0L, 1L, 2L);
        assertThat(a.trials().get(0).parameters().values()).containsEntry("x", "added 0");
        assertThat(a.asked()).containsExactly(2L);
        assertThat(tuner.calls).containsExactly("one 2");
        requests.add(next++, Parameters.of(Map.of("x", "added 3")));
        assertThat(ids(requests.request(1))).containsExactly(3L);
        assertThat(tuner.calls).hasSize(1);
        assertThat(requests.waiting()).isZero();
    }

    @Test
    void aTunerThatGivesFewerHasRunOutUntilATrialIsAddedAndEveryAskedIdIsTaken() {
        Counting tuner = new Counting(1);
        TrialRequests requests = new TrialRequests(tuner, () -> next++);
        TrialRequests.Answer a = requests.request(3);
        assertThat(ids(a)).containsExactly(0L);
        assertThat(a.asked()).containsExactly(0L, 1L, 2L);
        assertThat(a.ranOut()).isTrue();
        assertThat(a.reason()).isNull();
        assertThat(requests.exhausted()).isTrue();

        TrialRequests.Answer refused = requests.request(1);
        assertThat(refused.trials()).isEmpty();
        assertThat(refused.asked()).containsExactly(3L);
        assertThat(refused.reason()).isEqualTo("spent");
        assertThat(requests.exhausted()).isTrue();

        requests.add(next++, Parameters.of(Map.of("x", 4)));
        assertThat(requests.exhausted()).isFalse();
        assertThat(ids(requests.request(1))).containsExactly(4L);
    }

    @Test
    void aTrialTheTunerAddsWhileItIsAskedWaitsForTheNextRequestAndTakesTheNextId() {
        TrialRequests[] requests = new TrialRequests[1];
        Counting tuner = new Counting(0) {
            @Override
            public Parameters generateParameters(long parameterId) throws NoMoreTrialsException {
                requests[0].add(next++, Parameters.of(Map.of("x", "sent")));
                return super.generateParameters(parameterId);
            }
        };
        requests[0] = new TrialRequests(tuner, () -> next++);
        TrialRequests.Answer a = requests[0].request(1);
        assertThat(a.trials()).isEmpty();
        assertThat(a.ranOut()).isTrue();
        // ran out, but a trial waits: not exhausted
        assertThat(requests[0].exhausted()).isFalse();
        assertThat(ids(requests[0].request(1))).containsExactly(1L);
    }

    @Test
    void aTunerThatThrowsOrBreaksTheContractFailsNamingTheCall() {
        Counting throwing = new Counting(5);
        throwing.make = id -> {
            throw new IllegalStateException("boom");
        };
        assertThatThrownBy(() -> new TrialRequests(throwing, () -> next++).request(1))
                .isInstanceOf(TrialRequests.TunerFailure.class).hasMessage("the tuner failed in generateParameters(0)")
                .hasCauseInstanceOf(IllegalStateException.class)
                .satisfies(e -> assertThat(((TrialRequests.TunerFailure) e).call()).isEqualTo("generateParameters(0)"));

        Counting nulls = new Counting(5);
        nulls.make = id -> null;
        assertThatThrownBy(() -> new TrialRequests(nulls, () -> 3).request(1))
                .isInstanceOf(TrialRequests.TunerFailure.class).hasMessage("the tuner returned null parameters for id 3").hasNoCause();

        Tuner tooMany = new Counting(5) {
            @Override
            public List<Parameters> generateMultipleParameters(List<Long> parameterIds) {
                return List.of(Parameters.of(Map.of()), Parameters.of(Map.of()), Parameters.of(Map.of()));
            }
        };
        next = 0;
        assertThatThrownBy(() -> new TrialRequests(tooMany, () -> next++).request(2))
                .isInstanceOf(TrialRequests.TunerFailure.class).hasMessage("the tuner returned 3 parameter sets for the 2 ids [0, 1]");

        Tuner nullList = new Counting(5) {
            @Override
            public List<Parameters> generateMultipleParameters(List<Long> parameterIds) {
                return null;
            }
        };
        next = 0;
        assertThatThrownBy(() -> new TrialRequests(nullList, () -> next++).request(2))
                .isInstanceOf(TrialRequests.TunerFailure.class).hasMessage("the tuner returned null for the 2 ids [0, 1]")
                .satisfies(e -> assertThat(((TrialRequests.TunerFailure) e).call()).isEqualTo("generateMultipleParameters([0, 1])"));
        assertThatThrownBy(() -> new TrialRequests(nullList, () -> 0).request(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
