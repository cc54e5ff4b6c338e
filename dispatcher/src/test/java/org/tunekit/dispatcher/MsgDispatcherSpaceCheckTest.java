package org.tunekit.dispatcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunekit.dispatcher.MsgDispatcherBaseTest.ListChannel;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.tunekit.sdk.Advisor;
import org.tunekit.sdk.AdvisorContext;
import org.tunekit.sdk.MetricReport;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialEnd;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.SearchSpace;

/** A tuner's parameters are checked against the space before they reach the manager. */
class MsgDispatcherSpaceCheckTest {
    private static final String SPACE = "{\"lr\":{\"_type\":\"loguniform\",\"_value\":[0.0001,0.1]},"
            + "\"layers\":{\"_type\":\"randint\",\"_value\":[1,4]}}";
    private static final DispatcherSettings SETTINGS = new DispatcherSettings(false, null, false, Duration.ofSeconds(30));

    /** Returns the given sets in turn. */
    static final class ScriptedTuner implements Tuner {
        private final List<Map<String, Object>> sets;
        private int next;

        ScriptedTuner(List<Map<String, Object>> sets) {
            this.sets = sets;
        }

        @Override public void updateSearchSpace(SearchSpace space) {}
        @Override public Parameters generateParameters(long id) { return Parameters.of(sets.get(next++)); }
        @Override public void receiveTrialResult(TrialResult result) {}
    }

    @Test
    void aValueOutsideTheSpaceIsAnErrorNamingTheParameterTheValueAndTheRange() {
        ListChannel ch = new ListChannel(
                new Command(CommandType.INITIALIZE, SPACE),
                new Command(CommandType.REQUEST_TRIAL_JOBS, "2"),
                Command.of(CommandType.TERMINATE));
        Tuner tuner = new ScriptedTuner(List.of(Map.of("lr", 0.01, "layers", 2L), Map.of("lr", 0.5, "layers", 2L)));
        assertThat(new MsgDispatcher(ch, tuner, null, SETTINGS).run()).isEqualTo(1);
        assertThat(ch.sent()).extracting(Command::type).containsExactly(CommandType.INITIALIZED, CommandType.ERROR);
        assertThat(ch.sent().get(1).payload()).startsWith("the tuner's generateMultipleParameters gave parameters outside the search space"
                + " for parameter id 1: parameter 'lr' (loguniform): 0.5 is not a possible value (expected a number in [1.0E-4, 0.1])");
    }

    @Test
    void extraKeysAndLeftOutParametersAreTheTunersBusiness() {
        ListChannel ch = new ListChannel(
                new Command(CommandType.INITIALIZE, SPACE),
                new Command(CommandType.REQUEST_TRIAL_JOBS, "1"),
                Command.of(CommandType.TERMINATE));
        Tuner tuner = new ScriptedTuner(List.of(Map.of("lr", 0.01, "save_checkpoint_dir", "/tmp/x")));
        assertThat(new MsgDispatcher(ch, tuner, null, SETTINGS).run()).isZero();
        assertThat(ch.sent()).extracting(Command::type).containsExactly(CommandType.INITIALIZED, CommandType.NEW_TRIAL_JOB);
    }

    @Test
    void aSingleRequestIsCheckedToo() {
        ListChannel ch = new ListChannel(
                new Command(CommandType.INITIALIZE, SPACE),
                new Command(CommandType.REQUEST_TRIAL_JOBS, "1"),
                Command.of(CommandType.TERMINATE));
        Tuner tuner = new ScriptedTuner(List.of(Map.of("lr", 0.01, "layers", 4L)));
        assertThat(new MsgDispatcher(ch, tuner, null, SETTINGS).run()).isEqualTo(1);
        assertThat(ch.sent().get(ch.sent().size() - 1).payload())
                .contains("generateParameters gave parameters outside the search space for parameter id 0",
                        "parameter 'layers' (randint): 4 is not a possible value (expected an integer in [1, 4))");
    }

    @Test
    void anAdvisorsSetsAreCheckedToo() {
        ListChannel ch = new ListChannel(
                new Command(CommandType.INITIALIZE, SPACE),
                new Command(CommandType.REQUEST_TRIAL_JOBS, "1"),
                Command.of(CommandType.TERMINATE));
        Advisor advisor = new Advisor() {
            private AdvisorContext context;

            @Override public void open(AdvisorContext c) { context = c; }
            @Override public void updateSearchSpace(SearchSpace space) {}
            @Override public void requestTrialJobs(int count) {
                context.sendTrial(context.newParameterId(), Parameters.of(Map.of("lr", 0.0, "layers", 1L, "TRIAL_BUDGET", 3L)));
            }
            @Override public void reportMetric(MetricReport report) {}
            @Override public void trialEnd(TrialEnd end) {}
        };
        assertThat(new AdvisorDispatcher(ch, advisor, SETTINGS).run()).isEqualTo(1);
        assertThat(ch.sent()).extracting(Command::type).containsExactly(CommandType.INITIALIZED, CommandType.ERROR);
        assertThat(ch.sent().get(1).payload()).startsWith("the advisor's AdvisorContext.sendTrial gave parameters outside the search space"
                + " for parameter id 0: parameter 'lr' (loguniform): 0.0 is not a possible value");
    }
}
