package org.tunekit.tuners.tpe;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ObservationsTest {

    private static double[] x(double v) {
        return new double[] {v};
    }

    @Test
    void aResultCompletesItsPendingSuggestionInPlace() {
        Observations o = new Observations(1, true);
        o.suggested(1, x(0.1));
        o.suggested(2, x(0.2));
        assertThat(o.completePending(2, 5, new double[] {5, 6})).isTrue();
        assertThat(o.completedCount()).isEqualTo(1);
        assertThat(o.pendingCount()).isEqualTo(1);
        assertThat(o.history().state[1]).isEqualTo(History.DONE);
        assertThat(o.lossVectors()[1]).containsExactly(5, 6);
    }

    @Test
    void aSecondResultReplacesTheFirstAndANonFiniteOneDropsTheTrial() {
        Observations o = new Observations(1, false);
        o.suggested(1, x(0.1));
        o.completePending(1, 3, null);
        assertThat(o.completePending(1, 2, null)).isFalse(); // not pending: the first result is dropped
        o.add(1L, x(0.1), 2, null);
        assertThat(o.completed()).singleElement().satisfies(c -> assertThat(c.loss()).isEqualTo(2));
        o.suggested(2, x(0.2));
        assertThat(o.completePending(2, Double.NaN, null)).isTrue();
        assertThat(o.pendingCount()).isZero();
        assertThat(o.completedCount()).isEqualTo(1);
    }

    @Test
    void anEndWithoutResultDropsTheSuggestionAndAnEndAfterOneKeepsIt() {
        Observations o = new Observations(1, false);
        o.suggested(1, x(0.1));
        o.suggested(2, x(0.2));
        o.completePending(1, 1, null);
        o.ended(1);
        o.ended(2);
        assertThat(o.completedCount()).isEqualTo(1);
        assertThat(o.pendingCount()).isZero();
    }

    @Test
    void compactionKeepsTrialsAndLossVectorsWithTheirSlots() {
        Observations o = new Observations(1, true);
        for (long id = 0; id < 100; id++) {
            o.suggested(id, x(id));
        }
        for (long id = 0; id < 90; id++) {
            o.ended(id); // 90 dead slots
        }
        o.completePending(95, 1, new double[] {1, 2});
        o.compactIfSparse();
        assertThat(o.history().slots).isEqualTo(10);
        assertThat(o.completePending(97, 3, new double[] {3, 4})).isTrue();
        assertThat(o.completed()).extracting(c -> c.x()[0]).containsExactly(95.0, 97.0);
        assertThat(o.completed()).extracting(c -> c.lossVector()[0]).containsExactly(1.0, 3.0);
    }
}
