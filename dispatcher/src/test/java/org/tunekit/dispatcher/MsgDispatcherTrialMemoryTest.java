package org.tunekit.dispatcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.tunekit.dispatcher.MsgDispatcherBaseTest.ListChannel;
import org.tunekit.dispatcher.MsgDispatcherEndedTrialsTest.RecordingTuner;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.tunekit.sdk.AssessResult;
import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.Metric;

/** What the dispatcher keeps about a trial is gone once the trial has ended, whatever arrives late. */
class MsgDispatcherTrialMemoryTest {
    private static final String SPACE = "{\"x\":{\"_type\":\"uniform\",\"_value\":[0,1]}}";
    private static final DispatcherSettings SETTINGS = new DispatcherSettings(false, null, false, Duration.ofSeconds(30));

    static final class GoodAssessor implements Assessor {
        final List<String> assessed = new ArrayList<>();

        @Override
        public AssessResult assessTrial(String trialJobId, List<Metric> history) {
            assessed.add(trialJobId + "@" + history.size());
            return AssessResult.GOOD;
        }
    }

    private static Command metric(String type, long id, int sequence) {
        return new Command(CommandType.REPORT_METRIC_DATA, "{\"parameter_id\": " + id + ", \"trial_job_id\": \"Job0\", \"type\": \"" + type
                + "\", \"sequence\": " + sequence + ", \"value\": \"0.5\"}");
    }

    private static Command requestParameter(long currentId, int index) {
        return new Command(CommandType.REPORT_METRIC_DATA, "{\"parameter_id\": " + currentId + ", \"trial_job_id\": \"Job0\", "
                + "\"type\": \"REQUEST_PARAMETER\", \"sequence\": 0, \"value\": \"\", \"parameter_index\": " + index + "}");
    }

    /** Job0's end, naming parameter id {@code id} in {@code hyper_params}. */
    private static Command end(long id) {
        return new Command(CommandType.TRIAL_END, "{\"trial_job_id\": \"Job0\", \"event\": \"SUCCEEDED\", \"hyper_params\": "
                + "\"{\\\"parameter_id\\\": " + id + ", \\\"parameter_source\\\": \\\"algorithm\\\", \\\"parameters\\\": {}, "
                + "\\\"parameter_index\\\": 0}\"}");
    }

    @Test
    void metricsArrivingAfterTheirTrialsEndLeaveNothingBehind() {
        List<Command> in = new ArrayList<>(List.of(new Command(CommandType.INITIALIZE, SPACE),
                new Command(CommandType.REQUEST_TRIAL_JOBS, "1"),
                metric("PERIODICAL", 0, 0),
                metric("FINAL", 0, 0),
                end(0),
                // late, out of order: after the trial's end
                metric("PERIODICAL", 0, 1),
                metric("FINAL", 0, 0),
                Command.of(CommandType.TERMINATE)));
        RecordingTuner tuner = new RecordingTuner();
        GoodAssessor assessor = new GoodAssessor();
        MsgDispatcher d = new MsgDispatcher(new ListChannel(in.toArray(Command[]::new)), tuner, assessor, SETTINGS);

        assertThat(d.run()).isZero();

        assertThat(assessor.assessed).containsExactly("Job0@1");
        assertThat(tuner.ends).containsExactly(0L);
        assertThat(d.tracked()).containsEntry("parameterIdOfTrial", 0).containsEntry("histories", 0).containsEntry("generated", 0);
    }

    @Test
    void theEarlierPhasesOfAMultiPhaseTrialAreForgottenAtItsEnd() {
        List<Command> in = new ArrayList<>(List.of(new Command(CommandType.INITIALIZE, SPACE),
                new Command(CommandType.REQUEST_TRIAL_JOBS, "1"), // id 0, phase 0
                requestParameter(0, 1), // id 1
                requestParameter(1, 2), // id 2
                metric("FINAL", 2, 0),
                end(2),
                Command.of(CommandType.TERMINATE)));
        RecordingTuner tuner = new RecordingTuner();
        ListChannel channel = new ListChannel(in.toArray(Command[]::new));
        MsgDispatcher d = new MsgDispatcher(channel, tuner, null, SETTINGS);

        assertThat(d.run()).isZero();

        assertThat(tuner.results).containsExactly(2L);
        assertThat(tuner.ends).containsExactly(2L);
        assertThat(d.tracked()).containsEntry("generated", 0).containsEntry("phasesOfTrial", 0).containsEntry("parameterIdOfTrial", 0);
    }
}
