package org.tunekit.runner.manager;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunekit.dispatcher.DispatcherSettings;
import org.tunekit.dispatcher.Dispatchers;
import org.tunekit.dispatcher.plugin.AlgorithmCatalog;
import org.tunekit.dispatcher.plugin.ExperimentConfig;
import org.tunekit.runner.results.TrialStatus;

/** The manager's loop over services that are not processes: simulated trials, and trials that outlive the manager. */
class ExperimentManagerTest {
    private static final Map<String, Object> SPACE = Map.of("x", Map.of("_type", "uniform", "_value", List.of(0.0, 1.0)));

    /** A journal in memory that a second manager can continue from. */
    static final class MemoryJournal implements Journal {
        final Map<String, StoredTrial> trials = new LinkedHashMap<>();
        final List<String> events = new ArrayList<>();
        String status;

        @Override
        public String id() {
            return "memory";
        }

        @Override
        public void trialStarted(int sequence, String jobId, long parameterId, String record, Instant at) {
            trials.put(jobId, new StoredTrial(sequence, jobId, parameterId, record, TrialStatus.RUNNING, null, null, null, null, at, 0, 0));
        }

        @Override
        public void trialPlaced(String jobId, Placement placement) {
            StoredTrial t = trials.get(jobId);
            trials.put(jobId, new StoredTrial(t.sequence(), jobId, t.parameterId(), t.parameterRecord(), t.status(), t.finalMetric(),
                    t.finalValue(), placement.handle(), placement.gpus(), t.started(), t.fileFrames(), t.outputFrames()));
        }

        @Override
        public void metric(String jobId, MetricStream from, Long parameterId, String type, int sequence, String valueText, double number,
                           Instant at) {
            frameRead(jobId, from);
            if ("FINAL".equals(type)) {
                StoredTrial t = trials.get(jobId);
                trials.put(jobId, new StoredTrial(t.sequence(), jobId, t.parameterId(), t.parameterRecord(), t.status(), valueText, number,
                        t.handle(), t.gpus(), t.started(), t.fileFrames(), t.outputFrames()));
            }
        }

        @Override
        public void frameRead(String jobId, MetricStream from) {
            StoredTrial t = trials.get(jobId);
            trials.put(jobId, new StoredTrial(t.sequence(), jobId, t.parameterId(), t.parameterRecord(), t.status(), t.finalMetric(),
                    t.finalValue(), t.handle(), t.gpus(), t.started(), t.fileFrames() + (from == MetricStream.FILE ? 1 : 0),
                    t.outputFrames() + (from == MetricStream.OUTPUT ? 1 : 0)));
        }

        @Override
        public void trialEnded(String jobId, TrialStatus status, Integer exitCode, String message, Instant at) {
            StoredTrial t = trials.get(jobId);
            trials.put(jobId, new StoredTrial(t.sequence(), jobId, t.parameterId(), t.parameterRecord(), status, t.finalMetric(),
                    t.finalValue(), t.handle(), t.gpus(), t.started(), t.fileFrames(), t.outputFrames()));
        }

        @Override
        public void event(String kind, String jobId, String text, Instant at) {
            events.add(kind + (jobId == null ? "" : " " + jobId) + ": " + text);
        }

        @Override
        public List<StoredTrial> trials() {
            return List.copyOf(trials.values());
        }

        @Override
        public void setStatus(String status, Instant ended) {
            this.status = status;
        }
    }

    /**
     * Trials that report their parameter x as the final result on the poll after they start; the ones
     * whose handle is "alive" are still running when a later manager reattaches, and end on its first poll.
     */
    static class RemoteLikeService implements TrainingService {
        final List<String> started = new ArrayList<>();
        final List<String> reattached = new ArrayList<>();
        final Map<String, String> running = new LinkedHashMap<>();
        TrialEvents events;

        @Override
        public String describe() {
            return "on a test service";
        }

        @Override
        public void open(TrialEvents events) {
            this.events = events;
        }

        @Override
        public Placement start(TrialLaunch trial) {
            started.add(trial.trialJobId());
            running.put(trial.trialJobId(), trial.parameterRecord());
            return new Placement("job-" + trial.trialJobId(), "node1", List.of());
        }

        @Override
        public void sendParameters(String trialJobId, String parameterRecord, int index, boolean byFile) {}

        @Override
        public void stop(String trialJobId, Duration grace) {
            if (running.remove(trialJobId) != null) {
                events.exited(trialJobId, 130);
            }
        }

        @Override
        public void poll() {
            for (Map.Entry<String, String> e : List.copyOf(running.entrySet())) {
                double x = ((Number) ExperimentManager.parametersOf(e.getValue()).get("x")).doubleValue();
                events.metric(e.getKey(), "{\"type\": \"FINAL\", \"sequence\": 0, \"value\": \"" + x + "\"}", MetricStream.LIVE);
                running.remove(e.getKey());
                events.exited(e.getKey(), 0);
            }
        }

        @Override
        public Reattached reattach(StoredTrial trial) {
            if ("alive".equals(trial.handle())) {
                reattached.add(trial.trialJobId());
                running.put(trial.trialJobId(), trial.parameterRecord());
                return new Reattached(true, "still running as " + trial.handle());
            }
            return Reattached.GONE;
        }

        @Override
        public void close() {}
    }

    private static ExperimentManager manager(TrainingService service, int concurrency, long trials) {
        ManagerSettings settings = new ManagerSettings(SPACE, concurrency, trials, null, null, null, Duration.ZERO);
        Map<String, Object> tuner = Map.of("name", "Random", "classArgs", Map.of("seed", 4, "optimize_mode", "minimize"));
        return new ExperimentManager(settings, service, channel -> Dispatchers.create(channel, ExperimentConfig.fromConfig(Map.of("tuner", tuner)),
                AlgorithmCatalog.discover(List.of()), new DispatcherSettings(false, null, false, Duration.ofSeconds(20))),
                ManagerListener.SILENT, Clock.systemUTC());
    }

    private static String record(long id, double x) {
        return "{\"parameter_id\": " + id + ", \"parameter_source\": \"algorithm\", \"parameters\": {\"x\": " + x + "}, \"parameter_index\": 0}";
    }

    @Test
    void aResumedManagerTakesBackRunningTrialsKeepsStoredResultsAndRunsOnlyLostParametersAgain() throws Exception {
        MemoryJournal journal = new MemoryJournal();
        Instant t0 = Instant.parse("2026-11-01T00:00:00Z");
        journal.trialStarted(0, "done0", 0, record(0, 0.5), t0);
        journal.metric("done0", MetricStream.LIVE, 0L, "FINAL", 0, "0.5", 0.5, t0);
        journal.trialEnded("done0", TrialStatus.SUCCEEDED, 0, null, t0);
        // ran on: reattached, its result still to come
        journal.trialStarted(1, "alive1", 1, record(1, 0.25), t0);
        journal.trialPlaced("alive1", new Placement("alive", "node1", List.of()));
        // its result was stored before the manager stopped: not run again
        journal.trialStarted(2, "final2", 2, record(2, 0.125), t0);
        journal.trialPlaced("final2", new Placement("gone", "node1", List.of()));
        journal.metric("final2", MetricStream.LIVE, 2L, "FINAL", 0, "0.125", 0.125, t0);
        // gone without a result: its parameters run again
        journal.trialStarted(3, "lost3", 3, record(3, 0.75), t0);
        journal.trialPlaced("lost3", new Placement("gone", "node1", List.of()));

        RemoteLikeService service = new RemoteLikeService();
        ExperimentManager m = manager(service, 2, 6);
        m.prepare();
        assertThat(m.run(journal, true)).isEqualTo(ExperimentManager.Outcome.DONE);

        assertThat(service.reattached).containsExactly("alive1");
        Map<String, StoredTrial> t = journal.trials;
        assertThat(t.get("alive1").status()).isEqualTo(TrialStatus.SUCCEEDED);
        assertThat(t.get("alive1").finalValue()).isEqualTo(0.25);
        assertThat(t.get("final2").status()).isEqualTo(TrialStatus.SUCCEEDED);
        assertThat(t.get("lost3").status()).isEqualTo(TrialStatus.LOST);
        // 6 trials in all: 3 before (done0, alive1, final2), the lost parameters again, and 2 new ones
        List<StoredTrial> counted = t.values().stream().filter(s -> s.status() != TrialStatus.LOST).toList();
        assertThat(counted).hasSize(6).allMatch(s -> s.status() == TrialStatus.SUCCEEDED);
        assertThat(counted).extracting(StoredTrial::parameterId).doesNotHaveDuplicates().contains(3L);
        assertThat(service.started).hasSize(3).doesNotContain("alive1", "final2");
        assertThat(counted).filteredOn(s -> s.parameterId() == 3).singleElement().extracting(StoredTrial::handle).asString().startsWith("job-");
    }

    /** The first trial's job is lost (a node failed) after an intermediate result; the second is cancelled by someone else. */
    static final class LosingService extends RemoteLikeService {
        boolean done;

        @Override
        public void poll() {
            if (!done && started.size() >= 2) {
                done = true;
                String lost = started.get(0);
                events.metric(lost, "{\"type\": \"PERIODICAL\", \"sequence\": 0, \"value\": \"9\"}", MetricStream.FILE);
                running.remove(lost);
                events.ended(lost, TrialStatus.LOST, "its node failed");
                String cancelled = started.get(1);
                running.remove(cancelled);
                events.ended(cancelled, TrialStatus.USER_CANCELED, "cancelled by someone else");
                return;
            }
            if (done) {
                super.poll();
            }
        }
    }

    @Test
    void aLostTrialRunsItsParametersAgainAndACancelledOneEndsUserCanceled() throws Exception {
        MemoryJournal journal = new MemoryJournal();
        LosingService service = new LosingService();
        ExperimentManager m = manager(service, 2, 4);
        m.prepare();
        assertThat(m.run(journal, false)).isEqualTo(ExperimentManager.Outcome.DONE);

        Map<String, StoredTrial> t = journal.trials;
        String lost = service.started.get(0);
        assertThat(t.get(lost).status()).isEqualTo(TrialStatus.LOST);
        assertThat(t.get(service.started.get(1)).status()).isEqualTo(TrialStatus.USER_CANCELED);
        // the lost trial does not count: 4 trials besides it, and its parameters among them, run to their end
        List<StoredTrial> counted = t.values().stream().filter(s -> s.status() != TrialStatus.LOST).toList();
        assertThat(counted).hasSize(4);
        assertThat(counted).filteredOn(s -> s.parameterId() == t.get(lost).parameterId()).singleElement()
                .satisfies(again -> assertThat(again.status()).isEqualTo(TrialStatus.SUCCEEDED))
                .satisfies(again -> assertThat(again.trialJobId()).isNotEqualTo(lost));
        assertThat(service.started).hasSize(5).doesNotHaveDuplicates();
    }

    @Test
    void aTrialLostWithItsMachineEndsLostAndItsParametersRunAgainWithoutUsingTheBudget() throws Exception {
        // the first trial started is lost with its machine; every other one ends with its result
        RemoteLikeService service = new RemoteLikeService() {
            boolean lostOne;

            @Override
            public void poll() {
                if (!lostOne && !running.isEmpty()) {
                    lostOne = true;
                    String first = running.keySet().iterator().next();
                    running.remove(first);
                    events.lost(first, "machine u@h:22 did not answer for 60s");
                }
                super.poll();
            }
        };
        MemoryJournal journal = new MemoryJournal();
        ExperimentManager m = manager(service, 2, 4);
        m.prepare();
        assertThat(m.run(journal, false)).isEqualTo(ExperimentManager.Outcome.DONE);

        List<StoredTrial> lost = journal.trials.values().stream().filter(s -> s.status() == TrialStatus.LOST).toList();
        List<StoredTrial> done = journal.trials.values().stream().filter(s -> s.status() == TrialStatus.SUCCEEDED).toList();
        assertThat(lost).hasSize(1);
        // maxTrialNumber 4 counts the rerun once: 4 results, one of them for the lost trial's parameters
        assertThat(done).hasSize(4).extracting(StoredTrial::parameterId).doesNotHaveDuplicates().contains(lost.get(0).parameterId());
        assertThat(service.started).hasSize(5);
    }

    @Test
    void simulatedTrialsInLockStepGiveTheSameRunForTheSameSeeds() throws Exception {
        List<List<String>> runs = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            SimulatedTrials trials = new SimulatedTrials((launch, p) -> new SimulatedTrials.Curve() {
                final java.util.SplittableRandom noise = new java.util.SplittableRandom(launch.sequence());

                @Override
                public int epochs() {
                    return 5;
                }

                @Override
                public double valueAt(int epoch) {
                    return p.getDouble("x") + noise.nextDouble() / epoch;
                }
            }, 0);
            MemoryJournal journal = new MemoryJournal();
            ExperimentManager m = manager(trials, 3, 10);
            m.prepare();
            assertThat(m.run(journal, false)).isEqualTo(ExperimentManager.Outcome.DONE);
            assertThat(trials.ended()).hasSize(10).allMatch(e -> e.end() == SimulatedTrials.End.COMPLETED && e.epochs() == 5);
            assertThat(trials.epochs()).isEqualTo(50);
            runs.add(trials.ended().stream().map(e -> e.launch().trialJobId() + " " + e.parameters().values() + " " + e.lastValue()).toList());
        }
        assertThat(runs.get(1)).isEqualTo(runs.get(0));
        assertThat(runs.get(0).get(0)).startsWith("T0000 ");
    }

    @Test
    void anEpochBudgetEndsTheRunAndCutsTheRunningTrials() throws Exception {
        SimulatedTrials trials = new SimulatedTrials((launch, p) -> SimulatedTrials.Curve.of(10, epoch -> 1.0 / epoch), 25);
        ExperimentManager m = manager(trials, 2, 0);
        trials.onBudgetSpent(() -> m.requestStop("the epoch budget is spent"));
        m.prepare();
        m.run(new MemoryJournal(), false);
        assertThat(trials.epochs()).isEqualTo(25);
        assertThat(trials.ended()).extracting(SimulatedTrials.Ended::end).containsOnly(SimulatedTrials.End.COMPLETED, SimulatedTrials.End.BUDGET_SPENT);
        assertThat(trials.ended().stream().mapToInt(SimulatedTrials.Ended::epochs).sum()).isEqualTo(25);
    }

    @Test
    void trialsAddedBeforeTheRunRunFirstInOrderAndTheTunerLearnsThemBeforeItsFirstSuggestion() throws Exception {
        // a warm start: three sets for two slots and a budget of five; simulated trials report their x at once
        RecordingTuner tuner = new RecordingTuner();
        SimulatedTrials trials = new SimulatedTrials((launch, p) -> SimulatedTrials.Curve.of(1, epoch -> p.getDouble("x")), 0);
        ExperimentManager m = new ExperimentManager(new ManagerSettings(SPACE, 2, 5, null, null, null, Duration.ZERO), trials,
                tuner::dispatcher, ManagerListener.SILENT, Clock.systemUTC());
        m.prepare();
        List<java.util.concurrent.CompletableFuture<AddedTrial>> added = List.of(m.addTrial(Map.of("x", 0.125), "warmStart[0]"),
                m.addTrial(Map.of("x", 0.25), "warmStart[1]"), m.addTrial(Map.of("x", 0.375), "warmStart[2]"));
        MemoryJournal journal = new MemoryJournal();
        assertThat(m.run(journal, false)).isEqualTo(ExperimentManager.Outcome.DONE);

        assertThat(added).extracting(java.util.concurrent.CompletableFuture::join)
                .containsExactly(new AddedTrial(0), new AddedTrial(1), new AddedTrial(2));
        List<StoredTrial> ran = journal.trials.values().stream().sorted(java.util.Comparator.comparingInt(StoredTrial::sequence)).toList();
        assertThat(ran).extracting(StoredTrial::parameterId).containsExactly(0L, 1L, 2L, 3L, 4L);
        assertThat(ran.subList(0, 3)).extracting(t -> ExperimentManager.parametersOf(t.parameterRecord()))
                .containsExactly(Map.of("x", 0.125), Map.of("x", 0.25), Map.of("x", 0.375));
        assertThat(ran.subList(0, 3)).allSatisfy(t -> assertThat(t.parameterRecord()).contains("\"parameter_source\": \"customized\""));
        assertThat(ran).allSatisfy(t -> assertThat(t.status()).isEqualTo(TrialStatus.SUCCEEDED));
        // the tuner is first asked once it knows of them, for the ids after theirs and only for what they leave of the
        // budget; their results reach it as imported ones (NNI's customized trials), its own as results
        assertThat(tuner.calls("generate")).containsExactly("generate 3", "generate 4");
        assertThat(tuner.calls("import")).containsExactly("import {x=0.125} 0.125", "import {x=0.25} 0.25", "import {x=0.375} 0.375");
        assertThat(tuner.calls("result")).containsExactly("result 3 0.503", "result 4 0.504");
        assertThat(journal.events).filteredOn(e -> e.startsWith("added:")).containsExactly(
                "added: parameters 0 {\"x\": 0.125}: warmStart[0]", "added: parameters 1 {\"x\": 0.25}: warmStart[1]",
                "added: parameters 2 {\"x\": 0.375}: warmStart[2]");
    }

    /** The channel the dispatcher reads, with every command it read kept in order. */
    static final class TappedChannel implements org.tunekit.dispatcher.channel.CommandChannel {
        final org.tunekit.dispatcher.channel.CommandChannel channel;
        final List<org.tunekit.dispatcher.protocol.Command> read = java.util.Collections.synchronizedList(new ArrayList<>());

        TappedChannel(org.tunekit.dispatcher.channel.CommandChannel channel) {
            this.channel = channel;
        }

        @Override
        public org.tunekit.dispatcher.protocol.Command receive() throws java.io.IOException {
            org.tunekit.dispatcher.protocol.Command c = channel.receive();
            if (c != null) {
                read.add(c);
            }
            return c;
        }

        @Override
        public void send(org.tunekit.dispatcher.protocol.Command command) throws java.io.IOException {
            channel.send(command);
        }

        @Override
        public void close() {
            channel.close();
        }

        @Override
        public String describe() {
            return channel.describe();
        }
    }

    @Test
    void aTrialsMetricIsReadOnceAndReachesTheTunerAsARecordWithNoJsonWrittenOnTheWay() throws Exception {
        // the trial's text, as NNI's trial code writes it: the value a JSON string holding the metric's own JSON
        String value = "{\"default\": 0.250, \"loss\": 3}";
        RemoteLikeService service = new RemoteLikeService() {
            @Override
            public void poll() {
                for (String job : List.copyOf(running.keySet())) {
                    events.metric(job, "{\"type\": \"PERIODICAL\", \"sequence\": 0, \"value\": \"0.5\"}", MetricStream.LIVE);
                    events.metric(job, "{\"trial_job_id\": \"not-this-one\", \"type\": \"FINAL\", \"sequence\": 0, \"value\": "
                            + org.tunekit.dispatcher.protocol.JsonCodec.write(value) + "}", MetricStream.LIVE);
                    running.remove(job);
                    events.exited(job, 0);
                }
            }
        };
        List<org.tunekit.sdk.TrialResult> results = java.util.Collections.synchronizedList(new ArrayList<>());
        List<String> ends = java.util.Collections.synchronizedList(new ArrayList<>());
        org.tunekit.sdk.Tuner tuner = new org.tunekit.sdk.Tuner() {
            @Override
            public void updateSearchSpace(org.tunekit.sdk.space.SearchSpace space) {}

            @Override
            public org.tunekit.sdk.Parameters generateParameters(long parameterId) {
                return org.tunekit.sdk.Parameters.of(Map.of("x", 0.5));
            }

            @Override
            public void receiveTrialResult(org.tunekit.sdk.TrialResult result) {
                results.add(result);
            }

            @Override
            public void trialEnd(long parameterId, boolean success) {
                ends.add(parameterId + " " + success);
            }
        };
        TappedChannel[] tapped = new TappedChannel[1];
        ExperimentManager m = new ExperimentManager(new ManagerSettings(SPACE, 1, 2, null, null, null, Duration.ZERO), service, channel -> {
            tapped[0] = new TappedChannel(channel);
            return new org.tunekit.dispatcher.MsgDispatcher(tapped[0], tuner, null, new DispatcherSettings(false, null, false, Duration.ofSeconds(20)));
        }, ManagerListener.SILENT, Clock.systemUTC());
        m.prepare();
        MemoryJournal journal = new MemoryJournal();
        assertThat(m.run(journal, false)).isEqualTo(ExperimentManager.Outcome.DONE);

        // the tuner has each final result as the trial reported it, for the trial whose channel it came through
        assertThat(results).hasSize(2).allSatisfy(r -> {
            assertThat(r.metric().value()).isEqualTo(0.25);
            assertThat(r.metric().reported()).isEqualTo(Map.of("default", 0.25, "loss", 3L));
            assertThat(r.trialJobId()).isIn(journal.trials.keySet());
        });
        assertThat(ends).containsExactly("0 true", "1 true");
        // the store keeps the value's text as the trial wrote it
        assertThat(journal.trials.values()).extracting(StoredTrial::finalMetric).containsOnly(value);
        // every metric and end crossed to the dispatcher as the record it was read into: no text was written for it to read again
        List<org.tunekit.dispatcher.protocol.Command> reports = tapped[0].read.stream()
                .filter(c -> c.type() == org.tunekit.dispatcher.protocol.CommandType.REPORT_METRIC_DATA
                        || c.type() == org.tunekit.dispatcher.protocol.CommandType.TRIAL_END).toList();
        assertThat(reports).hasSize(6).allSatisfy(c -> {
            assertThat(c.payload()).isEmpty();
            assertThat(c.data()).isNotNull();
        });
        assertThat(reports).extracting(c -> c.data().getClass().getSimpleName())
                .containsExactly("MetricData", "MetricData", "TrialEndData", "MetricData", "MetricData", "TrialEndData");
    }

    @Test
    void aMalformedMetricIsRefusedNamingTheTrialAndWhatIsWrongAndTheTrialFails() throws Exception {
        List<String> refused = java.util.Collections.synchronizedList(new ArrayList<>());
        RemoteLikeService service = new RemoteLikeService() {
            @Override
            public void poll() {
                for (String job : List.copyOf(running.keySet())) {
                    try {
                        events.metric(job, "{\"type\": \"FINAL\", \"sequence\": 0, \"value\": {\"loss\": 1}}", MetricStream.LIVE);
                    } catch (IllegalArgumentException e) {
                        refused.add(e.getMessage());
                    }
                    running.remove(job);
                    events.exited(job, 0);
                }
            }
        };
        ExperimentManager m = manager(service, 1, 1);
        m.prepare();
        MemoryJournal journal = new MemoryJournal();
        assertThat(m.run(journal, false)).isEqualTo(ExperimentManager.Outcome.DONE);

        String job = service.started.get(0);
        String problem = "trial " + job + " reported a malformed metric: ME value: metric object has no \"default\" key: {loss=1}";
        assertThat(refused).containsExactly(problem);
        assertThat(journal.events).contains("bad-metric " + job + ": " + problem);
        assertThat(journal.trials.get(job).status()).isEqualTo(TrialStatus.FAILED);
        assertThat(journal.trials.get(job).finalMetric()).isNull();
    }

    /** Trials that run until the test lets them end (with their x as the final result). */
    static final class HeldService extends RemoteLikeService {
        final java.util.Set<String> release = java.util.concurrent.ConcurrentHashMap.newKeySet();
        final List<String> startedRecords = java.util.Collections.synchronizedList(new ArrayList<>());
        volatile int runningNow;

        @Override
        public Placement start(TrialLaunch trial) {
            startedRecords.add(trial.parameterRecord());
            Placement p = super.start(trial);
            runningNow = running.size();
            return p;
        }

        @Override
        public void stop(String trialJobId, Duration grace) {
            super.stop(trialJobId, grace);
            runningNow = running.size();
        }

        @Override
        public void poll() {
            for (Map.Entry<String, String> e : List.copyOf(running.entrySet())) {
                if (release.contains(e.getKey()) || release.contains("*")) {
                    double x = ((Number) ExperimentManager.parametersOf(e.getValue()).get("x")).doubleValue();
                    events.metric(e.getKey(), "{\"type\": \"FINAL\", \"sequence\": 0, \"value\": \"" + x + "\"}", MetricStream.LIVE);
                    running.remove(e.getKey());
                    events.exited(e.getKey(), 0);
                }
            }
            runningNow = running.size();
        }

        String jobOf(int index) {
            return started.get(index);
        }
    }

    private static void await(java.util.function.BooleanSupplier condition) throws InterruptedException {
        for (int i = 0; i < 400 && !condition.getAsBoolean(); i++) {
            Thread.sleep(25);
        }
        assertThat(condition.getAsBoolean()).as("condition reached within 10 s").isTrue();
    }

    @Test
    void aRunningExperimentIsSteeredLimitsChangedATrialStoppedAndTrialsAddedThatRunNext() throws Exception {
        HeldService service = new HeldService();
        MemoryJournal journal = new MemoryJournal();
        ExperimentManager m = manager(service, 1, 3);
        m.prepare();
        java.util.concurrent.CompletableFuture<ExperimentManager.Outcome> outcome = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return m.run(journal, false);
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        await(() -> service.startedRecords.size() == 1);

        assertThat(m.changeLimits(new ExperimentManager.Limits(2, null, null)).get()).isEqualTo("trialConcurrency 1 -> 2");
        await(() -> service.startedRecords.size() == 2);
        // both slots are taken: the added trial waits, and is next; a second one would pass maxTrialNumber 3
        assertThat(m.addTrial(Map.of("x", 0.333), "by hand").get()).isEqualTo(new AddedTrial(2));
        assertThatThrownBy(() -> m.addTrial(Map.of("x", 0.5), null).get()).hasCauseInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("raise maxTrialNumber");
        assertThat(m.changeLimits(new ExperimentManager.Limits(null, 4L, null)).get()).isEqualTo("maxTrialNumber 3 -> 4");
        assertThat(m.addTrial(Map.of("x", 0.5), null).get().answer()).isEqualTo("parameters 3 added: they run next");

        String first = service.jobOf(0);
        assertThat(m.stopTrial(first, "stopped from the dashboard").get()).contains(first);
        assertThatThrownBy(() -> m.stopTrial("nosuch", "x").get()).hasCauseInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no trial nosuch is running");
        await(() -> service.startedRecords.size() == 3);
        assertThat(ExperimentManager.parametersOf(service.startedRecords.get(2))).isEqualTo(Map.of("x", 0.333));
        assertThat(service.startedRecords.get(2)).contains("\"parameter_source\": \"customized\"");
        service.release.add("*");
        assertThat(outcome.get(30, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo(ExperimentManager.Outcome.DONE);

        assertThat(journal.trials.get(first).status()).isEqualTo(TrialStatus.USER_CANCELED);
        assertThat(journal.trials.values()).hasSize(4).extracting(StoredTrial::parameterId).containsExactlyInAnyOrder(0L, 1L, 2L, 3L);
        assertThat(ExperimentManager.parametersOf(service.startedRecords.get(3))).isEqualTo(Map.of("x", 0.5));
        assertThat(journal.events).anyMatch(e -> e.startsWith("limits: trialConcurrency 1 -> 2"))
                .anyMatch(e -> e.startsWith("added: parameters 2 {\"x\": 0.333}: by hand"));
    }
}
