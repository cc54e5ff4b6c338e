package org.tunekit.sdk.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunekit.sdk.AssessResult;
import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Metric;

class AssessorTestKitTest {

    /** Stops a trial whose latest value, after {@code start} results, is below {@code threshold}. */
    static final class ThresholdAssessor implements Assessor {
        final double threshold;
        final int start;
        final List<String> ended = new ArrayList<>();

        ThresholdAssessor(ClassArguments args) {
            args.requireOnly("threshold", "start");
            threshold = args.getDouble("threshold", 0.5);
            start = args.getInt("start", 2, 1);
        }

        @Override
        public AssessResult assessTrial(String trialJobId, List<Metric> history) {
            if (history.size() < start) {
                return AssessResult.GOOD;
            }
            return history.get(history.size() - 1).value() < threshold ? AssessResult.BAD : AssessResult.GOOD;
        }

        @Override
        public void trialEnd(String trialJobId, boolean success) {
            ended.add(trialJobId + ":" + success);
        }
    }

    @Test
    void feedRunsCurvesAsTrialsAndStopsAtTheFirstBadVerdict() {
        List<AssessorTestKit.Outcome> out = AssessorTestKit.forAssessor(ThresholdAssessor::new)
                .withArguments(Map.of("threshold", 0.5, "start", 2))
                .feed(new double[] {0.6, 0.7, 0.8}, new double[] {0.1, 0.2, 0.3, 0.4});
        assertThat(out.get(0).stopped()).isFalse();
        assertThat(out.get(0).verdicts()).containsExactly(AssessResult.GOOD, AssessResult.GOOD, AssessResult.GOOD);
        assertThat(out.get(1).stopped()).isTrue();
        assertThat(out.get(1).resultsSeen()).isEqualTo(2);
        assertThat(out.get(1).trialJobId()).isEqualTo("trial1");
    }

    @Test
    void sessionGivesTheWholeHistoryAndEndsTrials() {
        List<Integer> sizes = new ArrayList<>();
        AssessorTestKit.Session s = AssessorTestKit.forAssessor(args -> (Assessor) (id, history) -> {
            sizes.add(history.size());
            return AssessResult.GOOD;
        }).start();
        s.report("a", 1);
        s.report("b", 1);
        s.report("a", 2);
        s.end("a", true);
        assertThat(sizes).containsExactly(1, 1, 2);
        assertThatThrownBy(() -> s.report("a", 3)).isInstanceOf(IllegalStateException.class).hasMessageContaining("ended");
    }

    @Test
    void aStoppedTrialIsNotAssessedAgainAndEndsUnsuccessful() {
        AssessorTestKit.Session s = AssessorTestKit.forAssessor(ThresholdAssessor::new)
                .withArguments(Map.of("start", 1)).start();
        assertThat(s.report("t", 0.1)).isEqualTo(AssessResult.BAD);
        assertThatThrownBy(() -> s.report("t", 0.9)).isInstanceOf(IllegalStateException.class).hasMessageContaining("stopped");
        s.end("t", false);
        assertThat(((ThresholdAssessor) s.assessor()).ended).containsExactly("t:false");
    }

    @Test
    void assessorErrorsBecomeAssertionErrors() {
        assertThatThrownBy(() -> AssessorTestKit.forAssessor(args -> (Assessor) (id, history) -> null).feed(new double[] {1}))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("assessTrial(\"trial0\") with 1 results returned null");
        assertThatThrownBy(() -> AssessorTestKit.forAssessor(ThresholdAssessor::new).withArguments(Map.of("x", 1)).start())
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("unknown class argument 'x'");
    }
}
