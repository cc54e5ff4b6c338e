package org.tunekit.dispatcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunekit.dispatcher.channel.InMemoryChannel;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.SearchSpace;

class DispatcherStatsTest {
    /** Counts its calls; every fifth result takes a while, as a slow model update would. */
    static final class CountingTuner implements Tuner {
        int next;
        int results;

        @Override
        public void updateSearchSpace(SearchSpace space) {}

        @Override
        public Parameters generateParameters(long parameterId) {
            return Parameters.of(Map.of("x", (long) next++));
        }

        @Override
        public void receiveTrialResult(TrialResult result) {
            if (++results % 5 == 0) {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    @Test
    void everyKindOfCommandIsCountedAndTimedWithItsQueue() throws Exception {
        InMemoryChannel channel = new InMemoryChannel();
        var settings = new DispatcherSettings(false, null, false, Duration.ofSeconds(30), DispatcherSettings.CHECKPOINT_INTERVAL,
                Duration.ZERO, Duration.ofMillis(10));
        MsgDispatcher d = new MsgDispatcher(channel, new CountingTuner(), null, settings);
        channel.post(new Command(CommandType.INITIALIZE, "{\"x\": {\"_type\": \"randint\", \"_value\": [0, 1000]}}"));
        int n = 20;
        for (int i = 0; i < n; i++) {
            channel.post(new Command(CommandType.REQUEST_TRIAL_JOBS, "1"));
        }
        for (int i = 0; i < n; i++) {
            channel.post(new Command(CommandType.REPORT_METRIC_DATA, "{\"parameter_id\": " + i + ", \"trial_job_id\": \"T" + i
                    + "\", \"type\": \"FINAL\", \"sequence\": 0, \"value\": \"0.5\"}"));
            channel.post(new Command(CommandType.TRIAL_END, "{\"trial_job_id\": \"T" + i + "\", \"event\": \"SUCCEEDED\", \"hyper_params\": "
                    + "\"{\\\"parameter_id\\\": " + i + ", \\\"parameters\\\": {\\\"x\\\": " + i + "}}\"}"));
        }
        channel.post(Command.of(CommandType.TERMINATE));
        assertThat(d.run()).isZero();

        DispatcherStats.Snapshot s = d.stats().snapshot();
        assertThat(s.of("IN").orElseThrow().count()).isEqualTo(1);
        assertThat(s.of("GE").orElseThrow().count()).isEqualTo(n);
        assertThat(s.of("EN").orElseThrow().count()).isEqualTo(n);
        DispatcherStats.CommandFigures finals = s.of("ME FINAL").orElseThrow();
        assertThat(finals.count()).isEqualTo(n);
        // four of the twenty results slept 20 ms: the slowest is at least that, and the mean a fifth of it
        assertThat(finals.maxNanos()).isGreaterThanOrEqualTo(20_000_000L);
        assertThat(finals.meanNanos()).isGreaterThanOrEqualTo(n / 5 * 20_000_000.0 / n);
        assertThat(finals.p99Nanos()).isLessThanOrEqualTo(finals.maxNanos()).isPositive();
        assertThat(s.maxDefault()).isPositive();
        assertThat(s.defaultQueue()).isZero();
        assertThat(s.format()).contains("ME FINAL").contains("handled").contains("queues: default 0 waiting");
    }
}
