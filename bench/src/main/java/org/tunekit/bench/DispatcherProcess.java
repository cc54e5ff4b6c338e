package org.tunekit.bench;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.tunekit.dispatcher.plugin.ExperimentConfig;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.tunekit.dispatcher.protocol.PipeFrameCodec;

/**
 * The real {@code tunekit dispatch} process, launched through the repository's {@code tunekit} script
 * (without rebuilding), talking the pipe framing over the child's stdin and stdout: what an NNI
 * manager sees.
 */
final class DispatcherProcess implements AutoCloseable {
    /** The repository root: {@code -Dtunekit.home}, else the working directory. */
    static final Path HOME = Path.of(System.getProperty("tunekit.home", ".")).toAbsolutePath().normalize();

    /** Six uniform parameters, as the hartmann6 function of the quality suite. */
    static final String SPACE = "{\"x1\":{\"_type\":\"uniform\",\"_value\":[0,1]},\"x2\":{\"_type\":\"uniform\",\"_value\":[0,1]},"
            + "\"x3\":{\"_type\":\"uniform\",\"_value\":[0,1]},\"x4\":{\"_type\":\"uniform\",\"_value\":[0,1]},"
            + "\"x5\":{\"_type\":\"uniform\",\"_value\":[0,1]},\"x6\":{\"_type\":\"uniform\",\"_value\":[0,1]}}";

    private final Process process;
    private final OutputStream toDispatcher;
    private final InputStream fromDispatcher;
    private final PipeFrameCodec replies = PipeFrameCodec.forManager();

    private DispatcherProcess(Process process) {
        this.process = process;
        this.toDispatcher = new BufferedOutputStream(process.getOutputStream(), 1 << 16);
        this.fromDispatcher = new BufferedInputStream(process.getInputStream(), 1 << 16);
    }

    /** Starts a dispatcher with a tuner and an optional assessor; logs go to a file under target/. */
    static DispatcherProcess start(Map<String, Object> config) throws IOException {
        Path script = HOME.resolve("tunekit");
        if (!Files.isExecutable(script)) {
            throw new IllegalStateException("no executable tunekit at " + script + " (set -Dtunekit.home)");
        }
        Path logs = Files.createDirectories(HOME.resolve("bench/target/dispatcher-logs"));
        List<String> cmd = new ArrayList<>(List.of(script.toString(), "dispatch", "--channel", "stdio:",
                "--exp_params", ExperimentConfig.encode(config)));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.appendTo(logs.resolve("stderr.log").toFile()));
        pb.environment().put("TUNEKIT_NO_BUILD", "1");
        pb.environment().put("NNI_LOG_DIRECTORY", logs.toString());
        pb.environment().put("NNI_LOG_LEVEL", "warning");
        return new DispatcherProcess(pb.start());
    }

    /** The process id of the dispatcher (the {@code tunekit} script execs {@code java}). */
    long pid() {
        return process.pid();
    }

    /** Writes one command (buffered). */
    void send(CommandType type, String payload) throws IOException {
        PipeFrameCodec.write(toDispatcher, new Command(type, payload));
    }

    /** Sends what is buffered. */
    void flush() throws IOException {
        toDispatcher.flush();
    }

    /** Reads the next reply; fails at end of stream or on {@code ER}. */
    Command receive() throws IOException {
        Command c = replies.read(fromDispatcher);
        if (c == null) {
            throw new IOException("the dispatcher closed its output (exit status " + exitStatusIfDone() + ")");
        }
        if (c.type() == CommandType.ERROR) {
            throw new IOException("the dispatcher reported an error: " + c.payload());
        }
        return c;
    }

    /** Reads replies until one of {@code type} arrives, skipping others (such as {@code KI}). */
    Command receive(CommandType type) throws IOException {
        while (true) {
            Command c = receive();
            if (c.type() == type) {
                return c;
            }
        }
    }

    private String exitStatusIfDone() {
        return process.isAlive() ? "still running" : String.valueOf(process.exitValue());
    }

    /** Sends {@code TE}, closes the pipe and waits for the process to exit. */
    @Override
    public void close() throws IOException {
        try {
            send(CommandType.TERMINATE, "");
            toDispatcher.close();
        } catch (IOException ignored) {
            // already gone
        }
        try {
            if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    /** The {@code parameter_id} of a {@code TR} payload, read without a JSON parser (it comes first). */
    static long parameterId(Command tr) {
        String p = tr.payload();
        int key = p.indexOf("\"parameter_id\"");
        int i = p.indexOf(':', key) + 1;
        while (p.charAt(i) == ' ') {
            i++;
        }
        long v = 0;
        while (i < p.length() && Character.isDigit(p.charAt(i))) {
            v = v * 10 + (p.charAt(i++) - '0');
        }
        return v;
    }

    static String finalMetric(long id, double value) {
        return "{\"parameter_id\": " + id + ", \"trial_job_id\": \"T" + id + "\", \"type\": \"FINAL\", \"sequence\": 0, \"value\": \""
                + value + "\"}";
    }

    static String periodicalMetric(long id, int sequence, double value) {
        return "{\"parameter_id\": " + id + ", \"trial_job_id\": \"T" + id + "\", \"type\": \"PERIODICAL\", \"sequence\": " + sequence
                + ", \"value\": \"" + value + "\"}";
    }

    static String trialEnd(long id) {
        return trialEnd(id, "SUCCEEDED");
    }

    static String trialEnd(long id, String event) {
        return "{\"trial_job_id\": \"T" + id + "\", \"event\": \"" + event + "\", \"hyper_params\": \"{\\\"parameter_id\\\": " + id
                + ", \\\"parameter_source\\\": \\\"algorithm\\\", \\\"parameters\\\": {}, \\\"parameter_index\\\": 0}\"}";
    }
}
