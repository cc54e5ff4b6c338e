package org.tunekit.dispatcher.channel;

import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Field;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * Where the manager's commands come from, as a channel URI, and how to open it.
 *
 * <ul>
 *   <li>{@code stdio:} pipe framing over stdin (commands) and stdout (replies);</li>
 *   <li>{@code fd:R,W} pipe framing over the inherited file descriptors R (commands) and W (replies),
 *       for example {@code fd:3,4}, NNI 1.x-2.x's layout;</li>
 *   <li>{@code ws://host:port/path} or {@code wss://...}: NNI 3's WebSocket channel, the dispatcher being
 *       the client ({@link WebSocketChannel});</li>
 *   <li>{@code tcp://host:port}: ZeroMQ, the dispatcher connecting a DEALER socket ({@link ZmqChannel}).</li>
 * </ul>
 *
 * <p>When no channel is given, {@link #defaultUri} chooses: {@code $NNI_TUNER_COMMAND_CHANNEL} if set,
 * else {@code fd:3,4} when both descriptors are open pipes (or sockets), else {@code stdio:}.
 */
public sealed interface ChannelAddress {

    /** The environment variable an NNI 3 manager sets to its WebSocket URL. */
    String ENV_VARIABLE = "NNI_TUNER_COMMAND_CHANNEL";

    /** The environment variable that sets the give-up time, in milliseconds (the {@code --give-up-after} option wins). */
    String GIVE_UP_VARIABLE = "TUNEKIT_CHANNEL_GIVE_UP_MS";

    /**
     * How long a network channel tries to reach a manager that is gone (no first connection, a drop it does
     * not come back from, replies it does not take) before the dispatcher gives up with
     * {@link ChannelLostException#EXIT_STATUS}: as long as an NNI manager keeps a dropped channel.
     */
    Duration DEFAULT_GIVE_UP = Duration.ofSeconds(30);

    /** Opens the channel with the default give-up time. */
    default CommandChannel open(long maxFrameBytes) throws IOException {
        return open(maxFrameBytes, DEFAULT_GIVE_UP);
    }

    /**
     * Opens the channel.
     *
     * @param maxFrameBytes the largest payload accepted
     * @param giveUp        the give-up time of network channels (ignored by the pipe channels, whose end is end of stream)
     */
    CommandChannel open(long maxFrameBytes, Duration giveUp) throws IOException;

    /** The URI text. */
    String uri();

    /** stdin and stdout. */
    record Stdio() implements ChannelAddress {
        @Override
        public CommandChannel open(long maxFrameBytes, Duration giveUp) {
            return new StreamChannel(new FileInputStream(FileDescriptor.in), new FileOutputStream(FileDescriptor.out),
                    maxFrameBytes, uri());
        }

        @Override
        public String uri() {
            return "stdio:";
        }
    }

    /**
     * Two inherited file descriptors.
     *
     * @param read  the descriptor the manager's commands arrive on
     * @param write the descriptor replies go to
     */
    record FileDescriptors(int read, int write) implements ChannelAddress {
        /** Checks the numbers. */
        public FileDescriptors {
            if (read < 0 || write < 0) {
                throw new IllegalArgumentException("file descriptors must be >= 0, got " + read + "," + write);
            }
            if (read == write) {
                throw new IllegalArgumentException("the read and write file descriptors must differ, got " + read + " twice");
            }
        }

        /**
         * Opens the descriptors. A pipe or FIFO is reopened through {@code /proc/self/fd/N} (or
         * {@code /dev/fd/N}); a socket (Node.js passes socket pairs as "pipes") cannot be reopened that
         * way, so the descriptor itself is adopted, which needs {@code --add-opens java.base/java.io=ALL-UNNAMED}
         * (the {@code tunekit} launcher passes it).
         */
        @Override
        public CommandChannel open(long maxFrameBytes, Duration giveUp) throws IOException {
            InputStream input = (InputStream) stream(read, "commands", true);
            try {
                OutputStream output = (OutputStream) stream(write, "replies", false);
                return new StreamChannel(input, output, maxFrameBytes, uri());
            } catch (IOException e) {
                input.close();
                throw e;
            }
        }

        /** A {@link FileInputStream} or {@link FileOutputStream} on descriptor {@code fd}. */
        private java.io.Closeable stream(int fd, String role, boolean forReading) throws IOException {
            Path path = descriptorPath(fd);
            if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
                throw new IOException("channel " + uri() + ": file descriptor " + fd + " (" + role + ") is not open in this process");
            }
            IOException reopenFailure;
            try {
                return forReading ? new FileInputStream(path.toFile()) : new FileOutputStream(path.toFile());
            } catch (IOException e) {
                reopenFailure = e;
            }
            FileDescriptor adopted = adopt(fd);
            if (adopted != null) {
                return forReading ? new FileInputStream(adopted) : new FileOutputStream(adopted);
            }
            throw new IOException("channel " + uri() + ": cannot open file descriptor " + fd + " (" + role + ") via " + path + " ("
                    + reopenFailure.getMessage() + "), and cannot adopt it directly: run java with "
                    + "--add-opens java.base/java.io=ALL-UNNAMED", reopenFailure);
        }

        /** The inherited descriptor {@code fd} as a {@link FileDescriptor}, or {@code null} when java.io is closed to us. */
        private static FileDescriptor adopt(int fd) {
            try {
                Field field = FileDescriptor.class.getDeclaredField("fd");
                field.setAccessible(true);
                FileDescriptor d = new FileDescriptor();
                field.setInt(d, fd);
                return d;
            } catch (ReflectiveOperationException | RuntimeException e) {
                return null;
            }
        }

        @Override
        public String uri() {
            return "fd:" + read + "," + write;
        }
    }

    /**
     * NNI 3's WebSocket channel.
     *
     * @param address the {@code ws://} or {@code wss://} URL of the manager's server
     */
    record WebSocket(URI address) implements ChannelAddress {
        @Override
        public CommandChannel open(long maxFrameBytes, Duration giveUp) throws IOException {
            return WebSocketChannel.connect(address, WebSocketChannel.Settings.withGiveUp(giveUp), maxFrameBytes);
        }

        @Override
        public String uri() {
            return address.toString();
        }
    }

    /**
     * A ZeroMQ channel.
     *
     * @param endpoint the {@code tcp://host:port} the manager's ROUTER socket is bound to
     */
    record Zmq(String endpoint) implements ChannelAddress {
        @Override
        public CommandChannel open(long maxFrameBytes, Duration giveUp) throws IOException {
            return ZmqChannel.connect(endpoint, ZmqChannel.Settings.withGiveUp(giveUp), maxFrameBytes);
        }

        @Override
        public String uri() {
            return endpoint;
        }
    }

    /**
     * Parses a channel URI.
     *
     * @throws IllegalArgumentException naming what is wrong with it
     */
    static ChannelAddress parse(String text) {
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("empty channel URI; expected stdio:, fd:R,W, ws://host:port/path, wss://... or tcp://host:port");
        }
        String t = text.strip();
        int colon = t.indexOf(':');
        String scheme = colon < 0 ? "" : t.substring(0, colon).toLowerCase(Locale.ROOT);
        switch (scheme) {
            case "stdio" -> {
                if (t.length() != colon + 1) {
                    throw new IllegalArgumentException("channel \"" + text + "\": stdio: takes nothing after the colon");
                }
                return new Stdio();
            }
            case "fd" -> {
                return parseFileDescriptors(text, t.substring(colon + 1));
            }
            case "ws", "wss" -> {
                return new WebSocket(parseNetworkUri(text, t, true));
            }
            case "tcp" -> {
                URI u = parseNetworkUri(text, t, false);
                if (u.getRawPath() != null && !u.getRawPath().isEmpty()) {
                    throw new IllegalArgumentException("channel \"" + text + "\": a tcp:// channel has no path, got \"" + u.getRawPath() + "\"");
                }
                if (u.getRawQuery() != null || u.getRawFragment() != null) {
                    throw new IllegalArgumentException("channel \"" + text + "\": a tcp:// channel has no query or fragment");
                }
                String host = u.getHost();
                return new Zmq("tcp://" + host + ":" + u.getPort());
            }
            default -> throw new IllegalArgumentException("channel \"" + text + "\": unknown scheme \"" + (colon < 0 ? t : scheme + ":")
                    + "\"; expected stdio:, fd:R,W, ws://host:port/path, wss://... or tcp://host:port");
        }
    }

    private static FileDescriptors parseFileDescriptors(String text, String rest) {
        String[] parts = rest.split(",", -1);
        if (parts.length != 2) {
            throw new IllegalArgumentException("channel \"" + text + "\": fd: needs two descriptors, read and write, as fd:R,W (e.g. fd:3,4)");
        }
        int read = parseDescriptor(text, parts[0], "read");
        int write = parseDescriptor(text, parts[1], "write");
        try {
            return new FileDescriptors(read, write);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("channel \"" + text + "\": " + e.getMessage(), e);
        }
    }

    private static int parseDescriptor(String text, String s, String role) {
        String v = s.strip();
        if (v.isEmpty() || !v.chars().allMatch(c -> c >= '0' && c <= '9') || v.length() > 9) {
            throw new IllegalArgumentException("channel \"" + text + "\": the " + role + " descriptor \"" + s
                    + "\" is not a non-negative integer");
        }
        return Integer.parseInt(v);
    }

    private static URI parseNetworkUri(String text, String t, boolean pathAllowed) {
        URI u;
        try {
            u = new URI(t);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("channel \"" + text + "\": not a valid URI: " + e.getMessage(), e);
        }
        if (u.getHost() == null || u.getHost().isEmpty()) {
            throw new IllegalArgumentException("channel \"" + text + "\": no host; expected " + u.getScheme() + "://host:port"
                    + (pathAllowed ? "/path" : ""));
        }
        if (u.getPort() < 0) {
            if (pathAllowed) {
                return u;
            }
            throw new IllegalArgumentException("channel \"" + text + "\": no port; expected tcp://host:port");
        }
        if (u.getPort() == 0 || u.getPort() > 65535) {
            throw new IllegalArgumentException("channel \"" + text + "\": port " + u.getPort() + " is out of range 1-65535");
        }
        if (u.getRawUserInfo() != null) {
            throw new IllegalArgumentException("channel \"" + text + "\": user information is not supported");
        }
        return u;
    }

    /**
     * The channel to use when none is given on the command line.
     *
     * @param env          the process environment
     * @param isOpenPipe   tells whether a file descriptor is open and a pipe, FIFO or socket
     */
    static String defaultUri(Map<String, String> env, IntPredicate isOpenPipe) {
        String fromEnv = env.get(ENV_VARIABLE);
        if (fromEnv != null && !fromEnv.isBlank()) {
            return fromEnv.strip();
        }
        if (isOpenPipe.test(3) && isOpenPipe.test(4)) {
            return "fd:3,4";
        }
        return "stdio:";
    }

    /**
     * Opens the channel named by {@code uri}, or by the {@link #defaultUri default rule} when it is {@code null}.
     *
     * @throws IllegalArgumentException when the URI is malformed
     * @throws IOException              when the channel cannot be opened
     */
    static CommandChannel open(String uri, Map<String, String> env, long maxFrameBytes, Duration giveUp) throws IOException {
        String u = uri != null ? uri : defaultUri(env, ChannelAddress::isInheritedPipe);
        return parse(u).open(maxFrameBytes, giveUp);
    }

    /**
     * The give-up time: {@code option} (seconds) when given, else {@value #GIVE_UP_VARIABLE} (milliseconds), else
     * {@link #DEFAULT_GIVE_UP}.
     *
     * @throws IllegalArgumentException naming the option or variable when the value is not a positive number
     */
    static Duration giveUp(Double optionSeconds, Map<String, String> env) {
        if (optionSeconds != null) {
            if (!(optionSeconds > 0) || optionSeconds.isInfinite()) {
                throw new IllegalArgumentException("--give-up-after must be a positive number of seconds, got " + optionSeconds);
            }
            return Duration.ofMillis(Math.max(1, Math.round(optionSeconds * 1000)));
        }
        String text = env.get(GIVE_UP_VARIABLE);
        if (text == null || text.isBlank()) {
            return DEFAULT_GIVE_UP;
        }
        try {
            long ms = Long.parseLong(text.strip());
            if (ms > 0) {
                return Duration.ofMillis(ms);
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(GIVE_UP_VARIABLE + " must be a positive whole number of milliseconds, got '" + text + "'");
    }

    /** True when file descriptor {@code fd} of this process is open and a pipe, FIFO or socket. */
    static boolean isInheritedPipe(int fd) {
        Path p = descriptorPath(fd);
        try {
            if (Files.isSymbolicLink(p)) {
                String target = Files.readSymbolicLink(p).toString();
                if (target.startsWith("pipe:") || target.startsWith("socket:")) {
                    return true;
                }
            }
            if (!Files.exists(p)) {
                return false;
            }
            Object mode = Files.getAttribute(p, "unix:mode");
            int type = ((Integer) mode) & 0170000;
            return type == 0010000 || type == 0140000;
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static Path descriptorPath(int fd) {
        Path proc = Path.of("/proc/self/fd");
        return (Files.isDirectory(proc) ? proc : Path.of("/dev/fd")).resolve(Integer.toString(fd));
    }
}
