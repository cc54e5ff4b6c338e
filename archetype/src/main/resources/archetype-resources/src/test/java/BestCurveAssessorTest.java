package ${package};

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.testkit.AssessorTestKit;

class BestCurveAssessorTest {
    private final AssessorTestKit kit = AssessorTestKit.forProvider(new BestCurveAssessorProvider())
            .withArguments(Map.of("optimize_mode", "maximize", "start_step", 2, "tolerance", 0.1));

    @Test
    void stopsATrialThatFallsBehindTheBestCurve() {
        List<AssessorTestKit.Outcome> outcomes = kit.feed(
                new double[] {0.5, 0.7, 0.8, 0.85},     // the first trial sets the reference
                new double[] {0.5, 0.72, 0.82, 0.9},    // keeps up: runs to its end
                new double[] {0.3, 0.4, 0.45, 0.5});    // falls behind at step 2
        assertFalse(outcomes.get(0).stopped());
        assertFalse(outcomes.get(1).stopped());
        assertTrue(outcomes.get(2).stopped());
        assertEquals(2, outcomes.get(2).resultsSeen());
    }

    @Test
    void judgesNothingBeforeTheStartStep() {
        List<AssessorTestKit.Outcome> outcomes = kit.feed(new double[] {0.9, 0.9, 0.9}, new double[] {0.1});
        assertFalse(outcomes.get(1).stopped());
    }
}
