package org.tunekit.assessors.patience;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tunekit.assessors.support.Histories.of;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.sdk.AssessResult;
import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.InvalidClassArgumentException;

class PatienceAssessorTest {
    private static final AssessResult GOOD = AssessResult.GOOD;
    private static final AssessResult BAD = AssessResult.BAD;

    private static Assessor create(Map<String, Object> args) {
        return new PatienceAssessorProvider().create(ClassArguments.of(args));
    }

    @Test
    void stopsAfterPatienceStepsWithoutImprovementWhenMaximizing() {
        Assessor a = create(Map.of("patience", 2));
        assertThat(a.assessTrial("t", of(1))).isEqualTo(GOOD);
        assertThat(a.assessTrial("t", of(1, 0.5))).isEqualTo(GOOD);
        // reference 1 (first value); last two 0.5, 0.8: no improvement
        assertThat(a.assessTrial("t", of(1, 0.5, 0.8))).isEqualTo(BAD);
        assertThat(a.assessTrial("t", of(1, 0.5, 1.1))).isEqualTo(GOOD);
        // reference max(1, 0.5) = 1; last two 1.1, 0.2: improved at step 2
        assertThat(a.assessTrial("t", of(1, 0.5, 1.1, 0.2))).isEqualTo(GOOD);
        // reference 1.1; last two 0.2, 1.1: a tie is no improvement
        assertThat(a.assessTrial("t", of(1, 0.5, 1.1, 0.2, 1.1))).isEqualTo(BAD);
    }

    @Test
    void minDeltaAndMinimizing() {
        Assessor a = create(Map.of("patience", 1, "min_delta", 0.1, "optimize_mode", "minimize"));
        assertThat(a.assessTrial("t", of(1.0, 0.95))).isEqualTo(BAD);  // better by 0.05 only
        assertThat(a.assessTrial("t", of(1.0, 0.85))).isEqualTo(GOOD);
        assertThat(a.assessTrial("t", of(1.0, 1.5))).isEqualTo(BAD);
    }

    @Test
    void nanNeverImproves() {
        Assessor a = create(Map.of("patience", 1));
        assertThat(a.assessTrial("t", of(1, Double.NaN))).isEqualTo(BAD);
        assertThat(a.assessTrial("t", of(Double.NaN, 0))).isEqualTo(GOOD);
    }

    @Test
    void defersToTheWrappedAssessorWhilePatienceLasts() {
        Assessor a = create(Map.of("patience", 3, "wrapped", Map.of("name", "threshold", "classArgs", Map.of("lower", 0.5))));
        assertThat(a.assessTrial("t", of(0.6, 0.7))).isEqualTo(GOOD);
        assertThat(a.assessTrial("t", of(0.6, 0.4))).isEqualTo(BAD);                  // Threshold says BAD
        assertThat(a.assessTrial("t", of(0.6, 0.55, 0.55, 0.55))).isEqualTo(BAD);     // patience ran out
        assertThat(a.assessTrial("t", of(0.6, 0.55, 0.55, 0.65))).isEqualTo(GOOD);
    }

    @Test
    void theWrappedAssessorSeesEveryHistoryAndItsCheckpointIsKept(@TempDir Path dir) throws Exception {
        Map<String, Object> args = Map.of("patience", 1, "wrapped", Map.of("name", "ASHA", "classArgs", Map.of("min_resource", 1, "reduction_factor", 2)));
        Assessor a = create(args);
        // patience runs out at the same time as the first value reaches ASHA's rung 1 (step 2)
        assertThat(a.assessTrial("x", of(0.9, 0.8))).isEqualTo(BAD);
        a.saveCheckpoint(dir);
        assertThat(Files.list(dir.resolve("wrapped"))).isNotEmpty();

        Assessor b = create(args);
        b.loadCheckpoint(dir);
        // ASHA recorded 0.9 at rung 0: 0.6 there is not in the top half of [0.9, 0.6]; patience would go on
        assertThat(b.assessTrial("y", of(0.6, 0.7))).isEqualTo(BAD);
        assertThat(b.assessTrial("z", of(0.95, 0.99))).isEqualTo(GOOD);
    }

    @Test
    void argumentErrorsNameTheArgument() {
        assertThatThrownBy(() -> create(Map.of())).isInstanceOf(InvalidClassArgumentException.class)
                .hasMessageContaining("'patience'");
        assertThatThrownBy(() -> create(Map.of("patience", 0))).hasMessageContaining("'patience'");
        assertThatThrownBy(() -> create(Map.of("patience", 2, "min_delta", -0.1))).hasMessageContaining("'min_delta'");
        assertThatThrownBy(() -> create(Map.of("patience", 2, "wrapped", Map.of("classArgs", Map.of()))))
                .hasMessageContaining("'wrapped.name'");
        assertThatThrownBy(() -> create(Map.of("patience", 2, "wrapped", Map.of("name", "Nope"))))
                .hasMessageContaining("'wrapped.name'").hasMessageContaining("Threshold");
        assertThatThrownBy(() -> create(Map.of("patience", 2, "wrapped", Map.of("name", "Threshold", "classArgs", Map.of("lowr", 1)))))
                .hasMessageContaining("'wrapped.classArgs.lowr'");
        assertThatThrownBy(() -> create(Map.of("patience", 2, "wrapped", Map.of("name", "Threshold", "args", Map.of()))))
                .hasMessageContaining("'wrapped.args'");
        assertThatThrownBy(() -> create(Map.of("patience", 2, "wrapped", "Threshold"))).hasMessageContaining("'wrapped'");
    }
}
