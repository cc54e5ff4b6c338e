package org.tunekit.gpus;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one JSON line NNI's {@code python -m nni.tools.nni_manager_scripts.collect_gpu_info [--detail]}
 * prints, made from what {@link NvidiaSmi} finds: the same keys in the same order, written as Python's
 * {@code json.dumps} writes them.
 *
 * <p>On success: {@code {"gpuNumber": N, "gpus": [...], "processes": [...], "success": true}}, each GPU
 * {@code {"index", "gpuCoreUtilization", "gpuMemoryUtilization"}} (fractions 0 to 1), each process
 * {@code {"pid", "gpuIndex", "type": "compute", "usedGpuMemory"}} (bytes; left out when unknown), the
 * processes sorted by pid. With {@code --detail} also {@code driverVersion} (when there is a GPU),
 * each GPU's {@code model}, {@code gpuMemory} and {@code freeGpuMemory} (bytes), and each process's
 * {@code name}. {@code cudaVersion} and {@code cudaCores}, which nvidia-smi does not give, are left out
 * as NNI leaves out what it cannot read. When {@code nvidia-smi} fails: NNI's failure shape,
 * {@code {"success": false, "failures": ["nvidia-smi: ..."]}}. See {@code NNI-SEMANTICS.md}.
 */
public final class CollectGpuInfo {
    private static final long BYTES_PER_MIB = 1024L * 1024L;

    private CollectGpuInfo() {
    }

    /** Runs {@code nvidia-smi} and returns the line NNI's script would print (without the line break); never throws for nvidia-smi's failures. */
    public static String collect(NvidiaSmi nvidiaSmi, boolean detail) {
        List<Gpu> gpus;
        try {
            gpus = nvidiaSmi.gpus();
        } catch (NvidiaSmiException e) {
            return failure(e.getMessage());
        }
        return success(gpus, detail);
    }

    /** The line for these GPUs. */
    static String success(List<Gpu> gpus, boolean detail) {
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("gpuNumber", gpus.size());
        if (detail && !gpus.isEmpty()) {
            info.put("driverVersion", gpus.get(0).driverVersion());
        }
        List<Object> gpuList = new ArrayList<>();
        List<GpuProcess> processes = new ArrayList<>();
        for (Gpu gpu : gpus) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("index", gpu.index());
            if (detail) {
                entry.put("model", gpu.name());
                entry.put("gpuMemory", gpu.memoryMiB() * BYTES_PER_MIB);
                entry.put("freeGpuMemory", gpu.memoryFreeMiB() * BYTES_PER_MIB);
            }
            entry.put("gpuCoreUtilization", new PythonJson.Fraction(gpu.utilisationPercent()));
            entry.put("gpuMemoryUtilization", new PythonJson.Fraction(gpu.memoryUtilisationPercent()));
            gpuList.add(entry);
            processes.addAll(gpu.activeProcesses());
        }
        processes.sort(Comparator.comparingLong(GpuProcess::pid)); // stable: a pid on two GPUs keeps GPU order, as NNI's sort does
        List<Object> processList = new ArrayList<>();
        for (GpuProcess process : processes) {
            Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("pid", process.pid());
            if (detail) {
                entry.put("name", process.name());
            }
            entry.put("gpuIndex", process.gpuIndex());
            entry.put("type", "compute");
            process.usedMemoryMiB().ifPresent(mib -> entry.put("usedGpuMemory", mib * BYTES_PER_MIB));
            processList.add(entry);
        }
        info.put("gpus", gpuList);
        info.put("processes", processList);
        info.put("success", true);
        return PythonJson.write(info);
    }

    /** NNI's failure shape with one failure, {@code "nvidia-smi: " + message}. */
    static String failure(String message) {
        Map<String, Object> info = new LinkedHashMap<>();
        info.put("success", false);
        info.put("failures", List.of("nvidia-smi: " + message));
        return PythonJson.write(info);
    }
}
