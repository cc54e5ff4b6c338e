package org.tunekit.runner;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.tunekit.dispatcher.protocol.JsonCodec;
import org.tunekit.runner.manager.MetricStream;
import org.tunekit.runner.manager.Placement;
import org.tunekit.runner.manager.StoredTrial;
import org.tunekit.runner.manager.TrainingService;
import org.tunekit.runner.manager.TrialEvents;
import org.tunekit.runner.manager.TrialLaunch;
import org.tunekit.runner.manager.TrialScript;

/**
 * NNI's local training service: each trial a process on this machine ({@link TrialProcess}), in its
 * own folder {@code trials/JOBID} of the experiment, talking over NNI's trial channels — NNI 3's HTTP
 * channel ({@link HttpTrialServer}) and NNI 2.x's files ({@code parameter.cfg}, {@code .nni/metrics}),
 * as {@link LocalRunner.TrialChannels} says. When the experiment sets {@code trialGpuNumber}, a trial
 * waits for its GPUs ({@link LocalGpus}) and sees only them ({@code CUDA_VISIBLE_DEVICES}, empty for
 * none). The handle kept for a trial is its process id: a process
 * that outlived a killed runner cannot be talked to again (its channel died with the runner), so a
 * resumed run ends it.
 */
final class LocalProcesses implements TrainingService {
    private final ExperimentSpec spec;
    private final Path directory;
    private final LocalRunner.Options options;
    private final LocalGpus gpus;
    private final Map<String, Running> running = new LinkedHashMap<>();
    private TrialEvents events;
    private HttpTrialServer channel;

    /** A trial's process and what is read from it. */
    private static final class Running {
        final TrialProcess process;
        /** Its metrics file, when the file channel is served. */
        final TrialMetricFiles metricsFile;

        Running(TrialProcess process, TrialMetricFiles metricsFile) {
            this.process = process;
            this.metricsFile = metricsFile;
        }
    }

    /** @param gpus this machine's GPUs for the trials, or {@code null} when GPUs are not scheduled */
    LocalProcesses(ExperimentSpec spec, Path directory, LocalRunner.Options options, LocalGpus gpus) {
        this.spec = spec;
        this.directory = directory;
        this.options = options;
        this.gpus = gpus;
    }

    @Override
    public void check() {
        if (gpus != null) {
            gpus.check();
        }
    }

    @Override
    public boolean canStart() {
        return gpus == null || gpus.free(running.values().stream().flatMap(r -> r.process.pids()).collect(java.util.stream.Collectors.toSet()));
    }

    @Override
    public String describe() {
        return "on this machine";
    }

    @Override
    public void open(TrialEvents events) throws IOException {
        this.events = events;
        this.channel = new HttpTrialServer(new HttpTrialServer.Listener() {
            @Override
            public void requestParameter(String trialJobId) {
                events.parameterRequest(trialJobId, false, -1);
            }

            @Override
            public void metric(String trialJobId, String metricText) {
                events.metric(trialJobId, metricText, MetricStream.LIVE);
            }
        });
    }

    @Override
    public Placement start(TrialLaunch t) throws IOException {
        Path dir = trialDirectory(t.trialJobId());
        Map<String, String> env = new LinkedHashMap<>();
        env.put("NNI_PLATFORM", "local");
        env.put("NNI_EXP_ID", t.experimentId());
        env.put("NNI_TRIAL_JOB_ID", t.trialJobId());
        env.put("NNI_SYS_DIR", dir.toString());
        env.put("NNI_OUTPUT_DIR", dir.toString());
        env.put("NNI_TRIAL_SEQ_ID", Integer.toString(t.sequence()));
        env.put("NNI_CODE_DIR", spec.trialCodeDirectory().toString());
        env.put("NNI_TRIAL_COMMAND_CHANNEL", options.channels().http() ? channel.open(t.trialJobId()) : null);
        env.put("SDK_PROCESS", null);
        if (options.sdkJar() != null) {
            env.put("TUNEKIT_SDK_JAR", options.sdkJar().toString());
        }
        org.tunekit.gpus.GpuAllocation allocation = gpus == null ? null : gpus.allocate(t.trialJobId());
        if (allocation != null) {
            env.put("CUDA_VISIBLE_DEVICES", allocation.cudaVisibleDevices());
        }
        TrialMetricFiles metrics = null;
        TrialProcess process;
        try {
            Files.createDirectories(dir);
            if (options.channels().file()) {
                writeAtomically(dir.resolve("parameter.cfg"), t.parameterRecord());
                metrics = new TrialMetricFiles(t.trialJobId(), dir.resolve(TrialScript.METRICS), null, null);
            }
            process = TrialProcess.start(spec.trialCommand(), spec.trialCodeDirectory(), dir, env);
        } catch (IOException e) {
            channel.close(t.trialJobId());
            if (gpus != null) {
                gpus.release(t.trialJobId());
            }
            throw e;
        }
        running.put(t.trialJobId(), new Running(process, metrics));
        String jobId = t.trialJobId();
        process.onExit().thenAccept(code -> events.exited(jobId, code));
        return new Placement(Long.toString(process.pid()), null, allocation == null ? null : allocation.gpuIndices());
    }

    @Override
    public void sendParameters(String trialJobId, String parameterRecord, int index, boolean byFile) {
        if (!byFile) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("type", "parameter");
            m.put("parameter", parameterRecord);
            channel.send(trialJobId, JsonCodec.write(m));
            return;
        }
        try {
            writeAtomically(trialDirectory(trialJobId).resolve("parameter_" + index + ".cfg"), parameterRecord);
        } catch (IOException e) {
            events.problem(trialJobId, "could not write its parameter file: " + e.getMessage());
            stop(trialJobId, options.stopGrace());
        }
    }

    @Override
    public void stop(String trialJobId, Duration grace) {
        Running r = running.get(trialJobId);
        if (r != null) {
            r.process.stop(grace);
        }
    }

    @Override
    public void poll() {
        for (Map.Entry<String, Running> e : List.copyOf(running.entrySet())) {
            if (e.getValue().metricsFile != null) {
                e.getValue().metricsFile.deliver(events, false);
            }
        }
    }

    @Override
    public void collect(String trialJobId) {
        Running r = running.remove(trialJobId);
        if (r == null) {
            return;
        }
        if (gpus != null) {
            gpus.release(trialJobId);
        }
        if (r.metricsFile != null) {
            r.metricsFile.deliver(events, true);
        }
        channel.close(trialJobId);
    }

    @Override
    public boolean seesParameterRequests() {
        return !options.channels().file();
    }

    @Override
    public Reattached reattach(StoredTrial trial) {
        Long pid = null;
        try {
            pid = trial.handle() == null ? null : Long.valueOf(trial.handle());
        } catch (NumberFormatException e) {
            // not a process id: nothing of ours to end
        }
        String note = TrialProcess.endLeftover(pid, trial.started());
        return new Reattached(false, note);
    }

    @Override
    public void close() {
        for (Running r : running.values()) {
            r.process.kill();
        }
        running.clear();
        if (channel != null) {
            channel.close();
        }
    }

    private Path trialDirectory(String jobId) {
        return directory.resolve("trials").resolve(jobId);
    }

    private static void writeAtomically(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling("." + file.getFileName() + ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
