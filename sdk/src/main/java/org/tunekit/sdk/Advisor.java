package org.tunekit.sdk;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.tunekit.sdk.space.SearchSpace;

/**
 * An advisor owns the whole tuning loop (Hyperband, BOHB): it hears every command the manager sends
 * and answers through an {@link AdvisorContext}. It replaces a tuner and an assessor.
 *
 * <p>Called from one thread at a time, in wire order.
 *
 * <p>Several objectives: the built-in advisors (Hyperband, BOHB) optimise one number, the
 * {@code default} key of a metric object ({@link Metric#value()}); other keys are ignored, and they
 * refuse an {@code objectives} class argument as unknown.
 */
public interface Advisor {

    /** Called once, before any other method, with the context the advisor answers through. */
    void open(AdvisorContext context);

    /** The experiment's search space ({@code IN}, and {@code SS} later). */
    void updateSearchSpace(SearchSpace space);

    /** The manager asks for {@code count} new trials ({@code GE}). */
    void requestTrialJobs(int count);

    /** A metric from a trial: final, intermediate, or a multi-phase trial's request for parameters. */
    void reportMetric(MetricReport report);

    /** A trial has ended. */
    void trialEnd(TrialEnd end);

    /** Results from elsewhere ({@code FD}). */
    default void importData(List<ImportedTrial> trials) {}

    /** Parameter sets of trials added by the user, or of an earlier run being resumed ({@code AD}). */
    default void addCustomizedTrials(List<ParameterRecord> records) {}

    /** Saves state when the experiment stops. */
    default void saveCheckpoint(Path directory) throws IOException {}

    /** Restores state when the experiment resumes. */
    default void loadCheckpoint(Path directory) throws IOException {}
}
