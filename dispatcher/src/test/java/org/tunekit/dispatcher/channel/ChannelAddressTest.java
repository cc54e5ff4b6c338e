package org.tunekit.dispatcher.channel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.tunekit.dispatcher.protocol.PipeFrameCodec;

class ChannelAddressTest {

    @Test
    void parsesEveryScheme() {
        assertThat(ChannelAddress.parse("stdio:")).isEqualTo(new ChannelAddress.Stdio());
        assertThat(ChannelAddress.parse("fd:3,4")).isEqualTo(new ChannelAddress.FileDescriptors(3, 4));
        assertThat(ChannelAddress.parse(" fd:10,11 ")).isEqualTo(new ChannelAddress.FileDescriptors(10, 11));
        assertThat(ChannelAddress.parse("ws://localhost:8080/tuner").uri()).isEqualTo("ws://localhost:8080/tuner");
        assertThat(ChannelAddress.parse("wss://example.org/tuner")).isInstanceOf(ChannelAddress.WebSocket.class);
        assertThat(ChannelAddress.parse("tcp://127.0.0.1:5555")).isEqualTo(new ChannelAddress.Zmq("tcp://127.0.0.1:5555"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "''                      | empty channel URI",
        "http://localhost:80/x   | unknown scheme \"http:\"",
        "pipe                    | unknown scheme \"pipe\"",
        "stdio:x                 | stdio: takes nothing after the colon",
        "fd:3                    | fd: needs two descriptors",
        "fd:3,4,5                | fd: needs two descriptors",
        "fd:3,x                  | the write descriptor \"x\" is not a non-negative integer",
        "fd:-1,4                 | the read descriptor \"-1\" is not a non-negative integer",
        "fd:3,3                  | must differ, got 3 twice",
        "ws:///tuner             | no host",
        "ws://host:70000/x       | port 70000 is out of range",
        "ws://host name/x        | not a valid URI",
        "tcp://127.0.0.1         | no port; expected tcp://host:port",
        "tcp://127.0.0.1:5/x     | a tcp:// channel has no path",
    })
    void malformedUrisSayWhatIsWrong(String uri, String message) {
        assertThatThrownBy(() -> ChannelAddress.parse(uri))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }

    @Test
    void defaultIsTheEnvironmentVariableThenInheritedPipesThenStdio() {
        Map<String, String> env = Map.of("NNI_TUNER_COMMAND_CHANNEL", "ws://localhost:1/tuner");
        assertThat(ChannelAddress.defaultUri(env, fd -> true)).isEqualTo("ws://localhost:1/tuner");
        assertThat(ChannelAddress.defaultUri(Map.of(), fd -> fd == 3 || fd == 4)).isEqualTo("fd:3,4");
        assertThat(ChannelAddress.defaultUri(Map.of(), fd -> fd == 3)).isEqualTo("stdio:");
        assertThat(ChannelAddress.defaultUri(Map.of(), fd -> fd == 4)).isEqualTo("stdio:");
        assertThat(ChannelAddress.defaultUri(Map.of(), fd -> false)).isEqualTo("stdio:");
        assertThat(ChannelAddress.defaultUri(Map.of("NNI_TUNER_COMMAND_CHANNEL", " "), fd -> false)).isEqualTo("stdio:");
    }

    @Test
    void aRegularFileOrAClosedDescriptorIsNotAnInheritedPipe(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("plain");
        Files.writeString(file, "x");
        try (RandomAccessFile open = new RandomAccessFile(file.toFile(), "r")) {
            assertThat(open.length()).isEqualTo(1);
            int fd = descriptorOf(file);
            assertThat(ChannelAddress.isInheritedPipe(fd)).isFalse();
        }
        assertThat(ChannelAddress.isInheritedPipe(1_000_000)).isFalse();
    }

    @Test
    void openingAClosedDescriptorNamesIt() {
        assertThatThrownBy(() -> ChannelAddress.parse("fd:999998,999999").open(1024))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("file descriptor 999998 (commands) is not open");
    }

    /** Two FIFOs opened by this process stand for descriptors a manager would have passed. */
    @Test
    void fileDescriptorChannelReadsAndWritesThroughInheritedFifos(@TempDir Path dir) throws Exception {
        Path commands = dir.resolve("commands");
        Path replies = dir.resolve("replies");
        mkfifo(commands);
        mkfifo(replies);
        // O_RDWR opens of a FIFO do not block on Linux: these hold both ends open
        try (RandomAccessFile managerCommands = new RandomAccessFile(commands.toFile(), "rw");
             RandomAccessFile managerReplies = new RandomAccessFile(replies.toFile(), "rw")) {
            int read = descriptorOf(commands);
            int write = descriptorOf(replies);
            assertThat(ChannelAddress.isInheritedPipe(read)).isTrue();
            assertThat(ChannelAddress.isInheritedPipe(write)).isTrue();
            try (CommandChannel ch = ChannelAddress.parse("fd:" + read + "," + write).open(1 << 20)) {
                assertThat(ch.describe()).isEqualTo("fd:" + read + "," + write);
                managerCommands.write(PipeFrameCodec.encode(new Command(CommandType.REQUEST_TRIAL_JOBS, "2")));
                assertThat(ch.receive()).isEqualTo(new Command(CommandType.REQUEST_TRIAL_JOBS, "2"));
                ch.send(new Command(CommandType.INITIALIZED, ""));
                ch.flush();
                byte[] frame = new byte[PipeFrameCodec.HEADER_LENGTH];
                managerReplies.readFully(frame);
                assertThat(new String(frame, java.nio.charset.StandardCharsets.US_ASCII)).isEqualTo("ID00000000000000");
            }
        }
    }

    @Test
    void theGiveUpTimeComesFromTheOptionElseTheEnvironmentElseTheDefault() {
        Map<String, String> env = Map.of(ChannelAddress.GIVE_UP_VARIABLE, "1500");
        assertThat(ChannelAddress.giveUp(2.5, env)).isEqualTo(java.time.Duration.ofMillis(2500));
        assertThat(ChannelAddress.giveUp(null, env)).isEqualTo(java.time.Duration.ofMillis(1500));
        assertThat(ChannelAddress.giveUp(null, Map.of())).isEqualTo(ChannelAddress.DEFAULT_GIVE_UP);
    }

    @Test
    void aGiveUpTimeThatIsNotPositiveIsRefusedNamingWhereItCameFrom() {
        assertThatThrownBy(() -> ChannelAddress.giveUp(0.0, Map.of())).hasMessageContaining("--give-up-after must be a positive number");
        assertThatThrownBy(() -> ChannelAddress.giveUp(Double.NaN, Map.of())).hasMessageContaining("--give-up-after");
        assertThatThrownBy(() -> ChannelAddress.giveUp(null, Map.of(ChannelAddress.GIVE_UP_VARIABLE, "2s")))
                .hasMessageContaining("TUNEKIT_CHANNEL_GIVE_UP_MS must be a positive whole number of milliseconds, got '2s'");
        assertThatThrownBy(() -> ChannelAddress.giveUp(null, Map.of(ChannelAddress.GIVE_UP_VARIABLE, "-5")))
                .hasMessageContaining("TUNEKIT_CHANNEL_GIVE_UP_MS");
    }

    private static void mkfifo(Path p) throws Exception {
        Process mk = new ProcessBuilder("mkfifo", p.toString()).inheritIO().start();
        assertThat(mk.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(mk.exitValue()).isZero();
    }

    /** The number under which this process holds {@code file} open. */
    private static int descriptorOf(Path file) throws IOException {
        Path target = file.toRealPath();
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            Set<Integer> found = new java.util.TreeSet<>();
            for (Path fd : (Iterable<Path>) fds::iterator) {
                try {
                    if (Path.of(Files.readSymbolicLink(fd).toString()).equals(target)) {
                        found.add(Integer.parseInt(fd.getFileName().toString()));
                    }
                } catch (IOException ignored) {
                    // the descriptor of the listing itself, already closed
                }
            }
            assertThat(found).as("descriptors of " + target).hasSize(1);
            return found.iterator().next();
        }
    }
}
