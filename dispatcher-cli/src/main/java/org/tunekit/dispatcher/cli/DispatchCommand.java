package org.tunekit.dispatcher.cli;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.tunekit.dispatcher.DispatcherSettings;
import org.tunekit.dispatcher.Dispatchers;
import org.tunekit.dispatcher.ErrorReporter;
import org.tunekit.dispatcher.MsgDispatcherBase;
import org.tunekit.dispatcher.channel.CommandChannel;
import org.tunekit.dispatcher.channel.ChannelAddress;
import org.tunekit.dispatcher.channel.ChannelLostException;
import org.tunekit.dispatcher.plugin.AlgorithmCatalog;
import org.tunekit.dispatcher.plugin.ExperimentConfig;
import org.tunekit.dispatcher.plugin.PluginPath;
import org.tunekit.dispatcher.protocol.PipeFrameCodec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code tunekit dispatch}: runs a dispatcher for an experiment manager. */
@Command(name = "dispatch", mixinStandardHelpOptions = true,
        description = "Run the dispatcher: read the manager's commands from a channel and drive the configured tuner, assessor or advisor.")
public final class DispatchCommand implements Callable<Integer> {

    @Option(names = "--exp_params", required = true, paramLabel = "B64",
            description = "The experiment config as base64 of its JSON (the manager passes this).")
    String expParams;

    @Option(names = "--channel", paramLabel = "URI",
            description = "stdio:, fd:R,W, ws://host:port/path or tcp://host:port. Default: $NNI_TUNER_COMMAND_CHANNEL, "
                    + "else fd:3,4 when both are open pipes, else stdio:.")
    String channel;

    @Option(names = "--plugins", paramLabel = "DIR",
            description = "A directory of plugin jars (each jar, and each sub-directory, gets its own class loader). Repeatable; "
                    + "$TUNEKIT_PLUGIN_PATH adds more (separated by ':').")
    List<Path> plugins = new ArrayList<>();

    @Option(names = "--max-frame-bytes", paramLabel = "N", description = "Largest payload accepted (default: ${DEFAULT-VALUE}).")
    long maxFrameBytes = PipeFrameCodec.DEFAULT_MAX_PAYLOAD;

    @Option(names = "--stop-timeout", paramLabel = "SECONDS",
            description = "How long queued work may take to finish after TE (default: ${DEFAULT-VALUE}).")
    double stopTimeoutSeconds = 20;

    @Option(names = "--give-up-after", paramLabel = "SECONDS",
            description = "How long a ws:// or tcp:// channel tries to reach a manager that is gone (no first connection, a drop it "
                    + "does not come back from, replies it does not read) before the dispatcher gives up and exits with status 3. "
                    + "Default: $TUNEKIT_CHANNEL_GIVE_UP_MS milliseconds, else 30.")
    Double giveUpSeconds;

    @Option(names = "--stats",
            description = "At the end, print to stderr how many commands of each kind were handled and how long they took "
                    + "(mean, p99, max), and how long the queues grew. The log has the same figures every $TUNEKIT_STATS_INTERVAL_S "
                    + "seconds (default 60) and at the end.")
    boolean stats;

    @Override
    public Integer call() {
        Map<String, String> env = System.getenv();
        LoggingSetup.configure(env, "info");
        // stdout may be the wire: nothing but frames may reach it
        PrintStreamGuard.protectStdout();
        CommandChannel ch;
        try {
            ch = ChannelOpener.open(channel, env, maxFrameBytes, giveUpSeconds);
        } catch (ChannelLostException e) {
            System.err.println("tunekit dispatch: " + e.getMessage() + " (exit status " + ChannelLostException.EXIT_STATUS + ")");
            return ChannelLostException.EXIT_STATUS;
        } catch (Exception e) {
            System.err.println("tunekit dispatch: cannot open the command channel: " + e.getMessage());
            return 1;
        }
        org.slf4j.LoggerFactory.getLogger(DispatchCommand.class).info("command channel: {}", ch.describe());
        MsgDispatcherBase dispatcher;
        try {
            dispatcher = create(ch, env);
        } catch (RuntimeException | LinkageError e) {
            ErrorReporter.report(ch, e);
            return 1;
        }
        int status = dispatcher.run();
        if (stats) {
            System.err.println(dispatcher.stats().snapshot().format());
        }
        return status;
    }

    private MsgDispatcherBase create(CommandChannel ch, Map<String, String> env) {
        ExperimentConfig config = ExperimentConfig.decode(expParams);
        AlgorithmCatalog catalog = AlgorithmCatalog.discover(PluginPath.directories(plugins, env));
        DispatcherSettings settings = DispatcherSettings.fromEnvironment(env,
                Duration.ofMillis((long) (stopTimeoutSeconds * 1000)));
        return Dispatchers.create(ch, config, catalog, settings);
    }

    /** Opens the command channel named by {@code --channel}, or chosen by the default rule of {@link ChannelAddress}. */
    static final class ChannelOpener {
        private ChannelOpener() {}

        static CommandChannel open(String uri, Map<String, String> env, long maxFrameBytes, Double giveUpSeconds) throws Exception {
            return ChannelAddress.open(uri, env, maxFrameBytes, ChannelAddress.giveUp(giveUpSeconds, env));
        }
    }
}
