package org.tunekit.sdk.testkit;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import org.tunekit.sdk.Advisor;
import org.tunekit.sdk.AdvisorContext;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.MetricReport;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialEnd;
import org.tunekit.sdk.space.Parameter;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.sdk.spi.AdvisorProvider;

/**
 * Drives an advisor the way a manager with a few trial slots does, with trials whose learning curves a
 * function of their parameters gives, and returns what the advisor did. The manager asks for one trial
 * per free slot ({@code GE}); the running trials report one value each per round as {@code PERIODICAL},
 * in the order they started, and after their last value that value again as {@code FINAL} and a
 * {@code SUCCEEDED} end, as a trial that reports every epoch and then its result does. A trial the advisor kills ({@code KI}) ends {@code USER_CANCELED} before its
 * next value. Every end frees a slot, and the manager asks again until the run has started its trials.
 *
 * <pre>{@code
 * AdvisorRun run = AdvisorTestKit.forProvider(new MyAdvisorProvider())
 *         .withArguments(Map.of("R", 9, "seed", 1))
 *         .withSpace(space)
 *         .run(30, p -> curveOf(p));          // p carries the advisor's extra keys, such as TRIAL_BUDGET
 * assertEquals(9L, run.trials().get(0).parameters().get("TRIAL_BUDGET"));
 * }</pre>
 *
 * <p>Checked on the way, each failure an {@link AssertionError} that says what the advisor did: every
 * {@code TR} uses a parameter id the context handed out and not used before; its parameters fit the
 * space (keys the space does not name, such as a budget, are allowed and reported in
 * {@link AdvisorRun.Trial#extraKeys()}); a kill names a running trial; the advisor does not leave the
 * manager waiting, with no trial running, for a trial it neither sends nor refuses with {@code NO}; and
 * nothing it is called with throws.
 */
public final class AdvisorTestKit {
    private final Function<ClassArguments, Advisor> factory;
    private final Map<String, Object> arguments;
    private final SearchSpace space;
    private final int slots;

    private AdvisorTestKit(Function<ClassArguments, Advisor> factory, Map<String, Object> arguments, SearchSpace space, int slots) {
        this.factory = factory;
        this.arguments = arguments;
        this.space = space;
        this.slots = slots;
    }

    /** A kit for the advisors a provider creates. */
    public static AdvisorTestKit forProvider(AdvisorProvider provider) {
        Objects.requireNonNull(provider, "provider");
        return new AdvisorTestKit(provider::create, Map.of(), ContractSpaces.allTypes(), 4);
    }

    /** A kit for the advisors a function creates from class arguments. */
    public static AdvisorTestKit forAdvisor(Function<ClassArguments, ? extends Advisor> factory) {
        Objects.requireNonNull(factory, "factory");
        return new AdvisorTestKit(factory::apply, Map.of(), ContractSpaces.allTypes(), 4);
    }

    /** The class arguments every instance is created with. */
    public AdvisorTestKit withArguments(Map<String, ?> arguments) {
        return new AdvisorTestKit(factory, ClassArguments.of(arguments).asMap(), space, slots);
    }

    /** The search space of the runs (default: {@link ContractSpaces#allTypes()}). */
    public AdvisorTestKit withSpace(SearchSpace space) {
        return new AdvisorTestKit(factory, arguments, Objects.requireNonNull(space, "space"), slots);
    }

    /** The manager's trial slots (default 4). */
    public AdvisorTestKit withSlots(int slots) {
        if (slots < 1) {
            throw new IllegalArgumentException("a manager needs at least 1 trial slot, got " + slots);
        }
        return new AdvisorTestKit(factory, arguments, space, slots);
    }

    /**
     * Creates one advisor and runs it until {@code trials} trials have started and ended, or it sent
     * {@code NO} and nothing runs.
     *
     * @param curves the values a trial reports, from its parameters as the advisor sent them; at least one
     */
    public AdvisorRun run(int trials, Function<Parameters, double[]> curves) {
        if (trials < 1) {
            throw new IllegalArgumentException("a run needs at least 1 trial, got " + trials);
        }
        Objects.requireNonNull(curves, "curves");
        Advisor advisor;
        try {
            advisor = factory.apply(ClassArguments.of(arguments));
        } catch (RuntimeException e) {
            throw new AssertionError("creating the advisor with " + arguments + " threw " + e, e);
        }
        return new Manager(advisor, trials, curves).run();
    }

    /** The simulated manager of one run. */
    private final class Manager implements AdvisorContext {
        private final Advisor advisor;
        private final int trials;
        private final Function<Parameters, double[]> curves;
        private final Set<String> spaceNames = new HashSet<>();
        private final Deque<AdvisorRun.Trial> sent = new ArrayDeque<>();
        private final List<Running> running = new ArrayList<>();
        private final List<AdvisorRun.Trial> ended = new ArrayList<>();
        private final Set<Long> handedOut = new HashSet<>();
        private final Set<Long> used = new HashSet<>();
        private long nextId;
        private int started;
        private int asked;
        private boolean noMore;

        private final class Running {
            final AdvisorRun.Trial trial;
            final double[] curve;
            int reported;
            boolean killed;

            Running(AdvisorRun.Trial trial, double[] curve) {
                this.trial = trial;
                this.curve = curve;
            }
        }

        Manager(Advisor advisor, int trials, Function<Parameters, double[]> curves) {
            this.advisor = advisor;
            this.trials = trials;
            this.curves = curves;
            for (Parameter p : space.parameters()) {
                spaceNames.add(p.name());
            }
        }

        AdvisorRun run() {
            call("open", () -> advisor.open(this));
            call("updateSearchSpace", () -> advisor.updateSearchSpace(space));
            ask(Math.min(slots, trials));
            while (true) {
                startSent();
                if (running.isEmpty()) {
                    if (started >= trials || noMore) {
                        break;
                    }
                    throw new AssertionError("the advisor left the manager waiting: " + asked + " trial(s) asked for, " + started
                            + " started, none running, and neither a trial nor NO came");
                }
                for (Running r : List.copyOf(running)) {
                    step(r);
                }
            }
            return new AdvisorRun(ended, noMore);
        }

        private void ask(int count) {
            if (count > 0) {
                asked += count;
                call("requestTrialJobs", () -> advisor.requestTrialJobs(count));
            }
        }

        private void startSent() {
            while (!sent.isEmpty() && running.size() < slots && started < trials) {
                AdvisorRun.Trial t = sent.pollFirst();
                double[] curve;
                try {
                    curve = curves.apply(t.parameters());
                } catch (RuntimeException e) {
                    throw new IllegalArgumentException("the curve function threw for " + t.parameters().values() + ": " + e, e);
                }
                if (curve == null || curve.length == 0) {
                    throw new IllegalArgumentException("the curve function gave no values for " + t.parameters().values());
                }
                running.add(new Running(t, curve.clone()));
                started++;
            }
        }

        private void step(Running r) {
            if (!running.contains(r)) {
                return;
            }
            if (r.killed) {
                end(r, "USER_CANCELED");
                return;
            }
            double value = r.curve[r.reported];
            MetricReport report = new MetricReport(r.trial.parameterId(), r.trial.trialJobId(), MetricReport.Type.PERIODICAL, r.reported,
                    Metric.of(value), 0);
            r.reported++;
            call("reportMetric", () -> advisor.reportMetric(report));
            if (r.reported == r.curve.length && running.contains(r) && !r.killed) {
                MetricReport last = new MetricReport(r.trial.parameterId(), r.trial.trialJobId(), MetricReport.Type.FINAL, 0,
                        Metric.of(value), 0);
                call("reportMetric", () -> advisor.reportMetric(last));
                if (running.contains(r)) {
                    end(r, "SUCCEEDED");
                }
            }
        }

        private void end(Running r, String event) {
            running.remove(r);
            ended.add(r.trial.withEnd(Arrays.copyOf(r.curve, r.reported), event));
            call("trialEnd", () -> advisor.trialEnd(new TrialEnd(r.trial.trialJobId(), event, r.trial.parameterId())));
            if (!noMore && started + sent.size() < trials) {
                ask(1);
            }
        }

        private void call(String method, Runnable action) {
            try {
                action.run();
            } catch (AssertionError e) {
                throw e;
            } catch (RuntimeException e) {
                throw new AssertionError("the advisor's " + method + " threw " + e, e);
            }
        }

        @Override
        public long newParameterId() {
            long id = nextId++;
            handedOut.add(id);
            return id;
        }

        @Override
        public void sendTrial(long parameterId, Parameters parameters) {
            if (!handedOut.contains(parameterId)) {
                throw new AssertionError("the advisor sent a trial with parameter id " + parameterId + ", which newParameterId() never gave");
            }
            if (!used.add(parameterId)) {
                throw new AssertionError("the advisor sent parameter id " + parameterId + " twice");
            }
            Objects.requireNonNull(parameters, "parameters");
            Map<String, Object> inSpace = new LinkedHashMap<>();
            List<String> extra = new ArrayList<>();
            parameters.values().forEach((k, v) -> {
                if (spaceNames.contains(k)) {
                    inSpace.put(k, v);
                } else {
                    extra.add(k);
                }
            });
            space.violation(Parameters.of(inSpace)).ifPresent(why -> {
                throw new AssertionError("the advisor sent parameters that do not fit the space (" + why + "): " + parameters.values());
            });
            sent.add(new AdvisorRun.Trial(parameterId, "trial" + parameterId, parameters, List.copyOf(extra), new double[0], null));
        }

        @Override
        public void sendTrialParameters(String trialJobId, int parameterIndex, long parameterId, Parameters parameters) {
            throw new AssertionError("the advisor answered a multi-phase request for " + trialJobId + ", but the kit never made one");
        }

        @Override
        public void noMoreTrials(long parameterId) {
            noMore = true;
        }

        @Override
        public void killTrial(String trialJobId) {
            Running r = running.stream().filter(x -> x.trial.trialJobId().equals(trialJobId)).findFirst()
                    .orElseThrow(() -> new AssertionError("the advisor killed " + trialJobId + ", which is not running"));
            r.killed = true;
        }

        @Override
        public boolean includeIntermediateResults() {
            return false;
        }
    }
}
