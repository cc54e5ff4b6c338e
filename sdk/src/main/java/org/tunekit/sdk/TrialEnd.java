package org.tunekit.sdk;

/**
 * A trial has ended ({@code EN}).
 *
 * @param trialJobId  the manager's trial job id
 * @param event       the final state: {@code SUCCEEDED}, {@code FAILED}, {@code USER_CANCELED},
 *                    {@code SYS_CANCELED} or {@code EARLY_STOPPED}
 * @param parameterId the id of the parameters the trial ran, or {@code null} when unknown
 */
public record TrialEnd(String trialJobId, String event, Long parameterId) {
    /** True when the trial succeeded. */
    public boolean succeeded() {
        return "SUCCEEDED".equals(event);
    }
}
