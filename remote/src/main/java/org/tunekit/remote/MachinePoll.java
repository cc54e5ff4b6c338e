package org.tunekit.remote;

import static org.tunekit.runner.manager.TrialScript.quote;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.apache.sshd.client.session.ClientSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tunekit.gpus.Gpu;
import org.tunekit.gpus.NvidiaSmiException;

/**
 * One poll of a machine: the one command that reports on all its trials (and kills those past their grace), its
 * answer taken apart trial by trial, and the reading of its GPUs that may come with it. Holds no state: the command
 * is made on the manager's thread (from the trials as they stand then, see {@link Asked}); {@link #run} runs on the
 * machine's worker; the {@link Answer} goes back to the manager's thread, which applies it.
 */
final class MachinePoll {
    private static final Logger LOG = LoggerFactory.getLogger(MachinePoll.class);
    /** The last line of a poll's answer: an answer without it was cut short. */
    private static final byte[] END = "@@end\n".getBytes(StandardCharsets.US_ASCII);

    private MachinePoll() {}

    /** A trial in a poll, and how much of its files were copied here when the poll was sent. */
    record Asked(RemoteTrial trial, String jobId, long fetched, long stdoutFetched) {
        static Asked of(RemoteTrial t) {
            return new Asked(t, t.jobId, t.fetched, t.stdoutFetched);
        }
    }

    /** One trial's part of a poll's answer: the new bytes of its files, its exit status text once written, and its stderr once it ended. */
    record Report(Asked asked, boolean alive, String exit, byte[] metrics, byte[] stdout, byte[] stderr) {}

    /**
     * What a worker brings back from a poll: the trials' reports or why the machine did not answer ({@code failure}),
     * and the GPUs read with the processes that are the experiment's own, or why they could not be read.
     */
    record Answer(List<Report> reports, String failure, List<Gpu> gpus, Set<Long> own, String gpuFailure) {
        static Answer failed(String why) {
            return new Answer(List.of(), why, null, null, null);
        }
    }

    /**
     * On the worker: the poll (when {@code command} is not {@code null}), then the GPUs (when {@code gpus}); each
     * command given up after {@code timeout}.
     */
    static Answer run(ClientSession session, Machine machine, List<Asked> asked, String command, boolean gpus,
                      Set<Long> trialSessions, Duration timeout) {
        List<Report> reports = List.of();
        if (command != null) {
            try {
                reports = parse(asked, Ssh.exec(session, command, null, timeout).stdout(), machine.address());
            } catch (IOException e) {
                return Answer.failed(e.getMessage());
            }
        }
        if (!gpus) {
            return new Answer(reports, null, null, null, null);
        }
        try {
            List<Gpu> read = MachineGpus.read(session, machine, timeout);
            return new Answer(reports, null, read, MachineGpus.ownProcesses(session, trialSessions, timeout), null);
        } catch (NvidiaSmiException e) {
            return new Answer(reports, null, null, null, e.getMessage());
        } catch (IOException e) {
            return new Answer(reports, null, null, null, "could not list the trials' processes on " + machine.address() + ": " + e.getMessage());
        }
    }

    /** The one command that reports on all of a machine's trials (and kills those past their grace); its answer ends with {@link #END}. */
    static String command(List<Asked> asked, Instant now) {
        StringBuilder b = new StringBuilder();
        for (Asked a : asked) {
            RemoteTrial t = a.trial();
            String d = quote(t.dir);
            if (t.killAt != null && !now.isBefore(t.killAt)) {
                b.append(TrialProcesses.killGroups(List.of(t.pid)));
            }
            // alive first, then the exit file, then the sizes: a trial that ended has all its metrics in the size read
            b.append("a=0; st=; { read -r _ _ st _ < /proc/").append(t.pid).append("/stat; } 2>/dev/null; ")
                    .append("[ -n \"$st\" ] && [ \"$st\" != Z ] && a=1; ")
                    .append("e=$(cat ").append(d).append("/.nni/exit 2>/dev/null); ")
                    .append("s=$(stat -c %s ").append(d).append("/.nni/metrics 2>/dev/null || echo 0); ")
                    .append("o=$(stat -c %s ").append(d).append("/trial.stdout 2>/dev/null || echo 0); ")
                    // its stderr comes whole once it ended
                    .append("r=-1; if [ -n \"$e\" ] || [ $a = 0 ]; then r=$(stat -c %s ").append(d).append("/trial.stderr 2>/dev/null || echo 0); fi; ")
                    .append("printf '@@%s %s %s %s %s %s\\n' ").append(t.jobId).append(" $a \"${e:--}\" \"$s\" \"$o\" \"$r\"; ")
                    .append("if [ \"$s\" -gt ").append(a.fetched()).append(" ]; then tail -c +").append(a.fetched() + 1).append(' ')
                    .append(d).append("/.nni/metrics | head -c $((s - ").append(a.fetched()).append(")); fi; ")
                    .append("if [ \"$o\" -gt ").append(a.stdoutFetched()).append(" ]; then tail -c +").append(a.stdoutFetched() + 1).append(' ')
                    .append(d).append("/trial.stdout | head -c $((o - ").append(a.stdoutFetched()).append(")); fi; ")
                    .append("if [ \"$r\" -gt 0 ]; then head -c \"$r\" ").append(d).append("/trial.stderr; fi; ");
        }
        b.append("printf '@@end\\n'");
        return b.toString();
    }

    /**
     * Takes a poll's answer apart, trial by trial.
     *
     * @throws IOException when the answer was cut short (the session failed)
     */
    static List<Report> parse(List<Asked> asked, byte[] out, String address) throws IOException {
        if (out.length < END.length || !Arrays.equals(out, out.length - END.length, out.length, END, 0, END.length)) {
            throw new IOException("machine " + address + ": the answer to a poll was cut short");
        }
        int limit = out.length - END.length;
        int pos = 0;
        List<Report> reports = new ArrayList<>();
        for (Asked a : asked) {
            int nl = indexOf(out, (byte) '\n', pos, limit);
            if (nl < 0) {
                LOG.warn("short answer from {} for trial {}", address, a.jobId());
                break;
            }
            String[] f = new String(out, pos, nl - pos, StandardCharsets.UTF_8).split(" ");
            pos = nl + 1;
            long metrics;
            long printed;
            long errors;
            try {
                if (f.length != 6 || !f[0].equals("@@" + a.jobId())) {
                    throw new NumberFormatException();
                }
                metrics = Long.parseLong(f[3]);
                printed = Long.parseLong(f[4]);
                errors = Long.parseLong(f[5]);
            } catch (NumberFormatException e) {
                LOG.warn("unexpected answer from {}: {}", address, String.join(" ", f));
                break;
            }
            int fresh = (int) Math.max(0, Math.min(metrics - a.fetched(), limit - pos));
            byte[] m = Arrays.copyOfRange(out, pos, pos + fresh);
            pos += fresh;
            int more = (int) Math.max(0, Math.min(printed - a.stdoutFetched(), limit - pos));
            byte[] o = Arrays.copyOfRange(out, pos, pos + more);
            pos += more;
            byte[] err = null;
            if (errors >= 0) {
                int n = (int) Math.min(errors, limit - pos);
                err = Arrays.copyOfRange(out, pos, pos + n);
                pos += n;
            }
            reports.add(new Report(a, f[1].equals("1"), f[2].equals("-") ? null : f[2], m, o, err));
        }
        return reports;
    }

    private static int indexOf(byte[] b, byte x, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] == x) {
                return i;
            }
        }
        return -1;
    }
}
