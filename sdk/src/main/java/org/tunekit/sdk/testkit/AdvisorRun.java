package org.tunekit.sdk.testkit;

import java.util.List;
import java.util.Objects;
import org.tunekit.sdk.Parameters;

/**
 * What an advisor did in one {@link AdvisorTestKit} run.
 *
 * @param trials       the trials that ran, in the order they ended
 * @param noMoreTrials whether the advisor sent {@code NO}
 */
public record AdvisorRun(List<Trial> trials, boolean noMoreTrials) {

    /** Copies the trials. */
    public AdvisorRun {
        trials = List.copyOf(trials);
    }

    /**
     * One trial.
     *
     * @param parameterId the parameter id the advisor sent it with
     * @param trialJobId  the job id the manager gave it ({@code trial<parameter id>})
     * @param parameters  its parameters as sent
     * @param extraKeys   the keys of {@code parameters} that the search space does not name (a budget, for example)
     * @param reported    the intermediate values it reported before it ended (a trial that succeeded also reported the last as {@code FINAL})
     * @param end         {@code SUCCEEDED}, or {@code USER_CANCELED} when the advisor killed it
     */
    public record Trial(long parameterId, String trialJobId, Parameters parameters, List<String> extraKeys, double[] reported,
                        String end) {
        /** Copies the lists. */
        public Trial {
            Objects.requireNonNull(trialJobId, "trialJobId");
            Objects.requireNonNull(parameters, "parameters");
            extraKeys = List.copyOf(extraKeys);
            reported = reported.clone();
        }

        /** The values it reported, a copy. */
        @Override
        public double[] reported() {
            return reported.clone();
        }

        /** Whether the advisor killed it. */
        public boolean killed() {
            return "USER_CANCELED".equals(end);
        }

        Trial withEnd(double[] values, String event) {
            return new Trial(parameterId, trialJobId, parameters, extraKeys, values, event);
        }
    }

    /** The trials that carry {@code value} under {@code key} (a budget, for example), in the order they ended. */
    public List<Trial> withValue(String key, Object value) {
        return trials.stream().filter(t -> Objects.equals(t.parameters().get(key), value)).toList();
    }
}
