package org.tunekit.katib;

import io.grpc.ManagedChannel;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.tunekit.katib.api.DBManagerGrpc;
import org.tunekit.katib.api.GetObservationLogReply;
import org.tunekit.katib.api.GetObservationLogRequest;
import org.tunekit.katib.api.MetricLog;

/**
 * Trials' metric reports read from Katib's DBManager ({@code GetObservationLog}). A succeeded
 * trial's log no longer changes, so each is read once and kept (the most recent
 * {@value #MAX_CACHED} logs): this only saves calls, the answers are the same without it.
 */
final class DbManagerLogs implements AutoCloseable {
    static final int MAX_CACHED = 100_000;

    private final Map<String, ManagedChannel> channels = new ConcurrentHashMap<>();
    private final Map<List<String>, List<Double>> cache = java.util.Collections.synchronizedMap(
            new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<List<String>, List<Double>> eldest) {
                    return size() > MAX_CACHED;
                }
            });

    /** The logs of the DBManager at {@code address} (host:port). */
    MedianStop.MetricLogs at(String address) {
        if (address.isBlank() || address.lastIndexOf(':') <= 0) {
            throw KatibException.invalid("db_manager_address must be host:port, got \"" + address + "\"");
        }
        return (trial, metric) -> cache.computeIfAbsent(List.of(address, trial, metric), k -> fetch(address, trial, metric));
    }

    private List<Double> fetch(String address, String trial, String metric) {
        ManagedChannel channel = channels.computeIfAbsent(address, a -> {
            int colon = a.lastIndexOf(':');
            return NettyChannelBuilder.forAddress(a.substring(0, colon), Integer.parseInt(a.substring(colon + 1)))
                    .usePlaintext().maxInboundMessageSize(256 << 20).build();
        });
        GetObservationLogReply reply;
        try {
            reply = DBManagerGrpc.newBlockingStub(channel).withDeadlineAfter(60, TimeUnit.SECONDS)
                    .getObservationLog(GetObservationLogRequest.newBuilder().setTrialName(trial).setMetricName(metric).build());
        } catch (StatusRuntimeException e) {
            throw new KatibException(io.grpc.Status.Code.UNAVAILABLE, "GetObservationLog of trial " + trial + " from the DBManager at "
                    + address + " failed: " + e.getStatus().getCode() + " " + e.getStatus().getDescription());
        }
        List<Double> values = new ArrayList<>();
        for (MetricLog log : reply.getObservationLog().getMetricLogsList()) {
            if (!log.getMetric().getName().equals(metric)) {
                continue;
            }
            try {
                values.add(Double.parseDouble(log.getMetric().getValue().trim()));
            } catch (NumberFormatException e) {
                values.add(Double.NaN);
            }
        }
        return List.copyOf(values);
    }

    @Override
    public void close() {
        channels.values().forEach(ManagedChannel::shutdownNow);
    }
}
