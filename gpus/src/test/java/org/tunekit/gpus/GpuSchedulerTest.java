package org.tunekit.gpus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * NNI 3's placement rules, on the GPUs a stand-in nvidia-smi reports: four GPUs, GPU 1 busy with a
 * foreign process, GPU 3's memory controller at 20 %, GPUs 0 and 2 idle.
 */
class GpuSchedulerTest {
    @TempDir
    Path bin;

    private List<Gpu> gpus;

    @BeforeEach
    void probe() throws Exception {
        gpus = probe(FakeNvidiaSmi.FOUR_GPUS, FakeNvidiaSmi.FOUR_GPUS_PROCESSES);
    }

    private List<Gpu> probe(String gpuLines, String processLines) throws Exception {
        FakeNvidiaSmi.write(bin, gpuLines, processLines);
        return NvidiaSmi.onPath(bin.toString()).gpus();
    }

    private GpuScheduler scheduler(double trialGpuNumber, List<Integer> gpuIndices, int maxTrialNumberPerGpu, boolean useActiveGpu) {
        GpuScheduler scheduler = new GpuScheduler(gpus, new GpuSettings(trialGpuNumber, gpuIndices, maxTrialNumberPerGpu, useActiveGpu));
        scheduler.validate();
        return scheduler;
    }

    private static String devices(Optional<GpuAllocation> allocation) {
        return allocation.map(GpuAllocation::cudaVisibleDevices).orElse("waits");
    }

    @Test
    void wholeGpusGoIdleFirstThenByMemoryLoadAndTheBusyOneLast() {
        GpuScheduler scheduler = scheduler(1, null, 1, true);

        assertThat(devices(scheduler.allocate("a"))).isEqualTo("0");
        assertThat(devices(scheduler.allocate("b"))).isEqualTo("2");
        assertThat(devices(scheduler.allocate("c"))).isEqualTo("3");
        assertThat(devices(scheduler.allocate("d"))).isEqualTo("1");
        assertThat(devices(scheduler.allocate("e"))).isEqualTo("waits");
    }

    @Test
    void severalWholeGpusAreListedInAscendingOrder() {
        GpuScheduler scheduler = scheduler(2, null, 1, true);

        assertThat(devices(scheduler.allocate("a"))).isEqualTo("0,2");
        assertThat(devices(scheduler.allocate("b"))).isEqualTo("1,3");
        assertThat(devices(scheduler.allocate("c"))).isEqualTo("waits");
    }

    @Test
    void fractionsShareAGpuSpreadingFirst() {
        GpuScheduler scheduler = scheduler(0.5, List.of(0, 2), 1, false);

        assertThat(devices(scheduler.allocate("a"))).isEqualTo("0");
        assertThat(devices(scheduler.allocate("b"))).isEqualTo("2");
        assertThat(devices(scheduler.allocate("c"))).isEqualTo("0");
        assertThat(devices(scheduler.allocate("d"))).isEqualTo("2");
        assertThat(devices(scheduler.allocate("e"))).isEqualTo("waits");
        assertThat(scheduler.allocations()).extracting(GpuAllocation::share).containsOnly(0.5);
    }

    @Test
    void fractionsThatAddUpToOneFitAndOneMoreDoesNot() {
        GpuScheduler scheduler = scheduler(0.1, List.of(0), 1, true);

        for (int i = 0; i < 10; i++) {
            assertThat(devices(scheduler.allocate("t" + i))).isEqualTo("0");
        }
        assertThat(devices(scheduler.allocate("t10"))).isEqualTo("waits");
    }

    @Test
    void maxTrialNumberPerGpuDividesEachTrialsShare() {
        GpuScheduler scheduler = scheduler(1, List.of(2), 3, true); // 1/3 each

        assertThat(devices(scheduler.allocate("a"))).isEqualTo("2");
        assertThat(devices(scheduler.allocate("b"))).isEqualTo("2");
        assertThat(devices(scheduler.allocate("c"))).isEqualTo("2");
        assertThat(devices(scheduler.allocate("d"))).isEqualTo("waits");

        // as in NNI 3, 2 GPUs shared by 2 trials each is one whole GPU per trial
        GpuScheduler halved = scheduler(2, null, 2, true);
        assertThat(devices(halved.allocate("x"))).isEqualTo("0");
    }

    @Test
    void gpuIndicesRestrictThePlacement() {
        GpuScheduler scheduler = scheduler(1, List.of(3, 1), 1, true);

        assertThat(devices(scheduler.allocate("a"))).isEqualTo("3");
        assertThat(devices(scheduler.allocate("b"))).isEqualTo("1");
        assertThat(devices(scheduler.allocate("c"))).isEqualTo("waits");
    }

    @Test
    void withoutUseActiveGpuABusyGpuIsSkipped() {
        GpuScheduler scheduler = scheduler(1, List.of(1, 2), 1, false);

        assertThat(devices(scheduler.allocate("a"))).isEqualTo("2");
        assertThat(devices(scheduler.allocate("b"))).isEqualTo("waits");
    }

    @Test
    void withUseActiveGpuABusyGpuIsUsedWhenNothingBetterIsFree() {
        GpuScheduler scheduler = scheduler(1, List.of(1), 1, true);

        assertThat(devices(scheduler.allocate("a"))).isEqualTo("1");
    }

    @Test
    void aTrialWaitsUntilAnotherReleasesItsGpu() {
        GpuScheduler scheduler = scheduler(1, List.of(0), 1, false);

        assertThat(devices(scheduler.allocate("a"))).isEqualTo("0");
        assertThat(devices(scheduler.allocate("b"))).isEqualTo("waits");
        assertThat(devices(scheduler.allocate("b"))).isEqualTo("waits");
        scheduler.release("a");
        assertThat(devices(scheduler.allocate("b"))).isEqualTo("0");
        scheduler.release("never-placed"); // ignored, as NNI ignores it
        assertThat(scheduler.allocations()).extracting(GpuAllocation::trialId).containsExactly("b");
    }

    @Test
    void zeroGpusGiveAnEmptyCudaVisibleDevicesAndNeverWait() {
        GpuScheduler scheduler = scheduler(0, null, 1, false);

        for (int i = 0; i < 10; i++) {
            assertThat(devices(scheduler.allocate("t" + i))).isEmpty();
        }
        assertThat(scheduler.allocations()).isEmpty();

        GpuScheduler noGpuMachine = new GpuScheduler(List.of(), GpuSettings.none());
        noGpuMachine.validate();
        assertThat(devices(noGpuMachine.allocate("t"))).isEmpty();
    }

    @Test
    void askingForAllGpusIsAllowed() {
        GpuScheduler scheduler = scheduler(4, null, 1, true);

        assertThat(devices(scheduler.allocate("a"))).isEqualTo("0,1,2,3");
    }

    @Test
    void askingForMoreGpusThanTheMachineHasIsRefusedBeforeStart() {
        GpuScheduler scheduler = new GpuScheduler(gpus, new GpuSettings(5, null, 1, true));

        assertThatThrownBy(scheduler::validate)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("trialGpuNumber 5 needs 5 GPUs per trial but this machine has 4 GPUs: 0, 1, 2, 3");
        assertThatThrownBy(() -> scheduler.allocate("a")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new GpuScheduler(List.of(), new GpuSettings(0.5, null, 1, true)).validate())
                .hasMessage("trialGpuNumber 0.5 needs 1 GPU per trial but this machine has no GPU");
    }

    @Test
    void askingForMoreGpusThanGpuIndicesAllowsIsRefusedBeforeStart() {
        assertThatThrownBy(() -> scheduler(2, List.of(3), 1, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("trialGpuNumber 2 needs 2 GPUs per trial but gpuIndices [3] allows 1");
        assertThatThrownBy(() -> scheduler(1, List.of(), 1, true))
                .hasMessage("trialGpuNumber 1 needs 1 GPU per trial but gpuIndices [] allows 0");
    }

    @Test
    void aGpuIndexTheMachineDoesNotHaveIsRefused() {
        assertThatThrownBy(() -> scheduler(1, List.of(0, 7), 1, true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("gpuIndices names GPU 7, which this machine does not have (4 GPUs: 0, 1, 2, 3)");
    }

    @Test
    void settingsThatMakeNoSenseAreRefusedWhenMade() {
        assertThatThrownBy(() -> new GpuSettings(-1, null, 1, true))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("trialGpuNumber must be 0 or more, got -1.0");
        assertThatThrownBy(() -> new GpuSettings(Double.NaN, null, 1, true)).hasMessage("trialGpuNumber must be 0 or more, got NaN");
        assertThatThrownBy(() -> new GpuSettings(1.5, null, 1, true))
                .hasMessage("trialGpuNumber must be a whole number or a fraction below 1, got 1.5");
        assertThatThrownBy(() -> new GpuSettings(1, null, 0, true)).hasMessage("maxTrialNumberPerGpu must be 1 or more, got 0");
        assertThatThrownBy(() -> new GpuSettings(0, null, 2, true))
                .hasMessage("maxTrialNumberPerGpu does not work without trialGpuNumber (got 2 with trialGpuNumber 0)");
        assertThatThrownBy(() -> new GpuSettings(1, List.of(0, -1), 1, true))
                .hasMessage("gpuIndices must not hold a negative or missing index, got [0, -1]");
        assertThatThrownBy(() -> new GpuSettings(1, List.of(2, 2), 1, true)).hasMessage("gpuIndices names GPU 2 twice: [2, 2]");
    }

    @Test
    void theSameInputsGiveTheSameAllocations() {
        List<String> first = run(scheduler(0.5, null, 1, false));
        List<String> second = run(scheduler(0.5, null, 1, false));

        assertThat(first).isEqualTo(second).containsExactly("0", "2", "3", "0", "2", "2", "3", "waits", "waits");
    }

    private static List<String> run(GpuScheduler scheduler) {
        List<String> placed = new ArrayList<>();
        for (String trial : List.of("a", "b", "c", "d")) {
            placed.add(devices(scheduler.allocate(trial)));
        }
        scheduler.release("b");
        for (String trial : List.of("e", "f", "g", "h", "i")) {
            placed.add(devices(scheduler.allocate(trial)));
        }
        return placed;
    }

    @Test
    void ownTrialsProcessesDoNotMakeTheirGpuActive() throws Exception {
        GpuScheduler scheduler = scheduler(0.5, List.of(0), 1, false);
        assertThat(devices(scheduler.allocate("a"))).isEqualTo("0");

        // trial a's process (pid 777) now shows on GPU 0
        List<Gpu> withTrialA = probe(FakeNvidiaSmi.FOUR_GPUS, "GPU-00000000-aaaa-0000-0000-000000000000, 777, 1000, python3\n");
        scheduler.refresh(withTrialA, Set.of(777L));
        assertThat(devices(scheduler.allocate("b"))).isEqualTo("0");

        // the same process unknown to the scheduler counts as someone else's
        scheduler.release("b");
        scheduler.refresh(withTrialA, Set.of());
        assertThat(devices(scheduler.allocate("b"))).isEqualTo("waits");
    }

    @Test
    void aFreshReadingFreesAGpuWhoseForeignProcessEnded() throws Exception {
        GpuScheduler scheduler = scheduler(1, List.of(1), 1, false);
        assertThat(devices(scheduler.allocate("a"))).isEqualTo("waits");

        scheduler.refresh(probe(FakeNvidiaSmi.FOUR_GPUS, ""), Set.of());
        assertThat(devices(scheduler.allocate("a"))).isEqualTo("1");
    }

    @Test
    void aFreshReadingWithOtherGpusIsRefused() throws Exception {
        GpuScheduler scheduler = scheduler(1, null, 1, true);
        List<Gpu> fewer = probe("0, GPU-a, Tesla T4, 15360, 0, 15000, 0, 0, 550.54.15\n", "");

        assertThatThrownBy(() -> scheduler.refresh(fewer, Set.of()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("this machine's GPUs changed from 4 GPUs: 0, 1, 2, 3 to 1 GPU: 0");
    }

    @Test
    void aResumedTrialKeepsItsGpus() {
        GpuScheduler scheduler = scheduler(1, null, 1, true);

        assertThat(scheduler.restore("old", List.of(0)).cudaVisibleDevices()).isEqualTo("0");
        assertThat(devices(scheduler.allocate("new"))).isEqualTo("2");
        assertThatThrownBy(() -> scheduler.allocate("old")).isInstanceOf(IllegalStateException.class)
                .hasMessage("trial old already holds GPUs [0]");
        assertThatThrownBy(() -> scheduler.restore("x", List.of(9)))
                .hasMessage("trial x ran on GPU 9, which this machine does not have (4 GPUs: 0, 1, 2, 3)");
        assertThatThrownBy(() -> scheduler.restore("x", List.of(1, 3)))
                .hasMessage("trial x ran on GPUs [1, 3] but trialGpuNumber 1 needs 1 GPU per trial");
    }
}
