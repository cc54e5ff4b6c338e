package org.tunekit.runner;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.tunekit.runner.results.TrialStatus;

/**
 * What a person sees while an experiment runs: a line per ended trial and, on a terminal, a live
 * status line under them (done, running, failed, stopped early, best so far, elapsed and estimated
 * time left), redrawn a few times a second. Off a terminal the status goes out as a plain line every
 * ten ended trials instead, so logs stay readable. Called from the runner's manager thread only.
 */
final class Progress implements org.tunekit.runner.manager.ManagerListener {
    private static final long REDRAW_NANOS = 200_000_000L;


    private final PrintWriter out;
    private final boolean terminal;
    private final boolean maximize;
    private final Map<TrialStatus, Integer> ended = new EnumMap<>(TrialStatus.class);
    private final Map<String, Double> finals = new HashMap<>();
    private Double best;
    private String bestTrial;
    private long lastDraw;
    private String statusLine = "";
    private Snapshot last;
    /** Trials that ended before this run (a resumed experiment): counted, but not in the time estimate. */
    private int endedBefore;

    Progress(PrintWriter out, boolean terminal, boolean maximize) {
        this.out = out;
        this.terminal = terminal;
        this.maximize = maximize;
    }

    /** Quiet progress, for tests and embedding. */
    static Progress silent() {
        return new Progress(new PrintWriter(java.io.Writer.nullWriter()), false, true);
    }

    @Override
    public void earlier(String jobId, int sequence, TrialStatus status, Double finalValue) {
        ended.merge(status, 1, Integer::sum);
        endedBefore++;
        better(jobId, finalValue);
    }

    @Override
    public void trialStarted(String jobId, int sequence, Map<String, Object> parameters) {
        // started trials show in the status line's running count
    }

    @Override
    public void finalResult(String jobId, double value) {
        finals.put(jobId, value);
    }

    private void better(String jobId, Double v) {
        if (v != null && !v.isNaN() && (best == null || (maximize ? v > best : v < best))) {
            best = v;
            bestTrial = jobId;
        }
    }

    @Override
    public void trialEnded(String jobId, int sequence, TrialStatus status, String message, Duration took) {
        ended.merge(status, 1, Integer::sum);
        Double v = finals.remove(jobId);
        better(jobId, v);
        StringBuilder line = new StringBuilder();
        line.append(String.format(Locale.ROOT, "  trial %-4d %s  %-14s", sequence, jobId, status));
        line.append(v == null ? String.format("%-20s", "") : String.format(Locale.ROOT, "value %-14s", number(v)));
        line.append(String.format(Locale.ROOT, "%8s", LocalRunner.human(took)));
        if (best != null) {
            line.append("   best ").append(number(best)).append(" (").append(bestTrial).append(')');
        }
        if (message != null && status != TrialStatus.SUCCEEDED) {
            line.append("\n      ").append(message);
        }
        print(line.toString());
        int total = ended.values().stream().mapToInt(Integer::intValue).sum();
        if (!terminal && last != null && total % 10 == 0) {
            print("  " + status(last));
        }
    }

    @Override
    public void message(String text) {
        print(text);
    }

    /** Redraws the status line on a terminal (at most five times a second). */
    @Override
    public void tick(Supplier<Snapshot> snapshot) {
        last = snapshot.get();
        if (!terminal) {
            return;
        }
        long now = System.nanoTime();
        if (now - lastDraw < REDRAW_NANOS) {
            return;
        }
        lastDraw = now;
        statusLine = status(last);
        out.print("\r\033[K" + statusLine);
        out.flush();
    }

    /** Clears the status line. */
    void close() {
        if (terminal && !statusLine.isEmpty()) {
            out.print("\r\033[K");
            statusLine = "";
        }
        out.flush();
    }

    private void print(String line) {
        if (terminal) {
            out.print("\r\033[K");
        }
        out.println(line);
        if (terminal && !statusLine.isEmpty()) {
            out.print(statusLine);
        }
        out.flush();
    }

    String status(Snapshot s) {
        int done = ended.getOrDefault(TrialStatus.SUCCEEDED, 0);
        int failed = ended.getOrDefault(TrialStatus.FAILED, 0);
        int early = ended.getOrDefault(TrialStatus.EARLY_STOPPED, 0);
        int cancelled = ended.getOrDefault(TrialStatus.USER_CANCELED, 0);
        int total = done + failed + early + cancelled;
        StringBuilder b = new StringBuilder();
        b.append('[').append(total).append(s.maxTrials() > 0 ? "/" + s.maxTrials() : "").append("] ");
        b.append(done).append(" done, ").append(s.running()).append(" running, ");
        if (s.waiting() > 0) {
            b.append(s.waiting()).append(" waiting, ");
        }
        b.append(failed).append(" failed, ")
                .append(early).append(" stopped early");
        if (cancelled > 0) {
            b.append(", ").append(cancelled).append(" cancelled");
        }
        if (best != null) {
            b.append(" | best ").append(number(best));
        }
        b.append(" | ").append(clock(s.elapsed())).append(" elapsed");
        Duration left = estimateLeft(s, total, total - endedBefore);
        if (left != null) {
            b.append(", ~").append(clock(left)).append(" left");
        }
        return b.toString();
    }

    private static Duration estimateLeft(Snapshot s, int ended, int endedHere) {
        Duration byTrials = null;
        if (s.maxTrials() > 0 && endedHere > 0) {
            long remaining = Math.max(0, s.maxTrials() - ended);
            byTrials = s.elapsed().multipliedBy(remaining).dividedBy(endedHere);
        }
        Duration byDeadline = s.untilDeadline() == null || s.untilDeadline().isNegative() ? null : s.untilDeadline();
        if (byTrials == null) {
            return byDeadline;
        }
        return byDeadline == null || byTrials.compareTo(byDeadline) < 0 ? byTrials : byDeadline;
    }

    static String clock(Duration d) {
        long s = Math.max(0, d.toSeconds());
        return s >= 3600 ? String.format("%d:%02d:%02d", s / 3600, (s % 3600) / 60, s % 60) : String.format("%02d:%02d", s / 60, s % 60);
    }

    static String number(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return Long.toString((long) v);
        }
        String s = String.format(Locale.ROOT, "%.6g", v);
        if (s.contains("e")) {
            return s;
        }
        return s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
    }
}
