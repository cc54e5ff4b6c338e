package org.tunekit.dispatcher.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
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
import org.tunekit.dispatcher.testing.ManagerWebSocketServer;
import org.tunekit.dispatcher.testing.ManagerWebSocketServer.Received;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WebSocketChannelTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final WebSocketChannel.Settings FAST = new WebSocketChannel.Settings(Duration.ofSeconds(5),
            Duration.ofSeconds(5), List.of(Duration.ZERO, Duration.ofMillis(50), Duration.ofMillis(100)), Duration.ofSeconds(2),
            Duration.ofMillis(100), Duration.ofSeconds(3), Duration.ofSeconds(2));

    private final List<AutoCloseable> toClose = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (AutoCloseable c : toClose) {
            c.close();
        }
    }

    private ManagerWebSocketServer server(Duration pingInterval) throws IOException {
        ManagerWebSocketServer s = ManagerWebSocketServer.start("/tuner", pingInterval);
        toClose.add(s);
        return s;
    }

    private WebSocketChannel connect(ManagerWebSocketServer s) throws Exception {
        WebSocketChannel ch = WebSocketChannel.connect(URI.create(s.url()), FAST);
        toClose.add(ch);
        assertThat(s.awaitConnection(WAIT)).isTrue();
        return ch;
    }

    @Test
    void commandsTravelAsOneJsonTextMessageEach() throws Exception {
        ManagerWebSocketServer s = server(Duration.ofSeconds(5));
        WebSocketChannel ch = connect(s);
        s.send(new Command(CommandType.INITIALIZE, "{\"x\": {\"_type\": \"choice\", \"_value\": [\"é\", \"\\\"\"]}}"));
        s.sendText("{\"type\":\"TE\"}");
        assertThat(ch.receive()).isEqualTo(new Command(CommandType.INITIALIZE, "{\"x\": {\"_type\": \"choice\", \"_value\": [\"é\", \"\\\"\"]}}"));
        assertThat(ch.receive()).isEqualTo(Command.of(CommandType.TERMINATE));

        ch.send(Command.of(CommandType.INITIALIZED));
        ch.send(new Command(CommandType.NEW_TRIAL_JOB, "{\"parameter_id\": 0, \"parameters\": {\"a\": \"\\u00e9\"}}"));
        assertThat(s.nextCommand(WAIT)).isEqualTo(Command.of(CommandType.INITIALIZED));
        assertThat(s.nextCommand(WAIT)).isEqualTo(new Command(CommandType.NEW_TRIAL_JOB, "{\"parameter_id\": 0, \"parameters\": {\"a\": \"\\u00e9\"}}"));
        assertThat(s.rawMessages()).first().isEqualTo("{\"type\":\"ID\"}");
    }

    @Test
    void encodingAndDecodingAreInverse() throws Exception {
        Command c = new Command(CommandType.REQUEST_TRIAL_JOBS, "line\nbreak \t \"quoted\" \\ ü 😀");
        String text = WebSocketMessageCodec.encode(c);
        assertThat(WebSocketMessageCodec.decode(text)).isEqualTo(c);
        assertThat(WebSocketMessageCodec.encode(Command.of(CommandType.TERMINATE))).isEqualTo("{\"type\":\"TE\"}");
        assertThat(WebSocketMessageCodec.decode("{\"type\":\"_nop_\"}")).isNull();
    }

    @Test
    void malformedMessagesAreProtocolErrorsNamingTheProblem() {
        assertThatThrownBy(() -> WebSocketMessageCodec.decode("[1]")).isInstanceOf(ProtocolException.class).hasMessageContaining("not a JSON object");
        assertThatThrownBy(() -> WebSocketMessageCodec.decode("{\"content\":\"x\"}")).hasMessageContaining("no string \"type\"");
        assertThatThrownBy(() -> WebSocketMessageCodec.decode("{\"type\":\"XX\"}")).hasMessageContaining("unknown command type \"XX\"");
        assertThatThrownBy(() -> WebSocketMessageCodec.decode("{\"type\":\"TR\"}")).hasMessageContaining("sent by the dispatcher");
        assertThatThrownBy(() -> WebSocketMessageCodec.decode("{\"type\":\"GE\",\"content\":3}")).hasMessageContaining("\"content\" of the GE message is not a string");
    }

    @Test
    void aMalformedMessageReachesTheReceiver() throws Exception {
        ManagerWebSocketServer s = server(Duration.ofSeconds(5));
        WebSocketChannel ch = connect(s);
        s.sendText("{\"type\":\"ZZ\"}");
        assertThatThrownBy(ch::receive).isInstanceOf(ProtocolException.class).hasMessageContaining("\"ZZ\"");
    }

    @Test
    void nopIsIgnoredAndFragmentedMessagesAreJoined() throws Exception {
        ManagerWebSocketServer s = server(Duration.ofSeconds(5));
        WebSocketChannel ch = connect(s);
        s.sendNop();
        String big = "{\"type\":\"IN\",\"content\":\"" + "ab".repeat(5000) + "\"}";
        s.sendFragmented(big, 7);
        s.sendNop();
        s.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "1"));
        assertThat(ch.receive()).isEqualTo(new Command(CommandType.INITIALIZE, "ab".repeat(5000)));
        assertThat(ch.receive()).isEqualTo(new Command(CommandType.REQUEST_TRIAL_JOBS, "1"));
    }

    @Test
    void messagesArrivingBeforeReceiveAreKeptInOrder() throws Exception {
        ManagerWebSocketServer s = server(Duration.ofSeconds(5));
        WebSocketChannel ch = connect(s);
        for (int i = 0; i < 200; i++) {
            s.send(new Command(CommandType.REQUEST_TRIAL_JOBS, Integer.toString(i)));
        }
        // a pong to a ping sent after them proves the client has read all 200 before receive() is called
        assertThat(s.pingAndAwaitPong(WAIT)).isTrue();
        s.send(Command.of(CommandType.PING));
        for (int i = 0; i < 200; i++) {
            assertThat(ch.receive()).isEqualTo(new Command(CommandType.REQUEST_TRIAL_JOBS, Integer.toString(i)));
        }
        assertThat(ch.receive()).isEqualTo(Command.of(CommandType.PING));
    }

    @Test
    void pingsAreAnswered() throws Exception {
        ManagerWebSocketServer s = server(Duration.ofMillis(50));
        connect(s);
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (s.pongs() < 3 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(s.pongs()).as("pongs within " + WAIT).isGreaterThanOrEqualTo(3);
    }

    @Test
    void terminateAsNniSendsItEndsTheStream() throws Exception {
        ManagerWebSocketServer s = server(Duration.ofSeconds(5));
        WebSocketChannel ch = connect(s);
        s.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "1"));
        s.terminate();
        assertThat(ch.receive()).isEqualTo(new Command(CommandType.REQUEST_TRIAL_JOBS, "1"));
        assertThat(ch.receive()).isEqualTo(Command.of(CommandType.TERMINATE));
        assertThat(ch.receive()).isNull();
        assertThat(ch.receive()).isNull();
        // replies after the manager's goodbye are dropped, not an error
        ch.send(Command.of(CommandType.NO_MORE_TRIAL_JOBS));
        ch.close();
        // the JDK echoes the server's 4000 by itself; on a loaded machine the close timeout may run out
        // first and the client then drops the connection (-1): either way the conversation is over
        assertThat(waitForDisconnect(s)).isIn(ManagerWebSocketServer.CLOSE_AFTER_TERMINATE, -1);
    }

    @Test
    void goodbyeWithoutTerminateEndsTheStream() throws Exception {
        ManagerWebSocketServer s = server(Duration.ofSeconds(5));
        WebSocketChannel ch = connect(s);
        s.sayGoodbye("experiment stopped");
        assertThat(ch.receive()).isNull();
    }

    @Test
    void afterAGoodbyeWithoutACloseTheClientClosesItself() throws Exception {
        ManagerWebSocketServer s = server(Duration.ofSeconds(5));
        WebSocketChannel ch = connect(s);
        s.sendText("{\"type\":\"_bye_\"}");
        assertThat(ch.receive()).isNull();
        ch.close();
        assertThat(waitForDisconnect(s)).isEqualTo(1000);
        assertThat(s.rawMessages()).as("no goodbye back: the server said it first").isEmpty();
    }

    @Test
    void aCloseFromTheServerEndsTheStream() throws Exception {
        ManagerWebSocketServer s = server(Duration.ofSeconds(5));
        WebSocketChannel ch = connect(s);
        s.closeClient(4000, "");
        assertThat(ch.receive()).isNull();
    }

    @Test
    void closingSaysGoodbyeThenCloses() throws Exception {
        ManagerWebSocketServer s = server(Duration.ofSeconds(5));
        WebSocketChannel ch = connect(s);
        ch.send(Command.of(CommandType.INITIALIZED));
        ch.close();
        assertThat(s.nextCommand(WAIT)).isEqualTo(Command.of(CommandType.INITIALIZED));
        assertThat(s.next(WAIT)).isEqualTo(new Received.Goodbye());
        assertThat(s.next(WAIT)).isEqualTo(new Received.Disconnected(1000));
        assertThat(s.rawMessages()).last().isEqualTo("{\"type\":\"_bye_\"}");
    }

    @Test
    void aDroppedConnectionIsReestablishedAndNothingIsLost() throws Exception {
        ManagerWebSocketServer s = server(Duration.ofSeconds(5));
        WebSocketChannel ch = connect(s);
        ExecutorService receiver = Executors.newSingleThreadExecutor();
        try {
            s.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "1"));
            assertThat(receiver.submit(ch::receive).get(10, TimeUnit.SECONDS)).isEqualTo(new Command(CommandType.REQUEST_TRIAL_JOBS, "1"));
            Future<Command> next = receiver.submit(ch::receive);
            s.dropConnection();
            assertThat(s.next(WAIT)).isEqualTo(new Received.Disconnected(-1));
            // sent while no client is connected: the server keeps it for the reconnection
            s.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "2"));
            assertThat(s.awaitConnection(WAIT)).as("reconnection").isTrue();
            assertThat(next.get(10, TimeUnit.SECONDS)).isEqualTo(new Command(CommandType.REQUEST_TRIAL_JOBS, "2"));
            ch.send(Command.of(CommandType.NO_MORE_TRIAL_JOBS));
            assertThat(s.nextCommand(WAIT)).isEqualTo(Command.of(CommandType.NO_MORE_TRIAL_JOBS));
            assertThat(s.connections()).isEqualTo(2);
        } finally {
            receiver.shutdownNow();
        }
    }

    @Test
    void aReplySentWhileTheConnectionIsDownGoesOutAfterTheReconnection() throws Exception {
        ManagerWebSocketServer s = server(Duration.ofSeconds(5));
        WebSocketChannel ch = connect(s);
        s.dropConnection();
        assertThat(s.next(WAIT)).isEqualTo(new Received.Disconnected(-1));
        // the server's side closes first; a send before the client hears of it would go out on the dead socket
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!ch.connectionEnded() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(ch.connectionEnded()).as("the client heard the drop").isTrue();
        // nobody is receiving: the failed send itself reconnects
        CompletableFuture<Void> sent = CompletableFuture.runAsync(() -> {
            try {
                ch.send(new Command(CommandType.NEW_TRIAL_JOB, "{\"parameter_id\": 7}"));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        sent.get(10, TimeUnit.SECONDS);
        assertThat(s.nextCommand(WAIT)).isEqualTo(new Command(CommandType.NEW_TRIAL_JOB, "{\"parameter_id\": 7}"));
    }

    @Test
    void aManagerThatNeverComesBackIsGivenUpOn() throws Exception {
        ManagerWebSocketServer s = server(Duration.ofSeconds(5));
        WebSocketChannel ch = connect(s);
        s.close();
        assertThatThrownBy(ch::receive).isInstanceOf(ChannelLostException.class)
                .hasMessageContaining("gave up on the manager at " + s.url())
                .hasMessageContaining("give-up time of 2 s");
        // later replies are discarded, not an error of their own
        ch.send(Command.of(CommandType.NO_MORE_TRIAL_JOBS));
        assertThat(ch.receive()).isNull();
    }

    @Test
    void aMessageOverThePayloadLimitIsAProtocolError() throws Exception {
        ManagerWebSocketServer s = server(Duration.ofSeconds(5));
        WebSocketChannel ch = WebSocketChannel.connect(URI.create(s.url()), FAST, 100);
        toClose.add(ch);
        assertThat(s.awaitConnection(WAIT)).isTrue();
        s.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "1"));
        s.sendFragmented("{\"type\": \"IN\", \"content\": \"" + "x".repeat(300) + "\"}", 3);
        s.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "2"));
        assertThat(ch.receive()).isEqualTo(new Command(CommandType.REQUEST_TRIAL_JOBS, "1"));
        assertThatThrownBy(ch::receive).isInstanceOf(ProtocolException.class).hasMessageContaining("larger than the limit of 100 bytes");
        // the rest of the oversized message is skipped, not taken for a new one
        assertThat(ch.receive()).isEqualTo(new Command(CommandType.REQUEST_TRIAL_JOBS, "2"));
    }

    @Test
    void aMessageOverTheLimitOnlyInUtf8BytesIsRefused() throws Exception {
        ManagerWebSocketServer s = server(Duration.ofSeconds(5));
        WebSocketChannel ch = WebSocketChannel.connect(URI.create(s.url()), FAST, 100);
        toClose.add(ch);
        assertThat(s.awaitConnection(WAIT)).isTrue();
        // 60 characters, 180 bytes
        s.send(new Command(CommandType.INITIALIZE, "\u20ac".repeat(60)));
        assertThatThrownBy(ch::receive).isInstanceOf(ProtocolException.class).hasMessageContaining("larger than the limit of 100 bytes");
    }

    @Test
    void bytesThatAreNotAWebSocketFrameAreAProtocolErrorNotAReconnection() throws Exception {
        ManagerWebSocketServer s = server(Duration.ofSeconds(5));
        WebSocketChannel ch = connect(s);
        // opcode 0x3 is reserved (RFC 6455, 5.2)
        s.sendRaw(new byte[] {(byte) 0x83, 0x02, 'h', 'i'});
        assertThatThrownBy(ch::receive).isInstanceOf(ProtocolException.class).hasMessageContaining("not a valid WebSocket frame");
        assertThat(s.connections()).isEqualTo(1);
    }

    @Test
    void aTruncatedFrameIsADroppedConnection() throws Exception {
        ManagerWebSocketServer s = server(Duration.ofSeconds(5));
        WebSocketChannel ch = connect(s);
        ExecutorService receiver = Executors.newSingleThreadExecutor();
        try {
            Future<Command> next = receiver.submit(ch::receive);
            // a text frame announcing 100 bytes, 10 of them sent, then the connection drops
            byte[] partial = new byte[12];
            partial[0] = (byte) 0x81;
            partial[1] = 100;
            System.arraycopy("{\"type\": \"G".getBytes(StandardCharsets.US_ASCII), 0, partial, 2, 10);
            s.sendRaw(partial);
            s.dropConnection();
            s.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "3"));
            assertThat(s.awaitConnection(WAIT)).as("reconnection").isTrue();
            assertThat(next.get(10, TimeUnit.SECONDS)).isEqualTo(new Command(CommandType.REQUEST_TRIAL_JOBS, "3"));
        } finally {
            receiver.shutdownNow();
        }
    }

    @Test
    void aSilentServerIsTakenAsADroppedConnection() throws Exception {
        ManagerWebSocketServer s = server(Duration.ofSeconds(60));
        s.setAnswerPings(false);
        WebSocketChannel.Settings impatient = new WebSocketChannel.Settings(Duration.ofSeconds(5), Duration.ofSeconds(5),
                List.of(Duration.ZERO), Duration.ofSeconds(2), Duration.ofMillis(50), Duration.ofMillis(300), Duration.ofSeconds(5));
        WebSocketChannel ch = WebSocketChannel.connect(URI.create(s.url()), impatient);
        toClose.add(ch);
        assertThat(s.awaitConnection(WAIT)).isTrue();
        ExecutorService receiver = Executors.newSingleThreadExecutor();
        try {
            Future<Command> next = receiver.submit(ch::receive);
            assertThat(s.awaitConnection(WAIT)).as("a new connection after the silence").isTrue();
            s.setAnswerPings(true);
            s.send(new Command(CommandType.REQUEST_TRIAL_JOBS, "1"));
            assertThat(next.get(10, TimeUnit.SECONDS)).isEqualTo(new Command(CommandType.REQUEST_TRIAL_JOBS, "1"));
        } finally {
            receiver.shutdownNow();
        }
    }

    @Test
    void concurrentSendsAreSerialised() throws Exception {
        ManagerWebSocketServer s = server(Duration.ofSeconds(5));
        WebSocketChannel ch = connect(s);
        int threads = 8;
        int each = 50;
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
        java.util.Set<String> got = new java.util.HashSet<>();
        for (int i = 0; i < threads * each; i++) {
            got.add(s.nextCommand(WAIT).payload());
        }
        assertThat(got).hasSize(threads * each).contains("\"0-0\"", "\"7-49\"");
    }

    @Test
    void noServerMeansAnErrorNamingTheUri() throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        URI uri = URI.create("ws://127.0.0.1:" + port + "/tuner");
        assertThatThrownBy(() -> WebSocketChannel.connect(uri, FAST))
                .isInstanceOf(ChannelLostException.class)
                .hasMessageContaining(uri.toString())
                .hasMessageContaining("no connection within the give-up time of 2 s");
    }

    private static int waitForDisconnect(ManagerWebSocketServer s) throws InterruptedException {
        Received r;
        while ((r = s.next(WAIT)) != null) {
            if (r instanceof Received.Disconnected d) {
                return d.closeCode();
            }
        }
        throw new AssertionError("no disconnection within " + WAIT);
    }
}
