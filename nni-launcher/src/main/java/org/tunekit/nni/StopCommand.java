package org.tunekit.nni;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tunekit nni stop [ID]}: {@code nnictl stop}. */
@Command(name = "stop", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Stop running experiments as 'nnictl stop' picks them: the only one running when none is named, an id (or "
                + "its prefix, or PREFIX*), the one on --port, or --all. Each manager is asked to stop (DELETE "
                + "/api/v1/nni/experiment), which ends its trials and its tuner, and is waited for."})
public final class StopCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..1", paramLabel = "ID", description = "The experiment's id, a prefix of it, or PREFIX*.")
    String id;

    @Option(names = {"--port", "-p"}, paramLabel = "PORT", description = "Stop the experiment whose web UI is on this port.")
    Integer port;

    @Option(names = {"--all", "-a"}, description = "Stop every running experiment.")
    boolean all;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ExperimentRegistry registry = ExperimentRegistry.forHome(ManagerOptions.home());
        ExperimentStopper stopper = new ExperimentStopper(out, registry);
        try {
            boolean allGone = true;
            for (String i : stopper.select(id, port, all)) {
                allGone &= stopper.stop(i);
            }
            return allGone ? 0 : 1;
        } catch (LaunchException | IOException e) {
            out.flush();
            err.println("tunekit nni stop: " + e.getMessage());
            return 1;
        }
    }
}
