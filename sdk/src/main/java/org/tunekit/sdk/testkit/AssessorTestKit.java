package org.tunekit.sdk.testkit;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.tunekit.sdk.AssessResult;
import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.spi.AssessorProvider;

/**
 * Feeds an assessor learning curves the way the dispatcher does and returns its verdicts: for each
 * new intermediate result, {@code assessTrial} with the whole history so far; after a {@code BAD}
 * verdict the trial is stopped and gets no more assessments; then {@code trialEnd} (successful unless
 * stopped). Errors of the assessor become {@link AssertionError}s.
 *
 * <pre>{@code
 * var kit = AssessorTestKit.forProvider(new MyAssessorProvider()).withArguments(Map.of("start_step", 3));
 * List<AssessorTestKit.Outcome> outcomes = kit.feed(
 *         new double[] {0.9, 0.92, 0.95, 0.96, 0.97},   // a good curve, run first
 *         new double[] {0.1, 0.1, 0.1, 0.1, 0.1});      // a poor one, run after it
 * assertTrue(outcomes.get(1).stopped());
 * }</pre>
 */
public final class AssessorTestKit {
    private final Function<ClassArguments, Assessor> factory;
    private final Map<String, Object> arguments;

    private AssessorTestKit(Function<ClassArguments, Assessor> factory, Map<String, Object> arguments) {
        this.factory = factory;
        this.arguments = arguments;
    }

    /** A kit for the assessors a provider creates. */
    public static AssessorTestKit forProvider(AssessorProvider provider) {
        Objects.requireNonNull(provider, "provider");
        return new AssessorTestKit(provider::create, Map.of());
    }

    /** A kit for the assessors a function creates from class arguments. */
    public static AssessorTestKit forAssessor(Function<ClassArguments, ? extends Assessor> factory) {
        Objects.requireNonNull(factory, "factory");
        return new AssessorTestKit(factory::apply, Map.of());
    }

    /** The class arguments every instance is created with. */
    public AssessorTestKit withArguments(Map<String, ?> arguments) {
        return new AssessorTestKit(factory, ClassArguments.of(arguments).asMap());
    }

    /**
     * What happened to one fed curve.
     *
     * @param trialJobId the trial job id the curve was fed as ({@code trial0}, {@code trial1}, ...)
     * @param verdicts   the verdict after each intermediate result that was assessed
     * @param stopped    true when the assessor said {@code BAD}, after the last verdict
     */
    public record Outcome(String trialJobId, List<AssessResult> verdicts, boolean stopped) {
        /** Copies the verdicts. */
        public Outcome {
            verdicts = List.copyOf(verdicts);
        }

        /** How many intermediate results the trial reported before it was stopped or ended. */
        public int resultsSeen() {
            return verdicts.size();
        }
    }

    /**
     * Creates one assessor and feeds it the curves as trials run one after another, each to its end
     * or until stopped.
     */
    public List<Outcome> feed(double[]... curves) {
        Session session = start();
        List<Outcome> out = new ArrayList<>(curves.length);
        for (int i = 0; i < curves.length; i++) {
            String trial = "trial" + i;
            List<AssessResult> verdicts = new ArrayList<>();
            boolean stopped = false;
            for (double v : curves[i]) {
                AssessResult r = session.report(trial, v);
                verdicts.add(r);
                if (r == AssessResult.BAD) {
                    stopped = true;
                    break;
                }
            }
            session.end(trial, !stopped);
            out.add(new Outcome(trial, verdicts, stopped));
        }
        return out;
    }

    /** A fresh assessor, to be fed result by result (trials may interleave). */
    public Session start() {
        Assessor a;
        try {
            a = factory.apply(ClassArguments.of(arguments));
        } catch (RuntimeException e) {
            throw new AssertionError("AssessorTestKit: creating the assessor with arguments " + arguments + " failed: " + e, e);
        }
        if (a == null) {
            throw new AssertionError("AssessorTestKit: the factory returned null for arguments " + arguments);
        }
        return new Session(a);
    }

    /** One assessor being fed intermediate results, as the dispatcher's assessor queue feeds it. Not thread-safe. */
    public static final class Session {
        private final Assessor assessor;
        private final Map<String, List<Metric>> histories = new HashMap<>();
        private final Map<String, Boolean> stopped = new HashMap<>();

        private Session(Assessor assessor) {
            this.assessor = assessor;
        }

        /** The assessor. */
        public Assessor assessor() {
            return assessor;
        }

        /**
         * Reports the next intermediate result of a trial and returns the verdict on the history so far.
         *
         * @throws IllegalStateException when the trial was stopped or has ended
         */
        public AssessResult report(String trialJobId, double value) {
            if (stopped.containsKey(trialJobId)) {
                throw new IllegalStateException("trial " + trialJobId + " was " + (stopped.get(trialJobId) ? "stopped" : "ended")
                        + "; the dispatcher assesses it no more");
            }
            List<Metric> h = histories.computeIfAbsent(trialJobId, k -> new ArrayList<>());
            h.add(Metric.of(value));
            AssessResult r;
            try {
                r = assessor.assessTrial(trialJobId, List.copyOf(h));
            } catch (RuntimeException e) {
                throw new AssertionError("AssessorTestKit: assessTrial(\"" + trialJobId + "\") with " + h.size()
                        + " results threw " + e, e);
            }
            if (r == null) {
                throw new AssertionError("AssessorTestKit: assessTrial(\"" + trialJobId + "\") with " + h.size() + " results returned null");
            }
            if (r == AssessResult.BAD) {
                stopped.put(trialJobId, true);
            }
            return r;
        }

        /** Ends a trial, as {@code EN} does; a trial that was never reported is ignored, as by the dispatcher. */
        public void end(String trialJobId, boolean success) {
            if (histories.remove(trialJobId) == null) {
                return;
            }
            stopped.putIfAbsent(trialJobId, false);
            try {
                assessor.trialEnd(trialJobId, success);
            } catch (RuntimeException e) {
                throw new AssertionError("AssessorTestKit: trialEnd(\"" + trialJobId + "\", " + success + ") threw " + e, e);
            }
        }
    }
}
