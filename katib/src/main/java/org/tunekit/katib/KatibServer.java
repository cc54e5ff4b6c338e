package org.tunekit.katib;

import io.grpc.Server;
import io.grpc.health.v1.HealthCheckResponse.ServingStatus;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.protobuf.services.HealthStatusManager;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.tunekit.dispatcher.plugin.AlgorithmCatalog;

/**
 * Tunekit as Katib's suggestion service: Katib's {@code Suggestion} service and the standard
 * {@code grpc.health.v1.Health} (SERVING for {@value #HEALTH_NAME} and for {@code ""}) on one port;
 * optionally Katib's {@code EarlyStopping} service ({@code medianstop}, and Tunekit's assessors that a
 * rule can carry: {@link AssessorRules}) with its own health service
 * on another. The services keep no experiment state: every answer is computed from its request.
 */
public final class KatibServer implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(KatibServer.class);

    /** The service name Katib's readiness probe asks the health service about. */
    public static final String HEALTH_NAME = "manager.v1beta1.Suggestion";

    /**
     * How the server runs.
     *
     * @param host              the address to listen on, such as {@code 0.0.0.0}
     * @param port              the suggestion service's port (6789 in Katib); 0 picks a free one, -1 serves none
     * @param earlyStoppingPort the early-stopping service's port (6788 in Katib); 0 picks a free one, -1 serves none
     * @param pluginDirectories folders of plugin jars, as the dispatcher reads them
     * @param maxInboundBytes   the largest request accepted, in bytes (a request carries every trial)
     * @param maxAssignments    the most assignments one {@code GetSuggestions} may ask for
     * @param warmUp            whether to answer made-up requests before reporting SERVING, so that the
     *                          first real ones do not run in the JVM's interpreter (about three seconds)
     */
    public record Options(String host, int port, int earlyStoppingPort, List<Path> pluginDirectories, int maxInboundBytes, int maxAssignments,
                          boolean warmUp) {
        /** The default request limit: 256 MiB, room for well over 100,000 trials. */
        public static final int DEFAULT_MAX_INBOUND_BYTES = 256 << 20;
        /** The default for {@link #maxAssignments}. */
        public static final int DEFAULT_MAX_ASSIGNMENTS = 1000;

        /** Checks the values. */
        public Options {
            Objects.requireNonNull(host, "host");
            pluginDirectories = List.copyOf(pluginDirectories);
            if (port < -1 || port > 65535) {
                throw new IllegalArgumentException("port must be in [0, 65535], or -1 for none, got " + port);
            }
            if (port == -1 && earlyStoppingPort == -1) {
                throw new IllegalArgumentException("neither service is to be served: give a port for one of them");
            }
            if (earlyStoppingPort < -1 || earlyStoppingPort > 65535) {
                throw new IllegalArgumentException("the early-stopping port must be in [0, 65535], or -1 for none, got " + earlyStoppingPort);
            }
            if (maxInboundBytes < 1024) {
                throw new IllegalArgumentException("the request limit must be at least 1024 bytes, got " + maxInboundBytes);
            }
            if (maxAssignments < 1) {
                throw new IllegalArgumentException("the assignment limit must be at least 1, got " + maxAssignments);
            }
        }

        /** Defaults with the given host and suggestion port, no early-stopping service and no plugin folder. */
        public static Options of(String host, int port) {
            return new Options(host, port, -1, List.of(), DEFAULT_MAX_INBOUND_BYTES, DEFAULT_MAX_ASSIGNMENTS, false);
        }
    }

    /** The service name asked about the early-stopping service. */
    public static final String EARLY_STOPPING_HEALTH_NAME = "manager.v1beta1.EarlyStopping";

    private final Server server;
    private final HealthStatusManager health;
    private final Server earlyStopping;
    private final HealthStatusManager earlyStoppingHealth;
    private final DbManagerLogs logs;
    private final TrialStatusWriter status;

    private KatibServer(Server server, HealthStatusManager health, Server earlyStopping, HealthStatusManager earlyStoppingHealth,
                        DbManagerLogs logs, TrialStatusWriter status) {
        this.server = server;
        this.health = health;
        this.earlyStopping = earlyStopping;
        this.earlyStoppingHealth = earlyStoppingHealth;
        this.logs = logs;
        this.status = status;
    }

    /**
     * Finds the algorithms (built-ins and plugins), starts listening, and reports SERVING.
     *
     * @throws IOException when the port cannot be bound
     * @throws org.tunekit.dispatcher.plugin.PluginConfigurationException when a plugin folder does not exist
     */
    public static KatibServer start(Options options) throws IOException {
        return start(options, new TrialStatusWriter());
    }

    static KatibServer start(Options options, TrialStatusWriter status) throws IOException {
        AlgorithmCatalog catalog = AlgorithmCatalog.discover(options.pluginDirectories());
        for (String problem : catalog.problems()) {
            LOG.warn("plugin: {}", problem);
        }
        Algorithms algorithms = new Algorithms(catalog);
        HealthStatusManager health = new HealthStatusManager();
        health.setStatus("", ServingStatus.NOT_SERVING);
        health.setStatus(HEALTH_NAME, ServingStatus.NOT_SERVING);
        Server server = null;
        Suggester suggester = null;
        if (options.port() >= 0) {
            suggester = new Suggester(algorithms, options.maxAssignments());
            // a suggestion is computed from the request alone, with no I/O, so it runs on the thread that
            // read the request: no hand-off to a pool and back, which on a busy node costs more than the work
            server = NettyServerBuilder.forAddress(new InetSocketAddress(options.host(), options.port()))
                    .directExecutor()
                    .maxInboundMessageSize(options.maxInboundBytes())
                    .addService(new SuggestionService(suggester))
                    .addService(health.getHealthService())
                    .build()
                    .start();
        }
        Server es = null;
        HealthStatusManager esHealth = null;
        DbManagerLogs logs = new DbManagerLogs();
        if (options.earlyStoppingPort() >= 0) {
            esHealth = new HealthStatusManager();
            try {
                es = NettyServerBuilder.forAddress(new InetSocketAddress(options.host(), options.earlyStoppingPort()))
                        .maxInboundMessageSize(options.maxInboundBytes())
                        .addService(new EarlyStoppingService(logs, status, new StoppingAlgorithms(catalog)))
                        .addService(esHealth.getHealthService())
                        .build()
                        .start();
            } catch (IOException e) {
                if (server != null) {
                    server.shutdownNow();
                }
                throw e;
            }
            esHealth.setStatus("", ServingStatus.SERVING);
            esHealth.setStatus(EARLY_STOPPING_HEALTH_NAME, ServingStatus.SERVING);
            LOG.info("Katib early-stopping service on {}:{}; algorithms: {}", options.host(), es.getPort(),
                    String.join(", ", StoppingAlgorithms.served()));
        }
        if (server != null) {
            if (options.warmUp()) {
                long t0 = System.nanoTime();
                String self = options.host().equals("0.0.0.0") || options.host().equals("::") ? "127.0.0.1" : options.host();
                io.grpc.ManagedChannel channel = io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder.forAddress(self, server.getPort())
                        .usePlaintext().build();
                int calls;
                try {
                    var stub = org.tunekit.katib.api.SuggestionGrpc.newBlockingStub(channel);
                    calls = suggester.warmUp(r -> stub.withDeadlineAfter(30, TimeUnit.SECONDS).getSuggestions(r));
                } finally {
                    channel.shutdownNow();
                }
                LOG.info("warmed up with {} made-up requests in {} ms", calls, (System.nanoTime() - t0) / 1_000_000);
            }
            health.setStatus("", ServingStatus.SERVING);
            health.setStatus(HEALTH_NAME, ServingStatus.SERVING);
            LOG.info("Katib suggestion service on {}:{}; algorithms: {}", options.host(), server.getPort(), String.join(", ", algorithms.names()));
        }
        return new KatibServer(server, health, es, esHealth, logs, status);
    }

    /** The port the early-stopping service listens on, or -1 when there is none. */
    public int earlyStoppingPort() {
        return earlyStopping == null ? -1 : earlyStopping.getPort();
    }

    /** The port the suggestion service listens on, or -1 when there is none. */
    public int port() {
        return server == null ? -1 : server.getPort();
    }

    /** Blocks until the services have stopped. */
    public void awaitTermination() throws InterruptedException {
        if (server != null) {
            server.awaitTermination();
        }
        if (earlyStopping != null) {
            earlyStopping.awaitTermination();
        }
    }

    /** Reports NOT_SERVING, stops taking calls, and waits up to 5 seconds for running ones. */
    @Override
    public void close() {
        health.enterTerminalState();
        if (earlyStoppingHealth != null) {
            earlyStoppingHealth.enterTerminalState();
        }
        if (server != null) {
            stop(server);
        }
        if (earlyStopping != null) {
            stop(earlyStopping);
        }
        logs.close();
        status.close();
    }

    private static void stop(Server s) {
        s.shutdown();
        try {
            if (!s.awaitTermination(5, TimeUnit.SECONDS)) {
                s.shutdownNow();
            }
        } catch (InterruptedException e) {
            s.shutdownNow();
            Thread.currentThread().interrupt();
        }
    }
}
