package org.tunekit.dispatcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunekit.dispatcher.MsgDispatcherBaseTest.ListChannel;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.SearchSpace;

/** A trial's parameters are forgotten some time after its end, not before: late final results of recent trials still count. */
class MsgDispatcherEndedTrialsTest {
    private static final String SPACE = "{\"x\":{\"_type\":\"uniform\",\"_value\":[0,1]}}";
    private static final DispatcherSettings SETTINGS = new DispatcherSettings(false, null, false, Duration.ofSeconds(30));

    static final class RecordingTuner implements Tuner {
        final List<Long> results = new ArrayList<>();
        final List<Long> ends = new ArrayList<>();

        @Override
        public void updateSearchSpace(SearchSpace space) {}

        @Override
        public Parameters generateParameters(long parameterId) {
            return Parameters.of(Map.of("x", (parameterId % 1000) / 1000.0));
        }

        @Override
        public void receiveTrialResult(TrialResult result) {
            results.add(result.parameterId());
        }

        @Override
        public void trialEnd(long parameterId, boolean success) {
            ends.add(parameterId);
        }
    }

    /** A trial end that names its parameter id (in {@code hyper_params}), as NNI's manager sends it. */
    static Command end(long id) {
        return new Command(CommandType.TRIAL_END, "{\"trial_job_id\": \"Job" + id + "\", \"event\": \"SUCCEEDED\", \"hyper_params\": "
                + "\"{\\\"parameter_id\\\": " + id + ", \\\"parameter_source\\\": \\\"algorithm\\\", \\\"parameters\\\": {}, "
                + "\\\"parameter_index\\\": 0}\"}");
    }

    private static void cycle(List<Command> in, long id) {
        in.add(new Command(CommandType.REQUEST_TRIAL_JOBS, "1"));
        in.add(MsgDispatcherTunerContextTest.final_(id));
        in.add(end(id));
    }

    @Test
    void aFinalResultAfterItsTrialsEndReachesTheTunerWhileTheTrialIsAmongTheMostRecentlyEnded() {
        List<Command> in = new ArrayList<>();
        in.add(new Command(CommandType.INITIALIZE, SPACE));
        in.add(new Command(CommandType.REQUEST_TRIAL_JOBS, "1"));
        in.add(end(0));
        in.add(MsgDispatcherTunerContextTest.final_(0)); // after its end: still given
        int later = MsgDispatcher.ENDED_TRIALS_KEPT;
        for (long id = 1; id <= later; id++) {
            cycle(in, id);
        }
        in.add(MsgDispatcherTunerContextTest.final_(0)); // ENDED_TRIALS_KEPT trial ends later: forgotten, dropped
        in.add(MsgDispatcherTunerContextTest.final_(1)); // the oldest one still kept: given
        in.add(Command.of(CommandType.TERMINATE));
        RecordingTuner tuner = new RecordingTuner();

        assertThat(new MsgDispatcher(new ListChannel(in.toArray(Command[]::new)), tuner, null, SETTINGS).run()).isZero();

        assertThat(tuner.ends).hasSize(later + 1);
        assertThat(tuner.results).hasSize(later + 2);
        assertThat(tuner.results.get(0)).isZero();
        assertThat(tuner.results.get(tuner.results.size() - 1)).isEqualTo(1L);
        assertThat(tuner.results.subList(1, tuner.results.size() - 1)).doesNotContain(0L);
    }

    @Test
    void mostRecentKeepsTheLastEntries() {
        Map<Long, String> m = MsgDispatcher.mostRecent(3);
        for (long i = 0; i < 10; i++) {
            m.put(i, "v" + i);
        }
        assertThat(m).containsOnlyKeys(7L, 8L, 9L);
    }
}
