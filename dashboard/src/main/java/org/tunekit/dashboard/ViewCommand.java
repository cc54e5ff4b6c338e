package org.tunekit.dashboard;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.tunekit.nniconfig.ConfigException;
import org.tunekit.runner.ExperimentReader;
import org.tunekit.runner.RunnerException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code tunekit view [ID|FOLDER]}: serves the dashboard of an experiment, running or ended, and of the others in its folder. */
@Command(name = "view", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Serve the web dashboard of an experiment, running or ended (read from its store), and the list of the "
                + "experiments beside it; stop with Ctrl-C.",
            "It binds 127.0.0.1 unless told otherwise; any other address needs the token that the printed address carries."})
public final class ViewCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(arity = "0..1", paramLabel = "ID", description = "The experiment's id, or its folder (none: the experiments page only).")
    String experiment;

    @Option(names = "--dir", paramLabel = "DIR", description = "The experiments folder to list (default: $TUNEKIT_EXPERIMENTS_DIR, else ~/tunekit-experiments).")
    Path dir;

    @Option(names = "--port", paramLabel = "PORT", description = "The port to serve on, or the next free one after it (default: ${DEFAULT-VALUE}).")
    int port = 8080;

    @Option(names = "--host", paramLabel = "ADDRESS", description = "The address to listen on (default: ${DEFAULT-VALUE}; 0.0.0.0 for every one, with a token).")
    String host = "127.0.0.1";

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (port < 0 || port > 65535) {
            err.println("tunekit view: --port must be 0 to 65535, got " + port);
            return 2;
        }
        Path folder = null;
        Path root = dir;
        try {
            if (experiment != null) {
                folder = ExperimentReader.find(experiment, dir);
                if (root == null) {
                    root = folder.getParent();
                }
            }
            Dashboard d = Dashboard.start(new Dashboard.Settings(host, port, root, folder));
            CountDownLatch stopped = new CountDownLatch(1);
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                d.close();
                stopped.countDown();
            }, "tunekit-view-stop"));
            out.println("Dashboard: " + d.address());
            out.println("Ctrl-C to stop.");
            out.flush();
            stopped.await();
            return 0;
        } catch (ConfigException | RunnerException e) {
            err.println("tunekit view: " + e.getMessage());
            return 2;
        } catch (java.io.IOException e) {
            err.println("tunekit view: " + e.getMessage());
            return 1;
        }
    }
}
