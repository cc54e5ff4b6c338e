package org.tunekit.katib;

import io.grpc.ManagedChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.tunekit.katib.api.Experiment;
import org.tunekit.katib.api.GetSuggestionsRequest;
import org.tunekit.katib.api.ObjectiveType;
import org.tunekit.katib.api.ParameterSpec;
import org.tunekit.katib.api.SuggestionGrpc;
import org.tunekit.katib.api.Trial;
import org.tunekit.katib.api.TrialStatus;

/**
 * Measures GetSuggestions over a loopback socket with N completed trials in the request:
 * {@code LatencyProbe ALGORITHM N [N...]} prints, per N, a Markdown table row: the request's size,
 * the median and 90th percentile of 100 calls (after 100 warm-up calls), each asking for one
 * assignment (the trials: two uniform parameters, every trial succeeded).
 */
public final class LatencyProbe {
    public static void main(String[] args) throws Exception {
        String algorithm = args[0];
        try (KatibServer server = KatibServer.start(new KatibServer.Options("127.0.0.1", 0, -1, List.of(),
                KatibServer.Options.DEFAULT_MAX_INBOUND_BYTES, KatibServer.Options.DEFAULT_MAX_ASSIGNMENTS, true))) {
            ManagedChannel channel = Katib.channel(server.port());
            SuggestionGrpc.SuggestionBlockingStub stub = SuggestionGrpc.newBlockingStub(channel);
            List<ParameterSpec> params = List.of(Katib.doubles("lr", "0.01", "0.05"), Katib.doubles("momentum", "0.5", "0.9"));
            Experiment e = Katib.experiment("latency", algorithm, Map.of(), ObjectiveType.MINIMIZE, params);
            for (int i = 1; i < args.length; i++) {
                int n = Integer.parseInt(args[i]);
                SplittableRandom rng = new SplittableRandom(n);
                List<Trial> trials = new ArrayList<>(n);
                for (int t = 0; t < n; t++) {
                    double lr = 0.01 + 0.04 * rng.nextDouble();
                    double m = 0.5 + 0.4 * rng.nextDouble();
                    trials.add(Katib.trial("latency-" + t, Katib.assign("lr", KatibSpace.format(lr), "momentum", KatibSpace.format(m)),
                            TrialStatus.TrialConditionType.SUCCEEDED, (lr - 0.03) * (lr - 0.03) + (m - 0.7) * (m - 0.7),
                            String.format("2026-01-01T%02d:%02d:%02dZ", t / 3600 % 24, t / 60 % 60, t % 60)));
                }
                double[] ms = new double[200];
                for (int k = 0; k < ms.length; k++) {
                    GetSuggestionsRequest r = Katib.request(e, trials, 1, n + 1 + k);
                    long t0 = System.nanoTime();
                    stub.getSuggestions(r);
                    ms[k] = (System.nanoTime() - t0) / 1e6;
                }
                double[] measured = Arrays.copyOfRange(ms, 100, ms.length);
                Arrays.sort(measured);
                System.out.printf("| %s | %d | %.1f | %.2f | %.2f |%n", algorithm, n,
                        Katib.request(e, trials, 1, n + 1).getSerializedSize() / 1048576.0, measured[measured.length / 2],
                        measured[(int) (measured.length * 0.9)]);
            }
            channel.shutdownNow();
        }
    }
}
