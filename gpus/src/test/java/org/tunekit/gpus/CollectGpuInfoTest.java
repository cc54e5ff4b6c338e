package org.tunekit.gpus;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The line NNI's collect_gpu_info prints, byte for byte, from a stand-in nvidia-smi. */
class CollectGpuInfoTest {
    @TempDir
    Path bin;

    private static final String TWO_GPUS = """
            0, GPU-a, Tesla T4, 15360, 1024, 14000, 35, 7, 550.54.15
            1, GPU-b, Tesla "T4" \u00e9, 15360, 0, 15360, 100, 0, 550.54.15
            """;
    private static final String PROCESSES = """
            GPU-b, 300, 512, /usr/bin/python3
            GPU-a, 200, [N/A], train
            """;

    @Test
    void summaryAsNniPrintsIt() throws Exception {
        FakeNvidiaSmi.write(bin, TWO_GPUS, PROCESSES);

        assertThat(CollectGpuInfo.collect(NvidiaSmi.onPath(bin.toString()), false)).isEqualTo("{\"gpuNumber\": 2, \"gpus\": ["
                + "{\"index\": 0, \"gpuCoreUtilization\": 0.35, \"gpuMemoryUtilization\": 0.07}, "
                + "{\"index\": 1, \"gpuCoreUtilization\": 1.0, \"gpuMemoryUtilization\": 0.0}], \"processes\": ["
                + "{\"pid\": 200, \"gpuIndex\": 0, \"type\": \"compute\"}, "
                + "{\"pid\": 300, \"gpuIndex\": 1, \"type\": \"compute\", \"usedGpuMemory\": 536870912}], \"success\": true}");
    }

    @Test
    void detailAsNniPrintsIt() throws Exception {
        FakeNvidiaSmi.write(bin, TWO_GPUS, PROCESSES);

        assertThat(CollectGpuInfo.collect(NvidiaSmi.onPath(bin.toString()), true)).isEqualTo("{\"gpuNumber\": 2, "
                + "\"driverVersion\": \"550.54.15\", \"gpus\": ["
                + "{\"index\": 0, \"model\": \"Tesla T4\", \"gpuMemory\": 16106127360, \"freeGpuMemory\": 14680064000, "
                + "\"gpuCoreUtilization\": 0.35, \"gpuMemoryUtilization\": 0.07}, "
                + "{\"index\": 1, \"model\": \"Tesla \\\"T4\\\" \\u00e9\", \"gpuMemory\": 16106127360, \"freeGpuMemory\": 16106127360, "
                + "\"gpuCoreUtilization\": 1.0, \"gpuMemoryUtilization\": 0.0}], \"processes\": ["
                + "{\"pid\": 200, \"name\": \"train\", \"gpuIndex\": 0, \"type\": \"compute\"}, "
                + "{\"pid\": 300, \"name\": \"/usr/bin/python3\", \"gpuIndex\": 1, \"type\": \"compute\", \"usedGpuMemory\": 536870912}], "
                + "\"success\": true}");
    }

    @Test
    void noNvidiaSmiIsNoGpus() {
        assertThat(CollectGpuInfo.collect(NvidiaSmi.onPath(bin.toString()), false))
                .isEqualTo("{\"gpuNumber\": 0, \"gpus\": [], \"processes\": [], \"success\": true}");
        assertThat(CollectGpuInfo.collect(NvidiaSmi.onPath(bin.toString()), true))
                .isEqualTo("{\"gpuNumber\": 0, \"gpus\": [], \"processes\": [], \"success\": true}");
    }

    @Test
    void aFailingNvidiaSmiGivesNnisFailureShape() throws Exception {
        FakeNvidiaSmi.script(bin, "echo 'No devices were found'\nexit 6\n");

        assertThat(CollectGpuInfo.collect(NvidiaSmi.onPath(bin.toString()), false)).isEqualTo("{\"success\": false, \"failures\": "
                + "[\"nvidia-smi: '" + bin.resolve("nvidia-smi") + " " + FakeNvidiaSmi.GPU_QUERY
                + "' exited with status 6: No devices were found\"]}");
    }

    @Test
    void everyPercentageIsWrittenAsPythonWritesTheFloat() {
        // Python: [repr(k / 100) for k in (0, 1, 7, 10, 29, 50, 57, 99, 100)]
        String[] python = {"0.0", "0.01", "0.07", "0.1", "0.29", "0.5", "0.57", "0.99", "1.0"};
        int[] percents = {0, 1, 7, 10, 29, 50, 57, 99, 100};
        for (int i = 0; i < percents.length; i++) {
            assertThat(PythonJson.write(new PythonJson.Fraction(percents[i]))).isEqualTo(python[i]);
        }
        assertThat(PythonJson.write("a\u007f\u0001\n\ud83d\ude00")).isEqualTo("\"a\\u007f\\u0001\\n\\ud83d\\ude00\"");
    }
}
