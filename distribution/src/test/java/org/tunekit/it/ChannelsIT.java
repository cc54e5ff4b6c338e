package org.tunekit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.FileInputStream;
import java.io.FileOutputStream;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.dispatcher.plugin.ExperimentConfig;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.tunekit.dispatcher.protocol.PipeFrameCodec;
import org.tunekit.dispatcher.testing.ManagerWebSocketServer;
import org.tunekit.dispatcher.testing.ManagerZmqPeer;

/**
 * The real {@code tunekit} process over every command channel: the same scripted experiment over
 * {@code stdio:}, over inherited fds 3 and 4 (named pipes), over NNI 3's WebSocket (a test server
 * acting as the manager) and over ZeroMQ, with identical replies; and the process exits by itself,
 * promptly, however the manager ends the conversation. Faults (a manager gone for good, garbage, a
 * stalled reader) are in {@link ChannelFaultsIT}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ChannelsIT {
    private static final Duration REPLY = Duration.ofSeconds(30);
    private static final Duration EXIT = Duration.ofSeconds(30);
    private static final String SPACE = "{\"x\": {\"_type\": \"choice\", \"_value\": [1, 2, 3]}, \"lr\": {\"_type\": \"uniform\", \"_value\": [0.1, 1]}}";
    private static final String EXP_PARAMS = ExperimentConfig.encode(Map.of(
            "tuner", Map.of("name", "RecordingTuner"),
            "assessor", Map.of("name", "RecordingAssessor")));

    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    /** The manager's side of one channel, as the script sees it. */
    interface ManagerEnd {
        void send(Command c) throws Exception;

        /** The next reply; {@code null} once the dispatcher has ended the channel; fails when nothing comes in time. */
        Command next(Duration timeout) throws Exception;
    }

    // ---------------------------------------------------------------- the scripted experiment

    private static Command me(int parameterId, String job, String type, int sequence, String value) {
        return new Command(CommandType.REPORT_METRIC_DATA, "{\"parameter_id\": " + parameterId + ", \"trial_job_id\": \"" + job
                + "\", \"type\": \"" + type + "\", \"sequence\": " + sequence + ", \"value\": \"" + value + "\"}");
    }

    private static Command en(int parameterId, String job, String event) {
        String record = "{\\\"parameter_id\\\": " + parameterId + ", \\\"parameter_source\\\": \\\"algorithm\\\", \\\"parameters\\\": {}, \\\"parameter_index\\\": 0}";
        return new Command(CommandType.TRIAL_END, "{\"trial_job_id\": \"" + job + "\", \"event\": \"" + event + "\", \"hyper_params\": \"" + record + "\"}");
    }

    /**
     * IN, GE, ME PERIODICAL (one BAD verdict, one GOOD), ME FINAL, EN, GE, TE. Each step waits for the
     * replies it causes before the next is sent, so the reply order does not depend on the two queues'
     * timing and can be compared across transports.
     */
    private static List<Command> runScript(ManagerEnd m) throws Exception {
        List<Command> replies = new ArrayList<>();
        m.send(new Command(CommandType.INITIALIZE, SPACE));
        expect(m, replies, 1);
        m.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "2"));
        expect(m, replies, 2);
        m.send(me(0, "Job0", "PERIODICAL", 0, "3")); // sum 3: odd, BAD: KI
        expect(m, replies, 1);
        m.send(me(1, "Job1", "PERIODICAL", 0, "2")); // GOOD: no reply
        m.send(me(0, "Job0", "FINAL", 0, "3"));
        m.send(en(0, "Job0", "USER_CANCELED"));
        m.send(me(1, "Job1", "FINAL", 0, "2.5"));
        m.send(en(1, "Job1", "SUCCEEDED"));
        m.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "1"));
        expect(m, replies, 1);
        m.send(Command.of(CommandType.TERMINATE));
        assertThat(replies).extracting(Command::type).containsExactly(CommandType.INITIALIZED, CommandType.NEW_TRIAL_JOB,
                CommandType.NEW_TRIAL_JOB, CommandType.KILL_TRIAL_JOB, CommandType.NEW_TRIAL_JOB);
        assertThat(replies.get(3).payload()).isEqualTo("\"Job0\"");
        assertThat(replies.get(4).payload()).contains("\"receive_trial_result\"", "\"trial_end\"");
        return replies;
    }

    private static void expect(ManagerEnd m, List<Command> replies, int n) throws Exception {
        for (int i = 0; i < n; i++) {
            Command c = m.next(REPLY);
            assertThat(c).as("reply %d after %s", replies.size() + 1, replies).isNotNull();
            replies.add(c);
        }
    }

    // ---------------------------------------------------------------- one transport each

    @Test
    void theSameExperimentGivesTheSameRepliesOverEveryChannel(@TempDir Path dir) throws Exception {
        List<Command> overStdio = overStdio();
        List<Command> overFds = overInheritedFds(dir);
        List<Command> overSocketFds = overInheritedSocket();
        List<Command> overWebSocket = overWebSocket();
        List<Command> overZmq = overZmq();
        assertThat(overFds).as("fd:3,4 against stdio:").isEqualTo(overStdio);
        assertThat(overSocketFds).as("fd:3,4 on a socket against stdio:").isEqualTo(overStdio);
        assertThat(overWebSocket).as("ws:// against stdio:").isEqualTo(overStdio);
        assertThat(overZmq).as("tcp:// against stdio:").isEqualTo(overStdio);
    }

    private List<Command> overStdio() throws Exception {
        Dispatcher d = Dispatcher.start(List.of("dispatch", "--channel", "stdio:", "--plugins", plugins(), "--exp_params", EXP_PARAMS), Map.of());
        toClose.add(d);
        PipeManager m = new PipeManager(d.process.getOutputStream(), d.process.getInputStream());
        List<Command> replies = runScript(m);
        assertThat(m.next(REPLY)).as("end of the reply stream after TE").isNull();
        assertThat(d.waitFor(EXIT)).as("exit status; stderr:\n" + d.stderr()).isZero();
        return replies;
    }

    /** Named pipes on fds 3 and 4, chosen by the default rule (no --channel, no environment variable). */
    private List<Command> overInheritedFds(Path dir) throws Exception {
        FdLaunch launch = FdLaunch.start(dir, List.of("--plugins", plugins(), "--exp_params", EXP_PARAMS));
        toClose.add(launch.dispatcher);
        List<Command> replies = runScript(launch.manager);
        assertThat(launch.manager.next(REPLY)).as("end of the reply stream after TE").isNull();
        assertThat(launch.dispatcher.waitFor(EXIT)).as("exit status; stderr:\n" + launch.dispatcher.stderr()).isZero();
        assertThat(launch.dispatcher.stderr()).contains("command channel: fd:3,4");
        return replies;
    }

    /**
     * fds 3 and 4 on one TCP socket, as a Node.js manager passes "pipes" (socket pairs): they cannot be
     * reopened through /proc, so the dispatcher adopts the descriptors.
     */
    private List<Command> overInheritedSocket() throws Exception {
        try (java.net.ServerSocket listener = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            listener.setSoTimeout(30_000);
            List<String> cmd = new ArrayList<>(List.of("bash", "-c",
                    "exec \"$0\" dispatch \"$@\" 3<>/dev/tcp/127.0.0.1/$MANAGER_PORT 4>&3",
                    TunekitProcess.HOME.resolve("tunekit").toString(), "--plugins", plugins(), "--exp_params", EXP_PARAMS));
            Dispatcher d = Dispatcher.launch(cmd, Map.of("MANAGER_PORT", Integer.toString(listener.getLocalPort())), true);
            toClose.add(d);
            java.net.Socket socket = listener.accept();
            toClose.add(socket);
            PipeManager m = new PipeManager(socket.getOutputStream(), socket.getInputStream());
            List<Command> replies = runScript(m);
            assertThat(m.next(REPLY)).as("end of the reply stream after TE").isNull();
            assertThat(d.waitFor(EXIT)).as("exit status; stderr:\n" + d.stderr()).isZero();
            assertThat(d.stderr()).contains("command channel: fd:3,4");
            return replies;
        }
    }

    /** NNI 3's launch shape: {@code -m nni --exp_params}, the channel in the environment, plugins from the plugin path. */
    private List<Command> overWebSocket() throws Exception {
        ManagerWebSocketServer server = ManagerWebSocketServer.start();
        toClose.add(server);
        Dispatcher d = Dispatcher.start(List.of("-m", "nni", "--exp_params", EXP_PARAMS),
                Map.of("NNI_TUNER_COMMAND_CHANNEL", server.url(), "TUNEKIT_PLUGIN_PATH", plugins(), "SDK_PROCESS", "dispatcher",
                        "NNI_MODE", "start"));
        toClose.add(d);
        assertThat(server.awaitConnection(REPLY)).as("connection; stderr:\n" + d.stderr()).isTrue();
        WebSocketManager m = new WebSocketManager(server, d);
        List<Command> replies = runScript(m);
        assertThat(m.next(REPLY)).as("the dispatcher says goodbye and disconnects after TE").isNull();
        assertThat(d.waitFor(EXIT)).as("exit status; stderr:\n" + d.stderr()).isZero();
        assertThat(d.stdout()).as("stdout is not the wire here, and nothing else may use it").isEmpty();
        return replies;
    }

    private List<Command> overZmq() throws Exception {
        ManagerZmqPeer peer = ManagerZmqPeer.bind();
        toClose.add(peer);
        Dispatcher d = Dispatcher.start(List.of("dispatch", "--channel", peer.endpoint(), "--plugins", plugins(), "--exp_params", EXP_PARAMS),
                Map.of());
        toClose.add(d);
        peer.awaitHello(REPLY);
        ZmqManager m = new ZmqManager(peer, d);
        List<Command> replies = runScript(m);
        assertThat(d.waitFor(EXIT)).as("exit status; stderr:\n" + d.stderr()).isZero();
        assertThat(peer.next(Duration.ofMillis(200))).as("no reply after TE").isNull();
        return replies;
    }

    // ---------------------------------------------------------------- the process stops by itself

    @Test
    void stdioEndOfStreamStopsTheProcess() throws Exception {
        Dispatcher d = Dispatcher.start(List.of("dispatch", "--channel", "stdio:", "--plugins", plugins(), "--exp_params", EXP_PARAMS), Map.of());
        toClose.add(d);
        PipeManager m = new PipeManager(d.process.getOutputStream(), d.process.getInputStream());
        m.send(new Command(CommandType.INITIALIZE, SPACE));
        assertThat(m.next(REPLY)).isEqualTo(Command.of(CommandType.INITIALIZED));
        m.closeOutput();
        assertThat(d.waitFor(EXIT)).as("exit status; stderr:\n" + d.stderr()).isZero();
    }

    @Test
    void fdEndOfStreamStopsTheProcess(@TempDir Path dir) throws Exception {
        FdLaunch launch = FdLaunch.start(dir, List.of("--channel", "fd:3,4", "--plugins", plugins(), "--exp_params", EXP_PARAMS));
        toClose.add(launch.dispatcher);
        launch.manager.send(new Command(CommandType.INITIALIZE, SPACE));
        assertThat(launch.manager.next(REPLY)).isEqualTo(Command.of(CommandType.INITIALIZED));
        launch.manager.closeOutput();
        assertThat(launch.manager.next(REPLY)).isNull();
        assertThat(launch.dispatcher.waitFor(EXIT)).as("exit status; stderr:\n" + launch.dispatcher.stderr()).isZero();
    }

    @Test
    void webSocketGoodbyeStopsTheProcess() throws Exception {
        try (WebSocketRun run = WebSocketRun.start(this)) {
            run.server.sayGoodbye("experiment stopped");
            assertThat(run.dispatcher.waitFor(EXIT)).as("exit status; stderr:\n" + run.dispatcher.stderr()).isZero();
        }
    }

    @Test
    void webSocketCloseByTheServerStopsTheProcess() throws Exception {
        try (WebSocketRun run = WebSocketRun.start(this)) {
            run.server.closeClient(4000, "");
            assertThat(run.dispatcher.waitFor(EXIT)).as("exit status; stderr:\n" + run.dispatcher.stderr()).isZero();
        }
    }

    @Test
    void webSocketTerminateAsNniSendsItStopsTheProcess() throws Exception {
        try (WebSocketRun run = WebSocketRun.start(this)) {
            run.server.terminate();
            assertThat(run.dispatcher.waitFor(EXIT)).as("exit status; stderr:\n" + run.dispatcher.stderr()).isZero();
        }
    }

    @Test
    void webSocketReconnectsAfterADropAndCarriesOn() throws Exception {
        try (WebSocketRun run = WebSocketRun.start(this)) {
            run.server.dropConnection();
            assertThat(run.server.next(REPLY)).isEqualTo(new ManagerWebSocketServer.Received.Disconnected(-1));
            // sent while the dispatcher is away: the server keeps it for the reconnection, as NNI's does
            run.server.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "1"));
            assertThat(run.server.awaitConnection(REPLY)).as("reconnection; stderr:\n" + run.dispatcher.stderr()).isTrue();
            WebSocketManager m = new WebSocketManager(run.server, run.dispatcher);
            Command tr = m.next(REPLY);
            assertThat(tr.type()).isEqualTo(CommandType.NEW_TRIAL_JOB);
            assertThat(tr.payload()).contains("\"parameter_id\": 0");
            run.server.terminate();
            assertThat(run.dispatcher.waitFor(EXIT)).as("exit status; stderr:\n" + run.dispatcher.stderr()).isZero();
        }
    }

    @Test
    void zmqEndOfStreamStopsTheProcess() throws Exception {
        ManagerZmqPeer peer = ManagerZmqPeer.bind();
        toClose.add(peer);
        Dispatcher d = Dispatcher.start(List.of("dispatch", "--channel", peer.endpoint(), "--plugins", plugins(), "--exp_params", EXP_PARAMS), Map.of());
        toClose.add(d);
        peer.awaitHello(REPLY);
        peer.send(new Command(CommandType.INITIALIZE, SPACE));
        assertThat(new ZmqManager(peer, d).next(REPLY)).isEqualTo(Command.of(CommandType.INITIALIZED));
        peer.sendEndOfStream();
        assertThat(d.waitFor(EXIT)).as("exit status; stderr:\n" + d.stderr()).isZero();
    }

    @Test
    void aMalformedChannelUriIsRejectedAtStart() throws Exception {
        Dispatcher d = Dispatcher.start(List.of("dispatch", "--channel", "fd:3", "--plugins", plugins(), "--exp_params", EXP_PARAMS), Map.of());
        toClose.add(d);
        assertThat(d.waitFor(EXIT)).isEqualTo(1);
        assertThat(d.stderr()).contains("cannot open the command channel", "fd: needs two descriptors");
    }

    // ---------------------------------------------------------------- helpers

    private static String plugins() {
        return TunekitProcess.FIXTURE_PLUGINS.toString();
    }

    /** A WebSocket server and a dispatcher connected to it that has answered IN. */
    record WebSocketRun(ManagerWebSocketServer server, Dispatcher dispatcher) implements AutoCloseable {
        static WebSocketRun start(ChannelsIT test) throws Exception {
            ManagerWebSocketServer server = ManagerWebSocketServer.start();
            Dispatcher d = Dispatcher.start(List.of("dispatch", "--plugins", plugins(), "--exp_params", EXP_PARAMS),
                    Map.of("NNI_TUNER_COMMAND_CHANNEL", server.url()));
            WebSocketRun run = new WebSocketRun(server, d);
            test.toClose.add(run);
            assertThat(server.awaitConnection(REPLY)).as("connection; stderr:\n" + d.stderr()).isTrue();
            server.send(new Command(CommandType.INITIALIZE, SPACE));
            assertThat(new WebSocketManager(server, d).next(REPLY)).isEqualTo(Command.of(CommandType.INITIALIZED));
            return run;
        }

        @Override
        public void close() {
            dispatcher.close();
            server.close();
        }
    }

    /** The real process, its stderr (and stdout, when the channel is not stdio) in files. */
    static final class Dispatcher implements AutoCloseable {
        final Process process;
        private final Path stderrFile;
        private final Path stdoutFile;

        private Dispatcher(Process process, Path stderrFile, Path stdoutFile) {
            this.process = process;
            this.stderrFile = stderrFile;
            this.stdoutFile = stdoutFile;
        }

        /** {@code ./tunekit ARGS} with the replies on stdout (stdio channel) or elsewhere. */
        static Dispatcher start(List<String> args, Map<String, String> env) throws IOException {
            List<String> cmd = new ArrayList<>();
            cmd.add(TunekitProcess.HOME.resolve("tunekit").toString());
            cmd.addAll(args);
            boolean stdio = args.contains("stdio:");
            return launch(cmd, env, !stdio);
        }

        static Dispatcher launch(List<String> cmd, Map<String, String> env, boolean stdoutToFile) throws IOException {
            ProcessBuilder pb = new ProcessBuilder(cmd).directory(TunekitProcess.HOME.toFile());
            pb.environment().remove("NNI_TUNER_COMMAND_CHANNEL");
            pb.environment().remove("TUNEKIT_PLUGIN_PATH");
            pb.environment().put("TUNEKIT_NO_BUILD", "1");
            pb.environment().putAll(env);
            Path err = Files.createTempFile("tunekit-stderr", ".log");
            pb.redirectError(err.toFile());
            Path out = null;
            if (stdoutToFile) {
                out = Files.createTempFile("tunekit-stdout", ".log");
                pb.redirectOutput(out.toFile());
            }
            return new Dispatcher(pb.start(), err, out);
        }

        int waitFor(Duration timeout) throws InterruptedException {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                fail("tunekit did not exit by itself within " + timeout + "; stderr:\n" + stderr());
            }
            return process.exitValue();
        }

        String stderr() {
            return read(stderrFile);
        }

        String stdout() {
            return stdoutFile == null ? "" : read(stdoutFile);
        }

        private static String read(Path p) {
            try {
                return Files.readString(p, StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "(unreadable: " + e + ")";
            }
        }

        @Override
        public void close() {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
                Files.deleteIfExists(stderrFile);
                if (stdoutFile != null) {
                    Files.deleteIfExists(stdoutFile);
                }
            } catch (IOException | InterruptedException ignored) {
                // temp files
            }
        }
    }

    /**
     * A dispatcher whose fds 3 and 4 are named pipes: {@code bash -c 'exec tunekit dispatch ... 3<in 4>out'}
     * (ProcessBuilder cannot pass descriptors beyond 0-2).
     */
    record FdLaunch(Dispatcher dispatcher, PipeManager manager) {
        static FdLaunch start(Path dir, List<String> dispatchArgs) throws Exception {
            Path in = dir.resolve("commands");
            Path out = dir.resolve("replies");
            for (Path fifo : List.of(in, out)) {
                Process mk = new ProcessBuilder("mkfifo", fifo.toString()).redirectErrorStream(true).start();
                assertThat(mk.waitFor(10, TimeUnit.SECONDS)).as("mkfifo").isTrue();
                assertThat(mk.exitValue()).as("mkfifo " + fifo).isZero();
            }
            List<String> cmd = new ArrayList<>(List.of("bash", "-c", "exec \"$0\" dispatch \"$@\" 3<\"$IN_FIFO\" 4>\"$OUT_FIFO\"",
                    TunekitProcess.HOME.resolve("tunekit").toString()));
            cmd.addAll(dispatchArgs);
            Dispatcher d = Dispatcher.launch(cmd, Map.of("IN_FIFO", in.toString(), "OUT_FIFO", out.toString()), true);
            // opening a FIFO blocks until the other end is opened: bash opens fd 3 first, then fd 4
            CompletableFuture<OutputStream> toDispatcher = CompletableFuture.supplyAsync(() -> open(() -> new FileOutputStream(in.toFile())));
            OutputStream w;
            InputStream r;
            try {
                w = toDispatcher.get(30, TimeUnit.SECONDS);
                r = CompletableFuture.supplyAsync(() -> open(() -> new FileInputStream(out.toFile()))).get(30, TimeUnit.SECONDS);
            } catch (Exception e) {
                d.close();
                throw new AssertionError("the named pipes were not opened by the dispatcher; stderr:\n" + d.stderr(), e);
            }
            return new FdLaunch(d, new PipeManager(w, r));
        }

        private interface Opener<T> {
            T open() throws IOException;
        }

        private static <T> T open(Opener<T> opener) {
            try {
                return opener.open();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    /** The manager's end of a pipe-framed channel (stdio or the named pipes). */
    static final class PipeManager implements ManagerEnd {
        private static final Object END = new Object();
        private final OutputStream toDispatcher;
        private final BlockingQueue<Object> replies = new LinkedBlockingQueue<>();

        PipeManager(OutputStream toDispatcher, InputStream fromDispatcher) {
            this.toDispatcher = toDispatcher;
            Thread reader = new Thread(() -> {
                PipeFrameCodec codec = PipeFrameCodec.forManager();
                try {
                    Command c;
                    while ((c = codec.read(fromDispatcher)) != null) {
                        replies.add(c);
                    }
                } catch (IOException e) {
                    replies.add(e);
                }
                replies.add(END);
            }, "test-pipe-reader");
            reader.setDaemon(true);
            reader.start();
        }

        @Override
        public void send(Command c) throws IOException {
            toDispatcher.write(PipeFrameCodec.encode(c));
            toDispatcher.flush();
        }

        void closeOutput() throws IOException {
            toDispatcher.close();
        }

        @Override
        public Command next(Duration timeout) throws InterruptedException {
            Object o = replies.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (o == null) {
                fail("no reply within " + timeout);
            }
            if (o == END) {
                replies.add(END);
                return null;
            }
            if (o instanceof IOException e) {
                fail("malformed reply: " + e.getMessage());
            }
            return (Command) o;
        }
    }

    /** The manager's end of the WebSocket channel. */
    record WebSocketManager(ManagerWebSocketServer server, Dispatcher dispatcher) implements ManagerEnd {
        @Override
        public void send(Command c) {
            if (c.type() == CommandType.TERMINATE) {
                try {
                    server.terminate(); // as NNI: TE, _bye_, close 4000
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            } else {
                server.send(c);
            }
        }

        @Override
        public Command next(Duration timeout) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (true) {
                ManagerWebSocketServer.Received r = server.next(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
                if (r == null) {
                    fail("nothing from the dispatcher within " + timeout + "; stderr:\n" + dispatcher.stderr());
                }
                if (r instanceof ManagerWebSocketServer.Received.CommandMessage m) {
                    return m.command();
                }
                if (r instanceof ManagerWebSocketServer.Received.Disconnected) {
                    return null;
                }
                if (r instanceof ManagerWebSocketServer.Received.Malformed bad) {
                    fail("malformed message from the dispatcher: " + bad.text());
                }
                // the dispatcher's goodbye precedes its disconnection
            }
        }
    }

    /** The manager's end of the ZeroMQ channel. */
    record ZmqManager(ManagerZmqPeer peer, Dispatcher dispatcher) implements ManagerEnd {
        @Override
        public void send(Command c) {
            peer.send(c);
        }

        @Override
        public Command next(Duration timeout) {
            Command c = peer.next(timeout);
            if (c == null) {
                fail("no reply within " + timeout + "; stderr:\n" + dispatcher.stderr());
            }
            return c;
        }
    }
}
