package org.tunekit.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tunekit-bench bench-soak}: a long run of trial cycles through the real {@code tunekit dispatch}
 * process over the stdio pipe, watching whether its memory stays flat. A fixed number of trials is in
 * flight; each is {@code GE 1}, {@code TR} back, {@code --periodical} × {@code ME PERIODICAL}, then
 * {@code ME FINAL} and {@code EN SUCCEEDED}, or only {@code EN USER_CANCELED} when the assessor's
 * {@code KI} for it has arrived by then. Every {@code --interval} seconds it records the throughput
 * and the process's resident set ({@code VmRSS} of {@code /proc/PID/status}); every
 * {@code --gc-every} samples it also records the live heap after a full GC
 * ({@code jcmd PID GC.class_histogram}), and reports which classes grew after the warm-up.
 */
@CommandLine.Command(name = "bench-soak", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Soak the real dispatcher process with trial cycles (GE, TR, ME PERIODICAL..., ME FINAL, EN; answering KI) "
                + "until --commands commands have been sent, recording throughput, resident memory and heap after GC over time.",
            "Writes soak-TUNER-ASSESSOR.csv and .md to --out when given; progress goes to standard error."})
public final class BenchSoakCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--commands", description = "Commands to send in all (default: ${DEFAULT-VALUE}).")
    long commands = 1_000_000;

    @Option(names = "--tuner", description = "The tuner: a built-in name, or Stateless for a tuner that keeps nothing from trial to trial "
            + "(default: ${DEFAULT-VALUE}).")
    String tuner = "Random";

    @Option(names = "--assessor", description = "Medianstop (optimize_mode minimize) or Threshold (upper 1.2, n_warmup_steps 1), "
            + "which keeps no state across trials (default: ${DEFAULT-VALUE}).")
    String assessor = "Medianstop";

    @Option(names = "--periodical", description = "Intermediate results per trial (default: ${DEFAULT-VALUE}).")
    int periodical = 5;

    @Option(names = "--in-flight", description = "Trials running at once (default: ${DEFAULT-VALUE}).")
    int inFlight = 8;

    @Option(names = "--interval", description = "Seconds between samples (default: ${DEFAULT-VALUE}).")
    double interval = 1;

    @Option(names = "--gc-every", description = "Measure the heap after a GC every N samples, 0 never (default: ${DEFAULT-VALUE}).")
    int gcEvery = 2;

    @Option(names = "--out", paramLabel = "DIR", description = "Write the CSV and the summary here.")
    Path out;

    /** One sample of the time series. */
    record Sample(double seconds, long commands, long trials, long killed, double commandsPerSecond, long rssKb, long heapAfterGcKb) {}

    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong trialsDone = new AtomicLong();
    private final AtomicLong kills = new AtomicLong();
    /** The first histogram taken after the warm-up (a quarter of the commands), and when. */
    private volatile Map<String, Long> warmHistogram;
    private volatile long warmCommands;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("tuner", tuner.equals("Stateless") ? StatelessSoakTuner.configEntry()
                : Map.of("name", tuner, "classArgs", tuner.equals("Random") ? Map.of("seed", 0) : Map.of("optimize_mode", "minimize", "seed", 0)));
        config.put("assessor", Map.of("name", assessor, "classArgs", assessor.equals("Threshold")
                ? Map.of("upper", 1.2, "n_warmup_steps", 1) : Map.of("optimize_mode", "minimize")));
        err.println("bench-soak: " + commands + " commands, tuner " + tuner + ", assessor " + assessor + ", " + periodical + " intermediate results, "
                + inFlight + " trials in flight");
        List<Sample> samples = new ArrayList<>();
        Map<String, Long> histogramStart;
        Map<String, Long> histogramEnd;
        try (DispatcherProcess d = DispatcherProcess.start(config)) {
            long pid = d.pid();
            d.send(CommandType.INITIALIZE, DispatcherProcess.SPACE);
            d.flush();
            d.receive(CommandType.INITIALIZED);
            Set<Long> killed = ConcurrentHashMap.newKeySet();
            BlockingQueue<Long> ready = new ArrayBlockingQueue<>(inFlight * 4);
            AtomicReference<Throwable> readerFailure = new AtomicReference<>();
            Thread reader = new Thread(() -> read(d, ready, killed, readerFailure), "soak-reader");
            reader.setDaemon(true);
            reader.start();

            long t0 = System.nanoTime();
            histogramStart = histogram(pid);
            samples.add(new Sample(0, 0, 0, 0, 0, rssKb(pid), liveKb(histogramStart)));
            Thread sampler = new Thread(() -> sample(pid, t0, samples, err), "soak-sampler");
            sampler.setDaemon(true);
            sampler.start();

            for (int i = 0; i < inFlight; i++) {
                send(d, CommandType.REQUEST_TRIAL_JOBS, "1");
            }
            d.flush();
            while (sent.get() < commands) {
                Long id = ready.poll(30, TimeUnit.SECONDS);
                if (id == null) {
                    throw new IOException("no TR from the dispatcher for 30 s", readerFailure.get());
                }
                double target = (id * 7919 % 1000) / 1000.0;
                for (int s = 0; s < periodical; s++) {
                    send(d, CommandType.REPORT_METRIC_DATA, DispatcherProcess.periodicalMetric(id, s, target + 1.0 / (s + 1)));
                }
                if (killed.remove(id)) {
                    send(d, CommandType.TRIAL_END, DispatcherProcess.trialEnd(id, "USER_CANCELED"));
                } else {
                    send(d, CommandType.REPORT_METRIC_DATA, DispatcherProcess.finalMetric(id, target));
                    send(d, CommandType.TRIAL_END, DispatcherProcess.trialEnd(id));
                }
                trialsDone.incrementAndGet();
                send(d, CommandType.REQUEST_TRIAL_JOBS, "1");
                d.flush();
            }
            sampler.interrupt();
            sampler.join();
            // what is in flight is answered, so that the last sample sees a settled dispatcher
            for (int i = 0; i < inFlight; i++) {
                ready.poll(30, TimeUnit.SECONDS);
            }
            histogramEnd = histogram(pid);
            synchronized (samples) {
                samples.add(new Sample((System.nanoTime() - t0) / 1e9, sent.get(), trialsDone.get(), kills.get(), Double.NaN,
                        rssKb(pid), liveKb(histogramEnd)));
            }
        }
        String csv = csv(samples);
        String summary = summary(samples, histogramStart, histogramEnd);
        spec.commandLine().getOut().print(summary);
        spec.commandLine().getOut().flush();
        if (out != null) {
            Files.createDirectories(out);
            String name = name();
            Files.writeString(out.resolve(name + ".csv"), csv, StandardCharsets.UTF_8);
            Files.writeString(out.resolve(name + ".md"), summary, StandardCharsets.UTF_8);
            err.println("bench-soak: wrote " + out.resolve(name + ".csv") + " and " + out.resolve(name + ".md"));
        }
        return 0;
    }

    private void send(DispatcherProcess d, CommandType type, String payload) throws IOException {
        d.send(type, payload);
        sent.incrementAndGet();
    }

    private void read(DispatcherProcess d, BlockingQueue<Long> ready, Set<Long> killed, AtomicReference<Throwable> failure) {
        try {
            while (true) {
                Command c = d.receive();
                if (c.type() == CommandType.NEW_TRIAL_JOB) {
                    ready.put(DispatcherProcess.parameterId(c));
                } else if (c.type() == CommandType.KILL_TRIAL_JOB) {
                    String p = c.payload();
                    killed.add(Long.parseLong(p.substring(2, p.length() - 1)));
                    kills.incrementAndGet();
                }
            }
        } catch (Throwable t) {
            failure.set(t);
        }
    }

    private void sample(long pid, long t0, List<Sample> samples, PrintWriter err) {
        long lastCommands = 0;
        long lastNanos = t0;
        int n = 0;
        try {
            while (!Thread.currentThread().isInterrupted()) {
                Thread.sleep(Math.round(interval * 1000));
                long now = System.nanoTime();
                long c = sent.get();
                long trials = trialsDone.get();
                long killedSoFar = kills.get();
                double rate = (c - lastCommands) / ((now - lastNanos) / 1e9);
                long rss = rssKb(pid);
                n++;
                long heap = -1;
                if (gcEvery > 0 && n % gcEvery == 0) {
                    Map<String, Long> h = histogram(pid);
                    heap = liveKb(h);
                    if (warmHistogram == null && c >= commands / 4) {
                        warmHistogram = h;
                        warmCommands = c;
                    }
                }
                Sample s = new Sample((now - t0) / 1e9, c, trials, killedSoFar, rate, rss, heap);
                synchronized (samples) {
                    samples.add(s);
                }
                err.printf(Locale.ROOT, "bench-soak: %6.1f s  %9d commands  %8.0f commands/s  RSS %7.1f MB%s%n", s.seconds(), c, rate,
                        rss / 1024.0, heap < 0 ? "" : String.format(Locale.ROOT, "  heap after GC %6.1f MB", heap / 1024.0));
                err.flush();
                lastCommands = c;
                // the time spent in jcmd is left out of the next interval's rate
                lastNanos = System.nanoTime();
                lastCommands = sent.get();
            }
        } catch (InterruptedException e) {
            // done
        }
    }

    /** VmRSS of {@code /proc/PID/status} in kB, or -1 where there is no such file. */
    static long rssKb(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | NumberFormatException e) {
            // not Linux, or gone
        }
        return -1;
    }

    /**
     * The live objects of the process by class ({@code jcmd PID GC.class_histogram}, which runs a full
     * GC first and counts what survives in the same safepoint), bytes by class name; the total under
     * {@code ""}. Empty when jcmd is not available.
     */
    static Map<String, Long> histogram(long pid) {
        Map<String, Long> out = new LinkedHashMap<>();
        String h = jcmd(pid, "GC.class_histogram");
        if (h == null) {
            return out;
        }
        for (String line : h.split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 4 && f[0].endsWith(":")) {
                out.merge(f[3], Long.parseLong(f[2]), Long::sum);
            } else if (f.length >= 3 && f[0].equals("Total")) {
                out.put("", Long.parseLong(f[2]));
            }
        }
        return out;
    }

    /** Live heap in kB after a full GC, or -1. */
    static long liveKb(Map<String, Long> histogram) {
        Long total = histogram.get("");
        return total == null ? -1 : total / 1024;
    }

    /** The {@code n} classes whose live bytes grew most from {@code from} to {@code to}, as a table. */
    static String growth(Map<String, Long> from, Map<String, Long> to, int n) {
        List<Map.Entry<String, Long>> grown = new ArrayList<>();
        to.forEach((k, v) -> {
            if (!k.isEmpty()) {
                grown.add(Map.entry(k, v - from.getOrDefault(k, 0L)));
            }
        });
        grown.sort((a, b) -> Long.compare(b.getValue(), a.getValue()));
        StringBuilder b = new StringBuilder("| class | live bytes at the start of the window | at its end | growth |\n|---|---:|---:|---:|\n");
        for (Map.Entry<String, Long> e : grown.subList(0, Math.min(n, grown.size()))) {
            b.append(String.format(Locale.ROOT, "| `%s` | %d | %d | %+d |%n", e.getKey(), from.getOrDefault(e.getKey(), 0L),
                    to.get(e.getKey()), e.getValue()));
        }
        long total = to.getOrDefault("", 0L) - from.getOrDefault("", 0L);
        b.append(String.format(Locale.ROOT, "| all | %d | %d | %+d |%n", from.getOrDefault("", 0L), to.getOrDefault("", 0L), total));
        return b.toString();
    }

    private static String jcmd(long pid, String what) {
        try {
            Process p = new ProcessBuilder("jcmd", String.valueOf(pid), what).redirectErrorStream(true).start();
            String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return p.waitFor() == 0 ? text : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    static String csv(List<Sample> samples) {
        StringBuilder b = new StringBuilder("seconds,commands,trials,killed,commands_per_second,rss_kb,heap_after_gc_kb\n");
        for (Sample s : samples) {
            b.append(String.format(Locale.ROOT, "%.2f,%d,%d,%d,%s,%d,%s%n", s.seconds(), s.commands(), s.trials(), s.killed(),
                    Double.isNaN(s.commandsPerSecond()) ? "" : String.format(Locale.ROOT, "%.0f", s.commandsPerSecond()), s.rssKb(),
                    s.heapAfterGcKb() < 0 ? "" : String.valueOf(s.heapAfterGcKb())));
        }
        return b.toString();
    }

    private String summary(List<Sample> samples, Map<String, Long> histogramStart, Map<String, Long> histogramEnd) {
        Sample first = samples.get(0);
        Sample last = samples.get(samples.size() - 1);
        long maxRss = samples.stream().mapToLong(Sample::rssKb).max().orElse(-1);
        List<Sample> heaps = samples.stream().filter(s -> s.heapAfterGcKb() >= 0).toList();
        long maxHeap = heaps.stream().mapToLong(Sample::heapAfterGcKb).max().orElse(-1);
        // warm-up: the first quarter of the commands
        List<Sample> settled = heaps.stream().filter(s -> s.commands() >= commands / 4).toList();
        List<Sample> settledRss = samples.stream().filter(s -> s.commands() >= commands / 4).toList();
        double heapSlope = slopePerTrial(settled, true);
        double rssSlope = slopePerTrial(settledRss, false);
        long heapAtWarm = settled.isEmpty() ? -1 : settled.get(0).heapAfterGcKb();
        long rssAtWarm = settledRss.isEmpty() ? -1 : settledRss.get(0).rssKb();
        // flat: what the slope after the warm-up adds over that stretch stays within 10 % of the
        // level at the warm-up plus 2 MB (noise of a few MB: what is in flight, the collector's timing)
        boolean heapFlat = settled.size() >= 2 && flat(heapSlope, settled, heapAtWarm);
        boolean rssFlat = settledRss.size() >= 2 && flat(rssSlope, settledRss, rssAtWarm);
        double total = last.seconds();
        StringBuilder b = new StringBuilder();
        b.append("# Dispatcher soak: ").append(tuner).append(" + ").append(assessor).append("\n\n");
        b.append("Made by `./tunekit-bench bench-soak --commands ").append(commands).append(" --tuner ").append(tuner).append(" --assessor ").append(assessor)
                .append(" --periodical ").append(periodical).append(" --in-flight ").append(inFlight).append(" --interval ")
                .append(fmt(interval)).append(" --gc-every ").append(gcEvery).append(" --out bench/results/soak` on ")
                .append(Instant.now().toString(), 0, 10).append(" (").append(Runtime.getRuntime().availableProcessors())
                .append(" cores; the dispatcher runs with the `tunekit` script's default JVM options).\n\n");
        b.append("Each trial: `GE 1`, `TR`, ").append(periodical).append(" × `ME PERIODICAL`, `ME FINAL` and `EN SUCCEEDED` (or only `EN USER_CANCELED` ")
                .append("once the assessor's `KI` for it has arrived); ").append(inFlight).append(" trials in flight; search space: six uniform parameters.\n\n");
        b.append(String.format(Locale.ROOT, "- commands sent: %d in %.1f s, %.0f commands/s overall (%d trials, %d killed by the assessor)%n",
                last.commands(), total, last.commands() / total, last.trials(), last.killed()));
        List<Double> rates = samples.stream().map(Sample::commandsPerSecond).filter(r -> !Double.isNaN(r) && r > 0).toList();
        if (!rates.isEmpty()) {
            int q = rates.size() / 4;
            b.append(String.format(Locale.ROOT, "- throughput over time (commands/s, per sample): first quarter mean %.0f, last quarter mean %.0f, min %.0f, max %.0f%n",
                    mean(rates.subList(0, Math.max(1, q))), mean(rates.subList(rates.size() - Math.max(1, q), rates.size())),
                    rates.stream().mapToDouble(Double::doubleValue).min().orElse(0), rates.stream().mapToDouble(Double::doubleValue).max().orElse(0)));
        }
        b.append(String.format(Locale.ROOT, "- resident set (VmRSS): start %.1f MB, after warm-up (%d commands) %.1f MB, end %.1f MB, max %.1f MB; "
                + "slope after warm-up %.1f bytes per trial%n", first.rssKb() / 1024.0, settledRss.isEmpty() ? 0 : settledRss.get(0).commands(),
                rssAtWarm / 1024.0, last.rssKb() / 1024.0, maxRss / 1024.0, rssSlope));
        b.append(String.format(Locale.ROOT, "- heap used after a full GC: start %.1f MB, after warm-up (%d commands) %.1f MB, end %.1f MB, max %.1f MB; "
                + "slope after warm-up %.1f bytes per trial%n", first.heapAfterGcKb() / 1024.0, settled.isEmpty() ? 0 : settled.get(0).commands(),
                heapAtWarm / 1024.0, last.heapAfterGcKb() / 1024.0, maxHeap / 1024.0, heapSlope));
        b.append("- verdict: ").append(heapFlat && rssFlat ? "**flat**" : "**growing**")
                .append(" (flat: from the first sample after a quarter of the commands to the end, the least-squares slope adds at most ")
                .append("10 % of the level there + 2 MB; heap ").append(heapFlat ? "flat" : "grows").append(", RSS ").append(rssFlat ? "flat" : "grows")
                .append("). The live heap is what the process keeps; RSS also follows the heap the JVM has committed, which it enlarges ")
                .append("as the allocation rate asks and seldom gives back.\n\n");
        b.append("Time series: `").append(name()).append(".csv` (the live heap is measured every ").append(gcEvery)
                .append(" samples with `jcmd PID GC.class_histogram`, a full GC; those pauses are left out of the next sample's throughput).\n\n");
        if (warmHistogram != null) {
            b.append("What grew after the warm-up, from ").append(warmCommands).append(" commands to the end (live bytes after a full GC, ")
                    .append("`jcmd PID GC.class_histogram`):\n\n").append(growth(warmHistogram, histogramEnd, 12)).append('\n');
        }
        b.append("What the whole run left, from the start to the end:\n\n").append(growth(histogramStart, histogramEnd, 12));
        return b.toString();
    }

    private String name() {
        return "soak-" + tuner.toLowerCase(Locale.ROOT) + "-" + assessor.toLowerCase(Locale.ROOT);
    }

    private static boolean flat(double slopePerTrial, List<Sample> after, long levelKb) {
        long trials = after.get(after.size() - 1).trials() - after.get(0).trials();
        return slopePerTrial * trials <= levelKb * 1024 * 0.10 + 2 * 1024 * 1024;
    }

    /** Least-squares slope of memory (bytes) against trials. */
    private static double slopePerTrial(List<Sample> s, boolean heap) {
        if (s.size() < 2) {
            return Double.NaN;
        }
        double mx = 0;
        double my = 0;
        for (Sample x : s) {
            mx += x.trials();
            my += (heap ? x.heapAfterGcKb() : x.rssKb()) * 1024.0;
        }
        mx /= s.size();
        my /= s.size();
        double num = 0;
        double den = 0;
        for (Sample x : s) {
            double dx = x.trials() - mx;
            num += dx * ((heap ? x.heapAfterGcKb() : x.rssKb()) * 1024.0 - my);
            den += dx * dx;
        }
        return den == 0 ? Double.NaN : num / den;
    }

    private static double mean(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    }

    private static String fmt(double v) {
        return v == Math.rint(v) ? String.valueOf((long) v) : String.valueOf(v);
    }
}
