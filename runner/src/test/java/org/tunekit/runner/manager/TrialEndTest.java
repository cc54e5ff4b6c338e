package org.tunekit.runner.manager;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.tunekit.runner.results.TrialStatus;

/** The rules by which a trial's end is recorded. */
class TrialEndTest {
    @Test
    void exitStatusZeroSucceedsAndAnyOtherFailsNamingTheSignalAndTheTrialsErrors() {
        assertThat(TrialEnd.of("aB3xY", 0, null, null, false, null)).isEqualTo(new TrialEnd(TrialStatus.SUCCEEDED, null, 0));
        assertThat(TrialEnd.of("aB3xY", 137, null, null, false, null))
                .isEqualTo(new TrialEnd(TrialStatus.FAILED, "exited with status 137 (signal 9); see trials/aB3xY/trial.stderr", 137));
    }

    @Test
    void aStoppedTrialEndsAsItWasStoppedWithoutTheSignalOfItsStop() {
        TrialEnd end = TrialEnd.of("aB3xY", 143, TrialStatus.EARLY_STOPPED, "stopped early by the assessor", true, null);
        assertThat(end).isEqualTo(new TrialEnd(TrialStatus.EARLY_STOPPED, "stopped early by the assessor", null));
        assertThat(end.wireStatus()).isEqualTo("USER_CANCELED");
        assertThat(TrialEnd.of("aB3xY", 1, TrialStatus.USER_CANCELED, "ran too long", false, null).exitCode()).isEqualTo(1);
    }

    @Test
    void aTrialThatNeverAskedForItsParametersOrTalkedWronglyDoesNotSucceed() {
        assertThat(TrialEnd.of("aB3xY", 0, null, null, true, null))
                .isEqualTo(new TrialEnd(TrialStatus.FAILED, "it never asked for its parameters", 0));
        assertThat(TrialEnd.of("aB3xY", 0, null, null, false, "trial aB3xY reported a malformed metric: x"))
                .isEqualTo(new TrialEnd(TrialStatus.FAILED, "trial aB3xY reported a malformed metric: x", 0));
        assertThat(TrialEnd.of("aB3xY", null, TrialStatus.USER_CANCELED, "stopped by request 3", true, null))
                .isEqualTo(new TrialEnd(TrialStatus.USER_CANCELED, "stopped by request 3; it never asked for its parameters", null));
    }
}
