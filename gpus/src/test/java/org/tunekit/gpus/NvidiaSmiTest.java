package org.tunekit.gpus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Finding GPUs with a stand-in nvidia-smi: what is read, and how each kind of failure is told. */
class NvidiaSmiTest {
    @TempDir
    Path bin;

    @Test
    void readsEveryGpuAndItsProcesses() throws Exception {
        FakeNvidiaSmi.write(bin, FakeNvidiaSmi.FOUR_GPUS, FakeNvidiaSmi.FOUR_GPUS_PROCESSES);

        List<Gpu> gpus = NvidiaSmi.onPath(bin.toString()).gpus();

        assertThat(gpus).extracting(Gpu::index).containsExactly(0, 1, 2, 3);
        Gpu busy = gpus.get(1);
        assertThat(busy).isEqualTo(new Gpu(1, "GPU-11111111-bbbb-1111-1111-111111111111", "NVIDIA A100-SXM4-40GB", "535.104.05",
                40960, 20481, 20055, 90, 35, List.of(
                        new GpuProcess(4242, "/usr/bin/python3", 1, OptionalLong.of(20000)),
                        new GpuProcess(17, "/opt/a,b/train", 1, OptionalLong.empty()))));
        assertThat(gpus.get(3).memoryUtilisationPercent()).isEqualTo(20);
        assertThat(gpus.get(0).activeProcesses()).isEmpty();
    }

    @Test
    void readsTheSameThroughAGivenRunnerAsFromThisMachine() throws Exception {
        FakeNvidiaSmi.write(bin, FakeNvidiaSmi.FOUR_GPUS, FakeNvidiaSmi.FOUR_GPUS_PROCESSES);
        List<List<String>> asked = new java.util.ArrayList<>();

        List<Gpu> read = NvidiaSmi.read(command -> {
            asked.add(command);
            return command.get(1).startsWith("--query-gpu") ? FakeNvidiaSmi.FOUR_GPUS : FakeNvidiaSmi.FOUR_GPUS_PROCESSES;
        });

        assertThat(read).isEqualTo(NvidiaSmi.onPath(bin.toString()).gpus());
        assertThat(asked).extracting(c -> c.get(0)).containsOnly("nvidia-smi");
        assertThat(NvidiaSmi.read(command -> null)).isEmpty();
        assertThatThrownBy(() -> NvidiaSmi.read(command -> "1, GPU-b, Tesla T4\n")).isInstanceOf(NvidiaSmiException.class)
                .hasMessageContaining("'1, GPU-b, Tesla T4' (expected 9 comma-separated fields, found 3)");
    }

    @Test
    void firstNvidiaSmiOnThePathWins() throws Exception {
        Path first = Files.createDirectory(bin.resolve("first"));
        Path second = Files.createDirectory(bin.resolve("second"));
        FakeNvidiaSmi.write(first, "0, GPU-a, Tesla T4, 15360, 0, 15000, 0, 0, 550.54.15\n", "");
        FakeNvidiaSmi.script(second, "exit 9\n");

        String path = String.join(File.pathSeparator, "", bin.resolve("missing").toString(), first.toString(), second.toString());
        assertThat(NvidiaSmi.onPath(path).gpus()).extracting(Gpu::name).containsExactly("Tesla T4");
    }

    @Test
    void noNvidiaSmiMeansNoGpus() throws Exception {
        assertThat(NvidiaSmi.onPath(bin.toString()).gpus()).isEmpty();
        assertThat(NvidiaSmi.onPath(null).gpus()).isEmpty();
        Files.writeString(bin.resolve("nvidia-smi"), "not executable");
        assertThat(NvidiaSmi.onPath(bin.toString()).gpus()).isEmpty();
    }

    @Test
    void aFailingNvidiaSmiIsAnErrorNamingTheCommandAndStatus() throws Exception {
        FakeNvidiaSmi.script(bin, """
                echo "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver." >&2
                echo "Make sure that the latest NVIDIA driver is installed and running." >&2
                exit 9
                """);

        assertThatThrownBy(() -> NvidiaSmi.onPath(bin.toString()).gpus())
                .isInstanceOf(NvidiaSmiException.class)
                .hasMessage("'" + bin.resolve("nvidia-smi") + " " + FakeNvidiaSmi.GPU_QUERY
                        + "' exited with status 9: NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.");
    }

    @Test
    void changedFlagsAreRefusedByTheStandIn() throws Exception {
        // the stand-in knows only the flags spelt out in FakeNvidiaSmi; a query that drifts from them fails loudly
        FakeNvidiaSmi.write(bin, FakeNvidiaSmi.FOUR_GPUS, "");
        Process process = new ProcessBuilder(bin.resolve("nvidia-smi").toString(), "--query-gpu=index", "--format=csv").start();
        assertThat(process.waitFor()).isEqualTo(2);
        assertThat(new String(process.getErrorStream().readAllBytes())).contains("Invalid combination of input arguments");
    }

    @Test
    void aLineWithTooFewFieldsIsNamed() throws Exception {
        FakeNvidiaSmi.write(bin, "0, GPU-a, Tesla T4, 15360, 0, 15000, 0, 0, 550.54.15\n1, GPU-b, Tesla T4\n", "");

        assertThatThrownBy(() -> NvidiaSmi.onPath(bin.toString()).gpus())
                .isInstanceOf(NvidiaSmiException.class)
                .hasMessageStartingWith("'" + bin.resolve("nvidia-smi") + " " + FakeNvidiaSmi.GPU_QUERY + "' (exit status 0)")
                .hasMessageContaining("printed a line that could not be read: '1, GPU-b, Tesla T4' (expected 9 comma-separated fields, found 3)");
    }

    @Test
    void aFieldThatIsNotANumberIsNamed() throws Exception {
        FakeNvidiaSmi.write(bin, "0, GPU-a, Tesla T4, [N/A], 0, 15000, 0, 0, 550.54.15\n", "");

        assertThatThrownBy(() -> NvidiaSmi.onPath(bin.toString()).gpus())
                .hasMessageContaining("'0, GPU-a, Tesla T4, [N/A], 0, 15000, 0, 0, 550.54.15' (memory.total '[N/A]' is not a whole number)");
    }

    @Test
    void aUtilisationOver100IsRefused() throws Exception {
        FakeNvidiaSmi.write(bin, "0, GPU-a, Tesla T4, 15360, 0, 15000, 101, 0, 550.54.15\n", "");

        assertThatThrownBy(() -> NvidiaSmi.onPath(bin.toString()).gpus())
                .hasMessageContaining("(utilization.gpu 101 is over 100)");
    }

    @Test
    void aRepeatedIndexIsRefused() throws Exception {
        FakeNvidiaSmi.write(bin, "0, GPU-a, Tesla T4, 15360, 0, 15000, 0, 0, 550.54.15\n0, GPU-b, Tesla T4, 15360, 0, 15000, 0, 0, 550.54.15\n", "");

        assertThatThrownBy(() -> NvidiaSmi.onPath(bin.toString()).gpus())
                .hasMessageContaining("'0, GPU-b, Tesla T4, 15360, 0, 15000, 0, 0, 550.54.15' (GPU index 0 appears twice)");
    }

    @Test
    void aProcessOnAnUnknownGpuIsNamed() throws Exception {
        FakeNvidiaSmi.write(bin, "0, GPU-a, Tesla T4, 15360, 0, 15000, 0, 0, 550.54.15\n", "GPU-zzz, 99, 100, python\n");

        assertThatThrownBy(() -> NvidiaSmi.onPath(bin.toString()).gpus())
                .hasMessageStartingWith("'" + bin.resolve("nvidia-smi") + " " + FakeNvidiaSmi.PROCESS_QUERY + "' (exit status 0)")
                .hasMessageContaining("'GPU-zzz, 99, 100, python' (no GPU has UUID 'GPU-zzz')");
    }

    @Test
    void aHangingNvidiaSmiIsKilledAndSaysSo() throws Exception {
        FakeNvidiaSmi.script(bin, "sleep 600\n");

        NvidiaSmi hanging = new NvidiaSmi(bin.toString(), Duration.ofMillis(300));
        assertThatThrownBy(hanging::gpus)
                .isInstanceOf(NvidiaSmiException.class)
                .hasMessage("'" + bin.resolve("nvidia-smi") + " " + FakeNvidiaSmi.GPU_QUERY + "' did not finish within 300 ms; it was killed");
    }
}
