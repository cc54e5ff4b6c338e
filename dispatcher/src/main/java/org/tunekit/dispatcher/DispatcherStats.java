package org.tunekit.dispatcher;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * What the dispatcher has done: for each kind of command ({@code GE}, {@code ME FINAL},
 * {@code ME PERIODICAL}, {@code EN}, ...) how many were handled and how long handling took on its
 * worker (mean, 99th percentile, maximum; this is the time spent in the plugin's call and what
 * surrounds it), and how long the two queues grew. Thread-safe; recording costs one short lock.
 */
public final class DispatcherStats {
    private static final long HIGHEST_NANOS = 3_600_000_000_000L;

    /**
     * The figures of one kind of command.
     *
     * @param label      the command's code, with the metric type for {@code ME}
     * @param count      how many were handled
     * @param meanNanos  mean handling time
     * @param p99Nanos   99th percentile of the handling time
     * @param maxNanos   longest handling time
     */
    public record CommandFigures(String label, long count, double meanNanos, long p99Nanos, long maxNanos) {}

    /**
     * A snapshot.
     *
     * @param commands       the figures per kind of command, by label
     * @param defaultQueue   commands waiting on the default queue now
     * @param assessorQueue  commands waiting on the assessor queue now
     * @param maxDefault     the longest the default queue has been
     * @param maxAssessor    the longest the assessor queue has been
     */
    public record Snapshot(List<CommandFigures> commands, int defaultQueue, int assessorQueue, int maxDefault, int maxAssessor) {
        /** The figures of one label, if any were recorded. */
        public java.util.Optional<CommandFigures> of(String label) {
            return commands.stream().filter(c -> c.label().equals(label)).findFirst();
        }

        /** One line per kind of command and one for the queues, for a log or a terminal. */
        public String format() {
            StringBuilder b = new StringBuilder();
            for (CommandFigures c : commands) {
                b.append(String.format(Locale.ROOT, "%-14s %9d handled  mean %9s  p99 %9s  max %9s%n", c.label(), c.count(),
                        time(Math.round(c.meanNanos())), time(c.p99Nanos()), time(c.maxNanos())));
            }
            b.append(String.format(Locale.ROOT, "queues: default %d waiting (at most %d), assessor %d waiting (at most %d)",
                    defaultQueue, maxDefault, assessorQueue, maxAssessor));
            return b.toString();
        }
    }

    private final Map<String, Histogram> byLabel = new TreeMap<>();
    private final java.util.function.IntSupplier defaultQueue;
    private final java.util.function.IntSupplier assessorQueue;
    private int maxDefault;
    private int maxAssessor;

    DispatcherStats(java.util.function.IntSupplier defaultQueue, java.util.function.IntSupplier assessorQueue) {
        this.defaultQueue = defaultQueue;
        this.assessorQueue = assessorQueue;
    }

    synchronized void handled(String label, long nanos) {
        byLabel.computeIfAbsent(label, k -> new Histogram(HIGHEST_NANOS, 2)).recordValue(Math.min(Math.max(0, nanos), HIGHEST_NANOS));
    }

    synchronized void queued(boolean defaultQueue, int length) {
        if (defaultQueue) {
            maxDefault = Math.max(maxDefault, length);
        } else {
            maxAssessor = Math.max(maxAssessor, length);
        }
    }

    /** The figures so far. */
    public synchronized Snapshot snapshot() {
        List<CommandFigures> out = new ArrayList<>();
        byLabel.forEach((label, h) -> out.add(new CommandFigures(label, h.getTotalCount(), h.getMean(),
                h.getValueAtPercentile(99), h.getMaxValue())));
        return new Snapshot(List.copyOf(out), defaultQueue.getAsInt(), assessorQueue.getAsInt(), maxDefault, maxAssessor);
    }

    static String time(long nanos) {
        if (nanos < 10_000) {
            return nanos + " ns";
        }
        if (nanos < 10_000_000) {
            return String.format(Locale.ROOT, "%.1f us", nanos / 1e3);
        }
        if (nanos < 10_000_000_000L) {
            return String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
        }
        return String.format(Locale.ROOT, "%.1f s", nanos / 1e9);
    }
}
