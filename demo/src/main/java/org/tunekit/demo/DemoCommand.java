package org.tunekit.demo;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code tunekit demo}: runs a simulated experiment with a small built-in manager. */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Run a simulated experiment end to end, with no external manager: the manager's loop that 'tunekit run' uses "
                + "drives the real dispatcher in process and simulates the trials with a built-in objective "
                + "(each reports one intermediate result per epoch, so the assessor can stop poor trials early). "
                + "The same seed gives the same run.",
            "Objectives: branin, hartmann6, ackley5, mixed, nested (all minimised)."})
public final class DemoCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--objective", description = "Function to minimise (default: ${DEFAULT-VALUE}).")
    String objective = "mixed";

    @Option(names = "--tuner", description = "Tuner name (default: ${DEFAULT-VALUE}).")
    String tuner = "GPTuner";

    @Option(names = "--assessor", description = "Assessor name, or 'none' (default: ${DEFAULT-VALUE}).")
    String assessor = "Medianstop";

    @Option(names = "--tuner-args", paramLabel = "JSON",
            description = "Class arguments for the tuner, as a JSON object, on top of {\"optimize_mode\": \"minimize\", \"seed\": <seed>};"
                    + " a null value removes one.")
    String tunerArgs;

    @Option(names = "--assessor-args", paramLabel = "JSON",
            description = "Class arguments for the assessor, as a JSON object, on top of {\"optimize_mode\": \"minimize\"}"
                    + " (Medianstop also gets start_step = epochs / 4, Curvefitting epoch_num = epochs); a null value removes one.")
    String assessorArgs;

    @Option(names = "--trials", description = "Number of trials (default: ${DEFAULT-VALUE}).")
    int trials = 60;

    @Option(names = "--concurrency", description = "Trials running at once (default: ${DEFAULT-VALUE}).")
    int concurrency = 4;

    @Option(names = "--epochs", description = "Intermediate results per trial (default: ${DEFAULT-VALUE}).")
    int epochs = 20;

    @Option(names = "--seed", description = "Seed of the tuner and of the simulated trials (default: ${DEFAULT-VALUE}).")
    long seed = 7;

    @Option(names = "--plugins", paramLabel = "DIR", description = "Plugin directory for the dispatcher. Repeatable.")
    List<Path> plugins = new ArrayList<>();

    @Option(names = "--verbose", description = "Show the dispatcher's log.")
    boolean verbose;

    @Override
    public Integer call() throws Exception {
        var out = spec.commandLine().getOut();
        var err = spec.commandLine().getErr();
        TestFunction obj = TestFunctions.all().get(objective);
        if (obj == null) {
            err.println("tunekit demo: unknown objective '" + objective + "'; available: " + String.join(", ", TestFunctions.all().keySet()));
            return 2;
        }
        if (trials < 1 || concurrency < 1 || epochs < 1) {
            err.println("tunekit demo: --trials, --concurrency and --epochs must be at least 1");
            return 2;
        }
        Map<String, Object> tunerEntry = new LinkedHashMap<>();
        tunerEntry.put("name", tuner);
        Map<String, Object> tunerDefaults = new LinkedHashMap<>(Map.of("optimize_mode", "minimize", "seed", seed));
        Map<String, Object> assessorEntry = null;
        Map<String, Object> assessorDefaults = new LinkedHashMap<>();
        try {
            tunerEntry.put("classArgs", withOverrides(tunerDefaults, tunerArgs, "--tuner-args"));
            if (!assessor.equalsIgnoreCase("none")) {
                assessorDefaults.put("optimize_mode", "minimize");
                // the example's trial length, for the two assessors NNI defines in terms of epochs
                if (assessor.equalsIgnoreCase("Medianstop")) {
                    assessorDefaults.put("start_step", (long) Math.max(1, epochs / 4));
                } else if (assessor.equalsIgnoreCase("Curvefitting")) {
                    assessorDefaults.put("epoch_num", (long) epochs);
                }
                assessorEntry = new LinkedHashMap<>();
                assessorEntry.put("name", assessor);
                assessorEntry.put("classArgs", withOverrides(assessorDefaults, assessorArgs, "--assessor-args"));
            }
        } catch (IllegalArgumentException e) {
            err.println("tunekit demo: " + e.getMessage());
            return 2;
        }
        out.printf("Experiment: minimise '%s' with %s%s; %d trials, %d at a time, %d epochs each, seed %d%n", obj.name(), tuner,
                assessorEntry == null ? "" : " and " + assessor, trials, concurrency, epochs, seed);
        out.flush();
        // the dispatcher runs in this process: its log goes to stderr, quiet unless asked
        org.tunekit.dispatcher.cli.LoggingSetup.configure(Map.of("NNI_LOG_LEVEL", verbose ? "info" : "error"), "error");
        var settings = new DemoExperiment.Settings(obj, tunerEntry, assessorEntry, trials, concurrency, epochs, seed, plugins);
        DemoExperiment.Summary s;
        var progress = System.out;
        try {
            s = DemoExperiment.run(settings, progress);
        } catch (RuntimeException e) {
            err.println("tunekit demo: " + e.getMessage());
            return 1;
        }
        out.println();
        if (s.best() == null) {
            out.println("No trial finished.");
            return 1;
        }
        out.printf("Best value %.6g (optimum %.6g, regret %.3g), trial %s, after %d trials in %.1f s%n", s.bestValue(), obj.optimum(),
                s.bestValue() - obj.optimum(), s.bestTrial(), s.completed() + s.stopped(), s.elapsed().toMillis() / 1000.0);
        out.println("Best parameters:");
        s.best().values().forEach((k, v) -> out.printf("  %-12s %s%n", k, v));
        if (s.stopped() > 0) {
            out.printf("Early stopping: %d of %d trials stopped, %.0f%% of the epochs saved%n", s.stopped(), s.completed() + s.stopped(),
                    100.0 * (s.epochsFull() - s.epochsRun()) / s.epochsFull());
        }
        out.flush();
        return 0;
    }

    /** The defaults with a JSON object's entries put over them; a null value removes an entry. */
    static Map<String, Object> withOverrides(Map<String, Object> defaults, String json, String option) {
        Map<String, Object> out = new LinkedHashMap<>(defaults);
        if (json == null) {
            return out;
        }
        Object parsed;
        try {
            parsed = org.tunekit.dispatcher.protocol.JsonCodec.parse(json, option);
        } catch (org.tunekit.dispatcher.protocol.ProtocolException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        if (!(parsed instanceof Map<?, ?> m)) {
            throw new IllegalArgumentException(option + " must be a JSON object, got " + json);
        }
        m.forEach((k, v) -> {
            if (v == null) {
                out.remove((String) k);
            } else {
                out.put((String) k, v);
            }
        });
        return out;
    }
}
