package org.tunekit.examples.assessor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.testkit.AssessorTestKit;

class NoImprovementAssessorTest {

    @Test
    void stopsATrialOnAPlateau() {
        List<AssessorTestKit.Outcome> outcomes = AssessorTestKit.forProvider(new NoImprovementAssessorProvider())
                .withArguments(Map.of("patience", 2, "min_delta", 0.01))
                .feed(new double[] {0.5, 0.6, 0.7, 0.8, 0.9, 0.95},      // keeps improving
                      new double[] {0.5, 0.6, 0.605, 0.6, 0.61, 0.7});  // flat after step 2
        assertFalse(outcomes.get(0).stopped());
        assertTrue(outcomes.get(1).stopped());
        assertEquals(4, outcomes.get(1).resultsSeen());
    }

    @Test
    void minimizeReadsLowerAsBetter() {
        List<AssessorTestKit.Outcome> outcomes = AssessorTestKit.forProvider(new NoImprovementAssessorProvider())
                .withArguments(Map.of("optimize_mode", "minimize", "patience", 1))
                .feed(new double[] {3, 2, 1, 0.5}, new double[] {3, 2, 2.5, 1});
        assertFalse(outcomes.get(0).stopped());
        assertTrue(outcomes.get(1).stopped());
        assertEquals(3, outcomes.get(1).resultsSeen());
    }

    @Test
    void stopsATrialWorseThanTheThreshold() {
        List<AssessorTestKit.Outcome> outcomes = AssessorTestKit.forProvider(new NoImprovementAssessorProvider())
                .withArguments(Map.of("threshold", 0.3, "start_step", 2, "patience", 10))
                .feed(new double[] {0.2, 0.4, 0.5, 0.6}, new double[] {0.1, 0.15, 0.2, 0.25});  // below 0.3 at step 2
        assertFalse(outcomes.get(0).stopped());
        assertTrue(outcomes.get(1).stopped());
        assertEquals(2, outcomes.get(1).resultsSeen());
    }

    @Test
    void refusesAMisspeltArgument() {
        InvalidClassArgumentException e = assertThrows(InvalidClassArgumentException.class,
                () -> new NoImprovementAssessorProvider().create(ClassArguments.of(Map.of("patients", 2))));
        assertTrue(e.getMessage().contains("'patients'"), e.getMessage());
    }
}
