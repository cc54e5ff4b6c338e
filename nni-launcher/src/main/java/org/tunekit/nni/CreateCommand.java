package org.tunekit.nni;

import com.google.gson.GsonBuilder;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import org.tunekit.nniconfig.ConfigException;
import org.tunekit.nniconfig.NniConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code tunekit nni create --config FILE}: {@code nnictl create}, with tunekit as the manager's tuner. */
@Command(name = "create", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Create an experiment as 'nnictl create' does: start NNI's manager in the background with tunekit as its "
                + "Python interpreter, post the experiment config to it, register the experiment in ~/nni-experiments/.experiment, "
                + "print the web UI's address and return once the tuner runs."})
public final class CreateCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = {"--config", "-c"}, required = true, paramLabel = "FILE", description = "The experiment config (NNI's v2 format, YAML or JSON).")
    Path config;

    @Option(names = {"--port", "-p"}, paramLabel = "PORT", description = "The port of the web UI and REST API (default: ${DEFAULT-VALUE}).")
    int port = 8080;

    @Option(names = {"--debug", "-d"}, description = "Log at debug level.")
    boolean debug;

    @Option(names = {"--url-prefix", "-u"}, paramLabel = "PREFIX", description = "Serve the web UI and REST API under this path.")
    String urlPrefix;

    @Option(names = {"--foreground", "-f"}, description = "Stay attached: the manager logs to this terminal; the command returns when the "
            + "experiment ends (then stops the manager), and Ctrl-C stops it.")
    boolean foreground;

    @Option(names = "--dry-run", description = "Print the JSON that would be posted to the manager (the config as nnictl sends it) and stop.")
    boolean dryRun;

    @Mixin
    ManagerOptions manager;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String home = ManagerOptions.home();
        NniConfig.Result cfg;
        try {
            cfg = NniConfig.load(config, home);
        } catch (ConfigException e) {
            err.println("tunekit nni create: " + config + ": " + e.getMessage());
            return 1;
        }
        if ("fatal".equals(cfg.logLevel())) {
            // NNI's config classes accept it; the manager started with it does not
            err.println("tunekit nni create: " + config + ": logLevel: 'fatal' passes NNI's config check, but NNI's manager refuses it "
                    + "(its levels are critical, error, warning, info, debug, trace): use 'error'");
            return 1;
        }
        String own = cfg.tunekitOnlyPlatform();
        if (own != null) {
            // a platform of Tunekit's own: NNI's manager would refuse the experiment after it started
            err.println("tunekit nni create: " + config + ": " + own + " is Tunekit's own training service: NNI's manager has none "
                    + "for it; run the experiment with tunekit run " + config);
            return 1;
        }
        String fraction = cfg.fractionalGpus();
        if (fraction != null) {
            // tunekit run shares a GPU this way; NNI's manager takes whole GPUs only
            err.println("tunekit nni create: " + config + ": " + fraction + ": NNI's manager takes a whole number of GPUs; to share a GPU "
                    + "between trials under NNI, give trialGpuNumber: 1 and maxTrialNumberPerGpu: 2 (two trials per GPU)");
            return 1;
        }
        for (String w : cfg.warnings()) {
            err.println("WARNING: " + w);
        }
        if (dryRun) {
            out.println(new GsonBuilder().setPrettyPrinting().serializeNulls().disableHtmlEscaping().create().toJson(cfg.json()));
            return 0;
        }
        try {
            NniInstallation nni = NniInstallation.find(manager.nniNode, manager.python, System.getenv());
            nni.notes().forEach(n -> err.println("WARNING: " + n));
            Path interpreter = ExperimentLauncher.interpreter(manager.interpreter);
            String prefix = urlPrefix == null ? null : stripSlashes(urlPrefix);
            ExperimentRegistry registry = ExperimentRegistry.forHome(home);
            String id = ExperimentLauncher.newId(cfg.workingDirectory(), registry);
            String level = debug && !List.of("debug", "trace").contains(cfg.logLevel()) ? "debug" : cfg.logLevel();
            Object ip = cfg.json().get("nniManagerIp");
            var request = new ExperimentLauncher.Request("create", id, cfg.json(), cfg.mode(), cfg.workingDirectory(), level,
                    cfg.experimentName(), ip instanceof String s ? s : null, port, foreground, prefix, interpreter, nni,
                    manager.environment(cfg.workingDirectory().resolve(id), err), Duration.ofSeconds(manager.timeoutSeconds));
            return new ExperimentLauncher(out, registry).launch(request);
        } catch (LaunchException | IOException e) {
            out.flush();
            err.println("tunekit nni create: " + e.getMessage());
            return 1;
        }
    }

    static String stripSlashes(String prefix) {
        String p = prefix;
        while (p.startsWith("/")) {
            p = p.substring(1);
        }
        while (p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        return p;
    }
}
