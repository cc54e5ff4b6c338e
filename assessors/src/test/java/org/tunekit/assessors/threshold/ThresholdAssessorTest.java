package org.tunekit.assessors.threshold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.tunekit.assessors.support.Histories.of;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.sdk.AssessResult;
import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.InvalidClassArgumentException;

class ThresholdAssessorTest {
    private static final AssessResult GOOD = AssessResult.GOOD;
    private static final AssessResult BAD = AssessResult.BAD;

    private static Assessor create(Map<String, Object> args) {
        return new ThresholdAssessorProvider().create(ClassArguments.of(args));
    }

    @Test
    void judgesTheLatestValueAgainstBothBounds() {
        Assessor a = create(Map.of("lower", 0.1, "upper", 2));
        assertThat(a.assessTrial("t", of(0.1))).isEqualTo(GOOD);
        assertThat(a.assessTrial("t", of(0.1, 2))).isEqualTo(GOOD);
        assertThat(a.assessTrial("t", of(0.1, 2, 0.09))).isEqualTo(BAD);
        assertThat(a.assessTrial("t", of(0.05, 2.01))).isEqualTo(BAD);
        // only the latest value counts
        assertThat(a.assessTrial("t", of(5, 1))).isEqualTo(GOOD);
        assertThat(a.assessTrial("t", of(1, Double.NaN))).isEqualTo(BAD);
    }

    @Test
    void oneBoundAlone() {
        Assessor upperOnly = create(Map.of("upper", 10));
        assertThat(upperOnly.assessTrial("t", of(-1e300))).isEqualTo(GOOD);
        assertThat(upperOnly.assessTrial("t", of(10.5))).isEqualTo(BAD);
        assertThat(upperOnly.assessTrial("t", of(Double.POSITIVE_INFINITY))).isEqualTo(BAD);
        Assessor lowerOnly = create(Map.of("lower", 0));
        assertThat(lowerOnly.assessTrial("t", of(1e300))).isEqualTo(GOOD);
        assertThat(lowerOnly.assessTrial("t", of(-0.001))).isEqualTo(BAD);
    }

    @Test
    void noJudgementDuringWarmUp() {
        Assessor a = create(Map.of("lower", 0, "n_warmup_steps", 2));
        assertThat(a.assessTrial("t", of(-1))).isEqualTo(GOOD);       // step 0
        assertThat(a.assessTrial("t", of(-1, -1))).isEqualTo(GOOD);   // step 1
        assertThat(a.assessTrial("t", of(-1, -1, -1))).isEqualTo(BAD); // step 2
        assertThat(a.assessTrial("t", of(-1, -1, 3))).isEqualTo(GOOD);
    }

    @Test
    void argumentErrorsNameTheArgument() {
        assertThatThrownBy(() -> create(Map.of())).isInstanceOf(InvalidClassArgumentException.class)
                .hasMessageContaining("'lower'").hasMessageContaining("'upper'");
        assertThatThrownBy(() -> create(Map.of("lower", 2, "upper", 1))).hasMessageContaining("'lower'");
        assertThatThrownBy(() -> create(Map.of("lower", "low"))).hasMessageContaining("'lower'");
        assertThatThrownBy(() -> create(Map.of("upper", 1, "n_warmup_steps", -1))).hasMessageContaining("'n_warmup_steps'");
        assertThatThrownBy(() -> create(Map.of("upper", 1, "uper", 1))).hasMessageContaining("'uper'");
    }

    @Test
    void checkpointIsStateless(@TempDir Path dir) throws Exception {
        Assessor a = create(Map.of("upper", 1));
        a.saveCheckpoint(dir);
        Assessor b = create(Map.of("upper", 1));
        b.loadCheckpoint(dir);
        assertThat(b.assessTrial("t", of(2))).isEqualTo(BAD);
    }
}
