package org.tunekit.dispatcher.testing;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.tunekit.dispatcher.protocol.JsonCodec;
import org.tunekit.dispatcher.protocol.ProtocolException;

/**
 * A WebSocket server on a loopback port that behaves as an NNI 3 manager does towards its dispatcher:
 * commands as text messages {@code {"type": "..", "content": ".."}}, a ping every few seconds,
 * {@code _nop_} on demand, {@code TE} sent as {@code {"type":"TE"}} then {@code _bye_} then a Close
 * with code 4000, and messages sent while no client is connected kept and delivered, in order, when
 * the client (re)connects. It can drop the connection without a Close to exercise reconnection.
 *
 * <p>A compact RFC 6455 implementation over {@link ServerSocket} (the JDK has a WebSocket client but
 * no server): the opening handshake with {@code Sec-WebSocket-Accept}, masked client frames,
 * fragmentation, ping/pong and the closing handshake. One client at a time.
 */
public final class ManagerWebSocketServer implements AutoCloseable {
    private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    /** NNI's close code after {@code TE}. */
    public static final int CLOSE_AFTER_TERMINATE = 4000;

    /** Something the client sent: a command, its goodbye, or the end of a connection. */
    public sealed interface Received {
        /** A command from the dispatcher. */
        record CommandMessage(Command command) implements Received {}

        /** The client's {@code {"type":"_bye_"}}. */
        record Goodbye() implements Received {}

        /**
         * A connection ended.
         *
         * @param closeCode the client's close code, or -1 when the connection ended without a Close
         */
        record Disconnected(int closeCode) implements Received {}

        /**
         * A message the server could not understand.
         *
         * @param text the raw text
         */
        record Malformed(String text) implements Received {}
    }

    private final ServerSocket server;
    private final String path;
    private final ScheduledExecutorService pinger;
    private final BlockingQueue<Received> received = new LinkedBlockingQueue<>();
    private final BlockingQueue<Socket> connected = new LinkedBlockingQueue<>();
    private final Deque<String> pending = new ArrayDeque<>(); // guarded by this
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicInteger pongs = new AtomicInteger();
    private final List<String> rawMessages = new ArrayList<>(); // guarded by itself
    private Socket client; // guarded by this
    private volatile boolean closed;
    private volatile boolean answerPings = true;
    private final Object readGate = new Object();
    private boolean reading = true; // guarded by readGate

    private ManagerWebSocketServer(String path, Duration pingInterval, int receiveBuffer) throws IOException {
        this.server = new ServerSocket();
        if (receiveBuffer > 0) {
            // before bind, so that accepted sockets get it (and the window it implies) from the start
            server.setReceiveBufferSize(receiveBuffer);
        }
        server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        this.path = path;
        this.pinger = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "test-ws-pinger");
            t.setDaemon(true);
            return t;
        });
        long ms = pingInterval.toMillis();
        pinger.scheduleAtFixedRate(this::ping, ms, ms, TimeUnit.MILLISECONDS);
        Thread acceptor = new Thread(this::acceptLoop, "test-ws-acceptor");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Starts a server at {@code ws://127.0.0.1:PORT/tuner} that pings every 5 s, as NNI's manager does. */
    public static ManagerWebSocketServer start() throws IOException {
        return start("/tuner", Duration.ofSeconds(5));
    }

    /** Starts a server for {@code path}, pinging at {@code pingInterval}. */
    public static ManagerWebSocketServer start(String path, Duration pingInterval) throws IOException {
        return new ManagerWebSocketServer(path, pingInterval, 0);
    }

    /** Starts a server whose connections have a receive buffer of about {@code bytes} (the kernel may round it). */
    public static ManagerWebSocketServer startWithReceiveBuffer(String path, Duration pingInterval, int bytes) throws IOException {
        return new ManagerWebSocketServer(path, pingInterval, bytes);
    }

    /** The URL clients connect to. */
    public String url() {
        return "ws://127.0.0.1:" + server.getLocalPort() + path;
    }

    /** Whether the client's pings are answered (they are, unless a test plays a hung manager). */
    public void setAnswerPings(boolean answer) {
        answerPings = answer;
    }

    /** How many WebSocket connections were accepted so far. */
    public int connections() {
        return connections.get();
    }

    /** How many pongs the clients sent. */
    public int pongs() {
        return pongs.get();
    }

    /** Every text message received so far, raw. */
    public List<String> rawMessages() {
        synchronized (rawMessages) {
            return List.copyOf(rawMessages);
        }
    }

    /** Waits for the next client connection; returns false when none comes in time. */
    public boolean awaitConnection(Duration timeout) throws InterruptedException {
        return connected.poll(timeout.toMillis(), TimeUnit.MILLISECONDS) != null;
    }

    /** Sends a command as NNI does: {@code content} only when the payload is not empty. */
    public void send(Command command) {
        StringBuilder sb = new StringBuilder("{\"type\": \"").append(command.type().code()).append('"');
        if (!command.payload().isEmpty()) {
            sb.append(", \"content\": ");
            JsonCodec.writeString(command.payload(), sb);
        }
        sendText(sb.append('}').toString());
    }

    /** Sends a text message now, or when a client connects. */
    public synchronized void sendText(String text) {
        pending.add(text);
        flushPending();
    }

    /** Writes raw bytes to the connected client, as they are (to play a manager that breaks the framing). */
    public synchronized void sendRaw(byte[] bytes) throws IOException {
        OutputStream out = requireClient().getOutputStream();
        out.write(bytes);
        out.flush();
    }

    /**
     * Stops (false) or resumes (true) reading what clients send, as a manager that stopped reading would: the
     * bytes then pile up in the kernel's buffers until the client's sends block.
     */
    public void setReading(boolean reading) {
        synchronized (readGate) {
            this.reading = reading;
            readGate.notifyAll();
        }
    }

    private void awaitReading() throws IOException {
        synchronized (readGate) {
            while (!reading && !closed) {
                try {
                    readGate.wait(100);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new java.io.InterruptedIOException("interrupted while not reading");
                }
            }
        }
    }

    /** Sends {@code {"type":"_nop_"}}. */
    public void sendNop() {
        sendText("{\"type\":\"_nop_\"}");
    }

    /** Sends one text message split into {@code pieces} frames (a first frame and continuations). */
    public synchronized void sendFragmented(String text, int pieces) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        OutputStream out = requireClient().getOutputStream();
        int step = Math.max(1, (bytes.length + pieces - 1) / pieces);
        for (int off = 0; off < bytes.length; off += step) {
            int len = Math.min(step, bytes.length - off);
            boolean first = off == 0;
            boolean last = off + len >= bytes.length;
            byte[] part = new byte[len];
            System.arraycopy(bytes, off, part, 0, len);
            writeFrame(out, first ? 0x1 : 0x0, last, part);
        }
        out.flush();
    }

    /** Ends the experiment as NNI does: {@code TE}, {@code _bye_}, then a Close with code 4000. */
    public synchronized void terminate() throws IOException {
        sendText("{\"type\":\"TE\"}");
        sendText("{\"type\":\"_bye_\",\"reason\":\"TE command\"}");
        closeClient(CLOSE_AFTER_TERMINATE, "TE command");
    }

    /** Says goodbye without a TE, then closes with a normal Close. */
    public synchronized void sayGoodbye(String reason) throws IOException {
        sendText("{\"type\":\"_bye_\",\"reason\":\"" + reason + "\"}");
        closeClient(1000, reason);
    }

    /** Sends a Close frame with this code, then closes the connection. */
    public synchronized void closeClient(int code, String reason) throws IOException {
        Socket s = requireClient();
        byte[] r = reason.getBytes(StandardCharsets.UTF_8);
        byte[] payload = new byte[2 + r.length];
        payload[0] = (byte) (code >> 8);
        payload[1] = (byte) code;
        System.arraycopy(r, 0, payload, 2, r.length);
        OutputStream out = s.getOutputStream();
        writeFrame(out, 0x8, true, payload);
        out.flush();
        s.shutdownOutput();
        client = null;
    }

    /** Drops the connection without a Close (as a network failure would); later messages wait for a reconnection. */
    public synchronized void dropConnection() throws IOException {
        Socket s = requireClient();
        s.setSoLinger(true, 0);
        s.close();
        client = null;
    }

    /** The next thing the client sent, or {@code null} when nothing came within {@code timeout}. */
    public Received next(Duration timeout) throws InterruptedException {
        return received.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The next command from the client, skipping nothing; fails when something else comes first or nothing comes. */
    public Command nextCommand(Duration timeout) throws InterruptedException {
        Received r = next(timeout);
        if (r instanceof Received.CommandMessage m) {
            return m.command();
        }
        throw new AssertionError("expected a command from the dispatcher within " + timeout + ", got " + r);
    }

    private Socket requireClient() throws IOException {
        if (client == null) {
            throw new IOException("no client is connected");
        }
        return client;
    }

    private synchronized void flushPending() {
        while (client != null && !pending.isEmpty()) {
            try {
                OutputStream out = client.getOutputStream();
                writeFrame(out, 0x1, true, pending.peekFirst().getBytes(StandardCharsets.UTF_8));
                out.flush();
                pending.pollFirst();
            } catch (IOException e) {
                client = null;
            }
        }
    }

    /**
     * Sends a ping now, after everything sent before it, and waits for its pong: once it returns, the
     * client has read every earlier message.
     *
     * @return false when no pong came within {@code timeout}
     */
    public boolean pingAndAwaitPong(Duration timeout) throws InterruptedException {
        int before = pongs.get();
        ping();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (pongs.get() <= before) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(5);
        }
        return true;
    }

    private void ping() {
        synchronized (this) {
            if (client == null) {
                return;
            }
            try {
                OutputStream out = client.getOutputStream();
                writeFrame(out, 0x9, true, "tunekit-test".getBytes(StandardCharsets.US_ASCII));
                out.flush();
            } catch (IOException e) {
                client = null;
            }
        }
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket s = server.accept();
                if (closed) {
                    // accepted while the server was closing (a blocked accept can still complete)
                    s.close();
                    return;
                }
                Thread t = new Thread(() -> serve(s), "test-ws-connection");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                if (!closed) {
                    received.add(new Received.Malformed("accept failed: " + e));
                }
                return;
            }
        }
    }

    private void serve(Socket s) {
        int closeCode = -1;
        try {
            s.setTcpNoDelay(true);
            DataInputStream in = new DataInputStream(s.getInputStream());
            if (!handshake(in, s.getOutputStream())) {
                s.close();
                return;
            }
            synchronized (this) {
                if (closed) {
                    s.close();
                    return;
                }
                if (client != null) {
                    client.close();
                }
                client = s;
                connections.incrementAndGet();
                connected.add(s);
                flushPending();
            }
            closeCode = readMessages(in, s);
        } catch (IOException e) {
            // the connection ended without a Close
        } finally {
            synchronized (this) {
                if (client == s) {
                    client = null;
                }
            }
            try {
                s.close();
            } catch (IOException ignored) {
                // already closed
            }
            received.add(new Received.Disconnected(closeCode));
        }
    }

    private boolean handshake(DataInputStream in, OutputStream out) throws IOException {
        String requestLine = readLine(in);
        Map<String, String> headers = new java.util.HashMap<>();
        String line;
        while (!(line = readLine(in)).isEmpty()) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
            }
        }
        String[] parts = requestLine.split(" ");
        String key = headers.get("sec-websocket-key");
        if (parts.length < 3 || !parts[0].equals("GET") || !parts[1].equals(path) || key == null
                || !"websocket".equalsIgnoreCase(headers.get("upgrade"))) {
            out.write(("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return false;
        }
        String accept;
        try {
            accept = Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-1")
                    .digest((key + GUID).getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        out.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: "
                + accept + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return true;
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\n') {
                break;
            }
            if (c != '\r') {
                b.write(c);
            }
        }
        if (c == -1) {
            throw new EOFException("connection closed during the handshake");
        }
        return b.toString(StandardCharsets.US_ASCII);
    }

    /** Reads frames until a Close; returns the client's close code (1005 when it gave none). */
    private int readMessages(DataInputStream in, Socket s) throws IOException {
        ByteArrayOutputStream message = new ByteArrayOutputStream();
        while (true) {
            awaitReading();
            int b0 = in.readUnsignedByte();
            int b1 = in.readUnsignedByte();
            boolean fin = (b0 & 0x80) != 0;
            int opcode = b0 & 0x0f;
            if ((b1 & 0x80) == 0) {
                throw new IOException("an unmasked frame from the client (RFC 6455 requires masking)");
            }
            long len = b1 & 0x7f;
            if (len == 126) {
                len = in.readUnsignedShort();
            } else if (len == 127) {
                len = in.readLong();
            }
            byte[] mask = new byte[4];
            in.readFully(mask);
            byte[] payload = new byte[(int) len];
            in.readFully(payload);
            for (int i = 0; i < payload.length; i++) {
                payload[i] ^= mask[i & 3];
            }
            switch (opcode) {
                case 0x0, 0x1 -> {
                    message.write(payload);
                    if (fin) {
                        onMessage(message.toString(StandardCharsets.UTF_8));
                        message.reset();
                    }
                }
                case 0x8 -> {
                    int code = payload.length >= 2 ? ((payload[0] & 0xff) << 8) | (payload[1] & 0xff) : 1005;
                    synchronized (this) {
                        try {
                            OutputStream out = s.getOutputStream();
                            writeFrame(out, 0x8, true, payload.length >= 2 ? new byte[] {payload[0], payload[1]} : new byte[0]);
                            out.flush();
                        } catch (SocketException e) {
                            // the server already closed its side
                        }
                    }
                    return code;
                }
                case 0x9 -> {
                    if (!answerPings) {
                        continue;
                    }
                    synchronized (this) {
                        OutputStream out = s.getOutputStream();
                        writeFrame(out, 0xA, true, payload);
                        out.flush();
                    }
                }
                case 0xA -> pongs.incrementAndGet();
                default -> throw new IOException("unexpected opcode " + opcode);
            }
        }
    }

    private void onMessage(String text) {
        synchronized (rawMessages) {
            rawMessages.add(text);
        }
        try {
            Object parsed = JsonCodec.parse(text, "client message");
            if (parsed instanceof Map<?, ?> m && m.get("type") instanceof String type) {
                if (type.equals("_bye_")) {
                    received.add(new Received.Goodbye());
                    return;
                }
                CommandType ct = CommandType.ofCode(type);
                Object content = m.get("content");
                if (ct != null && !ct.toDispatcher() && (content == null || content instanceof String)) {
                    received.add(new Received.CommandMessage(new Command(ct, content == null ? "" : (String) content)));
                    return;
                }
            }
        } catch (ProtocolException e) {
            // reported below
        }
        received.add(new Received.Malformed(text));
    }

    private static void writeFrame(OutputStream out, int opcode, boolean fin, byte[] payload) throws IOException {
        ByteArrayOutputStream f = new ByteArrayOutputStream(payload.length + 10);
        f.write((fin ? 0x80 : 0) | opcode);
        if (payload.length < 126) {
            f.write(payload.length);
        } else if (payload.length < 65536) {
            f.write(126);
            f.write(payload.length >> 8);
            f.write(payload.length);
        } else {
            f.write(127);
            long n = payload.length;
            for (int i = 7; i >= 0; i--) {
                f.write((int) (n >> (8 * i)));
            }
        }
        f.write(payload);
        out.write(f.toByteArray());
    }

    @Override
    public void close() {
        closed = true;
        pinger.shutdownNow();
        try {
            server.close();
        } catch (IOException ignored) {
            // closing
        }
        synchronized (this) {
            if (client != null) {
                try {
                    client.close();
                } catch (IOException ignored) {
                    // closing
                }
                client = null;
            }
        }
    }
}
