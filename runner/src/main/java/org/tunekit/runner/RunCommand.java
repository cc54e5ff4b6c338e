package org.tunekit.runner;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.tunekit.dispatcher.cli.LoggingSetup;
import org.tunekit.dispatcher.plugin.PluginPath;
import org.tunekit.nniconfig.ConfigException;
import org.tunekit.runner.results.ExperimentResults;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** {@code tunekit run CONFIG}: runs an NNI experiment config on this machine, trials as real processes. */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run an experiment on this machine: an NNI v2 experiment config (YAML or JSON) runs unchanged, each trial "
                + "a process started as NNI's local training service starts it ('trialCommand' in 'trialCodeDirectory'), "
                + "talking to the runner over NNI's trial channel, so a trial written for NNI ('import nni') runs unchanged.",
            "Every result is kept in the experiment's folder (an SQLite database, the trials' output, a report), and a run "
                + "stopped or killed at any moment continues with --resume ID."})
public final class RunCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..1", paramLabel = "CONFIG", description = "The experiment config (config.yml, config.json).")
    Path config;

    @Option(names = "--resume", paramLabel = "ID", description = "Continue a stopped or killed experiment (its id, or its folder).")
    String resume;

    @Option(names = "--dir", paramLabel = "DIR",
            description = "Where experiments live when the config has no experimentWorkingDirectory (default: $TUNEKIT_EXPERIMENTS_DIR, else ~/tunekit-experiments).")
    Path dir;

    @Option(names = "--plugins", paramLabel = "DIR", description = "A directory of plugin jars. Repeatable; $TUNEKIT_PLUGIN_PATH adds more.")
    List<Path> plugins = new ArrayList<>();

    @Option(names = "--include-intermediate-results",
            description = "Give a trial stopped early to the tuner with its last intermediate result (NNI_INCLUDE_INTERMEDIATE_RESULTS).")
    boolean includeIntermediateResults;

    @Option(names = "--silence-timeout", paramLabel = "DURATION",
            description = "Stop a trial that neither asks for parameters nor reports for this long, as failed (default: ${DEFAULT-VALUE}; 0 never).")
    String silenceTimeout = "1h";

    @Option(names = "--stop-grace", paramLabel = "DURATION",
            description = "Between SIGINT and SIGKILL when a trial is stopped (default: ${DEFAULT-VALUE}).")
    String stopGrace = "5s";

    @Option(names = "--trial-channel", paramLabel = "CHANNEL",
            description = "How trials talk to the runner: both (default: the HTTP URL in NNI_TRIAL_COMMAND_CHANNEL and the parameter "
                    + "file, each trial uses the one it speaks, so trials written for NNI 3 and NNI 2.x run unchanged), http (NNI 3's "
                    + "channel only) or file (NNI 2.x's parameter.cfg and .nni/metrics only).")
    String trialChannel;

    @Option(names = "--accept-new-hosts",
            description = "With platform: remote, trust a machine whose host key is not yet in ~/.ssh/known_hosts, and add it there "
                    + "(a changed key is still refused).")
    boolean acceptNewHosts;

    @Option(names = "--port", paramLabel = "PORT",
            description = "Serve the dashboard on this port, or the next free one after it (default: ${DEFAULT-VALUE}, as NNI's).")
    int port = 8080;

    @Option(names = "--ui-host", paramLabel = "ADDRESS",
            description = "The address the dashboard listens on (default: ${DEFAULT-VALUE}; any other needs the token the printed address carries).")
    String uiHost = "127.0.0.1";

    @Option(names = "--no-ui", description = "Serve no dashboard (tunekit view ID serves one later, from another process).")
    boolean noUi;

    @Option(names = "--top", paramLabel = "N", description = "Trials in the final table (default: ${DEFAULT-VALUE}).")
    int top = 10;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Map<String, String> env = System.getenv();
        if ((config == null) == (resume == null)) {
            err.println("tunekit run: give an experiment config (tunekit run config.yml) or --resume ID, not " + (config == null ? "neither" : "both"));
            return 2;
        }
        if (port < 0 || port > 65535) {
            err.println("tunekit run: --port must be 0 to 65535, got " + port);
            return 2;
        }
        Path folder = null;
        boolean created = false;
        ExperimentSpec experiment;
        ExperimentStore store = null;
        AutoCloseable lock = null;
        LocalRunner runner;
        Progress progress;
        try {
            Duration silence = "0".equals(silenceTimeout.strip()) ? null : option(silenceTimeout, "--silence-timeout");
            Duration grace = option(stopGrace, "--stop-grace");
            Map<String, Object> stored;
            String id;
            if (resume != null) {
                folder = ExperimentFolders.find(resume, dir, env);
                lock = ExperimentFolders.lock(folder);
                configureLogging(folder, null);
                store = ExperimentStore.open(folder, false);
                id = store.id();
                experiment = store.spec();
                stored = store.options();
                if (Boolean.TRUE.equals(stored.get("study"))) {
                    throw new RunnerException(folder + " holds a study of the Tunekit library, whose trials run in the program that made it:"
                            + " go on with Study.load in that program (tunekit results and tunekit view read it as it is)");
                }
                if (plugins.isEmpty() && stored.get("plugins") instanceof List<?> l) {
                    l.forEach(p -> plugins.add(Path.of((String) p)));
                }
                includeIntermediateResults |= Boolean.TRUE.equals(stored.get("includeIntermediateResults"));
                if (trialChannel == null && stored.get("trialChannel") instanceof String c) {
                    trialChannel = c;
                }
            } else {
                experiment = ExperimentSpec.load(config);
                Path root = experiment.workingDirectory() != null ? experiment.workingDirectory()
                        : dir != null ? dir.toAbsolutePath() : ExperimentFolders.defaultRoot(env);
                id = ExperimentFolders.newId(root);
                folder = ExperimentFolders.create(root, id);
                created = true;
                lock = ExperimentFolders.lock(folder);
                configureLogging(folder, experiment.logLevel());
                stored = new LinkedHashMap<>();
                stored.put("plugins", plugins.stream().map(p -> p.toAbsolutePath().toString()).toList());
                stored.put("includeIntermediateResults", includeIntermediateResults);
            }
            LocalRunner.TrialChannels channels = channels(trialChannel);
            stored.put("trialChannel", channels.name().toLowerCase(java.util.Locale.ROOT));
            var options = new LocalRunner.Options(PluginPath.directories(plugins, env), grace, silence, includeIntermediateResults, sdkJar(), channels,
                    org.tunekit.gpus.NvidiaSmi.onProcessPath(), serviceOptions());
            boolean terminal = System.console() != null && System.getenv("TERM") != null && !"dumb".equals(System.getenv("TERM"));
            progress = new Progress(out, terminal, experiment.maximize());
            runner = new LocalRunner(experiment, folder, id, options, progress, Clock.systemUTC());
            // the algorithms are found and created before the experiment is recorded
            runner.prepare();
            if (created) {
                store = ExperimentStore.create(folder, id, experiment, stored, Clock.systemUTC().instant());
                ExperimentFolders.register(id, folder, env);
            }
        } catch (ConfigException | RunnerException e) {
            err.println("tunekit run: " + e.getMessage());
            if (store != null) {
                store.close();
            }
            if (lock != null) {
                lock.close();
            }
            if (created) {
                ExperimentFolders.remove(folder);
            }
            return 2;
        }
        for (String w : experiment.warnings()) {
            err.println("tunekit run: warning: " + w);
        }
        try (AutoCloseable held = lock; ExperimentStore s = store) {
            if (resume != null && "DONE".equals(s.status())) {
                out.println("Experiment " + s.id() + " had ended (DONE); continuing it with the budget its config leaves.");
            }
            return run(runner, progress, s, experiment, folder, out, err);
        }
    }

    private int run(LocalRunner runner, Progress progress, ExperimentStore store, ExperimentSpec experiment, Path folder, PrintWriter out,
                    PrintWriter err) throws IOException, InterruptedException {
        out.println(header(store.id(), experiment));
        out.println("Folder: " + folder);
        LiveView.Serving view = noUi ? null : serveView(folder, err);
        if (view != null) {
            out.println("Dashboard: " + view.address());
        }
        out.flush();
        try {
            return runAndReport(runner, progress, store, folder, out, err);
        } finally {
            if (view != null) {
                view.close();
            }
        }
    }

    /** The dashboard, when one is on the class path and a port can be had; the run goes on without one otherwise. */
    private LiveView.Serving serveView(Path folder, PrintWriter err) {
        for (LiveView v : java.util.ServiceLoader.load(LiveView.class)) {
            try {
                return v.serve(folder, uiHost, port);
            } catch (IOException | RuntimeException e) {
                err.println("tunekit run: warning: no dashboard: " + e.getMessage());
                return null;
            }
        }
        return null;
    }

    private int runAndReport(LocalRunner runner, Progress progress, ExperimentStore store, Path folder, PrintWriter out, PrintWriter err)
            throws IOException, InterruptedException {
        CountDownLatch ended = new CountDownLatch(1);
        Duration grace = option(stopGrace, "--stop-grace");
        Thread hook = new Thread(() -> {
            runner.requestStop("interrupted");
            try {
                ended.await(grace.toMillis() + 15_000, TimeUnit.MILLISECONDS);
            } catch (InterruptedException ignored) {
                Thread.currentThread().interrupt();
            }
        }, "tunekit-run-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        LocalRunner.Outcome outcome;
        try {
            outcome = runner.run(store, resume != null);
        } catch (RunnerException e) {
            store.setStatus("ERROR", Clock.systemUTC().instant());
            store.event("error", null, e.getMessage(), Clock.systemUTC().instant());
            err.println("tunekit run: " + e.getMessage());
            return 1;
        } finally {
            progress.close();
            ended.countDown();
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running: the JVM is on its way out
        }
        ExperimentResults results = store.results();
        out.println();
        ResultsCommand.print(results, top, out);
        ResultsCommand.writeOutputs(results, folder, out);
        out.println("Resume or extend: tunekit run --resume " + store.id() + "    Results: tunekit results " + store.id() + "    Dashboard: tunekit view " + store.id());
        out.flush();
        if (outcome == LocalRunner.Outcome.ERROR) {
            err.println("tunekit run: the experiment failed: " + runner.error());
            return 1;
        }
        return outcome == LocalRunner.Outcome.STOPPED ? 130 : 0;
    }

    private static String header(String id, ExperimentSpec e) {
        StringBuilder b = new StringBuilder("Experiment ").append(id);
        if (e.name() != null) {
            b.append(" (").append(e.name()).append(')');
        }
        b.append(": ");
        List<String> parts = new ArrayList<>();
        e.algorithms().forEach((kind, entry) -> {
            Map<?, ?> m = (Map<?, ?>) entry;
            Object name = m.get("name") != null ? m.get("name") : m.get("className");
            parts.add(kind + " " + name);
        });
        b.append(String.join(", ", parts)).append("; ");
        b.append(e.maxTrialNumber() > 0 ? e.maxTrialNumber() + " trials" : "trials until the tuner has no more");
        if (!e.warmStart().isEmpty()) {
            b.append(" (the ").append(e.warmStart().size()).append(" of warmStart first)");
        }
        b.append(", ").append(e.trialConcurrency()).append(" at a time");
        if (e.maxExperimentDuration() != null) {
            b.append(", at most ").append(LocalRunner.human(e.maxExperimentDuration()));
        }
        b.append("; ").append(e.maximize() ? "maximising" : "minimising");
        return b.toString();
    }

    private static Duration option(String text, String name) {
        try {
            return ExperimentSpec.parseDuration(text);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(name + ": " + e.getMessage());
        }
    }

    private static LocalRunner.TrialChannels channels(String name) {
        if (name == null) {
            return LocalRunner.TrialChannels.BOTH;
        }
        try {
            return LocalRunner.TrialChannels.valueOf(name.strip().toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ConfigException("--trial-channel: must be both, http or file, got '" + name + "'");
        }
    }

    /** The options a training service other than the local one reads. */
    private Map<String, String> serviceOptions() {
        Map<String, String> o = new LinkedHashMap<>();
        o.put("acceptNewHosts", Boolean.toString(acceptNewHosts));
        return o;
    }

    /** The SDK's jar, for Java trials ({@code TUNEKIT_SDK_JAR}). */
    private static Path sdkJar() {
        try {
            return Path.of(org.tunekit.sdk.Parameters.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (Exception e) {
            return null;
        }
    }

    /** The dispatcher's and the runner's log go to {@code FOLDER/log/}; must run before the first logger is made. */
    private static void configureLogging(Path folder, String nniLevel) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("NNI_LOG_DIRECTORY", folder.resolve("log").toString());
        if (nniLevel != null) {
            env.put("NNI_LOG_LEVEL", nniLevel);
        }
        LoggingSetup.configure(env, "info");
    }
}
