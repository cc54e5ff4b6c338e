package org.tunekit.dispatcher;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tunekit.dispatcher.channel.CommandChannel;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.tunekit.dispatcher.protocol.Payloads;
import org.tunekit.dispatcher.protocol.Payloads.MetricData;
import org.tunekit.dispatcher.protocol.Payloads.TrialEndData;
import org.tunekit.dispatcher.protocol.ProtocolException;
import org.tunekit.sdk.AssessResult;
import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.MetricReport;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.ParameterRecord;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.InvalidSearchSpaceException;
import org.tunekit.sdk.space.SearchSpace;

/**
 * NNI's standard dispatcher semantics over a {@link Tuner} and an optional {@link Assessor}:
 * parameter ids from 0, {@code TR} per parameter set and one {@code NO} when the tuner gives fewer,
 * customized and resumed trials, multi-phase {@code SP}, intermediate histories assessed without
 * gaps, {@code KI} on {@code BAD}, and imported data.
 *
 * <p>The tuner is called only from the default worker and the assessor only from the assessor
 * worker. A trial end is split: the assessor hears it on the assessor queue, the tuner on the
 * default queue at the trial end's place in the stream, so the tuner always sees a trial's final
 * result before its end.
 */
public final class MsgDispatcher extends MsgDispatcherBase {
    private static final Logger LOG = LoggerFactory.getLogger(MsgDispatcher.class);

    private final Tuner tuner;
    private final Assessor assessor;
    private final DispatcherSettings settings;

    // reader thread only
    private final Map<String, Long> parameterIdOfTrial = new HashMap<>();

    // default worker only
    private long nextParameterId;
    private final Map<Long, Parameters> generated = new HashMap<>();
    private final Map<Long, Parameters> customized = new HashMap<>();
    private final Map<Long, Parameters> previous = new HashMap<>();

    // assessor worker only
    private final Map<String, TrialHistory> histories = new HashMap<>();
    private final Set<String> endedTrials = new HashSet<>();

    /**
     * @param channel  the channel to the manager
     * @param tuner    the tuner
     * @param assessor the assessor, or {@code null}
     * @param settings environment-derived settings
     */
    public MsgDispatcher(CommandChannel channel, Tuner tuner, Assessor assessor, DispatcherSettings settings) {
        super(channel, settings.stopTimeout());
        this.tuner = tuner;
        this.assessor = assessor;
        this.settings = settings;
    }

    @Override
    protected void onStart() throws Exception {
        if (settings.resume()) {
            Path dir = settings.checkpointDirectory();
            if (dir != null) {
                load(dir.resolve("tuner"), "tuner", tuner::loadCheckpoint);
                if (assessor != null) {
                    load(dir.resolve("assessor"), "assessor", assessor::loadCheckpoint);
                }
            }
        }
    }

    @Override
    protected void onStop() throws Exception {
        Path dir = settings.checkpointDirectory();
        if (dir == null) {
            return;
        }
        save(dir.resolve("tuner"), "tuner", tuner::saveCheckpoint);
        if (assessor != null) {
            save(dir.resolve("assessor"), "assessor", assessor::saveCheckpoint);
        }
    }

    interface CheckpointCall {
        void call(Path dir) throws Exception;
    }

    static void load(Path dir, String what, CheckpointCall call) {
        if (!Files.isDirectory(dir)) {
            LOG.info("no {} checkpoint in {}", what, dir);
            return;
        }
        try {
            call.call(dir);
            LOG.info("{} checkpoint loaded from {}", what, dir);
        } catch (Exception e) {
            throw new PluginException("the " + what + " failed in loadCheckpoint(" + dir + ")", e);
        }
    }

    static void save(Path dir, String what, CheckpointCall call) {
        try {
            Files.createDirectories(dir);
            call.call(dir);
            LOG.info("{} checkpoint saved to {}", what, dir);
        } catch (Exception e) {
            throw new PluginException("the " + what + " failed in saveCheckpoint(" + dir + ")", e);
        }
    }

    @Override
    protected void route(Command command) throws ProtocolException {
        switch (command.type()) {
            case REPORT_METRIC_DATA -> {
                MetricData m = Payloads.metric(command);
                if (m.parameterId() != null && m.type() != MetricReport.Type.REQUEST_PARAMETER) {
                    parameterIdOfTrial.put(m.trialJobId(), m.parameterId());
                }
                if (m.type() == MetricReport.Type.PERIODICAL) {
                    if (assessor != null && settings.includeIntermediateResults()) {
                        // the tuner hears a killed trial's last value at this metric's place in the
                        // stream: before the trial's end and before any later GE
                        CompletableFuture<Metric> killedWith = new CompletableFuture<>();
                        submit(Queue.ASSESSOR, () -> {
                            try {
                                killedWith.complete(handleIntermediate(m));
                            } finally {
                                killedWith.complete(null);
                            }
                        });
                        submit(Queue.DEFAULT, () -> {
                            Metric last = killedWith.get();
                            if (last != null) {
                                handleFinal(new MetricData(m.parameterId(), m.trialJobId(), MetricReport.Type.FINAL, m.sequence(), last, 0));
                            }
                        });
                    } else if (assessor != null) {
                        submit(Queue.ASSESSOR, () -> handleIntermediate(m));
                    }
                } else if (m.type() == MetricReport.Type.FINAL) {
                    submit(Queue.DEFAULT, () -> handleFinal(m));
                } else {
                    submit(Queue.DEFAULT, () -> handleRequestParameter(m));
                }
            }
            case TRIAL_END -> {
                TrialEndData end = Payloads.trialEnd(command);
                Long reported = parameterIdOfTrial.remove(end.trialJobId());
                Long parameterId = reported != null ? reported : end.parameterId();
                if (assessor != null) {
                    submit(Queue.ASSESSOR, () -> assessorTrialEnd(end));
                }
                submit(Queue.DEFAULT, () -> tunerTrialEnd(end, parameterId));
            }
            case INITIALIZE -> {
                SearchSpace space = parseSpace(command);
                submit(Queue.DEFAULT, () -> {
                    updateSearchSpace(space);
                    send(Command.of(CommandType.INITIALIZED));
                });
            }
            case UPDATE_SEARCH_SPACE -> {
                SearchSpace space = parseSpace(command);
                submit(Queue.DEFAULT, () -> updateSearchSpace(space));
            }
            case REQUEST_TRIAL_JOBS -> {
                int count = Payloads.trialCount(command);
                submit(Queue.DEFAULT, () -> handleRequestTrialJobs(count));
            }
            case IMPORT_DATA -> {
                List<ImportedTrial> data = Payloads.importData(command);
                submit(Queue.DEFAULT, () -> importData(data));
            }
            case ADD_CUSTOMIZED_TRIAL_JOB -> {
                List<ParameterRecord> records = Payloads.customizedTrials(command);
                submit(Queue.DEFAULT, () -> addCustomizedTrials(records));
            }
            default -> throw new ProtocolException("command " + command.type().code() + " is not handled by the dispatcher");
        }
    }

    static SearchSpace parseSpace(Command command) throws ProtocolException {
        Map<String, Object> definition = Payloads.searchSpace(command);
        try {
            return SearchSpace.parse(definition);
        } catch (InvalidSearchSpaceException e) {
            throw new ProtocolException(command.type().code() + ": " + e.getMessage(), e);
        }
    }

    private void updateSearchSpace(SearchSpace space) {
        try {
            tuner.updateSearchSpace(space);
        } catch (RuntimeException e) {
            throw new PluginException("the tuner failed in updateSearchSpace", e);
        }
    }

    private void handleRequestTrialJobs(int count) throws Exception {
        if (count == 0) {
            return;
        }
        List<Long> ids = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            ids.add(nextParameterId++);
        }
        List<Parameters> sets;
        if (count == 1) {
            sets = new ArrayList<>(1);
            try {
                sets.add(tuner.generateParameters(ids.get(0)));
            } catch (NoMoreTrialsException e) {
                LOG.info("the tuner has no more trials: {}", e.getMessage());
            } catch (RuntimeException e) {
                throw new PluginException("the tuner failed in generateParameters(" + ids.get(0) + ")", e);
            }
        } else {
            try {
                sets = tuner.generateMultipleParameters(ids);
            } catch (RuntimeException e) {
                throw new PluginException("the tuner failed in generateMultipleParameters(" + ids + ")", e);
            }
            if (sets == null || sets.size() > count) {
                throw new PluginException("the tuner returned " + (sets == null ? "null" : sets.size() + " parameter sets")
                        + " for " + count + " ids", null);
            }
        }
        for (int i = 0; i < sets.size(); i++) {
            Parameters p = sets.get(i);
            if (p == null) {
                throw new PluginException("the tuner returned null parameters for id " + ids.get(i), null);
            }
            generated.put(ids.get(i), p);
            send(new Command(CommandType.NEW_TRIAL_JOB, Payloads.parameterRecord(ids.get(i), p.values())));
        }
        if (sets.size() < count) {
            send(new Command(CommandType.NO_MORE_TRIAL_JOBS, Payloads.parameterRecord(ids.get(0), "")));
        }
    }

    private void handleRequestParameter(MetricData m) throws Exception {
        long id = nextParameterId++;
        Parameters p = null;
        try {
            p = tuner.generateParameters(id, m.trialJobId());
            generated.put(id, p);
        } catch (NoMoreTrialsException e) {
            LOG.info("the tuner has no more parameters for multi-phase trial {}", m.trialJobId());
        } catch (RuntimeException e) {
            throw new PluginException("the tuner failed in generateParameters(" + id + ", \"" + m.trialJobId() + "\")", e);
        }
        send(new Command(CommandType.SEND_TRIAL_JOB_PARAMETER,
                Payloads.trialParameterRecord(id, p == null ? null : p.values(), m.trialJobId(), m.parameterIndex())));
    }

    private void handleFinal(MetricData m) {
        Long id = m.parameterId();
        if (id != null && previous.containsKey(id)) {
            importData(List.of(new ImportedTrial(previous.get(id), m.metric())));
            return;
        }
        boolean isCustomized = id == null || customized.containsKey(id);
        if (isCustomized && !tuner.acceptsCustomizedTrials()) {
            LOG.info("final result of customized trial {} not given to the tuner: it does not accept customized trials", m.trialJobId());
            return;
        }
        Parameters p = id == null ? null : (isCustomized ? customized.get(id) : generated.get(id));
        if (p == null) {
            LOG.warn("final result for unknown parameter id {} (trial {}) dropped", id, m.trialJobId());
            return;
        }
        try {
            tuner.receiveTrialResult(new TrialResult(id, p, m.metric(), isCustomized, m.trialJobId()));
        } catch (RuntimeException e) {
            throw new PluginException("the tuner failed in receiveTrialResult(" + id + ")", e);
        }
    }

    private void tunerTrialEnd(TrialEndData end, Long parameterId) {
        if (parameterId == null) {
            LOG.warn("trial end of {} names no parameter id: dropped", end.trialJobId());
            return;
        }
        if (previous.containsKey(parameterId)) {
            return;
        }
        if (!generated.containsKey(parameterId) && !customized.containsKey(parameterId)) {
            LOG.warn("trial end for unknown parameter id {} (trial {}) dropped", parameterId, end.trialJobId());
            return;
        }
        try {
            tuner.trialEnd(parameterId, end.succeeded());
        } catch (RuntimeException e) {
            throw new PluginException("the tuner failed in trialEnd(" + parameterId + ")", e);
        }
    }

    private void importData(List<ImportedTrial> data) {
        try {
            tuner.importData(data);
        } catch (RuntimeException e) {
            throw new PluginException("the tuner failed in importData", e);
        }
    }

    private void addCustomizedTrials(List<ParameterRecord> records) {
        for (ParameterRecord r : records) {
            if (r.parameterId() == null) {
                long id = nextParameterId++;
                customized.put(id, r.parameters());
            } else {
                long id = r.parameterId();
                previous.put(id, r.parameters());
                nextParameterId = Math.max(nextParameterId, id + 1);
            }
        }
    }

    /**
     * Assesses a trial's history. Returns the last value of the history when this metric got the
     * trial killed, else {@code null}.
     */
    private Metric handleIntermediate(MetricData m) throws Exception {
        String trial = m.trialJobId();
        if (endedTrials.contains(trial)) {
            return null;
        }
        TrialHistory h = histories.computeIfAbsent(trial, k -> new TrialHistory());
        if (h.killed) {
            return null;
        }
        List<Metric> ordered = h.add(m.sequence(), m.metric());
        if (ordered == null) {
            return null;
        }
        AssessResult verdict;
        try {
            verdict = assessor.assessTrial(trial, ordered);
        } catch (RuntimeException e) {
            throw new PluginException("the assessor failed in assessTrial(\"" + trial + "\")", e);
        }
        if (verdict == null) {
            throw new PluginException("the assessor returned null from assessTrial(\"" + trial + "\")", null);
        }
        if (verdict == AssessResult.BAD) {
            h.killed = true;
            send(new Command(CommandType.KILL_TRIAL_JOB, Payloads.killTrial(trial)));
            return ordered.get(ordered.size() - 1);
        }
        return null;
    }

    private void assessorTrialEnd(TrialEndData end) {
        endedTrials.add(end.trialJobId());
        TrialHistory h = histories.remove(end.trialJobId());
        if (h == null) {
            return;
        }
        try {
            assessor.trialEnd(end.trialJobId(), end.succeeded());
        } catch (RuntimeException e) {
            throw new PluginException("the assessor failed in trialEnd(\"" + end.trialJobId() + "\")", e);
        }
    }

    /** A trial's intermediate results by sequence number, and the contiguous prefix handed to the assessor. */
    static final class TrialHistory {
        private final Map<Integer, Metric> bySequence = new HashMap<>();
        private final List<Metric> contiguous = new ArrayList<>();
        boolean killed;

        /**
         * Adds a value; returns the contiguous history when the new value is part of it (so the
         * assessor should be asked), else {@code null}.
         */
        List<Metric> add(int sequence, Metric metric) {
            if (sequence < contiguous.size()) {
                contiguous.set(sequence, metric);
                return List.copyOf(contiguous);
            }
            bySequence.put(sequence, metric);
            if (sequence != contiguous.size()) {
                return null;
            }
            Metric next;
            while ((next = bySequence.remove(contiguous.size())) != null) {
                contiguous.add(next);
            }
            return List.copyOf(contiguous);
        }
    }
}
