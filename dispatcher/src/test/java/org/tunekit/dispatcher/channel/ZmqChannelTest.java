package org.tunekit.dispatcher.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.tunekit.dispatcher.protocol.ProtocolException;
import org.tunekit.dispatcher.testing.ManagerZmqPeer;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ZmqChannelTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final ZmqChannel.Settings FAST = new ZmqChannel.Settings(Duration.ofSeconds(1), Duration.ofMillis(500), Duration.ofMillis(100),
            Duration.ofMillis(500), Duration.ofMillis(500), Duration.ofSeconds(2), Duration.ofSeconds(1), 1000);

    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    private ManagerZmqPeer peer() {
        ManagerZmqPeer p = ManagerZmqPeer.bind();
        toClose.add(p);
        return p;
    }

    private ZmqChannel connect(ManagerZmqPeer p, ZmqChannel.Settings settings) throws Exception {
        ZmqChannel ch = ZmqChannel.connect(p.endpoint(), settings);
        toClose.add(ch);
        assertThat(p.awaitHello(WAIT)).isEqualTo(ch.identity());
        return ch;
    }

    @Test
    void framesAreTheCodeBytesThenTheUtf8Payload() throws Exception {
        assertThat(ZmqChannel.encode(new Command(CommandType.NEW_TRIAL_JOB, "{\"a\": \"é\"}")))
                .isEqualTo("TR{\"a\": \"é\"}".getBytes(StandardCharsets.UTF_8));
        assertThat(ZmqChannel.encode(Command.of(CommandType.INITIALIZED))).isEqualTo("ID".getBytes(StandardCharsets.US_ASCII));
        assertThat(ZmqChannel.decode("GE3".getBytes(StandardCharsets.US_ASCII))).isEqualTo(new Command(CommandType.REQUEST_TRIAL_JOBS, "3"));
        assertThat(ZmqChannel.decode("TE".getBytes(StandardCharsets.US_ASCII))).isEqualTo(Command.of(CommandType.TERMINATE));
    }

    @Test
    void malformedFramesSayWhatIsWrong() {
        assertThatThrownBy(() -> ZmqChannel.decode(new byte[] {'G'})).isInstanceOf(ProtocolException.class).hasMessageContaining("1 byte (0x47)");
        assertThatThrownBy(() -> ZmqChannel.decode("XX".getBytes(StandardCharsets.US_ASCII))).hasMessageContaining("0x58 0x58");
        assertThatThrownBy(() -> ZmqChannel.decode("ID".getBytes(StandardCharsets.US_ASCII))).hasMessageContaining("sent by the dispatcher");
        assertThatThrownBy(() -> ZmqChannel.decode(new byte[] {'I', 'N', (byte) 0xC3})).hasMessageContaining("invalid UTF-8");
    }

    @Test
    void commandsAndRepliesTravelBothWays() throws Exception {
        ManagerZmqPeer p = peer();
        ZmqChannel ch = connect(p, FAST);
        p.send(new Command(CommandType.INITIALIZE, "{\"x\": \"ü\"}"));
        p.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "2"));
        assertThat(ch.receive()).isEqualTo(new Command(CommandType.INITIALIZE, "{\"x\": \"ü\"}"));
        assertThat(ch.receive()).isEqualTo(new Command(CommandType.REQUEST_TRIAL_JOBS, "2"));
        ch.send(Command.of(CommandType.INITIALIZED));
        ch.send(new Command(CommandType.NEW_TRIAL_JOB, "{\"parameter_id\": 0}"));
        assertThat(p.next(WAIT)).isEqualTo(Command.of(CommandType.INITIALIZED));
        assertThat(p.next(WAIT)).isEqualTo(new Command(CommandType.NEW_TRIAL_JOB, "{\"parameter_id\": 0}"));
    }

    @Test
    void terminateIsDeliveredThenTheStreamEnds() throws Exception {
        ManagerZmqPeer p = peer();
        ZmqChannel ch = connect(p, FAST);
        p.send(Command.of(CommandType.TERMINATE));
        assertThat(ch.receive()).isEqualTo(Command.of(CommandType.TERMINATE));
        assertThat(ch.receive()).isNull();
    }

    @Test
    void aZeroLengthFrameEndsTheStream() throws Exception {
        ManagerZmqPeer p = peer();
        ZmqChannel ch = connect(p, FAST);
        p.send(Command.of(CommandType.PING));
        p.sendEndOfStream();
        assertThat(ch.receive()).isEqualTo(Command.of(CommandType.PING));
        assertThat(ch.receive()).isNull();
        assertThat(ch.receive()).isNull();
    }

    @Test
    void aMultiFrameMessageIsAProtocolError() throws Exception {
        ManagerZmqPeer p = peer();
        ZmqChannel ch = connect(p, FAST);
        p.sendFrames("GE".getBytes(StandardCharsets.US_ASCII), "1".getBytes(StandardCharsets.US_ASCII));
        assertThatThrownBy(ch::receive).isInstanceOf(ProtocolException.class).hasMessageContaining("a message of 2 frames");
    }

    @Test
    void aManagerThatGoesAwayIsGivenUpOnAfterTheGracePeriod() throws Exception {
        ManagerZmqPeer p = ManagerZmqPeer.bind();
        ZmqChannel ch = connect(p, FAST);
        p.close();
        assertThatThrownBy(ch::receive).isInstanceOf(ChannelLostException.class)
                .hasMessageContaining("gave up on the manager at " + p.endpoint());
        ch.send(Command.of(CommandType.NO_MORE_TRIAL_JOBS));
        assertThat(ch.receive()).isNull();
    }

    @Test
    void aPeerThatDoesNotSpeakZmtpIsGivenUpOn() throws Exception {
        assertNonZmtpPeerIsGivenUpOn(50);
    }

    /**
     * jeromq takes a greeting that is not ZMTP 2 or 3 for an unversioned ZMTP 1.0 one and reports a handshake;
     * a peer that then keeps the connection open, silent, must not pass for a manager.
     */
    @Test
    void aPeerThatDoesNotSpeakZmtpAndStaysConnectedIsGivenUpOn() throws Exception {
        assertNonZmtpPeerIsGivenUpOn(3000);
    }

    private void assertNonZmtpPeerIsGivenUpOn(long holdMillis) throws Exception {
        try (ServerSocket junk = new ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
            Thread t = new Thread(() -> {
                while (!junk.isClosed()) {
                    try (java.net.Socket s = junk.accept()) {
                        s.getOutputStream().write("HTTP/1.1 400 Bad Request\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                        s.getOutputStream().flush();
                        Thread.sleep(holdMillis);
                    } catch (IOException | InterruptedException e) {
                        return;
                    }
                }
            });
            t.setDaemon(true);
            t.start();
            ZmqChannel ch = ZmqChannel.connect("tcp://127.0.0.1:" + junk.getLocalPort(), FAST);
            toClose.add(ch);
            assertThatThrownBy(ch::receive).isInstanceOf(ChannelLostException.class)
                    .hasMessageContaining("no ZeroMQ connection within the give-up time of 1 s");
        }
    }

    @Test
    void aFrameOverThePayloadLimitIsAProtocolError() throws Exception {
        ManagerZmqPeer p = peer();
        ZmqChannel ch = ZmqChannel.connect(p.endpoint(), FAST, 100);
        toClose.add(ch);
        p.awaitHello(WAIT);
        p.send(new Command(CommandType.INITIALIZE, "x".repeat(101)));
        p.send(new Command(CommandType.INITIALIZE, "x".repeat(100)));
        assertThatThrownBy(ch::receive).isInstanceOf(ProtocolException.class).hasMessageContaining("a frame of 103 bytes")
                .hasMessageContaining("the limit is 100 bytes");
        assertThat(ch.receive()).isEqualTo(new Command(CommandType.INITIALIZE, "x".repeat(100)));
    }

    @Test
    void repliesNobodyTakesFillABoundedQueueThenTheManagerIsGivenUpOn() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        ZmqChannel.Settings bounded = new ZmqChannel.Settings(Duration.ofSeconds(30), Duration.ofMillis(500), Duration.ofMillis(100),
                Duration.ofMillis(500), Duration.ofSeconds(30), Duration.ofSeconds(2), Duration.ofMillis(300), 10);
        ZmqChannel ch = ZmqChannel.connect("tcp://127.0.0.1:" + port, bounded);
        toClose.add(ch);
        int sent = 0;
        Throwable thrown = null;
        // nothing listens: ZeroMQ takes up to its high-water mark (10), then the channel's queue fills
        while (sent < 1000 && thrown == null) {
            try {
                ch.send(new Command(CommandType.NEW_TRIAL_JOB, "{\"parameter_id\": " + sent + "}"));
                sent++;
            } catch (ChannelLostException e) {
                thrown = e;
            }
        }
        assertThat(thrown).as("a send gave up after %d replies", sent).isNotNull()
                .hasMessageContaining("has not taken a reply for 0.3 s").hasMessageContaining("10 replies waiting");
        assertThat(sent).isBetween(10, 21);
        assertThat(ch.queued()).isLessThanOrEqualTo(10);
        assertThatThrownBy(ch::receive).isInstanceOf(ChannelLostException.class);
    }

    @Test
    void noManagerWithinTheConnectTimeoutIsGivenUpOn() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        ZmqChannel ch = ZmqChannel.connect("tcp://127.0.0.1:" + port, FAST);
        toClose.add(ch);
        assertThatThrownBy(ch::receive).isInstanceOf(ChannelLostException.class).hasMessageContaining("tcp://127.0.0.1:" + port);
    }

    @Test
    void closeFlushesQueuedReplies() throws Exception {
        ManagerZmqPeer p = peer();
        ZmqChannel ch = connect(p, FAST);
        for (int i = 0; i < 500; i++) {
            ch.send(new Command(CommandType.KILL_TRIAL_JOB, "\"" + i + "\""));
        }
        ch.close();
        for (int i = 0; i < 500; i++) {
            assertThat(p.next(WAIT)).isEqualTo(new Command(CommandType.KILL_TRIAL_JOB, "\"" + i + "\""));
        }
    }

    @Test
    void concurrentSendsAllArrive() throws Exception {
        ManagerZmqPeer p = peer();
        ZmqChannel ch = connect(p, FAST);
        int threads = 8;
        int each = 100;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                done.add(pool.submit(() -> {
                    for (int i = 0; i < each; i++) {
                        ch.send(new Command(CommandType.KILL_TRIAL_JOB, "\"" + thread + "-" + i + "\""));
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        Set<String> got = new HashSet<>();
        for (int i = 0; i < threads * each; i++) {
            Command c = p.next(WAIT);
            assertThat(c).as("reply " + i).isNotNull();
            got.add(c.payload());
        }
        assertThat(got).hasSize(threads * each);
    }

    @Test
    void theChannelOutlivesAShortDisconnection() throws Exception {
        ManagerZmqPeer p = peer();
        ZmqChannel.Settings patient = new ZmqChannel.Settings(Duration.ofSeconds(5), Duration.ofMillis(500), Duration.ofMillis(100),
                Duration.ofMillis(500), Duration.ofSeconds(30), Duration.ofSeconds(2), Duration.ofSeconds(30), 1000);
        ZmqChannel ch = connect(p, patient);
        String endpoint = p.endpoint();
        p.close();
        try (ManagerZmqPeer again = ManagerZmqPeer.bind(endpoint)) {
            // a hello follows the reconnection, so the manager that came back learns the (unchanged) identity
            assertThat(again.awaitHello(WAIT)).isEqualTo(ch.identity());
            ch.send(Command.of(CommandType.INITIALIZED));
            Command first = again.next(WAIT);
            assertThat(first).isEqualTo(Command.of(CommandType.INITIALIZED));
            again.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "1"));
            assertThat(ch.receive()).isEqualTo(new Command(CommandType.REQUEST_TRIAL_JOBS, "1"));
        }
    }
}
