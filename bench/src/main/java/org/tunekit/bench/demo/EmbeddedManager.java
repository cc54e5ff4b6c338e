package org.tunekit.bench.demo;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.tunekit.dispatcher.plugin.ExperimentConfig;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.tunekit.dispatcher.protocol.JsonCodec;
import org.tunekit.dispatcher.protocol.Payloads;
import org.tunekit.dispatcher.protocol.PipeFrameCodec;
import org.tunekit.dispatcher.protocol.ProtocolException;
import org.tunekit.sdk.Parameters;

/**
 * A small experiment manager for {@code tunekit demo}. It starts the real dispatcher as a child
 * process and talks to it over the child's stdin and stdout in the pipe framing, as an NNI manager
 * would: {@code IN}, then {@code GE} for the free trial slots, and for each trial one
 * {@code ME PERIODICAL} per epoch, {@code ME FINAL} and {@code EN}, honouring {@code KI}, followed
 * by {@code GE 1} while the budget lasts (also after a {@code NO}, as NNI's manager does). Every
 * {@code TR} within the budget is run, including one the tuner sends on its own after a {@code NO};
 * the run ends when no trial runs and no request is awaited. Trials are simulated: each follows a
 * learning curve that converges to the objective's value at its parameters.
 */
final class EmbeddedManager {
    private static final Duration REPLY_TIMEOUT = Duration.ofSeconds(60);
    /** The {@code tunekit} command's main class, in the command-line module, which is on the class path at run time. */
    private static final String TUNEKIT_MAIN = "org.tunekit.cli.TunekitMain";
    private static final Object END = new Object();

    /**
     * What to run.
     *
     * @param objective   the function the trials evaluate
     * @param tuner       the config's tuner entry
     * @param assessor    the config's assessor entry, or {@code null}
     * @param trials      how many trials to run
     * @param concurrency how many run at once
     * @param epochs      intermediate results per trial
     * @param seed        seeds the trials' simulated noise
     * @param plugins     plugin directories for the dispatcher
     * @param logLevel    the dispatcher's log level ({@code NNI_LOG_LEVEL})
     */
    public record Settings(Objective objective, Map<String, Object> tuner, Map<String, Object> assessor, int trials,
                           int concurrency, int epochs, long seed, List<Path> plugins, String logLevel) {}

    /**
     * What happened.
     *
     * @param completed   trials that ran to the end
     * @param stopped     trials stopped early by the assessor
     * @param epochsRun   epochs the trials ran
     * @param epochsFull  epochs they would have run without early stopping
     * @param best        the best trial's parameters, or {@code null} if none finished
     * @param bestValue   the best final value
     * @param bestTrial   the best trial's job id
     * @param elapsed     wall time of the experiment
     */
    public record Summary(int completed, int stopped, long epochsRun, long epochsFull, Parameters best, double bestValue,
                          String bestTrial, Duration elapsed) {}

    private final Settings settings;
    private final PrintStream progress;
    private final BlockingQueue<Object> replies = new LinkedBlockingQueue<>();

    private EmbeddedManager(Settings settings, PrintStream progress) {
        this.settings = settings;
        this.progress = progress;
    }

    /** Runs the experiment, printing a line per finished trial to {@code progress}. */
    public static Summary run(Settings settings, PrintStream progress) throws IOException, InterruptedException {
        return new EmbeddedManager(settings, progress).run();
    }

    private final class Trial {
        final long parameterId;
        final String jobId;
        final Parameters parameters;
        final double target;
        final double speed;
        final SplittableRandom noise;
        int epoch;
        boolean killed;

        Trial(long parameterId, Parameters parameters, int index) {
            this.parameterId = parameterId;
            this.jobId = String.format("T%04d", index);
            this.parameters = parameters;
            this.target = settings.objective().evaluate(parameters);
            this.noise = new SplittableRandom(settings.seed() * 1_000_003L + index);
            this.speed = 0.7 + 0.6 * noise.nextDouble();
        }

        double valueAt(int e) {
            double scale = 1 + Math.abs(target);
            double curve = target + scale * Math.exp(-6.0 * speed * e / settings.epochs());
            return curve + 0.01 * scale * noise.nextGaussian();
        }
    }

    private Summary run() throws IOException, InterruptedException {
        long start = System.nanoTime();
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("tuner", settings.tuner());
        if (settings.assessor() != null) {
            config.put("assessor", settings.assessor());
        }
        Process child = startDispatcher(ExperimentConfig.encode(config));
        OutputStream toDispatcher = child.getOutputStream();
        Thread reader = new Thread(() -> readReplies(child.getInputStream()), "embedded-manager-reader");
        reader.setDaemon(true);
        reader.start();
        try {
            send(toDispatcher, new Command(CommandType.INITIALIZE, JsonCodec.write(settings.objective().space())));
            toDispatcher.flush();
            expect(CommandType.INITIALIZED);

            Map<Long, Trial> running = new LinkedHashMap<>();
            int requested = Math.min(settings.concurrency(), settings.trials());
            int awaiting = requested;
            send(toDispatcher, new Command(CommandType.REQUEST_TRIAL_JOBS, Integer.toString(requested)));
            toDispatcher.flush();
            int started = 0;
            int completed = 0;
            int stopped = 0;
            long epochsRun = 0;
            Trial best = null;
            double bestValue = Double.POSITIVE_INFINITY;

            while (true) {
                Command reply = running.isEmpty() && awaiting > 0 ? next() : poll();
                while (reply != null) {
                    switch (reply.type()) {
                        case NEW_TRIAL_JOB -> {
                            // a TR answers a GE, or the tuner sends it on its own after a NO: the two
                            // cannot be told apart, so a TR fills an awaited slot when there is one
                            awaiting = Math.max(0, awaiting - 1);
                            if (started < settings.trials()) {
                                Trial t = startTrial(reply, started++);
                                running.put(t.parameterId, t);
                            }
                        }
                        case NO_MORE_TRIAL_JOBS -> awaiting = 0;
                        case KILL_TRIAL_JOB -> {
                            String job = (String) JsonCodec.parse(reply.payload(), "KI payload");
                            running.values().stream().filter(t -> t.jobId.equals(job)).forEach(t -> t.killed = true);
                        }
                        case ERROR -> throw new IOException("the dispatcher reported an error:\n" + reply.payload());
                        default -> throw new IOException("unexpected reply from the dispatcher: " + reply);
                    }
                    reply = poll();
                }
                if (running.isEmpty()) {
                    if (awaiting == 0) {
                        // nothing runs and nothing is awaited: the tuner refused, or the budget is spent
                        break;
                    }
                    continue;
                }
                List<Trial> finished = new ArrayList<>();
                for (Trial t : running.values()) {
                    if (t.killed) {
                        send(toDispatcher, trialEnd(t, "USER_CANCELED"));
                        stopped++;
                        finished.add(t);
                        progress.printf("  [%3d/%d] %s stopped early at epoch %d/%d%n", completed + stopped, settings.trials(),
                                t.jobId, t.epoch, settings.epochs());
                        continue;
                    }
                    double v = t.valueAt(++t.epoch);
                    epochsRun++;
                    send(toDispatcher, metric(t, "PERIODICAL", t.epoch - 1, v));
                    if (t.epoch == settings.epochs()) {
                        send(toDispatcher, metric(t, "FINAL", 0, v));
                        send(toDispatcher, trialEnd(t, "SUCCEEDED"));
                        completed++;
                        finished.add(t);
                        if (v < bestValue) {
                            bestValue = v;
                            best = t;
                        }
                        progress.printf("  [%3d/%d] %s value %-12.6g best %.6g%n", completed + stopped, settings.trials(), t.jobId, v, bestValue);
                    }
                }
                for (Trial t : finished) {
                    running.remove(t.parameterId);
                    // as an NNI manager: one GE per trial end, also after a NO (the tuner may have more by now)
                    if (started + awaiting < settings.trials()) {
                        awaiting++;
                        send(toDispatcher, new Command(CommandType.REQUEST_TRIAL_JOBS, "1"));
                    }
                }
                toDispatcher.flush();
            }
            send(toDispatcher, Command.of(CommandType.TERMINATE));
            toDispatcher.close();
            if (!child.waitFor(REPLY_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
                throw new IOException("the dispatcher did not exit after TE");
            }
            if (child.exitValue() != 0) {
                throw new IOException("the dispatcher exited with status " + child.exitValue());
            }
            return new Summary(completed, stopped, epochsRun, (long) (completed + stopped) * settings.epochs(),
                    best == null ? null : best.parameters, bestValue, best == null ? null : best.jobId,
                    Duration.ofNanos(System.nanoTime() - start));
        } finally {
            child.destroy();
        }
    }

    private Process startDispatcher(String expParams) throws IOException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = new ArrayList<>(List.of(java, "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                TUNEKIT_MAIN, "dispatch", "--channel", "stdio:", "--exp_params", expParams));
        for (Path p : settings.plugins()) {
            cmd.add("--plugins");
            cmd.add(p.toString());
        }
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().remove("NNI_TUNER_COMMAND_CHANNEL");
        pb.environment().remove("NNI_LOG_DIRECTORY");
        pb.environment().put("NNI_LOG_LEVEL", settings.logLevel());
        pb.redirectError(ProcessBuilder.Redirect.INHERIT);
        return pb.start();
    }

    private Trial startTrial(Command tr, int index) throws ProtocolException {
        @SuppressWarnings("unchecked")
        Map<String, Object> record = (Map<String, Object>) JsonCodec.parse(tr.payload(), "TR payload");
        long id = ((Number) record.get("parameter_id")).longValue();
        @SuppressWarnings("unchecked")
        Map<String, Object> params = (Map<String, Object>) record.get("parameters");
        return new Trial(id, Parameters.of(params), index);
    }

    private static Command metric(Trial t, String type, int sequence, double value) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("parameter_id", t.parameterId);
        m.put("trial_job_id", t.jobId);
        m.put("type", type);
        m.put("sequence", (long) sequence);
        m.put("value", JsonCodec.write(value));
        return new Command(CommandType.REPORT_METRIC_DATA, JsonCodec.write(m));
    }

    private static Command trialEnd(Trial t, String event) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("trial_job_id", t.jobId);
        m.put("event", event);
        m.put("hyper_params", Payloads.parameterRecord(t.parameterId, t.parameters.values()));
        return new Command(CommandType.TRIAL_END, JsonCodec.write(m));
    }

    private static void send(OutputStream out, Command c) throws IOException {
        out.write(PipeFrameCodec.encode(c));
    }

    private void readReplies(InputStream in) {
        PipeFrameCodec codec = PipeFrameCodec.forManager();
        try {
            Command c;
            while ((c = codec.read(in)) != null) {
                replies.add(c);
            }
        } catch (IOException e) {
            replies.add(e);
        }
        replies.add(END);
    }

    private Command expect(CommandType type) throws IOException, InterruptedException {
        Command c = next();
        if (c.type() == CommandType.ERROR) {
            throw new IOException("the dispatcher reported an error:\n" + c.payload());
        }
        if (c.type() != type) {
            throw new IOException("expected " + type.code() + " from the dispatcher, got " + c);
        }
        return c;
    }

    private Command next() throws IOException, InterruptedException {
        Object o = replies.poll(REPLY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        return unwrap(o, true);
    }

    private Command poll() throws IOException {
        return unwrap(replies.poll(), false);
    }

    private Command unwrap(Object o, boolean required) throws IOException {
        if (o == null) {
            if (required) {
                throw new IOException("the dispatcher did not answer within " + REPLY_TIMEOUT);
            }
            return null;
        }
        if (o == END) {
            throw new IOException("the dispatcher closed the pipe unexpectedly");
        }
        if (o instanceof IOException e) {
            throw e;
        }
        return (Command) o;
    }
}
