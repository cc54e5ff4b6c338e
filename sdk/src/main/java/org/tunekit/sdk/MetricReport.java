package org.tunekit.sdk;

/**
 * A metric report from a trial ({@code ME}), as an {@link Advisor} receives it.
 *
 * @param parameterId    the parameter id the trial names, or {@code null} (a user-added trial)
 * @param trialJobId     the manager's trial job id
 * @param type           final, periodical (intermediate) or a multi-phase request
 * @param sequence       the sequence number of an intermediate result
 * @param metric         the metric; {@code null} for {@link Type#REQUEST_PARAMETER}
 * @param parameterIndex for {@link Type#REQUEST_PARAMETER}, the index of the parameter set asked for
 */
public record MetricReport(Long parameterId, String trialJobId, Type type, int sequence, Metric metric, int parameterIndex) {

    /** The kind of report. */
    public enum Type {
        /** The trial's final result. */
        FINAL,
        /** An intermediate result. */
        PERIODICAL,
        /** A multi-phase trial asks for its next parameter set. */
        REQUEST_PARAMETER
    }
}
