package org.tunekit.runner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.gpus.FakeNvidiaSmi;
import org.tunekit.gpus.NvidiaSmi;
import org.tunekit.nniconfig.ConfigException;
import org.tunekit.runner.results.TrialRecord;
import org.tunekit.runner.results.TrialStatus;

/**
 * GPUs as NNI schedules them, on a stand-in {@code nvidia-smi} describing four GPUs of which GPU 1 runs
 * another program: real trials record the {@code CUDA_VISIBLE_DEVICES} they got and when they ran.
 */
class LocalGpusRunTest {
    /** Records its GPUs (or "unset") and its start and end times in nanoseconds, then reports x. */
    private static final String TRIAL = RunnerFixture.FILE_TRIAL_HELPERS + """
            start=$(date +%s%N)
            sleep 0.3
            printf '%s %s %s\\n' "${CUDA_VISIBLE_DEVICES-unset}" "$start" "$(date +%s%N)" > "$NNI_OUTPUT_DIR/gpus.txt"
            metric FINAL 0 "$x"
            """;

    @TempDir
    Path tmp;
    RunnerFixture f;

    @BeforeEach
    void standIn() throws Exception {
        f = new RunnerFixture(tmp).trial("t.sh", TRIAL);
        Path bin = Files.createDirectories(tmp.resolve("bin"));
        FakeNvidiaSmi.write(bin, FakeNvidiaSmi.FOUR_GPUS, FakeNvidiaSmi.FOUR_GPUS_PROCESSES);
        f.nvidiaSmi = NvidiaSmi.onPath(bin.toString());
    }

    /** Each trial's GPUs as it saw them, and how many ran at once at most. */
    private record Seen(List<String> gpus, int mostAtOnce, Map<String, Integer> mostPerGpu) {}

    private Seen seen() throws Exception {
        List<String> gpus = new ArrayList<>();
        List<long[]> spans = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        for (TrialRecord t : f.results().trials()) {
            String line = Files.readString(f.folder.resolve("trials").resolve(t.trialJobId()).resolve("gpus.txt")).strip();
            String[] parts = line.split(" ");
            String visible = parts.length == 3 ? parts[0] : "";
            gpus.add(visible);
            spans.add(new long[] {Long.parseLong(parts[parts.length - 2]), Long.parseLong(parts[parts.length - 1])});
            lines.add(visible);
            // what the store says is what the trial saw
            assertThat(t.gpus() == null ? "unset" : String.join(",", t.gpus().stream().map(String::valueOf).toList())).isEqualTo(visible);
        }
        int most = 0;
        Map<String, Integer> perGpu = new TreeMap<>();
        for (int i = 0; i < spans.size(); i++) {
            int atOnce = 0;
            Map<String, Integer> here = new TreeMap<>();
            for (int j = 0; j < spans.size(); j++) {
                // trial j runs at the moment trial i starts
                if (spans.get(j)[0] <= spans.get(i)[0] && spans.get(i)[0] < spans.get(j)[1]) {
                    atOnce++;
                    for (String g : lines.get(j).split(",")) {
                        if (!g.isEmpty()) {
                            here.merge(g, 1, Integer::sum);
                        }
                    }
                }
            }
            most = Math.max(most, atOnce);
            here.forEach((g, n) -> perGpu.merge(g, n, Math::max));
        }
        return new Seen(gpus, most, perGpu);
    }

    @Test
    void aTrialGetsAWholeGpuAndGpusOfOtherProgramsAreSkipped() throws Exception {
        String yaml = RunnerFixture.config("sh t.sh", 8, 4, "trialGpuNumber: 1\ntrainingService: {platform: local, useActiveGpu: false}");
        assertThat(f.run(yaml)).isEqualTo(LocalRunner.Outcome.DONE);
        assertThat(f.results().trials()).extracting(TrialRecord::status).containsOnly(TrialStatus.SUCCEEDED);
        Seen s = seen();
        // GPU 1 runs another program: three GPUs for four slots
        assertThat(s.gpus()).hasSize(8).allMatch(g -> g.equals("0") || g.equals("2") || g.equals("3"));
        assertThat(s.mostAtOnce()).isLessThanOrEqualTo(3);
        assertThat(s.mostPerGpu().values()).allMatch(n -> n == 1);
    }

    @Test
    void withUseActiveGpuTheBusyGpuIsUsedToo() throws Exception {
        String yaml = RunnerFixture.config("sh t.sh", 8, 4, "trialGpuNumber: 1\ntrainingService: {platform: local, useActiveGpu: true}");
        assertThat(f.run(yaml)).isEqualTo(LocalRunner.Outcome.DONE);
        Seen s = seen();
        assertThat(s.gpus()).contains("1").allMatch(g -> g.matches("[0-3]"));
        assertThat(s.mostPerGpu().values()).allMatch(n -> n == 1);
    }

    @Test
    void aFractionSharesAGpuAndGpuIndicesRestrictWhichOnes() throws Exception {
        String yaml = RunnerFixture.config("sh t.sh", 6, 3, "trainingService: {platform: local, trialGpuNumber: 0.5, useActiveGpu: true, gpuIndices: [2]}");
        assertThat(f.run(yaml)).isEqualTo(LocalRunner.Outcome.DONE);
        Seen s = seen();
        assertThat(s.gpus()).hasSize(6).containsOnly("2");
        assertThat(s.mostAtOnce()).isLessThanOrEqualTo(2);
    }

    @Test
    void maxTrialNumberPerGpuSharesAWholeGpuAsNniDoes() throws Exception {
        String yaml = RunnerFixture.config("sh t.sh", 6, 3,
                "trainingService: {platform: local, trialGpuNumber: 1, maxTrialNumberPerGpu: 2, useActiveGpu: true, gpuIndices: '3'}");
        assertThat(f.run(yaml)).isEqualTo(LocalRunner.Outcome.DONE);
        Seen s = seen();
        assertThat(s.gpus()).containsOnly("3");
        assertThat(s.mostPerGpu().get("3")).isLessThanOrEqualTo(2);
    }

    @Test
    void twoGpusPerTrialAreTwoFreeOnes() throws Exception {
        String yaml = RunnerFixture.config("sh t.sh", 4, 2, "trialGpuNumber: 2\ntrainingService: {platform: local, useActiveGpu: false}");
        assertThat(f.run(yaml)).isEqualTo(LocalRunner.Outcome.DONE);
        Seen s = seen();
        // 0, 2 and 3 are usable: one trial at a time gets two of them
        assertThat(s.gpus()).allMatch(g -> g.split(",").length == 2 && !g.contains("1"));
        assertThat(s.mostAtOnce()).isEqualTo(1);
    }

    @Test
    void zeroGpusHidesEveryGpuAndNoSettingLeavesThemAlone() throws Exception {
        assertThat(f.run(RunnerFixture.config("sh t.sh", 2, 2, "trialGpuNumber: 0"))).isEqualTo(LocalRunner.Outcome.DONE);
        List<String> zero = new ArrayList<>();
        for (TrialRecord t : f.results().trials()) {
            zero.add(Files.readString(f.folder.resolve("trials").resolve(t.trialJobId()).resolve("gpus.txt")).split(" ")[0]);
            assertThat(t.gpus()).isEmpty();
        }
        // set, and empty: the line starts with the separator
        assertThat(zero).containsOnly("");

        RunnerFixture plain = new RunnerFixture(tmp.resolve("plain")).trial("t.sh", TRIAL);
        plain.nvidiaSmi = f.nvidiaSmi;
        assertThat(plain.run(RunnerFixture.config("sh t.sh", 2, 2, ""))).isEqualTo(LocalRunner.Outcome.DONE);
        for (TrialRecord t : plain.results().trials()) {
            String seen = Files.readString(plain.folder.resolve("trials").resolve(t.trialJobId()).resolve("gpus.txt")).split(" ")[0];
            assertThat(seen).isEqualTo(System.getenv("CUDA_VISIBLE_DEVICES") == null ? "unset" : System.getenv("CUDA_VISIBLE_DEVICES"));
            assertThat(t.gpus()).isNull();
        }
    }

    @Test
    void moreGpusThanTheMachineHasIsRefusedBeforeAnythingStarts() throws Exception {
        assertThatThrownBy(() -> f.run(RunnerFixture.config("sh t.sh", 2, 1, "trialGpuNumber: 5\ntrainingService: {platform: local, useActiveGpu: true}")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("trialGpuNumber 5").hasMessageContaining("4");
        assertThat(f.folder).doesNotExist();
        assertThatThrownBy(() -> f.run(RunnerFixture.config("sh t.sh", 2, 1,
                "trialGpuNumber: 1\ntrainingService: {platform: local, useActiveGpu: true, gpuIndices: [0, 7]}")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("gpuIndices").hasMessageContaining("7");
        assertThatThrownBy(() -> f.run(RunnerFixture.config("sh t.sh", 2, 1, "trialGpuNumber: 1")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("useActiveGpu");
        RunnerFixture none = new RunnerFixture(tmp.resolve("none")).trial("t.sh", TRIAL);
        assertThatThrownBy(() -> none.run(RunnerFixture.config("sh t.sh", 2, 1, "trialGpuNumber: 1\ntrainingService: {platform: local, useActiveGpu: true}")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("trialGpuNumber 1");
    }
}
