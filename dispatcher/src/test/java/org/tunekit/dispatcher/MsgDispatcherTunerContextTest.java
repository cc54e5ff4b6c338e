package org.tunekit.dispatcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.tunekit.dispatcher.MsgDispatcherBaseTest.ListChannel;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.tunekit.sdk.NoMoreTrialsException;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.TunerContext;
import org.tunekit.sdk.space.SearchSpace;

class MsgDispatcherTunerContextTest {
    private static final String SPACE = "{\"x\":{\"_type\":\"choice\",\"_value\":[1,2,3,10]}}";
    private static final DispatcherSettings SETTINGS = new DispatcherSettings(false, null, false, Duration.ofSeconds(30));

    /**
     * Gives one set per request until it has given {@code direct}, then refuses; each final result
     * it receives makes it send one trial through the context, until it has sent {@code deferred}.
     */
    static class DeferringTuner implements Tuner {
        final List<String> calls = new ArrayList<>();
        final int direct;
        int deferred;
        TunerContext context;
        int given;
        Runnable onResult = () -> { };

        DeferringTuner(int direct, int deferred) {
            this.direct = direct;
            this.deferred = deferred;
        }

        @Override
        public void open(TunerContext c) {
            calls.add("open");
            context = c;
        }

        @Override
        public void updateSearchSpace(SearchSpace space) {
            calls.add("updateSearchSpace");
        }

        @Override
        public Parameters generateParameters(long parameterId) throws NoMoreTrialsException {
            if (given >= direct) {
                calls.add("refused " + parameterId);
                throw new NoMoreTrialsException("later");
            }
            given++;
            calls.add("generated " + parameterId);
            return Parameters.of(Map.of("x", given));
        }

        @Override
        public void receiveTrialResult(TrialResult result) {
            calls.add("result " + result.parameterId() + " x=" + result.parameters().get("x"));
            onResult.run();
            if (deferred > 0) {
                deferred--;
                long id = context.sendTrial(Parameters.of(Map.of("x", 10 + deferred)));
                calls.add("sent " + id);
            }
        }

        @Override
        public void trialEnd(long parameterId, boolean success) {
            calls.add("end " + parameterId);
        }
    }

    static Command final_(long id) {
        return new Command(CommandType.REPORT_METRIC_DATA, "{\"parameter_id\": " + id + ", \"trial_job_id\": \"Job" + id
                + "\", \"type\": \"FINAL\", \"sequence\": 0, \"value\": \"1.5\"}");
    }

    static Command end(long id) {
        return new Command(CommandType.TRIAL_END, "{\"trial_job_id\": \"Job" + id + "\", \"event\": \"SUCCEEDED\"}");
    }

    @Test
    void aTrialSentThroughTheContextTakesTheNextIdAndIsHandledLikeARequestedOne() {
        ListChannel ch = new ListChannel(
                new Command(CommandType.INITIALIZE, SPACE),
                new Command(CommandType.REQUEST_TRIAL_JOBS, "2"),
                final_(0), end(0),
                new Command(CommandType.REQUEST_TRIAL_JOBS, "1"),
                final_(2), end(2),
                Command.of(CommandType.TERMINATE));
        DeferringTuner tuner = new DeferringTuner(1, 1);
        assertThat(new MsgDispatcher(ch, tuner, null, SETTINGS).run()).isZero();

        assertThat(ch.sent()).containsExactly(
                Command.of(CommandType.INITIALIZED),
                new Command(CommandType.NEW_TRIAL_JOB, "{\"parameter_id\": 0, \"parameter_source\": \"algorithm\", \"parameters\": {\"x\": 1}, \"parameter_index\": 0}"),
                new Command(CommandType.NO_MORE_TRIAL_JOBS, "{\"parameter_id\": 0, \"parameter_source\": \"algorithm\", \"parameters\": \"\", \"parameter_index\": 0}"),
                new Command(CommandType.NEW_TRIAL_JOB, "{\"parameter_id\": 2, \"parameter_source\": \"algorithm\", \"parameters\": {\"x\": 10}, \"parameter_index\": 0}"),
                new Command(CommandType.NO_MORE_TRIAL_JOBS, "{\"parameter_id\": 3, \"parameter_source\": \"algorithm\", \"parameters\": \"\", \"parameter_index\": 0}"));
        assertThat(tuner.calls).containsExactly("open", "updateSearchSpace", "generated 0", "refused 1",
                "result 0 x=1", "sent 2", "end 0", "refused 3", "result 2 x=10", "end 2");
    }

    @Test
    void theContextRefusesOtherThreadsAndUseAfterTheStop() {
        ListChannel ch = new ListChannel(
                new Command(CommandType.INITIALIZE, SPACE),
                new Command(CommandType.REQUEST_TRIAL_JOBS, "1"),
                final_(0),
                Command.of(CommandType.TERMINATE));
        DeferringTuner tuner = new DeferringTuner(1, 0);
        AtomicReference<Throwable> fromOtherThread = new AtomicReference<>();
        tuner.onResult = () -> {
            Thread t = new Thread(() -> {
                try {
                    tuner.context.sendTrial(Parameters.of(Map.of("x", 3)));
                } catch (Throwable e) {
                    fromOtherThread.set(e);
                }
            }, "intruder");
            t.start();
            try {
                t.join();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        };
        assertThat(new MsgDispatcher(ch, tuner, null, SETTINGS).run()).isZero();

        assertThat(fromOtherThread.get()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("thread 'intruder'").hasMessageContaining("only the tuner's own callbacks");
        assertThat(ch.sent()).extracting(Command::type).containsExactly(CommandType.INITIALIZED, CommandType.NEW_TRIAL_JOB);
        assertThatThrownBy(() -> tuner.context.sendTrial(Parameters.of(Map.of("x", 3))))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("after the dispatcher stopped");
    }

    @Test
    void aFailureInOpenIsReportedAsThePluginsFailure() {
        ListChannel ch = new ListChannel(new Command(CommandType.INITIALIZE, SPACE), Command.of(CommandType.TERMINATE));
        Tuner tuner = new DeferringTuner(1, 0) {
            @Override
            public void open(TunerContext c) {
                throw new IllegalArgumentException("cannot open");
            }
        };
        assertThat(new MsgDispatcher(ch, tuner, null, SETTINGS).run()).isEqualTo(1);
        assertThat(ch.sent()).singleElement().satisfies(er -> {
            assertThat(er.type()).isEqualTo(CommandType.ERROR);
            assertThat(er.payload()).startsWith("the tuner failed in open");
        });
    }
}
