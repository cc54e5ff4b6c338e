package org.tunekit.it;

import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.PipeFrameCodec;

/**
 * The real {@code tunekit} process, started through the repository's launcher script, with the
 * test as its manager over a real pipe (the process's stdin and stdout).
 */
final class TunekitProcess implements AutoCloseable {
    static final Path HOME = Path.of(System.getProperty("tunekit.home", "..")).toAbsolutePath().normalize();
    static final Path FIXTURE_PLUGINS = HOME.resolve("protocol-spec/fixture-plugins/target/plugins");
    private static final Object END = new Object();

    private final Process process;
    private final OutputStream stdin;
    private final Path stderrFile;
    private final BlockingQueue<Object> replies = new LinkedBlockingQueue<>();
    private boolean inputBroken;

    private TunekitProcess(Process process, Path stderrFile) {
        this.process = process;
        this.stdin = process.getOutputStream();
        this.stderrFile = stderrFile;
        Thread reader = new Thread(() -> readReplies(process.getInputStream()), "test-reply-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code tunekit} with these arguments and extra environment variables. */
    /**
     * {@code tunekit ARGS} as a user runs it from the checkout (no rebuild), with experiments under
     * {@code experiments}, standard error to {@code stderr}, no standard input, and {@code env} on top.
     */
    static Process run(List<String> args, Path experiments, Path stderr, Map<String, String> env) throws IOException {
        List<String> cmd = new java.util.ArrayList<>();
        cmd.add(HOME.resolve("tunekit").toString());
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(HOME.toFile());
        pb.environment().put("TUNEKIT_NO_BUILD", "1");
        pb.environment().put("TUNEKIT_EXPERIMENTS_DIR", experiments.toString());
        pb.environment().putAll(env);
        pb.redirectError(stderr.toFile());
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        return pb.start();
    }

    static TunekitProcess start(List<String> args, Map<String, String> env) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(HOME.resolve("tunekit").toString());
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(HOME.toFile());
        pb.environment().remove("NNI_TUNER_COMMAND_CHANNEL");
        pb.environment().put("TUNEKIT_NO_BUILD", "1");
        pb.environment().putAll(env);
        Path err = Files.createTempFile("tunekit-stderr", ".log");
        pb.redirectError(err.toFile());
        return new TunekitProcess(pb.start(), err);
    }

    /** Starts a dispatcher over stdio with the fixture plugins and this experiment config. */
    static TunekitProcess dispatch(String expParams, Map<String, String> env) throws IOException {
        return start(List.of("dispatch", "--channel", "stdio:", "--plugins", FIXTURE_PLUGINS.toString(), "--exp_params", expParams), env);
    }

    private void readReplies(InputStream out) {
        PipeFrameCodec codec = PipeFrameCodec.forManager();
        try {
            Command c;
            while ((c = codec.read(out)) != null) {
                replies.add(c);
            }
        } catch (IOException e) {
            replies.add(e);
        }
        replies.add(END);
    }

    /** Sends one command. */
    void send(Command c) throws IOException {
        stdin.write(PipeFrameCodec.encode(c));
        stdin.flush();
    }

    /**
     * Sends raw bytes. A dispatcher that has already stopped (it rejected its configuration, or
     * failed on earlier input) has closed its end: what it replied is what the test checks, so a
     * broken pipe here is not a failure.
     */
    void sendRaw(byte[] bytes) {
        if (inputBroken) {
            return;
        }
        try {
            stdin.write(bytes);
            stdin.flush();
        } catch (IOException e) {
            inputBroken = true;
        }
    }

    /** Closes the dispatcher's input (end of stream). */
    void closeInput() {
        try {
            stdin.close();
        } catch (IOException ignored) {
            // the process may have exited already
        }
    }

    /** The next reply, or {@code null} at end of stream; fails the test when none comes within {@code timeout}. */
    Command next(Duration timeout) throws InterruptedException {
        Object o = replies.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (o == null) {
            fail("no reply from tunekit within " + timeout + "; stderr:\n" + stderr());
        }
        if (o == END) {
            replies.add(END);
            return null;
        }
        if (o instanceof IOException e) {
            fail("malformed reply from tunekit: " + e.getMessage() + "\nstderr:\n" + stderr());
        }
        return (Command) o;
    }

    /** Every reply until the process closes its output. */
    List<Command> readAll(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<Command> out = new ArrayList<>();
        Command c;
        while ((c = next(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())))) != null) {
            out.add(c);
        }
        return out;
    }

    /** Waits for the exit status; fails the test (and kills the process) if it does not exit in time. */
    int waitFor(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            fail("tunekit did not exit within " + timeout + "; stderr:\n" + stderr());
        }
        return process.exitValue();
    }

    /** The process's stderr so far. */
    String stderr() {
        try {
            return Files.readString(stderrFile, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(stderr unreadable: " + e + ")";
        }
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public void close() {
        closeInput();
        process.destroyForcibly();
        try {
            Files.deleteIfExists(stderrFile);
        } catch (IOException ignored) {
            // temp file
        }
    }
}
