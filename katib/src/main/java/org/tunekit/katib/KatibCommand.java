package org.tunekit.katib;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.tunekit.dispatcher.plugin.PluginPath;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code tunekit katib}: Tunekit's algorithms as Katib's services. */
@Command(name = "katib", mixinStandardHelpOptions = true,
        description = "Serve Tunekit's tuners to Katib (Kubeflow's tuning system) over Katib's gRPC API.",
        subcommands = {KatibCommand.Serve.class})
public final class KatibCommand implements Runnable {
    @Override
    public void run() {
        new picocli.CommandLine(this).usage(System.out);
    }

    /** {@code tunekit katib serve}. */
    @Command(name = "serve", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Run Katib's suggestion service (Suggestion and grpc.health.v1.Health) and early-stopping service "
                    + "(EarlyStopping: Katib's medianstop, and the assessors Medianstop, Percentile and Threshold as rules) "
                    + "until SIGTERM or SIGINT.",
                    "Katib's algorithm names (random, tpe, multivariate-tpe, cmaes, grid, sobol, bayesianoptimization) take "
                            + "Katib's settings; every Tunekit tuner, built-in or plugin, is served under its own name with its "
                            + "NNI class arguments as settings. No state is kept between calls: the service may be killed and "
                            + "restarted, or run as several replicas, at any time."})
    static final class Serve implements Callable<Integer> {
        @Option(names = "--port", paramLabel = "PORT", description = "The suggestion service's port (default: ${DEFAULT-VALUE}); -1 serves none.")
        int port = 6789;

        @Option(names = "--early-stopping-port", paramLabel = "PORT",
                description = "The early-stopping service's port (medianstop, Medianstop, Percentile, Threshold; "
                        + "default: ${DEFAULT-VALUE}); -1 serves none.")
        int earlyStoppingPort = 6788;

        @Option(names = "--host", paramLabel = "ADDRESS", description = "The address to listen on (default: ${DEFAULT-VALUE}).")
        String host = "0.0.0.0";

        @Option(names = "--plugins", paramLabel = "DIR", description = "A directory of plugin jars. Repeatable; $TUNEKIT_PLUGIN_PATH adds more.")
        List<Path> plugins = new ArrayList<>();

        @Option(names = "--max-request-mb", paramLabel = "MB",
                description = "The largest request accepted, in MiB; a request carries every trial (default: ${DEFAULT-VALUE}).")
        int maxRequestMb = KatibServer.Options.DEFAULT_MAX_INBOUND_BYTES >> 20;

        @Option(names = "--max-assignments", paramLabel = "N",
                description = "The most assignments one GetSuggestions may ask for (default: ${DEFAULT-VALUE}).")
        int maxAssignments = KatibServer.Options.DEFAULT_MAX_ASSIGNMENTS;

        @Option(names = "--no-warm-up", description = "Report SERVING at once, without first answering made-up requests "
                + "(which make the first real ones about as fast as the later ones).")
        boolean noWarmUp;

        @Override
        public Integer call() throws Exception {
            if (maxRequestMb < 1 || maxRequestMb > 2047) {
                System.err.println("tunekit katib serve: --max-request-mb must be in [1, 2047], got " + maxRequestMb);
                return 2;
            }
            List<Path> dirs = PluginPath.directories(plugins, System.getenv());
            KatibServer.Options options;
            try {
                options = new KatibServer.Options(host, port, earlyStoppingPort, dirs, maxRequestMb << 20, maxAssignments, !noWarmUp);
            } catch (IllegalArgumentException e) {
                System.err.println("tunekit katib serve: " + e.getMessage());
                return 2;
            }
            KatibServer server = KatibServer.start(options);
            System.err.println("tunekit katib serve:" + (server.port() < 0 ? "" : " Suggestion on " + host + ":" + server.port())
                    + (server.earlyStoppingPort() < 0 ? "" : " EarlyStopping on " + host + ":" + server.earlyStoppingPort()));
            CountDownLatch stopped = new CountDownLatch(1);
            Thread hook = new Thread(() -> {
                server.close();
                stopped.countDown();
            }, "tunekit-katib-shutdown");
            Runtime.getRuntime().addShutdownHook(hook);
            server.awaitTermination();
            stopped.await();
            return 0;
        }
    }
}
