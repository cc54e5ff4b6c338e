package org.tunekit.bench.runner;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.tunekit.runner.RunCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tunekit-bench bench-runner}: the local runner's own cost per trial. It runs real experiments with
 * {@code tunekit run} (in this process) whose trials are shell commands that report their final
 * result at once through the file channel, and reads back from the experiment's database, for each
 * trial, the time from the previous trial's end to its start with one trial at a time: detecting the
 * exit, recording it, {@code EN} to the dispatcher, {@code GE 1}, the tuner's suggestion, {@code TR},
 * recording the new trial and starting its process. It also times the shape of NNI's reference figure
 * (6 final-only trials, 2 at a time) from the experiment's start to its end.
 */
@Command(name = "bench-runner", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Measure the local runner's own overhead per trial: real experiments of trials that report at once, one at a "
                + "time, and the gap between one trial's end and the next one's start, read from the results database. Also "
                + "times 6 final-only trials, 2 at a time, from start to end (the shape of NNI's reference figure).",
            "Writes runner-overhead.md to --out when given; progress goes to standard error."})
public final class BenchRunnerCommand implements Callable<Integer> {
    private static final String TRIAL = """
            p=$(cat "$NNI_SYS_DIR/parameter.cfg")
            id=$(printf '%s' "$p" | sed -n 's/.*"parameter_id": *\\([0-9]*\\).*/\\1/p')
            x=$(printf '%s' "$p" | sed -n 's/.*"x": *\\([-0-9.eE+]*\\).*/\\1/p')
            body="{\\"parameter_id\\": $id, \\"trial_job_id\\": \\"$NNI_TRIAL_JOB_ID\\", \\"type\\": \\"FINAL\\", \\"sequence\\": 0, \\"value\\": \\"$x\\"}"
            mkdir -p "$NNI_SYS_DIR/.nni"
            n=$(printf '%s\\n' "$body" | wc -c)
            printf 'ME%06d%s\\n' "$n" "$body" >> "$NNI_SYS_DIR/.nni/metrics"
            """;

    @Spec
    CommandSpec spec;

    @Option(names = "--trials", description = "Trials of the one-at-a-time experiment (default: ${DEFAULT-VALUE}).")
    int trials = 200;

    @Option(names = "--tuner", description = "The tuner (default: ${DEFAULT-VALUE}).")
    String tuner = "TPE";

    @Option(names = "--repeat", description = "Runs of the 6-trial experiment (default: ${DEFAULT-VALUE}).")
    int repeat = 5;

    @Option(names = "--training-service", paramLabel = "FILE",
            description = "A YAML file holding the experiments' trainingService entry (default: this machine's, platform: local), to "
                    + "measure another place where trials run the same way (remote machines, Slurm).")
    Path trainingService;

    @Option(names = "--out", paramLabel = "DIR", description = "Write runner-overhead.md (runner-overhead-PLATFORM.md for another "
            + "training service) here.")
    Path out;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        Path work = Files.createTempDirectory("tunekit-bench-runner");
        Path code = Files.createDirectories(work.resolve("code"));
        Files.writeString(code.resolve("trial.sh"), TRIAL);
        service = trainingService == null ? "{platform: local}" : Files.readString(trainingService, StandardCharsets.UTF_8).strip();
        platform = platformOf(service);
        err.println("bench-runner: " + trials + " trials one at a time, tuner " + tuner + ", platform " + platform + " (in " + work + ")");
        Path sequential = experiment(work, "sequential", trials, 1);
        double[] gaps = gaps(sequential);
        double[] lifetimes = lifetimes(sequential);
        double[] shaped = new double[repeat];
        for (int i = 0; i < repeat; i++) {
            err.println("bench-runner: 6 trials, 2 at a time, run " + (i + 1) + " of " + repeat);
            shaped[i] = wall(experiment(work, "nni-shape-" + i, 6, 2));
        }
        String report = report(gaps, lifetimes, shaped);
        spec.commandLine().getOut().print(report);
        spec.commandLine().getOut().flush();
        if (out != null) {
            Files.createDirectories(out);
            String file = "local".equals(platform) ? "runner-overhead.md" : "runner-overhead-" + platform + ".md";
            Files.writeString(out.resolve(file), report, StandardCharsets.UTF_8);
        }
        return 0;
    }

    /** The trainingService entry, as YAML text, and its platform. */
    private String service;
    private String platform;

    private static String platformOf(String yaml) {
        Object tree = new org.snakeyaml.engine.v2.api.Load(org.snakeyaml.engine.v2.api.LoadSettings.builder().build()).loadFromString(yaml);
        if (tree instanceof java.util.Map<?, ?> m && m.get("platform") instanceof String p) {
            return p;
        }
        throw new IllegalArgumentException("--training-service: the file must hold a mapping with 'platform', such as {platform: remote, "
                + "machineList: [...]}");
    }

    private Path experiment(Path work, String name, int n, int concurrency) throws Exception {
        Path config = work.resolve(name + ".yml");
        Files.writeString(config, """
                experimentName: %s
                searchSpace: {x: {_type: uniform, _value: [0, 1]}}
                trialCommand: sh trial.sh
                trialCodeDirectory: %s
                trialConcurrency: %d
                maxTrialNumber: %d
                tuner: {name: %s, classArgs: {optimize_mode: minimize, seed: 1}}
                trainingService:
                %s
                """.formatted(name, work.resolve("code"), concurrency, n, tuner, service.indent(2).stripTrailing()));
        Path root = work.resolve("experiments");
        CommandLine cl = new CommandLine(new RunCommand());
        StringWriter captured = new StringWriter();
        cl.setOut(new PrintWriter(captured));
        cl.setErr(new PrintWriter(captured));
        int status = cl.execute(config.toString(), "--dir", root.toString(), "--trial-channel", "file");
        if (status != 0) {
            throw new IllegalStateException("the experiment failed (status " + status + "):\n" + captured);
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("Experiment ([a-z0-9]{8})").matcher(captured.toString());
        if (!m.find()) {
            throw new IllegalStateException("no experiment id in:\n" + captured);
        }
        return root.resolve(m.group(1)).resolve("experiment.db");
    }

    private static double[] gaps(Path db) throws Exception {
        List<long[]> rows = rows(db, "SELECT started_ms, ended_ms FROM trials ORDER BY sequence");
        double[] g = new double[rows.size() - 1];
        for (int i = 1; i < rows.size(); i++) {
            g[i - 1] = rows.get(i)[0] - rows.get(i - 1)[1];
        }
        return g;
    }

    private static double[] lifetimes(Path db) throws Exception {
        return rows(db, "SELECT started_ms, ended_ms FROM trials ORDER BY sequence").stream().mapToDouble(r -> r[1] - r[0]).toArray();
    }

    private static double wall(Path db) throws Exception {
        return rows(db, "SELECT started_ms, ended_ms FROM experiment").get(0)[1] - rows(db, "SELECT started_ms, ended_ms FROM experiment").get(0)[0];
    }

    private static List<long[]> rows(Path db, String sql) throws Exception {
        List<long[]> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            while (r.next()) {
                out.add(new long[] {r.getLong(1), r.getLong(2)});
            }
        }
        return out;
    }

    private String report(double[] gaps, double[] lifetimes, double[] shaped) {
        StringBuilder b = new StringBuilder();
        b.append("local".equals(platform) ? "# Local runner overhead\n\n" : "# Runner overhead, platform: " + platform + "\n\n");
        b.append("`./tunekit-bench bench-runner --trials ").append(trials).append(" --tuner ").append(tuner).append(" --repeat ").append(repeat)
                .append(trainingService == null ? "" : " --training-service " + trainingService)
                .append("`: trials are `sh` scripts that report their final result at once through the file channel; times in ms, "
                        + "from the results database (millisecond stamps).\n\n");
        if (!"local".equals(platform)) {
            b.append("The training service:\n\n```yaml\n").append(service).append("\n```\n\n");
        }
        b.append("| measure | median | p90 | max |\n|---|---|---|---|\n");
        row(b, "runner overhead: a trial's end to the next trial's start (one at a time, " + gaps.length + " gaps)", gaps);
        row(b, "local".equals(platform) ? "a trial's process, start to exit (the trial itself, not the runner)"
                : "a trial, start to end as recorded (the trial itself, its start there, and the poll that notices its end)", lifetimes);
        row(b, "6 final-only trials, 2 at a time: experiment start to end (" + shaped.length + " runs)", shaped);
        b.append("\nNNI 3's manager on the same machine kind: about 1 s per trial generation; 6 final-only trials at concurrency 2 take "
                + "4.3 s from start to DONE (`../shared/nni-protocol-notes.md`).\n");
        return b.toString();
    }

    private static void row(StringBuilder b, String name, double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        b.append("| ").append(name).append(" | ").append(fmt(quantile(s, 0.5))).append(" | ").append(fmt(quantile(s, 0.9))).append(" | ")
                .append(fmt(s[s.length - 1])).append(" |\n");
    }

    private static double quantile(double[] sorted, double q) {
        double pos = q * (sorted.length - 1);
        int lo = (int) Math.floor(pos);
        int hi = Math.min(sorted.length - 1, lo + 1);
        return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
    }

    private static String fmt(double ms) {
        return String.format(Locale.ROOT, ms < 100 ? "%.1f" : "%.0f", ms);
    }
}
