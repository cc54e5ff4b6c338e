package org.tunekit.bench.curves;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.tunekit.dispatcher.AdvisorDispatcher;
import org.tunekit.dispatcher.DispatcherSettings;
import org.tunekit.dispatcher.MsgDispatcher;
import org.tunekit.dispatcher.MsgDispatcherBase;
import org.tunekit.dispatcher.channel.InMemoryChannel;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.tunekit.dispatcher.protocol.JsonCodec;
import org.tunekit.dispatcher.protocol.ProtocolException;
import org.tunekit.sdk.Advisor;
import org.tunekit.sdk.AssessResult;
import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.Tuner;

/**
 * A manager with a fixed number of trial slots, in the same process as a real dispatcher it talks to
 * over an {@link InMemoryChannel}. It sends {@code IN} and {@code GE} for every slot; each trial of
 * the {@link CurveSuite} then reports one {@code PERIODICAL} value per epoch, the running trials taking
 * turns epoch by epoch; a trial that gets {@code KI} stops and ends {@code USER_CANCELED}; one that
 * reaches its last epoch (50, or its {@code TRIAL_BUDGET}) reports {@code FINAL} and ends
 * {@code SUCCEEDED}. Each freed slot is asked for with {@code GE 1}, until the trial limit or the epoch
 * budget is used; when the epoch budget runs out, the running trials are cancelled.
 *
 * <p>After each command the manager waits for the dispatcher's answer (the {@code TR}s or {@code NO}
 * of a {@code GE}; the assessor's verdict and, for {@code BAD}, the {@code KI}; or the advisor's call),
 * so a kill takes effect before the trial's next epoch and a run depends only on its seed.
 */
final class CurveManager {
    private static final long WAIT_MILLIS = 120_000;
    private static final String CANCELED = "USER_CANCELED";
    private static final String SUCCEEDED = "SUCCEEDED";

    /**
     * The limits of a run.
     *
     * @param concurrency trial slots
     * @param maxTrials   trials to start at most (0: no limit)
     * @param epochBudget epochs to spend at most (0: no limit)
     */
    record Limits(int concurrency, int maxTrials, long epochBudget) {
        Limits {
            if (concurrency < 1) {
                throw new IllegalArgumentException("concurrency must be at least 1, got " + concurrency);
            }
            if (maxTrials < 0 || epochBudget < 0) {
                throw new IllegalArgumentException("trial limit and epoch budget must not be negative, got " + maxTrials + " and " + epochBudget);
            }
            if (maxTrials == 0 && epochBudget == 0) {
                throw new IllegalArgumentException("a run needs a trial limit or an epoch budget");
            }
        }
    }

    /**
     * One trial as it ended.
     *
     * @param index       its start order in the run, from 0 (it seeds the trial's noise)
     * @param trialJobId  its trial job id
     * @param parameterId its parameter id
     * @param parameters  its parameters
     * @param budget      the epochs it was to run
     * @param epochs      the epochs it ran
     * @param end         {@code SUCCEEDED}, {@code USER_CANCELED} for a kill by the dispatcher, or {@code BUDGET_SPENT}
     * @param lastValue   the last value it reported
     * @param runEpochs   the epochs the whole run had spent when it ended
     */
    record TrialRecord(int index, String trialJobId, long parameterId, Parameters parameters, int budget, int epochs, String end,
            double lastValue, long runEpochs) {
        /** True when it ran all {@link CurveSuite#EPOCHS} epochs and succeeded. */
        boolean completedFully() {
            return SUCCEEDED.equals(end) && epochs == CurveSuite.EPOCHS;
        }

        /** True when the dispatcher had it killed. */
        boolean killed() {
            return CANCELED.equals(end);
        }
    }

    /**
     * What a run did.
     *
     * @param trials  every trial started, in the order they ended (those cut by the epoch budget last)
     * @param epochs  the epochs spent
     * @param stalled true when the run stopped because nothing ran and the dispatcher sent no trial
     */
    record RunTrace(List<TrialRecord> trials, long epochs, boolean stalled) {}

    /**
     * What the simulated trials are like.
     *
     * @param pace                       how fast their curves progress
     * @param includeIntermediateResults whether a stopped trial reaches the tuner (or what the advisor's context
     *                                   reports) with its last intermediate value ({@code NNI_INCLUDE_INTERMEDIATE_RESULTS})
     * @param perfectRungs               whether a trial that runs to a {@code TRIAL_BUDGET} below {@link CurveSuite#EPOCHS}
     *                                   reports its true (noiseless) final value as its {@code FINAL} metric instead of its
     *                                   value at that budget: an advisor then ranks every rung as it would with full
     *                                   knowledge, the bound of what any better ranking of partial trials could reach
     */
    record Simulation(SuitePace pace, boolean includeIntermediateResults, boolean perfectRungs) {
        /** Late-settling curves, stopped trials not reported, rungs ranked by their observed values. */
        static final Simulation DEFAULT = new Simulation(SuitePace.LATE_SETTLING, false, false);

        Simulation {
            java.util.Objects.requireNonNull(pace, "pace");
        }
    }

    private final InMemoryChannel channel = new InMemoryChannel();
    private final ProbedAssessor assessor;
    private final ProbedAdvisor advisor;
    private final long seed;
    private final Limits limits;
    private final Simulation simulation;

    private final Deque<Pending> pending = new ArrayDeque<>();
    private final Map<String, Running> running = new LinkedHashMap<>();
    private final List<TrialRecord> records = new ArrayList<>();
    private Thread dispatcherThread;
    private long posted;
    private long epochs;
    private int started;
    private boolean noMoreTrials;

    private record Pending(long parameterId, Parameters parameters) {}

    private static final class Running {
        final int index;
        final String trialJobId;
        final long parameterId;
        final Parameters parameters;
        final CurveSuite.Curve curve;
        final int budget;
        int epochs;
        double last = Double.NaN;

        Running(int index, long parameterId, Parameters parameters, SuitePace pace) {
            this.index = index;
            this.trialJobId = trialJobId(index);
            this.parameterId = parameterId;
            this.parameters = parameters;
            this.curve = CurveSuite.curveOf(parameters, pace);
            this.budget = CurveSuite.epochsOf(parameters);
        }
    }

    private CurveManager(ProbedAssessor assessor, ProbedAdvisor advisor, long seed, Limits limits, Simulation simulation) {
        this.assessor = assessor;
        this.advisor = advisor;
        this.seed = seed;
        this.limits = limits;
        this.simulation = simulation;
    }

    /** Runs a tuner with an optional assessor ({@code null} for none) through {@link MsgDispatcher}, with {@link Simulation#DEFAULT}. */
    static RunTrace runTuner(Tuner tuner, Assessor assessor, long seed, Limits limits) throws InterruptedException {
        return runTuner(tuner, assessor, seed, limits, Simulation.DEFAULT);
    }

    /** As above, with simulated trials like {@code simulation}. */
    static RunTrace runTuner(Tuner tuner, Assessor assessor, long seed, Limits limits, Simulation simulation)
            throws InterruptedException {
        ProbedAssessor probe = assessor == null ? null : new ProbedAssessor(assessor);
        CurveManager m = new CurveManager(probe, null, seed, limits, simulation);
        return m.run(new MsgDispatcher(m.channel, tuner, probe, settings(simulation.includeIntermediateResults())));
    }

    /** Runs an advisor through {@link AdvisorDispatcher}, with {@link Simulation#DEFAULT}. */
    static RunTrace runAdvisor(Advisor advisor, long seed, Limits limits) throws InterruptedException {
        return runAdvisor(advisor, seed, limits, Simulation.DEFAULT);
    }

    /** As above, with simulated trials like {@code simulation}. */
    static RunTrace runAdvisor(Advisor advisor, long seed, Limits limits, Simulation simulation) throws InterruptedException {
        ProbedAdvisor probe = new ProbedAdvisor(advisor);
        CurveManager m = new CurveManager(null, probe, seed, limits, simulation);
        return m.run(new AdvisorDispatcher(m.channel, probe, settings(simulation.includeIntermediateResults())));
    }

    private static DispatcherSettings settings(boolean includeIntermediateResults) {
        return new DispatcherSettings(false, null, includeIntermediateResults, Duration.ofSeconds(60));
    }

    private RunTrace run(MsgDispatcherBase d) throws InterruptedException {
        AtomicInteger exit = new AtomicInteger(-1);
        Thread thread = new Thread(() -> exit.set(d.run()), "curves-dispatcher");
        thread.setDaemon(true);
        dispatcherThread = thread;
        thread.start();
        boolean stalled = false;
        try {
            exchange(new Command(CommandType.INITIALIZE, JsonCodec.write(CurveSuite.spaceDefinition())));
            int first = limits.maxTrials() > 0 ? Math.min(limits.concurrency(), limits.maxTrials()) : limits.concurrency();
            handle(exchange(new Command(CommandType.REQUEST_TRIAL_JOBS, Integer.toString(first))));
            while (true) {
                startPending();
                if (running.isEmpty()) {
                    if (!mayRequest()) {
                        break;
                    }
                    if (pending.isEmpty()) {
                        requestFreeSlots();
                        startPending();
                        if (running.isEmpty()) {
                            stalled = !noMoreTrials && budgetLeft();
                            break;
                        }
                    }
                }
                for (Running t : List.copyOf(running.values())) {
                    if (running.containsKey(t.trialJobId)) {
                        step(t);
                    }
                }
                requestFreeSlots();
            }
            for (Running t : List.copyOf(running.values())) {
                end(t, "BUDGET_SPENT", false);
            }
        } finally {
            channel.post(Command.of(CommandType.TERMINATE));
            thread.join(exit.get() == -1 && thread.isAlive() ? WAIT_MILLIS : 1000);
        }
        if (exit.get() != 0) {
            throw new IllegalStateException("the dispatcher stopped with status " + exit.get() + drainErrors());
        }
        return new RunTrace(List.copyOf(records), epochs, stalled);
    }

    private boolean budgetLeft() {
        return limits.epochBudget() == 0 || epochs < limits.epochBudget();
    }

    private boolean mayRequest() {
        boolean trialsLeft = limits.maxTrials() == 0 || started + pending.size() < limits.maxTrials();
        return trialsLeft && budgetLeft() && !noMoreTrials;
    }

    private void requestFreeSlots() throws InterruptedException {
        int free = limits.concurrency() - running.size() - pending.size();
        for (int i = 0; i < free && mayRequest(); i++) {
            handle(exchange(new Command(CommandType.REQUEST_TRIAL_JOBS, "1")));
        }
    }

    private void startPending() {
        while (running.size() < limits.concurrency() && !pending.isEmpty()
                && (limits.maxTrials() == 0 || started < limits.maxTrials()) && budgetLeft()) {
            Pending p = pending.removeFirst();
            Running t = new Running(started++, p.parameterId(), p.parameters(), simulation.pace());
            running.put(t.trialJobId, t);
        }
    }

    /** One epoch of a trial, then its end if that was its last. */
    private void step(Running t) throws InterruptedException {
        if (!budgetLeft()) {
            end(t, "BUDGET_SPENT", false);
            return;
        }
        int epoch = ++t.epochs;
        epochs++;
        t.last = t.curve.observed(seed, t.index, epoch);
        handle(exchange(metric(t, "PERIODICAL", epoch - 1, t.last)));
        if (running.containsKey(t.trialJobId) && epoch >= t.budget) {
            boolean partial = t.budget < CurveSuite.EPOCHS;
            handle(exchange(metric(t, "FINAL", 0, partial && simulation.perfectRungs() ? t.curve.mean(CurveSuite.EPOCHS) : t.last)));
            end(t, SUCCEEDED, true);
        }
    }

    private void end(Running t, String event, boolean tell) throws InterruptedException {
        running.remove(t.trialJobId);
        records.add(new TrialRecord(t.index, t.trialJobId, t.parameterId, t.parameters, t.budget, t.epochs, event, t.last, epochs));
        if (tell) {
            Map<String, Object> hp = new LinkedHashMap<>();
            hp.put("parameter_id", t.parameterId);
            hp.put("parameter_source", "algorithm");
            hp.put("parameters", t.parameters.values());
            hp.put("parameter_index", 0);
            Map<String, Object> payload = new LinkedHashMap<>();
            payload.put("trial_job_id", t.trialJobId);
            payload.put("event", event);
            payload.put("hyper_params", JsonCodec.write(hp));
            handle(exchange(new Command(CommandType.TRIAL_END, JsonCodec.write(payload))));
        }
    }

    private static Command metric(Running t, String type, int sequence, double value) {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("parameter_id", t.parameterId);
        payload.put("trial_job_id", t.trialJobId);
        payload.put("type", type);
        payload.put("sequence", sequence);
        payload.put("value", Double.toString(value));
        return new Command(CommandType.REPORT_METRIC_DATA, JsonCodec.write(payload));
    }

    /** Acts on the dispatcher's answers: new trials, no more trials, kills. */
    private void handle(List<Command> answers) throws InterruptedException {
        for (Command c : answers) {
            switch (c.type()) {
                case NEW_TRIAL_JOB -> pending.addLast(parseTrial(c));
                case NO_MORE_TRIAL_JOBS -> noMoreTrials = true;
                case KILL_TRIAL_JOB -> {
                    String id = parseString(c);
                    Running t = running.get(id);
                    if (t != null) {
                        end(t, CANCELED, true);
                    }
                }
                default -> throw new IllegalStateException("unexpected command from the dispatcher: " + c);
            }
        }
    }

    /**
     * Posts a command and returns what the dispatcher answered, once it has: see the class comment.
     */
    private List<Command> exchange(Command c) throws InterruptedException {
        channel.post(c);
        posted++;
        List<Command> answers = new ArrayList<>();
        if (c.type() == CommandType.INITIALIZE) {
            Command reply = await(c, answers, r -> r.type() == CommandType.INITIALIZED);
            answers.remove(reply);
        }
        if (advisor != null) {
            long deadline = System.nanoTime() + WAIT_MILLIS * 1_000_000;
            while (!advisor.awaitFinished(posted, 100)) {
                checkAlive(c, deadline);
            }
        } else if (c.type() == CommandType.REQUEST_TRIAL_JOBS) {
            int wanted = Integer.parseInt(c.payload());
            int[] got = {0};
            if (wanted > 0) {
                await(c, answers, r -> r.type() == CommandType.NO_MORE_TRIAL_JOBS
                        || (r.type() == CommandType.NEW_TRIAL_JOB && ++got[0] == wanted));
            }
        } else if (assessor != null && c.type() == CommandType.REPORT_METRIC_DATA && c.payload().contains("\"PERIODICAL\"")) {
            long deadline = System.nanoTime() + WAIT_MILLIS * 1_000_000;
            ProbedAssessor.Verdict v;
            while ((v = assessor.next(100)) == null) {
                checkAlive(c, deadline);
            }
            if (v.result() == null) {
                throw new IllegalStateException("the assessor gave no verdict on " + c + drainErrors());
            }
            if (v.result() == AssessResult.BAD) {
                await(c, answers, r -> r.type() == CommandType.KILL_TRIAL_JOB);
            }
        }
        Command more;
        while ((more = channel.poll()) != null) {
            answers.add(more);
        }
        for (Command a : answers) {
            if (a.type() == CommandType.ERROR) {
                throw new IllegalStateException("the dispatcher failed: " + a.payload());
            }
        }
        return answers;
    }

    private void checkAlive(Command c, long deadline) {
        if (!dispatcherThread.isAlive()) {
            throw new IllegalStateException("the dispatcher stopped while handling " + c + drainErrors());
        }
        if (System.nanoTime() > deadline) {
            throw new IllegalStateException("no answer from the dispatcher to " + c + " within " + WAIT_MILLIS + " ms" + drainErrors());
        }
    }

    private Command await(Command c, List<Command> answers, java.util.function.Predicate<Command> last) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT_MILLIS * 1_000_000;
        while (System.nanoTime() < deadline) {
            Command r = channel.poll(100);
            if (r == null) {
                checkAlive(c, deadline);
                continue;
            }
            answers.add(r);
            if (r.type() == CommandType.ERROR) {
                throw new IllegalStateException("the dispatcher failed: " + r.payload());
            }
            if (last.test(r)) {
                return r;
            }
        }
        throw new IllegalStateException("no answer from the dispatcher within " + WAIT_MILLIS + " ms; got " + answers);
    }

    private String drainErrors() {
        StringBuilder sb = new StringBuilder();
        Command c;
        while ((c = channel.poll()) != null) {
            if (c.type() == CommandType.ERROR) {
                sb.append(": ").append(c.payload().lines().findFirst().orElse(""));
            }
        }
        return sb.toString();
    }

    private static Pending parseTrial(Command c) {
        try {
            if (JsonCodec.parse(c.payload(), "TR payload") instanceof Map<?, ?> m
                    && m.get("parameter_id") instanceof Number id && m.get("parameters") instanceof Map<?, ?> values) {
                @SuppressWarnings("unchecked")
                Map<String, Object> v = (Map<String, Object>) values;
                return new Pending(id.longValue(), Parameters.of(v));
            }
        } catch (ProtocolException e) {
            throw new IllegalStateException("the dispatcher sent a malformed TR: " + e.getMessage(), e);
        }
        throw new IllegalStateException("the dispatcher sent a TR without parameter_id and parameters: " + c.payload());
    }

    private static String parseString(Command c) {
        try {
            if (JsonCodec.parse(c.payload(), "KI payload") instanceof String s) {
                return s;
            }
        } catch (ProtocolException e) {
            throw new IllegalStateException("the dispatcher sent a malformed KI: " + e.getMessage(), e);
        }
        throw new IllegalStateException("the dispatcher sent a KI whose payload is not a trial job id: " + c.payload());
    }

    /** The trial job id of the {@code index}-th trial: five characters, as a manager gives. */
    static String trialJobId(int index) {
        String s = Integer.toString(index, 36);
        return "T" + "0000".substring(Math.min(4, s.length())) + s;
    }
}
