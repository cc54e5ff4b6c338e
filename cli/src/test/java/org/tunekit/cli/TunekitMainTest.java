package org.tunekit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The calls an NNI manager makes to its Python interpreter, answered in process (the launcher script answers two itself). */
class TunekitMainTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return TunekitMain.execute(args, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
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
    void gpuProbeReportsNoGpus() {
        assertThat(run("-m", "nni.tools.nni_manager_scripts.collect_gpu_info")).isZero();
        assertThat(out()).isEqualTo("{\"gpuNumber\": 0, \"gpus\": [], \"processes\": [], \"success\": true}" + System.lineSeparator());
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
