package org.tunekit.runner.manager;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The answer recorded for an added trial, written and read back in one place. */
class AddedTrialTest {
    @Test
    void theAnswerIsTheSentenceStoresHoldAndReadsBackToTheSameParameterId() {
        AddedTrial added = new AddedTrial(7);
        assertThat(added.answer()).isEqualTo("parameters 7 added: they run next");
        assertThat(added).hasToString("parameters 7 added: they run next");
        assertThat(AddedTrial.fromAnswer(added.answer())).contains(added);
        assertThat(AddedTrial.fromAnswer(new AddedTrial(Long.MAX_VALUE).answer())).contains(new AddedTrial(Long.MAX_VALUE));
    }

    @Test
    void anAnswerThatIsNotOneToAnAddedTrialNamesNone() {
        assertThat(AddedTrial.fromAnswer("limits unchanged")).isEmpty();
        assertThat(AddedTrial.fromAnswer("the experiment is stopping")).isEmpty();
        assertThat(AddedTrial.fromAnswer("parameters x added: they run next")).isEmpty();
        assertThat(AddedTrial.fromAnswer(null)).isEmpty();
    }
}
