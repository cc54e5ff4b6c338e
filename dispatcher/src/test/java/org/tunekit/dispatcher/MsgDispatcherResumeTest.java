package org.tunekit.dispatcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.dispatcher.MsgDispatcherBaseTest.ListChannel;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.tunekit.sdk.ImportedTrial;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.TrialResult;
import org.tunekit.sdk.Tuner;
import org.tunekit.sdk.space.SearchSpace;

/**
 * A resumed dispatcher rebuilds a tuner that keeps no checkpoint from every result the manager
 * imports, and gives a tuner that keeps one only the results its checkpoint does not hold.
 */
class MsgDispatcherResumeTest {
    private static final String SPACE = "{\"x\":{\"_type\":\"uniform\",\"_value\":[0,1]}}";

    @TempDir
    Path dir;

    /** Suggests x = id / 100 and counts what it learns; keeps no state of its own. */
    static class ReplayedTuner implements Tuner {
        final List<Double> learned = new ArrayList<>();

        @Override
        public void updateSearchSpace(SearchSpace space) {}

        @Override
        public Parameters generateParameters(long parameterId) {
            return Parameters.of(Map.of("x", parameterId / 100.0));
        }

        @Override
        public void receiveTrialResult(TrialResult result) {
            learned.add(result.parameters().getDouble("x"));
        }

        @Override
        public void importData(List<ImportedTrial> trials) {
            trials.forEach(t -> learned.add(t.parameters().getDouble("x")));
        }
    }

    /** The same, and it saves what it has learned in a checkpoint of its own. */
    static final class CheckpointedTuner extends ReplayedTuner {
        @Override
        public void saveCheckpoint(Path directory) throws IOException {
            Files.writeString(directory.resolve("learned"), learned.toString());
        }

        @Override
        public void loadCheckpoint(Path directory) throws IOException {
            String text = Files.readString(directory.resolve("learned"));
            for (String x : text.substring(1, text.length() - 1).split(", ")) {
                if (!x.isEmpty()) {
                    learned.add(Double.parseDouble(x));
                }
            }
        }
    }

    private DispatcherSettings settings(boolean resume) {
        return new DispatcherSettings(resume, dir, false, Duration.ofSeconds(30));
    }

    /** Two trials, their results, and a stop. */
    private static Command[] firstRun() {
        return new Command[] {new Command(CommandType.INITIALIZE, SPACE), new Command(CommandType.REQUEST_TRIAL_JOBS, "2"),
                MsgDispatcherTunerContextTest.final_(0), MsgDispatcherTunerContextTest.final_(1), Command.of(CommandType.TERMINATE)};
    }

    /** What NNI's manager sends on resume: the space, then every finished trial's result, then a request. */
    private static Command[] resumedRun() {
        return new Command[] {new Command(CommandType.INITIALIZE, SPACE), new Command(CommandType.IMPORT_DATA,
                "[{\"parameter\": {\"x\": 0.0}, \"value\": 1.5}, {\"parameter\": {\"x\": 0.01}, \"value\": 1.5}]"),
                new Command(CommandType.REQUEST_TRIAL_JOBS, "1"), Command.of(CommandType.TERMINATE)};
    }

    @Test
    void aTunerWithoutACheckpointIsRebuiltFromEveryImportedResultAndNoTunerStateIsWritten() {
        ReplayedTuner before = new ReplayedTuner();
        assertThat(new MsgDispatcher(new ListChannel(firstRun()), before, null, settings(false)).run()).isZero();
        assertThat(before.learned).containsExactly(0.0, 0.01);
        assertThat(dir.resolve("tuner")).doesNotExist();

        ReplayedTuner after = new ReplayedTuner();
        ListChannel channel = new ListChannel(resumedRun());
        assertThat(new MsgDispatcher(channel, after, null, settings(true)).run()).isZero();

        assertThat(after.learned).containsExactly(0.0, 0.01);
        assertThat(channel.sent()).anySatisfy(c -> assertThat(c.type()).isEqualTo(CommandType.NEW_TRIAL_JOB));
        assertThat(channel.sent().stream().filter(c -> c.type() == CommandType.NEW_TRIAL_JOB).findFirst().orElseThrow().payload())
                .as("ids go on after the first run's").contains("\"parameter_id\": 2");
    }

    @Test
    void aTunerWithACheckpointGetsOnlyTheResultsItsCheckpointDoesNotHold() {
        CheckpointedTuner before = new CheckpointedTuner();
        assertThat(new MsgDispatcher(new ListChannel(firstRun()), before, null, settings(false)).run()).isZero();
        assertThat(dir.resolve("tuner")).isDirectory();

        CheckpointedTuner after = new CheckpointedTuner();
        assertThat(new MsgDispatcher(new ListChannel(resumedRun()), after, null, settings(true)).run()).isZero();

        assertThat(after.learned).as("from the checkpoint, and nothing twice").containsExactly(0.0, 0.01);
    }

    @Test
    void aCheckpointLeftByAnEarlierVersionOfATunerThatNowKeepsNoneDoesNotHideResults() {
        CheckpointedTuner before = new CheckpointedTuner();
        assertThat(new MsgDispatcher(new ListChannel(firstRun()), before, null, settings(false)).run()).isZero();

        ReplayedTuner after = new ReplayedTuner();
        assertThat(new MsgDispatcher(new ListChannel(resumedRun()), after, null, settings(true)).run()).isZero();

        assertThat(after.learned).containsExactly(0.0, 0.01);
    }
}
