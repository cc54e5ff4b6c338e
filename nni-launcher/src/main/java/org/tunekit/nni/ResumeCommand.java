package org.tunekit.nni;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tunekit nni resume ID}: {@code nnictl resume}, with tunekit as the manager's tuner. */
@Command(name = "resume", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Resume a stopped experiment as 'nnictl resume' does: NNI's manager continues it from its database, with "
                + "tunekit as the tuner, which gets the finished trials back (and its checkpoint, for a tuner that keeps one)."})
public final class ResumeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "ID", description = "The experiment's id.")
    String id;

    @Option(names = {"--port", "-p"}, paramLabel = "PORT", description = "The port of the web UI and REST API (default: ${DEFAULT-VALUE}).")
    int port = 8080;

    @Option(names = {"--debug", "-d"}, description = "Log at debug level.")
    boolean debug;

    @Option(names = {"--foreground", "-f"}, description = "Stay attached until the experiment ends (then stop the manager).")
    boolean foreground;

    @Option(names = {"--experiment-dir", "-e"}, paramLabel = "DIR",
            description = "The experiments folder that holds ID/, for an experiment not in ~/nni-experiments/.experiment.")
    Path experimentDir;

    @Mixin
    ManagerOptions manager;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        return StoredExperiment.launch("resume", "resumed", id, experimentDir, out, err, stored -> {
            String level = debug && !List.of("debug", "trace").contains(stored.logLevel()) ? "debug" : stored.logLevel();
            return stored.relaunch("resume", level, port, foreground, manager, manager.environment(stored.experimentsDir().resolve(id), err), err);
        });
    }
}
