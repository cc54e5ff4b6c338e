package org.tunekit.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.tunekit.dispatcher.plugin.ExperimentConfig;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.tunekit.dispatcher.testing.ManagerWebSocketServer;
import org.tunekit.dispatcher.testing.ManagerZmqPeer;

/**
 * The real {@code tunekit dispatch} process against a manager that misbehaves, over WebSocket and over
 * ZeroMQ: it drops the connection and comes back (nothing is lost), it never comes back or is never
 * there (the dispatcher gives up after its give-up time, here 2 s, with a message on stderr and exit
 * status 3), it sends garbage (an {@code ER} naming it, exit status 1) and it stops reading (replies wait
 * in bounded buffers, the dispatcher blocks; when the manager reads again every reply arrives in order,
 * and when it does not the dispatcher gives up). Each case prints one {@code fault-figure:} line (what
 * happened, the exit status, the seconds from the fault to the exit, the dispatcher's memory) for
 * {@code bench/run-faults.sh}, which also has the memory measured ({@code TUNEKIT_FAULT_FIGURES=1}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ChannelFaultsIT {
    private static final Duration REPLY = Duration.ofSeconds(20);
    private static final Duration EXIT = Duration.ofSeconds(30);
    private static final String GIVE_UP_SECONDS = "2";
    private static final String STALL_GIVE_UP_SECONDS = "15";
    private static final String SPACE = "{\"x\": {\"_type\": \"choice\", \"_value\": [1, 2, 3]}}";
    private static final String EXP_PARAMS = ExperimentConfig.encode(Map.of("tuner", Map.of("name", "RecordingTuner")));
    /** Enough replies (about 7 MB) to fill the kernel's socket buffers (at most 4 MB to send here) and the channels' own. */
    private static final int FLOOD = 50_000;

    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    // ---------------------------------------------------------------- WebSocket

    @Test
    void webSocketDropThenBackLosesNothing() throws Exception {
        ManagerWebSocketServer server = wsServer(0);
        ChannelsIT.Dispatcher d = wsDispatcher(server.url());
        ChannelsIT.WebSocketManager m = wsInitialized(server, d);
        server.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "2"));
        assertThat(trialIds(m, 2)).containsExactly(0L, 1L);
        long fault = System.nanoTime();
        server.dropConnection();
        assertThat(server.next(REPLY)).isEqualTo(new ManagerWebSocketServer.Received.Disconnected(-1));
        // sent while the dispatcher is away: the server keeps it for the reconnection, as NNI's does
        server.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "2"));
        assertThat(server.awaitConnection(REPLY)).as("reconnection; stderr:\n" + d.stderr()).isTrue();
        assertThat(trialIds(m, 2)).containsExactly(2L, 3L);
        server.terminate();
        assertThat(d.waitFor(EXIT)).as("exit status; stderr:\n" + d.stderr()).isZero();
        assertThat(d.stderr()).contains("reconnected to " + server.url());
        figure("ws drop then back", d, fault);
    }

    @Test
    void webSocketManagerGoneForGoodIsGivenUpOn() throws Exception {
        ManagerWebSocketServer server = wsServer(0);
        ChannelsIT.Dispatcher d = wsDispatcher(server.url());
        wsInitialized(server, d);
        long fault = System.nanoTime();
        server.close();
        assertThat(d.waitFor(EXIT)).as("stderr:\n" + d.stderr()).isEqualTo(3);
        assertThat(d.stderr()).contains("tunekit dispatch: gave up on the manager at " + server.url()
                + ": no connection within the give-up time of 2 s").contains("(exit status 3)");
        figure("ws manager gone for good", d, fault);
    }

    @Test
    void webSocketManagerNeverThereIsGivenUpOn() throws Exception {
        String url = "ws://127.0.0.1:" + freePort() + "/tuner";
        long fault = System.nanoTime();
        ChannelsIT.Dispatcher d = wsDispatcher(url);
        assertThat(d.waitFor(EXIT)).as("stderr:\n" + d.stderr()).isEqualTo(3);
        assertThat(d.stderr()).contains("tunekit dispatch: gave up on the manager at " + url + ": no connection within the give-up time of 2 s");
        figure("ws manager never there", d, fault);
    }

    @Test
    void webSocketTextThatIsNotAnEnvelopeIsAnError() throws Exception {
        ManagerWebSocketServer server = wsServer(0);
        ChannelsIT.Dispatcher d = wsDispatcher(server.url());
        wsInitialized(server, d);
        long fault = System.nanoTime();
        server.sendText("GE 1, please");
        assertThat(wsError(server, d)).startsWith("protocol error: ").contains("WebSocket message");
        assertThat(d.waitFor(EXIT)).isEqualTo(1);
        figure("ws text that is not JSON", d, fault);
    }

    @Test
    void webSocketBinaryJunkIsAnError() throws Exception {
        ManagerWebSocketServer server = wsServer(0);
        ChannelsIT.Dispatcher d = wsDispatcher(server.url());
        wsInitialized(server, d);
        byte[] junk = new byte[64];
        new Random(7).nextBytes(junk);
        byte[] frame = new byte[2 + junk.length];
        frame[0] = (byte) 0x82; // a final binary frame
        frame[1] = (byte) junk.length;
        System.arraycopy(junk, 0, frame, 2, junk.length);
        long fault = System.nanoTime();
        server.sendRaw(frame);
        assertThat(wsError(server, d)).startsWith("protocol error: binary WebSocket message");
        assertThat(d.waitFor(EXIT)).isEqualTo(1);
        figure("ws binary message", d, fault);
    }

    @Test
    void webSocketBytesThatAreNotAFrameAreAnError() throws Exception {
        ManagerWebSocketServer server = wsServer(0);
        ChannelsIT.Dispatcher d = wsDispatcher(server.url());
        wsInitialized(server, d);
        long fault = System.nanoTime();
        // opcode 0x3 is reserved: no WebSocket implementation may accept it
        server.sendRaw(new byte[] {(byte) 0x83, 0x04, 'j', 'u', 'n', 'k'});
        assertThat(wsError(server, d)).startsWith("protocol error: the manager at " + server.url() + " sent data that is not a valid WebSocket frame");
        assertThat(d.waitFor(EXIT)).isEqualTo(1);
        figure("ws bytes that are not a frame", d, fault);
    }

    @Test
    void webSocketTruncatedFrameIsADropAndLosesOnlyThatMessage() throws Exception {
        ManagerWebSocketServer server = wsServer(0);
        ChannelsIT.Dispatcher d = wsDispatcher(server.url());
        ChannelsIT.WebSocketManager m = wsInitialized(server, d);
        byte[] partial = new byte[2 + 10];
        partial[0] = (byte) 0x81;
        partial[1] = 100; // announces 100 bytes, sends 10
        System.arraycopy("{\"type\": \"".getBytes(StandardCharsets.US_ASCII), 0, partial, 2, 10);
        long fault = System.nanoTime();
        server.sendRaw(partial);
        server.dropConnection();
        assertThat(server.next(REPLY)).isEqualTo(new ManagerWebSocketServer.Received.Disconnected(-1));
        server.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "1"));
        assertThat(server.awaitConnection(REPLY)).as("reconnection; stderr:\n" + d.stderr()).isTrue();
        assertThat(trialIds(m, 1)).containsExactly(0L);
        server.terminate();
        assertThat(d.waitFor(EXIT)).as("stderr:\n" + d.stderr()).isZero();
        figure("ws truncated frame, then a drop", d, fault);
    }

    @Test
    void webSocketMessageOverThePayloadLimitIsAnError() throws Exception {
        ManagerWebSocketServer server = wsServer(0);
        ChannelsIT.Dispatcher d = ChannelsIT.Dispatcher.start(List.of("dispatch", "--give-up-after", GIVE_UP_SECONDS, "--max-frame-bytes", "1000",
                "--plugins", plugins(), "--exp_params", EXP_PARAMS), Map.of("NNI_TUNER_COMMAND_CHANNEL", server.url()));
        toClose.add(d);
        wsInitialized(server, d);
        long fault = System.nanoTime();
        server.send(new Command(CommandType.IMPORT_DATA, "[" + "0,".repeat(2000) + "0]"));
        assertThat(wsError(server, d)).startsWith("protocol error: a WebSocket message from " + server.url() + " is larger than the limit of 1000 bytes");
        assertThat(d.waitFor(EXIT)).isEqualTo(1);
        figure("ws message over the payload limit", d, fault);
    }

    @Test
    void webSocketStalledReaderHoldsTheDispatcherBackAndLosesNothing() throws Exception {
        ManagerWebSocketServer server = wsServer(4096);
        // a longer give-up time: the stall lasts while the memory is measured
        ChannelsIT.Dispatcher d = wsDispatcher(server.url(), STALL_GIVE_UP_SECONDS);
        ChannelsIT.WebSocketManager m = wsInitialized(server, d);
        String before = memory(d);
        server.setReading(false);
        long fault = System.nanoTime();
        server.send(new Command(CommandType.REQUEST_TRIAL_JOBS, Integer.toString(FLOOD)));
        awaitInStderr(d, "back-pressure: a reply to " + server.url());
        Thread.sleep(500);
        String stalled = memory(d);
        server.setReading(true);
        List<Long> ids = trialIds(m, FLOOD);
        for (int i = 0; i < FLOOD; i++) {
            assertThat(ids.get(i)).as("reply %d", i).isEqualTo(i);
        }
        awaitInStderr(d, "reads again");
        String after = memory(d);
        server.terminate();
        assertThat(d.waitFor(EXIT)).as("stderr:\n" + d.stderr()).isZero();
        figure("ws stalled reader, then reading again (" + FLOOD + " replies)", d, fault, before, stalled + "; all read: " + after);
    }

    @Test
    void webSocketReaderThatNeverResumesIsGivenUpOn() throws Exception {
        ManagerWebSocketServer server = wsServer(4096);
        ChannelsIT.Dispatcher d = wsDispatcher(server.url());
        wsInitialized(server, d);
        server.setReading(false);
        long fault = System.nanoTime();
        server.send(new Command(CommandType.REQUEST_TRIAL_JOBS, Integer.toString(FLOOD)));
        assertThat(d.waitFor(EXIT)).as("stderr:\n" + d.stderr()).isEqualTo(3);
        assertThat(d.stderr()).contains("tunekit dispatch: gave up on the manager at " + server.url()
                + ": it has not read a reply for 2 s");
        figure("ws reader that never resumes", d, fault);
    }

    // ---------------------------------------------------------------- ZeroMQ

    @Test
    void zmqManagerThatRestartsLosesNothing() throws Exception {
        ManagerZmqPeer peer = zmqPeer(ManagerZmqPeer.bind());
        String endpoint = peer.endpoint();
        ChannelsIT.Dispatcher d = zmqDispatcher(endpoint);
        ChannelsIT.ZmqManager m = zmqInitialized(peer, d);
        peer.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "2"));
        assertThat(trialIds(m, 2)).containsExactly(0L, 1L);
        long fault = System.nanoTime();
        peer.close();
        Thread.sleep(500);
        ManagerZmqPeer again = zmqPeer(ManagerZmqPeer.bind(endpoint));
        // the dispatcher says hello again once reconnected: the new manager knows whom to address
        again.awaitHello(REPLY);
        again.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "2"));
        assertThat(trialIds(new ChannelsIT.ZmqManager(again, d), 2)).containsExactly(2L, 3L);
        again.send(Command.of(CommandType.TERMINATE));
        assertThat(d.waitFor(EXIT)).as("stderr:\n" + d.stderr()).isZero();
        assertThat(d.stderr()).contains("reconnected to " + endpoint);
        figure("zmq manager restarts on its endpoint", d, fault);
    }

    @Test
    void zmqManagerGoneForGoodIsGivenUpOn() throws Exception {
        ManagerZmqPeer peer = ManagerZmqPeer.bind();
        ChannelsIT.Dispatcher d = zmqDispatcher(peer.endpoint());
        try {
            zmqInitialized(peer, d);
        } finally {
            peer.close();
        }
        long fault = System.nanoTime();
        assertThat(d.waitFor(EXIT)).as("stderr:\n" + d.stderr()).isEqualTo(3);
        assertThat(d.stderr()).contains("tunekit dispatch: gave up on the manager at " + peer.endpoint()
                + ": it has been unreachable for the give-up time of 2 s").contains("(exit status 3)");
        figure("zmq manager gone for good", d, fault);
    }

    @Test
    void zmqManagerNeverThereIsGivenUpOn() throws Exception {
        String endpoint = "tcp://127.0.0.1:" + freePort();
        long fault = System.nanoTime();
        ChannelsIT.Dispatcher d = zmqDispatcher(endpoint);
        assertThat(d.waitFor(EXIT)).as("stderr:\n" + d.stderr()).isEqualTo(3);
        assertThat(d.stderr()).contains("tunekit dispatch: gave up on the manager at " + endpoint + ": no ZeroMQ connection within the give-up time of 2 s");
        figure("zmq manager never there", d, fault);
    }

    @Test
    void zmqPeerThatIsNotZeroMqIsGivenUpOn() throws Exception {
        try (ServerSocket junk = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread t = new Thread(() -> {
                byte[] noise = new byte[256];
                new Random(11).nextBytes(noise);
                while (!junk.isClosed()) {
                    try (Socket s = junk.accept()) {
                        s.getOutputStream().write(noise);
                        s.getOutputStream().flush();
                        Thread.sleep(100);
                    } catch (IOException | InterruptedException e) {
                        return;
                    }
                }
            }, "test-junk-peer");
            t.setDaemon(true);
            t.start();
            String endpoint = "tcp://127.0.0.1:" + junk.getLocalPort();
            long fault = System.nanoTime();
            ChannelsIT.Dispatcher d = zmqDispatcher(endpoint);
            assertThat(d.waitFor(EXIT)).as("stderr:\n" + d.stderr()).isEqualTo(3);
            assertThat(d.stderr()).contains("gave up on the manager at " + endpoint + ": no ZeroMQ connection within the give-up time of 2 s");
            figure("zmq peer sending random bytes (not ZMTP)", d, fault);
        }
    }

    @Test
    void zmqJunkFrameIsAnError() throws Exception {
        ManagerZmqPeer peer = zmqPeer(ManagerZmqPeer.bind());
        ChannelsIT.Dispatcher d = zmqDispatcher(peer.endpoint());
        zmqInitialized(peer, d);
        byte[] junk = new byte[64];
        new Random(5).nextBytes(junk);
        junk[0] = (byte) 0xC3; // not an ASCII code byte
        long fault = System.nanoTime();
        peer.sendFrame(junk);
        assertThat(zmqError(peer, d)).startsWith("protocol error: unknown command code in frame: bytes 0xC3");
        assertThat(d.waitFor(EXIT)).isEqualTo(1);
        figure("zmq frame of random bytes", d, fault);
    }

    @Test
    void zmqTruncatedFrameIsAnError() throws Exception {
        ManagerZmqPeer peer = zmqPeer(ManagerZmqPeer.bind());
        ChannelsIT.Dispatcher d = zmqDispatcher(peer.endpoint());
        zmqInitialized(peer, d);
        long fault = System.nanoTime();
        peer.sendFrame(new byte[] {'G'});
        assertThat(zmqError(peer, d)).startsWith("protocol error: a frame of 1 byte");
        assertThat(d.waitFor(EXIT)).isEqualTo(1);
        figure("zmq truncated frame (1 byte)", d, fault);
    }

    @Test
    void zmqMultiFrameMessageIsAnError() throws Exception {
        ManagerZmqPeer peer = zmqPeer(ManagerZmqPeer.bind());
        ChannelsIT.Dispatcher d = zmqDispatcher(peer.endpoint());
        zmqInitialized(peer, d);
        long fault = System.nanoTime();
        peer.sendFrames("GE".getBytes(StandardCharsets.US_ASCII), "1".getBytes(StandardCharsets.US_ASCII));
        assertThat(zmqError(peer, d)).startsWith("protocol error: a message of 2 frames");
        assertThat(d.waitFor(EXIT)).isEqualTo(1);
        figure("zmq message of 2 frames", d, fault);
    }

    @Test
    void zmqFrameOverThePayloadLimitIsAnError() throws Exception {
        ManagerZmqPeer peer = zmqPeer(ManagerZmqPeer.bind());
        ChannelsIT.Dispatcher d = ChannelsIT.Dispatcher.start(List.of("dispatch", "--channel", peer.endpoint(), "--give-up-after", GIVE_UP_SECONDS,
                "--max-frame-bytes", "1000", "--plugins", plugins(), "--exp_params", EXP_PARAMS), Map.of());
        toClose.add(d);
        zmqInitialized(peer, d);
        long fault = System.nanoTime();
        peer.send(new Command(CommandType.IMPORT_DATA, "[" + "0,".repeat(2000) + "0]"));
        assertThat(zmqError(peer, d)).startsWith("protocol error: a frame of 4005 bytes").contains("the limit is 1000 bytes");
        assertThat(d.waitFor(EXIT)).isEqualTo(1);
        figure("zmq frame over the payload limit", d, fault);
    }

    @Test
    void zmqStalledReaderHoldsTheDispatcherBackAndLosesNothing() throws Exception {
        ManagerZmqPeer peer = zmqPeer(ManagerZmqPeer.bindWithSmallBuffers(10, 4096));
        ChannelsIT.Dispatcher d = zmqDispatcher(peer.endpoint(), STALL_GIVE_UP_SECONDS);
        ChannelsIT.ZmqManager m = zmqInitialized(peer, d);
        String before = memory(d);
        long fault = System.nanoTime();
        // the manager asks, then reads nothing until the dispatcher's queue is full
        peer.send(new Command(CommandType.REQUEST_TRIAL_JOBS, Integer.toString(FLOOD)));
        awaitInStderr(d, "back-pressure: the queue of replies to " + peer.endpoint() + " is full (1000)");
        Thread.sleep(500);
        String stalled = memory(d);
        List<Long> ids = trialIds(m, FLOOD);
        for (int i = 0; i < FLOOD; i++) {
            assertThat(ids.get(i)).as("reply %d", i).isEqualTo(i);
        }
        awaitInStderr(d, "reads again");
        String after = memory(d);
        peer.send(Command.of(CommandType.TERMINATE));
        assertThat(d.waitFor(EXIT)).as("stderr:\n" + d.stderr()).isZero();
        figure("zmq stalled reader, then reading again (" + FLOOD + " replies)", d, fault, before, stalled + "; all read: " + after);
    }

    @Test
    void zmqReaderThatNeverResumesIsGivenUpOn() throws Exception {
        ManagerZmqPeer peer = zmqPeer(ManagerZmqPeer.bindWithSmallBuffers(10, 4096));
        ChannelsIT.Dispatcher d = zmqDispatcher(peer.endpoint());
        zmqInitialized(peer, d);
        long fault = System.nanoTime();
        peer.send(new Command(CommandType.REQUEST_TRIAL_JOBS, Integer.toString(FLOOD)));
        assertThat(d.waitFor(EXIT)).as("stderr:\n" + d.stderr()).isEqualTo(3);
        assertThat(d.stderr()).contains("tunekit dispatch: gave up on the manager at " + peer.endpoint()
                + ": it has not taken a reply for 2 s (1000 replies waiting");
        figure("zmq reader that never resumes", d, fault);
    }

    // ---------------------------------------------------------------- helpers

    private ManagerWebSocketServer wsServer(int receiveBuffer) throws IOException {
        ManagerWebSocketServer s = receiveBuffer > 0
                // a manager that stops reading but stays alive: it keeps pinging, more often than the 2 s of silence
                // after which the dispatcher would take the connection for dropped
                ? ManagerWebSocketServer.startWithReceiveBuffer("/tuner", Duration.ofMillis(500), receiveBuffer)
                : ManagerWebSocketServer.start();
        toClose.add(s);
        return s;
    }

    /** A dispatcher started as NNI 3 starts it, the give-up time from the environment. */
    private ChannelsIT.Dispatcher wsDispatcher(String url) throws IOException {
        return wsDispatcher(url, GIVE_UP_SECONDS);
    }

    private ChannelsIT.Dispatcher wsDispatcher(String url, String giveUpSeconds) throws IOException {
        ChannelsIT.Dispatcher d = ChannelsIT.Dispatcher.start(List.of("dispatch", "--plugins", plugins(), "--exp_params", EXP_PARAMS),
                Map.of("NNI_TUNER_COMMAND_CHANNEL", url, "TUNEKIT_CHANNEL_GIVE_UP_MS", Integer.toString(Integer.parseInt(giveUpSeconds) * 1000)));
        toClose.add(d);
        return d;
    }

    private static ChannelsIT.WebSocketManager wsInitialized(ManagerWebSocketServer server, ChannelsIT.Dispatcher d) throws Exception {
        assertThat(server.awaitConnection(REPLY)).as("connection; stderr:\n" + d.stderr()).isTrue();
        server.send(new Command(CommandType.INITIALIZE, SPACE));
        ChannelsIT.WebSocketManager m = new ChannelsIT.WebSocketManager(server, d);
        assertThat(m.next(REPLY)).isEqualTo(Command.of(CommandType.INITIALIZED));
        return m;
    }

    /** The text of the ER the dispatcher sends, skipping its goodbye and disconnections. */
    private static String wsError(ManagerWebSocketServer server, ChannelsIT.Dispatcher d) throws InterruptedException {
        long deadline = System.nanoTime() + REPLY.toNanos();
        while (System.nanoTime() < deadline) {
            ManagerWebSocketServer.Received r = server.next(Duration.ofMillis(200));
            if (r instanceof ManagerWebSocketServer.Received.CommandMessage c) {
                assertThat(c.command().type()).as("the reply to garbage").isEqualTo(CommandType.ERROR);
                return c.command().payload();
            }
        }
        throw new AssertionError("no ER within " + REPLY + "; stderr:\n" + d.stderr());
    }

    private ManagerZmqPeer zmqPeer(ManagerZmqPeer p) {
        toClose.add(p);
        return p;
    }

    /** A dispatcher on a ZeroMQ endpoint, the give-up time from the option. */
    private ChannelsIT.Dispatcher zmqDispatcher(String endpoint) throws IOException {
        return zmqDispatcher(endpoint, GIVE_UP_SECONDS);
    }

    private ChannelsIT.Dispatcher zmqDispatcher(String endpoint, String giveUpSeconds) throws IOException {
        ChannelsIT.Dispatcher d = ChannelsIT.Dispatcher.start(List.of("dispatch", "--channel", endpoint, "--give-up-after", giveUpSeconds,
                "--plugins", plugins(), "--exp_params", EXP_PARAMS), Map.of());
        toClose.add(d);
        return d;
    }

    private static ChannelsIT.ZmqManager zmqInitialized(ManagerZmqPeer peer, ChannelsIT.Dispatcher d) {
        peer.awaitHello(REPLY);
        peer.send(new Command(CommandType.INITIALIZE, SPACE));
        ChannelsIT.ZmqManager m = new ChannelsIT.ZmqManager(peer, d);
        assertThat(m.next(REPLY)).isEqualTo(Command.of(CommandType.INITIALIZED));
        return m;
    }

    private static String zmqError(ManagerZmqPeer peer, ChannelsIT.Dispatcher d) {
        Command c = peer.next(REPLY);
        assertThat(c).as("ER; stderr:\n" + d.stderr()).isNotNull();
        assertThat(c.type()).isEqualTo(CommandType.ERROR);
        return c.payload();
    }

    private static final Pattern PARAMETER_ID = Pattern.compile("\"parameter_id\": (\\d+)");

    /** The parameter ids of the next {@code n} replies, which must all be TR. */
    private static List<Long> trialIds(ChannelsIT.ManagerEnd m, int n) throws Exception {
        List<Long> ids = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            Command c = m.next(REPLY);
            assertThat(c).as("reply %d of %d", i + 1, n).isNotNull();
            assertThat(c.type()).isEqualTo(CommandType.NEW_TRIAL_JOB);
            Matcher matcher = PARAMETER_ID.matcher(c.payload());
            assertThat(matcher.find()).as(c.payload()).isTrue();
            ids.add(Long.parseLong(matcher.group(1)));
        }
        return ids;
    }

    private static void awaitInStderr(ChannelsIT.Dispatcher d, String text) throws InterruptedException {
        long deadline = System.nanoTime() + REPLY.toNanos();
        while (!d.stderr().contains(text)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("\"" + text + "\" not logged within " + REPLY + "; stderr:\n" + d.stderr());
            }
            Thread.sleep(50);
        }
    }

    /** The dispatcher's resident memory in kB (the launcher execs java, so the process is the JVM), or -1. */
    private static long residentKb(ChannelsIT.Dispatcher d) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + d.process.pid() + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("\\D", ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or the process is gone
        }
        return -1;
    }

    private static final Pattern HISTOGRAM_TOTAL = Pattern.compile("(?m)^Total\\s+\\d+\\s+(\\d+)");

    /** The dispatcher's live heap in kB: {@code jcmd PID GC.class_histogram} runs a full GC first. -1 when jcmd is not there. */
    private static long liveHeapKb(ChannelsIT.Dispatcher d) {
        try {
            Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
            Process p = new ProcessBuilder(jcmd.toString(), Long.toString(d.process.pid()), "GC.class_histogram")
                    .redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return -1;
            }
            Matcher m = HISTOGRAM_TOTAL.matcher(out);
            return m.find() ? Long.parseLong(m.group(1)) / 1024 : -1;
        } catch (IOException e) {
            return -1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return -1;
        }
    }

    /** Resident memory and live heap, for the figure line; measured only for {@code bench/run-faults.sh} (each takes a second). */
    private static String memory(ChannelsIT.Dispatcher d) {
        if (System.getenv("TUNEKIT_FAULT_FIGURES") == null) {
            return "not measured";
        }
        return String.format("RSS %d MB, live heap %.1f MB", residentKb(d) / 1024, liveHeapKb(d) / 1024.0);
    }

    private static void figure(String what, ChannelsIT.Dispatcher d, long faultNanos) {
        figure(what, d, faultNanos, null, null);
    }

    private static void figure(String what, ChannelsIT.Dispatcher d, long faultNanos, String before, String stalled) {
        double seconds = (System.nanoTime() - faultNanos) / 1e9;
        System.out.printf("fault-figure: %s | exit %d | %.1f s | %s%n", what, d.process.exitValue(), seconds,
                before == null ? "-" : "before: " + before + "; stalled: " + stalled);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static String plugins() {
        return TunekitProcess.FIXTURE_PLUGINS.toString();
    }
}
