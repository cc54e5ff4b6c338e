package org.tunekit.katib;

import io.grpc.ManagedChannel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.tunekit.katib.api.Experiment;
import org.tunekit.katib.api.GetSuggestionsReply;
import org.tunekit.katib.api.ObjectiveType;
import org.tunekit.katib.api.ParameterAssignment;
import org.tunekit.katib.api.ParameterSpec;
import org.tunekit.katib.api.ParameterType;
import org.tunekit.katib.api.SuggestionGrpc;
import org.tunekit.katib.api.Trial;
import org.tunekit.katib.api.TrialStatus;

/**
 * Calls a running suggestion service's {@code GetSuggestions} many times and samples the service's
 * resident memory: {@code SoakDriver PORT PID CALLS EVERY} prints a Markdown table row every EVERY
 * calls (calls so far, the service's VmRSS and VmHWM from {@code /proc/PID/status} in MiB, the mean
 * call time over the last EVERY calls) and finally a summary line.
 *
 * <p>The calls go round Katib's algorithms (tpe, multivariate-tpe, cmaes, random, sobol) and
 * every call names a new experiment (so that anything the service kept per experiment would grow
 * with the calls); each request carries 0 to 19 trials over three parameters (a double, an int and
 * a categorical), some succeeded, some failed, one running. Deterministic (seeded by the call's
 * number).
 */
public final class SoakDriver {
    private static final String[] ALGORITHMS = {"tpe", "multivariate-tpe", "cmaes", "random", "sobol"};

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: SoakDriver PORT PID CALLS EVERY");
            System.exit(2);
        }
        int port = Integer.parseInt(args[0]);
        Path status = Path.of("/proc", args[1], "status");
        long calls = Long.parseLong(args[2]);
        int every = Integer.parseInt(args[3]);
        if (calls < 1 || every < 1) {
            throw new IllegalArgumentException("CALLS and EVERY must be positive, got " + calls + " and " + every);
        }
        List<ParameterSpec> params = List.of(Katib.doubles("lr", "0.001", "0.1"), Katib.ints("units", "8", "64"),
                Katib.list("opt", ParameterType.CATEGORICAL, "sgd", "adam", "rmsprop"));
        ManagedChannel channel = Katib.channel(port);
        SuggestionGrpc.SuggestionBlockingStub stub = SuggestionGrpc.newBlockingStub(channel);
        System.out.println("| calls | RSS MiB | peak RSS MiB | mean ms |");
        System.out.println("|---|---|---|---|");
        System.out.printf("| 0 | %.1f | %.1f | |%n", kib(status, "VmRSS") / 1024.0, kib(status, "VmHWM") / 1024.0);
        long t0 = System.nanoTime();
        double firstAfterWarm = Double.NaN;
        double max = 0;
        for (long i = 1; i <= calls; i++) {
            SplittableRandom rng = new SplittableRandom(i);
            String algorithm = ALGORITHMS[(int) (i % ALGORITHMS.length)];
            Experiment e = Katib.experiment("soak-" + i, algorithm, Map.of(), ObjectiveType.MINIMIZE, params);
            int n = rng.nextInt(20);
            List<Trial> trials = new ArrayList<>(n);
            for (int t = 0; t < n; t++) {
                double lr = 0.001 + 0.099 * rng.nextDouble();
                int units = 8 + rng.nextInt(57);
                String opt = List.of("sgd", "adam", "rmsprop").get(rng.nextInt(3));
                List<ParameterAssignment> a = Katib.assign("lr", KatibSpace.format(lr), "units", Integer.toString(units), "opt", opt);
                TrialStatus.TrialConditionType c = t == n - 1 ? TrialStatus.TrialConditionType.RUNNING
                        : t % 7 == 3 ? TrialStatus.TrialConditionType.FAILED : TrialStatus.TrialConditionType.SUCCEEDED;
                Double loss = c == TrialStatus.TrialConditionType.SUCCEEDED ? (lr - 0.03) * (lr - 0.03) + Math.abs(units - 32) / 1000.0 : null;
                trials.add(Katib.trial("soak-" + i + "-" + t, a, c, loss, loss == null ? null : String.format("2026-01-01T00:00:%02dZ", t)));
            }
            GetSuggestionsReply r = stub.getSuggestions(Katib.request(e, trials, 1 + (int) (i % 3), n + 1 + (int) (i % 3)));
            if (r.getParameterAssignmentsCount() != 1 + (int) (i % 3)) {
                throw new IllegalStateException("call " + i + " (" + algorithm + "): " + r.getParameterAssignmentsCount() + " assignments");
            }
            if (i % every == 0) {
                double rss = kib(status, "VmRSS") / 1024.0;
                double ms = (System.nanoTime() - t0) / 1e6 / every;
                System.out.printf("| %d | %.1f | %.1f | %.2f |%n", i, rss, kib(status, "VmHWM") / 1024.0, ms);
                if (i >= calls / 10 && Double.isNaN(firstAfterWarm)) {
                    firstAfterWarm = rss;
                }
                if (!Double.isNaN(firstAfterWarm)) {
                    max = Math.max(max, rss);
                }
                t0 = System.nanoTime();
            }
        }
        System.out.printf("%nRSS at the first sample after %d calls: %.1f MiB; highest RSS after it: %.1f MiB (%+.1f MiB).%n",
                calls / 10, firstAfterWarm, max, max - firstAfterWarm);
        channel.shutdownNow();
    }

    /** One {@code kB} field of /proc/PID/status. */
    private static long kib(Path status, String field) throws IOException {
        for (String line : Files.readAllLines(status)) {
            if (line.startsWith(field + ":")) {
                return Long.parseLong(line.substring(field.length() + 1).trim().split("\\s+")[0]);
            }
        }
        throw new IllegalStateException(status + " has no " + field);
    }
}
