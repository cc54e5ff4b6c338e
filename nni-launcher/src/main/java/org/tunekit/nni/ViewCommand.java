package org.tunekit.nni;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tunekit nni view ID}: {@code nnictl view}: the web UI of a stopped experiment, read-only. */
@Command(name = "view", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Show a stopped experiment in NNI's web UI, as 'nnictl view' does: the manager starts read-only (no tuner, "
                + "no trials) in the background; 'tunekit nni stop ID' ends it."})
public final class ViewCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "ID", description = "The experiment's id.")
    String id;

    @Option(names = {"--port", "-p"}, paramLabel = "PORT", description = "The port of the web UI (default: ${DEFAULT-VALUE}).")
    int port = 8080;

    @Option(names = {"--experiment-dir", "-e"}, paramLabel = "DIR",
            description = "The experiments folder that holds ID/, for an experiment not in ~/nni-experiments/.experiment.")
    Path experimentDir;

    @Mixin
    ManagerOptions manager;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        return StoredExperiment.launch("view", "viewed", id, experimentDir, out, err,
                stored -> stored.relaunch("view", stored.logLevel(), port, false, manager, manager.environment(), err));
    }
}
