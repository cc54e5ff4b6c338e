package org.tunekit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.tunekit.gpus.NvidiaSmi;

/** The calls an NNI manager makes to its Python interpreter, answered in process (the launcher script answers the version probe itself). */
class TunekitMainTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    /** The search path for nvidia-smi: empty unless a test writes a stand-in into it. */
    @TempDir
    Path bin;

    private int run(String... args) {
        return TunekitMain.execute(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8),
                NvidiaSmi.onPath(bin.toString()));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void versionProbePrintsOneJsonLine() {
        assertThat(run("-m", "nni.tools.nni_manager_scripts.collect_version_info")).isZero();
        assertThat(out().lines().toList()).singleElement().asString().startsWith("{\"nniVersion\": \"tunekit-" + TunekitMain.VERSION + "\"")
                .contains("\"javaVersion\"");
    }

    @Test
    void gpuProbeWithoutNvidiaSmiReportsNoGpus() {
        assertThat(run("-m", "nni.tools.nni_manager_scripts.collect_gpu_info")).isZero();
        assertThat(out()).isEqualTo("{\"gpuNumber\": 0, \"gpus\": [], \"processes\": [], \"success\": true}" + System.lineSeparator());
    }

    @Test
    void gpuProbeReportsTheGpusNvidiaSmiFinds() throws Exception {
        standInNvidiaSmi();

        assertThat(run("-m", "nni.tools.nni_manager_scripts.collect_gpu_info")).isZero();
        assertThat(out()).isEqualTo("{\"gpuNumber\": 2, \"gpus\": ["
                + "{\"index\": 0, \"gpuCoreUtilization\": 0.0, \"gpuMemoryUtilization\": 0.0}, "
                + "{\"index\": 1, \"gpuCoreUtilization\": 0.83, \"gpuMemoryUtilization\": 0.41}], "
                + "\"processes\": [{\"pid\": 4242, \"gpuIndex\": 1, \"type\": \"compute\", \"usedGpuMemory\": 2147483648}], "
                + "\"success\": true}" + System.lineSeparator());
        assertThat(err()).isEmpty();
    }

    @Test
    void gpuProbeDetailNamesModelsMemoryAndProcesses() throws Exception {
        standInNvidiaSmi();

        assertThat(run("-m", "nni.tools.nni_manager_scripts.collect_gpu_info", "--detail")).isZero();
        assertThat(out()).startsWith("{\"gpuNumber\": 2, \"driverVersion\": \"550.54.15\", \"gpus\": ["
                        + "{\"index\": 0, \"model\": \"Tesla T4\", \"gpuMemory\": 16106127360, \"freeGpuMemory\": 16106127360, ")
                .contains("{\"pid\": 4242, \"name\": \"python3\", \"gpuIndex\": 1, ");
    }

    @Test
    void gpuProbeFailureIsNnisFailureShapeWithStatusZero() throws Exception {
        script("echo 'Failed to initialize NVML: Driver/library version mismatch'\nexit 18\n");

        assertThat(run("-m", "nni.tools.nni_manager_scripts.collect_gpu_info")).isZero();
        assertThat(out()).startsWith("{\"success\": false, \"failures\": [\"nvidia-smi: '" + bin.resolve("nvidia-smi"))
                .endsWith("' exited with status 18: Failed to initialize NVML: Driver/library version mismatch\"]}" + System.lineSeparator());
    }

    /** Two T4s, the second busy with pid 4242; only the exact queries are answered. */
    private void standInNvidiaSmi() throws Exception {
        script("""
                case "$*" in
                  '--query-gpu=index,uuid,name,memory.total,memory.used,memory.free,utilization.gpu,utilization.memory,driver_version --format=csv,noheader,nounits')
                    echo '0, GPU-a, Tesla T4, 15360, 0, 15360, 0, 0, 550.54.15'
                    echo '1, GPU-b, Tesla T4, 15360, 2048, 13312, 83, 41, 550.54.15' ;;
                  '--query-compute-apps=gpu_uuid,pid,used_memory,process_name --format=csv,noheader,nounits')
                    echo 'GPU-b, 4242, 2048, python3' ;;
                  *) echo "Invalid combination of input arguments." >&2; exit 2 ;;
                esac
                """);
    }

    private void script(String body) throws Exception {
        Path script = bin.resolve("nvidia-smi");
        Files.writeString(script, "#!/bin/sh\n" + body);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @Test
    void nniModuleIsTheDispatchCommand() {
        // without --exp_params, dispatch's own usage error shows that -m nni reached it
        assertThat(run("-m", "nni")).isEqualTo(2);
        assertThat(err()).contains("Missing required option: '--exp_params=B64'").contains("Usage: tunekit dispatch");
    }

    @Test
    void pythonCodeAndOtherModulesFail() {
        assertThat(run("-c", "import tensorboard")).isEqualTo(1);
        assertThat(err()).contains("'-c' runs Python code");
        assertThat(run("-m", "nni.tools.something_else")).isEqualTo(1);
        assertThat(err()).contains("no module named nni.tools.something_else");
        assertThat(run("-m")).isEqualTo(2);
        assertThat(out()).isEmpty();
    }
}
