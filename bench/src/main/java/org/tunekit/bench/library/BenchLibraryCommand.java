package org.tunekit.bench.library;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.tunekit.sdk.space.SearchSpace;
import org.tunekit.study.Storage;
import org.tunekit.study.Study;
import org.tunekit.study.Trial;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code tunekit-bench bench-library}: the study library's own cost per ask+tell, under the protocol of
 * {@code bench/reference/optuna_overhead.py}, so that the two are compared row for row.
 */
@Command(name = "bench-library", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Measure the study library's cost per ask+tell: a study of five parameters (x, y uniform in [-5, 5], lr log-uniform in "
                + "[1e-5, 0.1], layers an integer in 1..7, act a choice of three) whose objective costs nothing, N trials asked, read and told "
                + "one after the other, as bench/reference/optuna_overhead.py measures Optuna. Before the measured runs of each tuner and "
                + "storage, one run of --warmup trials is made and not recorded (the JVM compiles the code it runs). Appends rows (peer, "
                + "version, sampler, storage, trials, seed, total_s, mean_us, last100_mean_us) to --out.",
            "Progress goes to standard error."})
public final class BenchLibraryCommand implements Callable<Integer> {
    static final SearchSpace SPACE = SearchSpace.builder().uniform("x", -5, 5).uniform("y", -5, 5).loguniform("lr", 1e-5, 1e-1)
            .randint("layers", 1, 8).choice("act", "relu", "tanh", "sigmoid").build();

    @Spec
    CommandSpec spec;

    @Option(names = "--samplers", split = ",", description = "Tuners, as Optuna's sampler labels: random (Random), tpe (TPE). Default: ${DEFAULT-VALUE}.")
    List<String> samplers = new ArrayList<>(List.of("random", "tpe"));

    @Option(names = "--storages", split = ",", description = "memory, sqlite, postgres (needs --postgres). Default: ${DEFAULT-VALUE}.")
    List<String> storages = new ArrayList<>(List.of("memory", "sqlite"));

    @Option(names = "--sizes", split = ",", description = "Trials per run. Default: ${DEFAULT-VALUE}.")
    List<Integer> sizes = new ArrayList<>(List.of(100, 10_000));

    @Option(names = "--repeats", split = ",", description = "Runs per size (seeds 0..R-1), paired with --sizes. Default: ${DEFAULT-VALUE}.")
    List<Integer> repeats = new ArrayList<>(List.of(5, 1));

    @Option(names = "--warmup", description = "Trials of the unrecorded run before each tuner and storage. Default: ${DEFAULT-VALUE}.")
    int warmup = 500;

    @Option(names = "--postgres", paramLabel = "JDBC_URL", description = "The PostgreSQL database of the postgres storage (a new study per run).")
    String postgres;

    @Option(names = "--postgres-user", description = "Its user.")
    String postgresUser;

    @Option(names = "--postgres-password", description = "Its user's password.")
    String postgresPassword;

    @Option(names = "--out", required = true, description = "The CSV file to append to.")
    Path out;

    @Override
    public Integer call() throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        if (sizes.size() != repeats.size()) {
            err.println("bench-library: --repeats must pair with --sizes, got " + repeats.size() + " and " + sizes.size());
            return 2;
        }
        if (storages.contains("postgres") && postgres == null) {
            err.println("bench-library: the postgres storage needs --postgres JDBC_URL");
            return 2;
        }
        if (out.getParent() != null) {
            Files.createDirectories(out.getParent());
        }
        if (!Files.exists(out) || Files.size(out) == 0) {
            Files.writeString(out, "peer,version,sampler,storage,trials,seed,total_s,mean_us,last100_mean_us\n");
        }
        String version = java.util.Objects.requireNonNullElse(Study.class.getPackage().getImplementationVersion(), "dev") + " (Java "
                + Runtime.version().feature() + ")";
        int run = 0;
        for (String sampler : samplers) {
            for (String storage : storages) {
                measure(sampler, storage, warmup, -1, run++);
                for (int s = 0; s < sizes.size(); s++) {
                    for (int seed = 0; seed < repeats.get(s); seed++) {
                        double[] r = measure(sampler, storage, sizes.get(s), seed, run++);
                        String row = String.format(Locale.ROOT, "tunekit,%s,%s,%s,%d,%d,%.6f,%.2f,%.2f%n", version, sampler, storage, sizes.get(s),
                                seed, r[0], r[1], r[2]);
                        Files.writeString(out, row, StandardOpenOption.APPEND);
                        err.printf(Locale.ROOT, "%s %s N=%d seed %d: %.1f us per ask+tell (last 100: %.1f us)%n", sampler, storage, sizes.get(s),
                                seed, r[1], r[2]);
                        err.flush();
                    }
                }
            }
        }
        return 0;
    }

    /** One run: {total seconds, mean microseconds per trial, mean over the last 100}. */
    private double[] measure(String sampler, String storage, int trials, long seed, int run) throws IOException {
        String tuner = switch (sampler) {
            case "random" -> "Random";
            case "tpe" -> "TPE";
            default -> throw new IllegalArgumentException("unknown sampler '" + sampler + "': random or tpe");
        };
        Path tmp = Files.createTempDirectory("bench-library");
        String name = "bench-" + ProcessHandle.current().pid() + "-" + run;
        Storage where = switch (storage) {
            case "memory" -> Storage.inMemory();
            case "sqlite" -> Storage.sqlite(tmp);
            case "postgres" -> Storage.postgres(postgres, postgresUser, postgresPassword);
            default -> throw new IllegalArgumentException("unknown storage '" + storage + "': memory, sqlite or postgres");
        };
        try (Study study = Study.named(name).space(SPACE).tuner(tuner).seed(Math.max(seed, 0)).minimize().storage(where).open()) {
            long[] starts = new long[trials];
            long begin = System.nanoTime();
            for (int i = 0; i < trials; i++) {
                starts[i] = System.nanoTime();
                Trial t = study.ask();
                double x = t.getDouble("x");
                double y = t.getDouble("y");
                double lr = Math.log10(t.getDouble("lr")) + 3;
                double layers = t.getLong("layers") - 3;
                double value = x * x + y * y + lr * lr + layers * layers + ("relu".equals(t.getString("act")) ? 0 : 1);
                study.tell(t, value);
                if (trials >= 1000 && (i + 1) % 1000 == 0) {
                    spec.commandLine().getErr().printf("  %s %s: %d of %d%n", sampler, storage, i + 1, trials);
                    spec.commandLine().getErr().flush();
                }
            }
            long end = System.nanoTime();
            int last = Math.min(100, trials);
            double total = (end - begin) / 1e9;
            return new double[] {total, total / trials * 1e6, (end - starts[trials - last]) / 1e3 / last};
        } finally {
            try (Stream<Path> files = Files.walk(tmp)) {
                for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }
}
