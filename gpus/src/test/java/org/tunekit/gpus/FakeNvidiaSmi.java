package org.tunekit.gpus;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Writes a stand-in {@code nvidia-smi} shell script into a directory. It answers exactly the two
 * queries Tunekit makes, flags spelt out here rather than taken from {@link NvidiaSmi}, so that a change
 * of flags breaks the tests; any other arguments get nvidia-smi's own complaint and status 2. Shipped in
 * this module's test jar for the runner's tests and the end-to-end tests.
 */
public final class FakeNvidiaSmi {
    public static final String GPU_QUERY =
            "--query-gpu=index,uuid,name,memory.total,memory.used,memory.free,utilization.gpu,utilization.memory,driver_version --format=csv,noheader,nounits";
    public static final String PROCESS_QUERY = "--query-compute-apps=gpu_uuid,pid,used_memory,process_name --format=csv,noheader,nounits";

    /**
     * Four GPUs. GPU 1 is busy with a foreign process (pid 4242) and 90 % utilisation, GPU 3's memory
     * controller is at 20 %; 0 and 2 are idle. A second process (pid 17, memory unknown, a comma in its
     * name) also runs on GPU 1.
     */
    public static final String FOUR_GPUS = """
            0, GPU-00000000-aaaa-0000-0000-000000000000, NVIDIA A100-SXM4-40GB, 40960, 0, 40536, 0, 0, 535.104.05
            1, GPU-11111111-bbbb-1111-1111-111111111111, NVIDIA A100-SXM4-40GB, 40960, 20481, 20055, 90, 35, 535.104.05
            2, GPU-22222222-cccc-2222-2222-222222222222, NVIDIA A100-SXM4-40GB, 40960, 0, 40536, 0, 0, 535.104.05
            3, GPU-33333333-dddd-3333-3333-333333333333, NVIDIA A100-SXM4-40GB, 40960, 0, 40536, 7, 20, 535.104.05
            """;
    public static final String FOUR_GPUS_PROCESSES = """
            GPU-11111111-bbbb-1111-1111-111111111111, 4242, 20000, /usr/bin/python3
            GPU-11111111-bbbb-1111-1111-111111111111, 17, [N/A], /opt/a,b/train
            """;

    private FakeNvidiaSmi() {
    }

    /** Writes {@code dir/nvidia-smi} answering the GPU query with {@code gpuLines} and the process query with {@code processLines}. */
    public static Path write(Path dir, String gpuLines, String processLines) throws IOException {
        return script(dir, """
                case "$*" in
                  '%s')
                    cat <<'END_OF_GPUS'
                %sEND_OF_GPUS
                    ;;
                  '%s')
                    cat <<'END_OF_PROCESSES'
                %sEND_OF_PROCESSES
                    ;;
                  *)
                    echo "Invalid combination of input arguments. Please run 'nvidia-smi -h' for help." >&2
                    exit 2
                    ;;
                esac
                """.formatted(GPU_QUERY, gpuLines, PROCESS_QUERY, processLines));
    }

    /** Writes {@code dir/nvidia-smi} with {@code body} as its shell script. */
    public static Path script(Path dir, String body) throws IOException {
        Path script = dir.resolve("nvidia-smi");
        Files.writeString(script, "#!/bin/sh\n" + body);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        return script;
    }
}
