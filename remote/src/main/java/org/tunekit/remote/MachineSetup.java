package org.tunekit.remote;

import static org.tunekit.runner.manager.TrialScript.quote;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import org.apache.sshd.client.session.ClientSession;

/**
 * Prepares a machine for an experiment's trials: the connection made at the start, where the experiment's folder
 * is there, and the trial code copied into it. Holds no state of its own; runs on the thread that calls it (the
 * manager's at {@link RemoteMachines#check}, a machine's worker at a reconnect).
 */
final class MachineSetup {
    private MachineSetup() {}

    /**
     * Connects to the machine (on the manager's thread: at check), learns where the experiment's folder is there, and
     * attaches the session to {@code h}.
     *
     * @throws IOException naming the machine and why
     */
    static void connect(Host h, Ssh ssh, String experimentId, Clock clock, Duration timeout) throws IOException {
        h.lastAttempt = clock.instant();
        ClientSession s = ssh.connect(h.machine);
        String root;
        try {
            root = experimentFolder(s, h.machine, experimentId, timeout);
        } catch (IOException e) {
            s.close(true);
            throw e;
        }
        h.attach(s, root, clock.instant());
    }

    /**
     * The experiment's folder on the machine of a new session: {@code ~/tunekit-experiments/EXPID}.
     *
     * @throws IOException naming the machine when {@code $HOME} cannot be read there
     */
    static String experimentFolder(ClientSession s, Machine m, String experimentId, Duration timeout) throws IOException {
        Ssh.Result home = Ssh.exec(s, "printf '%s' \"$HOME\"", null, timeout);
        if (home.status() != 0 || home.text().isBlank()) {
            throw new IOException("machine " + m.address() + ": could not read $HOME there (status " + home.status() + ": "
                    + home.stderr().strip() + ")");
        }
        return home.text() + "/tunekit-experiments/" + experimentId;
    }

    /** Copies {@code codeDirectory} to {@code ROOT/code} on the machine, with {@code tar} at both ends. */
    static void copyCode(ClientSession s, String root, Path codeDirectory, Duration timeout) throws IOException {
        Process tar = new ProcessBuilder("tar", "-C", codeDirectory.toString(), "-cf", "-", ".")
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        Ssh.Result r;
        try (InputStream in = tar.getInputStream()) {
            r = Ssh.exec(s, "mkdir -p " + quote(root + "/code") + " && tar -xf - -C " + quote(root + "/code"), in, timeout);
        } finally {
            tar.destroy();
        }
        if (r.status() != 0) {
            throw new IOException("could not copy " + codeDirectory + " to " + root + "/code: " + r.stderr().strip());
        }
    }
}
