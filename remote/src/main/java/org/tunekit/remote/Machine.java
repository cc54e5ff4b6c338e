package org.tunekit.remote;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One entry of {@code trainingService.machineList}, under NNI's names.
 *
 * @param index                its place in {@code machineList}, from 0
 * @param host                 {@code host}
 * @param port                 {@code port} (22 by default)
 * @param user                 {@code user}
 * @param password             {@code password}, or {@code null} to log in with the key
 * @param sshKeyFile           {@code sshKeyFile} ({@code ~/.ssh/id_rsa} by default), or {@code null}
 * @param sshPassphrase        {@code sshPassphrase}, or {@code null}
 * @param useActiveGpu         {@code useActiveGpu}
 * @param maxTrialNumberPerGpu {@code maxTrialNumberPerGpu}
 * @param gpuIndices           {@code gpuIndices}, or {@code null} for every GPU
 * @param pythonPath           {@code pythonPath}: put before {@code PATH} for the trials, or {@code null}
 */
record Machine(int index, String host, int port, String user, String password, Path sshKeyFile, String sshPassphrase,
               boolean useActiveGpu, int maxTrialNumberPerGpu, List<Integer> gpuIndices, String pythonPath) {

    /** How the store and messages name it: {@code user@host:port}. */
    String name() {
        return user + "@" + host + ":" + port;
    }

    /** {@code host:port}, for errors about reaching it. */
    String address() {
        return host + ":" + port;
    }

    /**
     * The machines of a {@code trainingService} entry as NNI's reader made it.
     *
     * @throws IllegalArgumentException naming the setting by its path
     */
    static List<Machine> of(Map<String, Object> settings) {
        if (!(settings.get("machineList") instanceof List<?> list) || list.isEmpty()) {
            throw new IllegalArgumentException("trainingService.machineList: give at least one machine");
        }
        List<Machine> machines = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            String at = "trainingService.machineList[" + i + "]";
            if (!(list.get(i) instanceof Map<?, ?> m)) {
                throw new IllegalArgumentException(at + ": must be a mapping");
            }
            String host = text(m, "host", at, true);
            String user = text(m, "user", at, true);
            int port = m.get("port") instanceof Number n ? n.intValue() : 22;
            String key = text(m, "sshKeyFile", at, false);
            List<Integer> indices = null;
            Object gi = m.get("gpuIndices");
            if (gi instanceof List<?> l) {
                indices = new ArrayList<>();
                for (Object o : l) {
                    indices.add(((Number) o).intValue());
                }
            } else if (gi instanceof String s && !s.isBlank()) {
                indices = new ArrayList<>();
                for (String part : s.split(",")) {
                    indices.add(Integer.parseInt(part.strip()));
                }
            } else if (gi instanceof Number n) {
                indices = List.of(n.intValue());
            }
            machines.add(new Machine(i, host, port, user, text(m, "password", at, false), key == null ? null : Path.of(key),
                    text(m, "sshPassphrase", at, false), Boolean.TRUE.equals(m.get("useActiveGpu")),
                    m.get("maxTrialNumberPerGpu") instanceof Number n ? n.intValue() : 1, indices == null ? null : List.copyOf(indices),
                    text(m, "pythonPath", at, false)));
        }
        return List.copyOf(machines);
    }

    private static String text(Map<?, ?> m, String key, String at, boolean required) {
        Object v = m.get(key);
        if (v == null) {
            if (required) {
                throw new IllegalArgumentException(at + "." + key + ": required");
            }
            return null;
        }
        return String.valueOf(v);
    }
}
