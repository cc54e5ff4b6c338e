package org.tunekit.bench.quality;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

/** Reports runs done out of the total, elapsed time and an estimate of the time left, at most every two seconds. */
final class Progress {
    private static final long EVERY_NANOS = 2_000_000_000L;

    private final PrintWriter out;
    private final int total;
    private final LongSupplier clock;
    private final long start;
    private long lastPrinted;
    private int done;
    private int failed;

    Progress(PrintWriter out, int total, LongSupplier clock) {
        this.out = out;
        this.total = total;
        this.clock = clock;
        this.start = clock.getAsLong();
        this.lastPrinted = start;
    }

    /** Counts one finished run and prints a line when the last one is old enough, or when all are done. */
    synchronized void runDone(boolean succeeded) {
        done++;
        if (!succeeded) {
            failed++;
        }
        long now = clock.getAsLong();
        if (done == total || now - lastPrinted >= EVERY_NANOS) {
            lastPrinted = now;
            out.println(line(now));
            out.flush();
        }
    }

    synchronized String line(long now) {
        double elapsed = (now - start) / 1e9;
        StringBuilder sb = new StringBuilder(String.format(Locale.ROOT, "bench: %d/%d runs (%.1f%%), %s elapsed", done, total,
                100.0 * done / total, duration(elapsed)));
        if (done < total && done > 0) {
            sb.append(", ETA ").append(duration(elapsed / done * (total - done)));
        }
        if (failed > 0) {
            sb.append(", ").append(failed).append(" failed");
        }
        return sb.toString();
    }

    static String duration(double seconds) {
        long s = Math.round(seconds);
        if (s < 60) {
            return s + " s";
        }
        if (s < 3600) {
            return (s / 60) + " min " + (s % 60) + " s";
        }
        return (s / 3600) + " h " + (s % 3600 / 60) + " min";
    }
}
