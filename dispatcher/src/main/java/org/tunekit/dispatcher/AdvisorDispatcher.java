package org.tunekit.dispatcher;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.tunekit.dispatcher.channel.CommandChannel;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.tunekit.dispatcher.protocol.Payloads;
import org.tunekit.dispatcher.protocol.ProtocolException;
import org.tunekit.sdk.internal.OwnCheckpoint;
import org.tunekit.sdk.Advisor;
import org.tunekit.sdk.AdvisorContext;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialEnd;

/**
 * Drives an {@link Advisor}, which owns the whole loop. Every command goes to the default queue, so
 * the advisor sees the stream in wire order from one thread.
 */
public final class AdvisorDispatcher extends MsgDispatcherBase {
    private final Advisor advisor;
    private final DispatcherSettings settings;
    private final CheckpointStore checkpoints;
    private final ParameterIds ids;
    /** Whether the advisor keeps its own checkpoint (see {@link Checkpoints}). */
    private final boolean keepsCheckpoint;
    private long lastSave = System.nanoTime();

    /**
     * @param channel  the channel to the manager
     * @param advisor  the advisor
     * @param settings environment-derived settings
     */
    public AdvisorDispatcher(CommandChannel channel, Advisor advisor, DispatcherSettings settings) {
        super(channel, settings.stopTimeout());
        this.advisor = advisor;
        this.settings = settings;
        this.checkpoints = settings.checkpointDirectory() == null ? null : new CheckpointStore(settings.checkpointDirectory());
        this.ids = new ParameterIds(checkpoints);
        this.keepsCheckpoint = checkpoints != null && OwnCheckpoint.kept(advisor);
        observe(settings.statsInterval(), settings.slowCall());
    }

    @Override
    protected void onStart() throws IOException {
        if (settings.resume() && checkpoints != null) {
            ids.resume();
            if (keepsCheckpoint) {
                Checkpoints.load(checkpoints.current("advisor"), "advisor", advisor::loadCheckpoint);
            }
        }
        call("open", () -> advisor.open(new Context()));
    }

    @Override
    protected void onStop() throws IOException {
        if (checkpoints != null) {
            if (keepsCheckpoint) {
                save();
            }
            ids.close();
            org.slf4j.LoggerFactory.getLogger(AdvisorDispatcher.class).info("checkpoint saved to {}", settings.checkpointDirectory());
        }
    }

    /** Saves the advisor's state after a result or a trial end, at most once per checkpoint interval. */
    private void checkpoint() {
        if (keepsCheckpoint && System.nanoTime() - lastSave >= settings.checkpointInterval().toNanos()) {
            save();
        }
    }

    private void save() {
        Checkpoints.save(checkpoints, "advisor", advisor::saveCheckpoint, null);
        lastSave = System.nanoTime();
    }

    @Override
    protected void route(Command command) throws ProtocolException {
        switch (command.type()) {
            case INITIALIZE -> {
                var space = MsgDispatcher.parseSpace(command);
                submit(Queue.DEFAULT, () -> {
                    spaceCheck.update(space);
                    call("updateSearchSpace", () -> advisor.updateSearchSpace(space));
                    send(Command.of(CommandType.INITIALIZED));
                });
            }
            case UPDATE_SEARCH_SPACE -> {
                var space = MsgDispatcher.parseSpace(command);
                submit(Queue.DEFAULT, () -> {
                    spaceCheck.update(space);
                    call("updateSearchSpace", () -> advisor.updateSearchSpace(space));
                });
            }
            case REQUEST_TRIAL_JOBS -> {
                int n = Payloads.trialCount(command);
                submit(Queue.DEFAULT, () -> call("requestTrialJobs", () -> advisor.requestTrialJobs(n)));
            }
            case REPORT_METRIC_DATA -> {
                var report = Payloads.metric(command).toReport();
                submit(Queue.DEFAULT, () -> {
                    call("reportMetric", () -> advisor.reportMetric(report));
                    checkpoint();
                });
            }
            case TRIAL_END -> {
                var end = Payloads.trialEnd(command);
                var event = new TrialEnd(end.trialJobId(), end.event(), end.parameterId());
                submit(Queue.DEFAULT, () -> {
                    call("trialEnd", () -> advisor.trialEnd(event));
                    checkpoint();
                });
            }
            case IMPORT_DATA -> {
                var data = Payloads.importData(command);
                submit(Queue.DEFAULT, () -> call("importData", () -> advisor.importData(data)));
            }
            case ADD_CUSTOMIZED_TRIAL_JOB -> {
                var records = Payloads.customizedTrials(command);
                records.stream().filter(r -> r.parameterId() != null).forEach(r -> ids.after(r.parameterId()));
                submit(Queue.DEFAULT, () -> call("addCustomizedTrials", () -> advisor.addCustomizedTrials(records)));
            }
            default -> throw new ProtocolException("command " + command.type().code() + " is not handled by the dispatcher");
        }
    }

    private void call(String method, Runnable r) {
        try {
            r.run();
        } catch (UncheckedIOException | PluginException e) {
            throw e; // a failed send, or a set outside the space: already says what happened
        } catch (RuntimeException e) {
            throw new PluginException("the advisor failed in " + method, e);
        }
    }

    /** Checks the sets the advisor sends against the current space. */
    private final SpaceCheck spaceCheck = new SpaceCheck("advisor");

    private final class Context implements AdvisorContext {
        @Override
        public long newParameterId() {
            return ids.take();
        }

        @Override
        public void sendTrial(long parameterId, Parameters parameters) {
            spaceCheck.check(parameters, parameterId, "AdvisorContext.sendTrial");
            sendUnchecked(new Command(CommandType.NEW_TRIAL_JOB, Payloads.parameterRecord(parameterId, parameters.values())));
        }

        @Override
        public void sendTrialParameters(String trialJobId, int parameterIndex, long parameterId, Parameters parameters) {
            if (parameters != null) {
                spaceCheck.check(parameters, parameterId, "AdvisorContext.sendTrialParameters");
            }
            sendUnchecked(new Command(CommandType.SEND_TRIAL_JOB_PARAMETER, Payloads.trialParameterRecord(parameterId,
                    parameters == null ? null : parameters.values(), trialJobId, parameterIndex)));
        }

        @Override
        public void noMoreTrials(long parameterId) {
            sendUnchecked(new Command(CommandType.NO_MORE_TRIAL_JOBS, Payloads.parameterRecord(parameterId, "")));
        }

        @Override
        public void killTrial(String trialJobId) {
            sendUnchecked(new Command(CommandType.KILL_TRIAL_JOB, Payloads.killTrial(trialJobId)));
        }

        @Override
        public boolean includeIntermediateResults() {
            return settings.includeIntermediateResults();
        }

        private void sendUnchecked(Command c) {
            try {
                send(c);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
