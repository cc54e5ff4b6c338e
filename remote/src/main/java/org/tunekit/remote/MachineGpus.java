package org.tunekit.remote;

import java.io.IOException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.sshd.client.session.ClientSession;
import org.tunekit.gpus.Gpu;
import org.tunekit.gpus.NvidiaSmi;
import org.tunekit.gpus.NvidiaSmiException;
import org.tunekit.runner.manager.TrialScript;

/**
 * A machine's GPUs read over SSH: its {@code nvidia-smi} for {@link NvidiaSmi#read}, and which processes there are
 * the experiment's own (they do not make a GPU busy). Holds no state; runs on the thread that calls it (the
 * manager's at {@link RemoteMachines#check}, a machine's worker after a poll).
 */
final class MachineGpus {
    /** The status of the command when the machine has no {@code nvidia-smi}: then it has no GPU. */
    private static final int NO_NVIDIA_SMI = 97;

    private MachineGpus() {}

    /** The machine's GPUs, as its {@code nvidia-smi} sees them (none when it has none); each query given up after {@code timeout}. */
    static List<Gpu> read(ClientSession session, Machine m, Duration timeout) throws NvidiaSmiException {
        return NvidiaSmi.read(command -> query(session, m, command, timeout));
    }

    /** Runs one query of the machine's {@code nvidia-smi}: its output, or {@code null} when there is no {@code nvidia-smi}. */
    private static String query(ClientSession session, Machine m, List<String> command, Duration timeout) throws NvidiaSmiException {
        String line = "command -v nvidia-smi >/dev/null 2>&1 || exit " + NO_NVIDIA_SMI + "; "
                + String.join(" ", command.stream().map(TrialScript::quote).toList());
        try {
            Ssh.Result r = Ssh.exec(session, line, null, timeout);
            if (r.status() == NO_NVIDIA_SMI) {
                return null;
            }
            if (r.status() != 0) {
                throw new NvidiaSmiException("'" + String.join(" ", command) + "' on " + m.address() + " exited with status "
                        + r.status() + ": " + r.stderr().strip());
            }
            return r.text();
        } catch (IOException e) {
            throw new NvidiaSmiException("'" + String.join(" ", command) + "' on " + m.address() + " could not be run: "
                    + e.getMessage(), e);
        }
    }

    /**
     * The processes on a machine in the sessions of the trials given (each trial leads a session of its own,
     * its id the trial's pid): the experiment's own processes, which do not make a GPU busy.
     */
    static Set<Long> ownProcesses(ClientSession session, Set<Long> trialSessions, Duration timeout) throws IOException {
        if (trialSessions.isEmpty()) {
            return Set.of();
        }
        String sessions = " " + trialSessions.stream().map(String::valueOf).collect(Collectors.joining(" ")) + " ";
        // /proc/PID/stat: pid (comm) state ppid pgrp session ...; comm may hold spaces and ')', so cut after its last ") "
        String command = "for f in /proc/[0-9]*/stat; do read -r l 2>/dev/null < \"$f\" || continue; set -- ${l##*) }; "
                + "case '" + sessions + "' in *\" $4 \"*) printf '%s\\n' \"${l%% *}\";; esac; done; true";
        Ssh.Result r = Ssh.exec(session, command, null, timeout);
        Set<Long> pids = new HashSet<>();
        for (String line : r.text().split("\n")) {
            if (line.matches("[0-9]{1,18}")) {
                pids.add(Long.parseLong(line));
            }
        }
        return pids;
    }
}
