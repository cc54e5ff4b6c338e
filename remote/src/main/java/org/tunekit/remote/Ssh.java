package org.tunekit.remote;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import org.apache.sshd.client.SshClient;
import org.apache.sshd.client.channel.ChannelExec;
import org.apache.sshd.client.channel.ClientChannelEvent;
import org.apache.sshd.client.keyverifier.KnownHostsServerKeyVerifier;
import org.apache.sshd.client.keyverifier.ServerKeyVerifier;
import org.apache.sshd.client.session.ClientSession;
import org.apache.sshd.common.AttributeRepository;
import org.apache.sshd.common.config.keys.FilePasswordProvider;
import org.apache.sshd.common.keyprovider.FileKeyPairProvider;

/**
 * SSH to the machines of one experiment: one client, host keys checked against a {@code known_hosts}
 * file. A host whose key is not in the file is refused unless new hosts are accepted (then its key is
 * added); a host whose key differs from the file's is always refused. The reason a host was refused is
 * in the {@link IOException} that {@link #connect} throws.
 */
final class Ssh implements AutoCloseable {
    static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    private static final AttributeRepository.AttributeKey<String> REFUSED = new AttributeRepository.AttributeKey<>();

    private final SshClient client;
    private final Path knownHosts;

    /**
     * @param knownHosts     the {@code known_hosts} file (created when a new host is accepted)
     * @param acceptNewHosts true to trust a host not yet in it, and add it
     */
    Ssh(Path knownHosts, boolean acceptNewHosts) {
        this.knownHosts = knownHosts;
        client = SshClient.setUpDefaultClient();
        ServerKeyVerifier unknown = (session, remote, key) -> {
            if (acceptNewHosts) {
                return true;
            }
            session.setAttribute(REFUSED, "its host key is not in " + knownHosts + ": add it there (ssh-keyscan -p PORT HOST >> "
                    + knownHosts + ", after checking it) or run with --accept-new-hosts, which adds it");
            return false;
        };
        KnownHostsServerKeyVerifier verifier = new KnownHostsServerKeyVerifier(unknown, knownHosts) {
            @Override
            protected boolean acceptUnknownHostKey(ClientSession session, SocketAddress remote, PublicKey key) {
                if (acceptNewHosts) {
                    try {
                        Files.createDirectories(knownHosts.toAbsolutePath().getParent());
                        if (!Files.exists(knownHosts)) {
                            Files.createFile(knownHosts);
                        }
                    } catch (IOException e) {
                        session.setAttribute(REFUSED, "its host key could not be added to " + knownHosts + ": " + e.getMessage());
                        return false;
                    }
                }
                return super.acceptUnknownHostKey(session, remote, key);
            }
        };
        verifier.setModifiedServerKeyAcceptor((session, remote, entry, expected, actual) -> {
            session.setAttribute(REFUSED, changed(entry == null ? null : entry.getConfigLine()));
            return false;
        });
        client.setServerKeyVerifier(verifier);
        client.start();
    }

    private String changed(String line) {
        return "its host key CHANGED from the one in " + knownHosts + (line == null ? "" : " (line '" + line + "')")
                + ": someone may be in between; if the machine was reinstalled, remove its old line from " + knownHosts;
    }

    /**
     * Connects to a machine and logs in (its password, else its key file with its passphrase).
     *
     * @throws IOException naming the machine ({@code host:port}) and why
     */
    ClientSession connect(Machine m) throws IOException {
        ClientSession session = null;
        try {
            session = client.connect(m.user(), m.host(), m.port()).verify(CONNECT_TIMEOUT).getSession();
            if (m.password() != null) {
                session.addPasswordIdentity(m.password());
            } else if (m.sshKeyFile() != null) {
                if (!Files.isReadable(m.sshKeyFile())) {
                    throw new IOException("its sshKeyFile " + m.sshKeyFile() + " cannot be read");
                }
                FileKeyPairProvider keys = new FileKeyPairProvider(m.sshKeyFile());
                if (m.sshPassphrase() != null) {
                    keys.setPasswordFinder(FilePasswordProvider.of(m.sshPassphrase()));
                }
                session.setKeyIdentityProvider(keys);
            }
            session.auth().verify(CONNECT_TIMEOUT);
            return session;
        } catch (IOException | RuntimeException e) {
            String refused = session == null ? null : session.getAttribute(REFUSED);
            if (session != null) {
                session.close(true);
            }
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            if (refused == null && String.valueOf(root.getMessage()).contains("Server key did not validate")) {
                // not unknown (that is noted above), so known with another key
                refused = changed(null);
            }
            String why = refused != null ? refused : why(root);
            throw new IOException("machine " + m.address() + " (user " + m.user() + "): " + why, e);
        }
    }

    /** The {@code known_hosts} file: {@code given} (the option {@code knownHosts}) when set, else {@code ~/.ssh/known_hosts} ({@code $HOME}'s). */
    static Path knownHostsFile(String given) {
        if (given != null) {
            return Path.of(given);
        }
        String home = System.getenv("HOME");
        return Path.of(home != null && !home.isBlank() ? home : System.getProperty("user.home"), ".ssh", "known_hosts");
    }

    /** What went wrong, for a message: the exception's message, else its class's simple name. */
    static String why(Throwable e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }

    /** What a remote command did. */
    record Result(int status, byte[] stdout, String stderr) {
        String text() {
            return new String(stdout, StandardCharsets.UTF_8);
        }
    }

    /**
     * Runs {@code command} with the login shell of the session's user, {@code stdin} as its input, and
     * waits for its end. Sessions are thread-safe: several threads may run commands on one at once.
     *
     * @return its exit status (-1 when a signal ended it), stdout and stderr
     * @throws IOException when the session fails (also when the channel closes with neither an exit status nor
     *     a signal) or the command does not end within {@code timeout} (all told: opening the channel and running it)
     */
    static Result exec(ClientSession session, String command, InputStream stdin, Duration timeout) throws IOException {
        if (session == null || !session.isOpen()) {
            throw new IOException("the connection is closed");
        }
        long deadline = System.nanoTime() + timeout.toNanos();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (ChannelExec channel = session.createExecChannel(command)) {
            channel.setIn(stdin == null ? new ByteArrayInputStream(new byte[0]) : stdin);
            channel.setOut(out);
            channel.setErr(err);
            channel.open().verify(timeout);
            Duration left = Duration.ofNanos(Math.max(1_000_000, deadline - System.nanoTime()));
            Set<ClientChannelEvent> seen = channel.waitFor(EnumSet.of(ClientChannelEvent.CLOSED), left);
            if (!seen.contains(ClientChannelEvent.CLOSED)) {
                throw new IOException("a command on " + session.getConnectAddress() + " did not end within " + timeout.toSeconds() + " s");
            }
            Integer status = channel.getExitStatus();
            if (status == null && channel.getExitSignal() == null) {
                // closed with no word of how the command ended: the connection died under it (its server was killed, say)
                throw new IOException("the connection to " + session.getConnectAddress() + " was lost before a command ended");
            }
            return new Result(status == null ? -1 : status, out.toByteArray(), err.toString(StandardCharsets.UTF_8));
        } catch (IllegalStateException e) {
            // MINA's word for a session that is closing
            throw new IOException(e.getMessage(), e);
        }
    }

    Path knownHosts() {
        return knownHosts;
    }

    @Override
    public void close() {
        client.stop();
    }
}
