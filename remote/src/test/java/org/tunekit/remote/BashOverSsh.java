package org.tunekit.remote;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.sshd.common.config.keys.KeyUtils;
import org.apache.sshd.server.Environment;
import org.apache.sshd.server.ExitCallback;
import org.apache.sshd.server.SshServer;
import org.apache.sshd.server.channel.ChannelSession;
import org.apache.sshd.server.command.Command;
import org.apache.sshd.server.keyprovider.SimpleGeneratorHostKeyProvider;

/**
 * An SSH server in this process, on 127.0.0.1 and a free port, that runs each exec request with real
 * {@code bash -c} as this user, with {@code HOME} set to a folder of the test's (and more variables):
 * user {@value #USER}, password {@value #PASSWORD}, or the one public key given. It can be made to hang
 * ({@link #hold()}: each command waits before it runs until the test lets it) or to drop each command
 * ({@link #dropCommands()}).
 */
final class BashOverSsh implements AutoCloseable {
    static final String USER = "tunekit";
    static final String PASSWORD = "secret";

    final SshServer server;
    final Path home;
    private volatile CountDownLatch hold;
    private volatile boolean drop;
    private final AtomicInteger waiting = new AtomicInteger();

    BashOverSsh(Path home, Path hostKey, PublicKey userKey, Map<String, String> env) throws IOException {
        this(home, hostKey, userKey, env, 0);
    }

    BashOverSsh(Path home, Path hostKey, PublicKey userKey, Map<String, String> env, int port) throws IOException {
        this.home = home;
        server = SshServer.setUpDefaultServer();
        server.setHost("127.0.0.1");
        server.setPort(port);
        server.setKeyPairProvider(new SimpleGeneratorHostKeyProvider(hostKey));
        server.setPasswordAuthenticator((user, password, session) -> USER.equals(user) && PASSWORD.equals(password));
        server.setPublickeyAuthenticator((user, key, session) -> USER.equals(user) && userKey != null && KeyUtils.compareKeys(key, userKey));
        server.setCommandFactory((channel, command) -> new Bash(command, home, env));
        server.start();
    }

    /**
     * From now on each command (logins still succeed) waits, before bash runs it, until the latch returned
     * is counted down: a machine that hangs with its TCP connections up.
     */
    CountDownLatch hold() {
        CountDownLatch latch = new CountDownLatch(1);
        hold = latch;
        return latch;
    }

    /** From now on each command's channel is closed at once, with no exit status: as when the server dies under a command. */
    void dropCommands() {
        drop = true;
    }

    /** How many commands wait now for {@link #hold()}'s latch (also those whose channel was closed meanwhile). */
    int waiting() {
        return waiting.get();
    }

    int port() {
        return server.getPort();
    }

    @Override
    public void close() throws IOException {
        server.stop(true);
    }

    /** One exec request: {@code bash -c COMMAND}, its streams pumped to the channel's. */
    private final class Bash implements Command {
        private final String command;
        private final Path home;
        private final Map<String, String> env;
        private InputStream in;
        private OutputStream out;
        private OutputStream err;
        private ExitCallback exit;
        private volatile Process process;
        private volatile boolean destroyed;

        Bash(String command, Path home, Map<String, String> env) {
            this.command = command;
            this.home = home;
            this.env = env;
        }

        @Override
        public void setInputStream(InputStream in) {
            this.in = in;
        }

        @Override
        public void setOutputStream(OutputStream out) {
            this.out = out;
        }

        @Override
        public void setErrorStream(OutputStream err) {
            this.err = err;
        }

        @Override
        public void setExitCallback(ExitCallback callback) {
            this.exit = callback;
        }

        @Override
        public void start(ChannelSession channel, Environment environment) throws IOException {
            if (drop) {
                channel.close(false);
                return;
            }
            CountDownLatch latch = hold;
            if (latch == null) {
                run();
                return;
            }
            waiting.incrementAndGet();
            Thread held = new Thread(() -> {
                try {
                    latch.await();
                } catch (InterruptedException e) {
                    return;
                } finally {
                    waiting.decrementAndGet();
                }
                if (destroyed) {
                    return;
                }
                try {
                    run();
                } catch (IOException e) {
                    exit.onExit(255, e.getMessage());
                }
            }, "bash-over-ssh-held");
            held.setDaemon(true);
            held.start();
        }

        private void run() throws IOException {
            ProcessBuilder pb = new ProcessBuilder("bash", "-c", command).directory(home.toFile());
            pb.environment().put("HOME", home.toString());
            pb.environment().putAll(env);
            process = pb.start();
            Thread stdin = pump(in, process.getOutputStream(), true);
            Thread stdout = pump(process.getInputStream(), out, false);
            Thread stderr = pump(process.getErrorStream(), err, false);
            Thread waiter = new Thread(() -> {
                try {
                    int status = process.waitFor();
                    stdout.join();
                    stderr.join();
                    stdin.interrupt();
                    exit.onExit(status);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "bash-over-ssh");
            waiter.setDaemon(true);
            waiter.start();
        }

        private static Thread pump(InputStream from, OutputStream to, boolean closeAfter) {
            Thread t = new Thread(() -> {
                byte[] b = new byte[8192];
                try {
                    int n;
                    while ((n = from.read(b)) > 0) {
                        to.write(b, 0, n);
                        to.flush();
                    }
                    if (closeAfter) {
                        to.close();
                    }
                } catch (IOException e) {
                    // the other side is gone
                }
            }, "bash-over-ssh-pump");
            t.setDaemon(true);
            t.start();
            return t;
        }

        @Override
        public void destroy(ChannelSession channel) {
            destroyed = true;
            if (process != null) {
                process.destroy();
            }
        }
    }
}
