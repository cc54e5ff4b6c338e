package org.tunekit.runner;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import org.tunekit.nniconfig.ConfigException;

/**
 * Where experiments live. Each has a folder {@code ROOT/ID} (ROOT is the config's
 * {@code experimentWorkingDirectory}, else {@code $TUNEKIT_EXPERIMENTS_DIR}, else
 * {@code ~/tunekit-experiments}); the default root keeps a list of every experiment's folder
 * ({@code experiments.tsv}), so that {@code tunekit results ID} finds one made elsewhere. A running
 * experiment holds a lock on its folder, so no second runner can write to it.
 */
final class ExperimentFolders {
    static final String REGISTRY = "experiments.tsv";
    /**
     * The folders this process holds the lock of. A lock is asked about here, not by opening the lock
     * file: on Linux, closing any channel of a file releases every lock the process holds on it.
     */
    private static final java.util.Set<Path> HELD = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private static final String ID_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789";

    private ExperimentFolders() {}

    static Path defaultRoot(Map<String, String> env) {
        String dir = env.get("TUNEKIT_EXPERIMENTS_DIR");
        return dir != null && !dir.isBlank() ? Path.of(dir).toAbsolutePath() : Path.of(System.getProperty("user.home"), "tunekit-experiments");
    }

    /** Makes the folder of a new experiment under {@code root}. */
    static Path create(Path root, String id) throws IOException {
        Path dir = root.resolve(id);
        Files.createDirectories(root);
        Files.createDirectory(dir);
        return dir;
    }

    /** Removes the folder of an experiment that was refused before it started. */
    static void remove(Path dir) {
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // best effort: a folder left behind holds no experiment database
        }
    }

    /** Lists an experiment's folder in the default root's registry, so that its id finds it from anywhere. */
    static void register(String id, Path dir, Map<String, String> env) throws IOException {
        Path registryRoot = defaultRoot(env);
        Files.createDirectories(registryRoot);
        // one short append: lines from runners started at the same moment do not interleave
        Files.writeString(registryRoot.resolve(REGISTRY), id + "\t" + dir.toAbsolutePath() + "\n", StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND, StandardOpenOption.WRITE);
    }

    /** The default root's list of every experiment made: (id, folder), in the order made. */
    static List<Map.Entry<String, Path>> registered(Map<String, String> env) {
        Path registry = defaultRoot(env).resolve(REGISTRY);
        if (!Files.isRegularFile(registry)) {
            return List.of();
        }
        try {
            List<Map.Entry<String, Path>> out = new java.util.ArrayList<>();
            for (String line : Files.readAllLines(registry, StandardCharsets.UTF_8)) {
                int tab = line.indexOf('\t');
                if (tab > 0) {
                    out.add(Map.entry(line.substring(0, tab), Path.of(line.substring(tab + 1))));
                }
            }
            return out;
        } catch (IOException | java.nio.file.InvalidPathException e) {
            throw new RunnerException("cannot read " + registry + ": " + e.getMessage(), e);
        }
    }

    /** A new experiment id: eight lowercase letters and digits, not yet used under {@code root}. */
    static String newId(Path root) {
        SecureRandom random = new SecureRandom();
        while (true) {
            StringBuilder sb = new StringBuilder(8);
            for (int i = 0; i < 8; i++) {
                sb.append(ID_CHARS.charAt(random.nextInt(ID_CHARS.length())));
            }
            if (!Files.exists(root.resolve(sb.toString()))) {
                return sb.toString();
            }
        }
    }

    /**
     * Finds an experiment's folder from what the user typed: a folder holding an experiment, or an id
     * looked up under {@code root} (if given), the default root and its registry.
     */
    static Path find(String idOrPath, Path root, Map<String, String> env) {
        Path asPath = Path.of(idOrPath);
        if (Files.isRegularFile(asPath.resolve(ExperimentStore.FILE))) {
            return asPath.toAbsolutePath();
        }
        Path defaultRoot = defaultRoot(env);
        for (Path r : root == null ? List.of(defaultRoot) : List.of(root, defaultRoot)) {
            if (Files.isRegularFile(r.resolve(idOrPath).resolve(ExperimentStore.FILE))) {
                return r.resolve(idOrPath).toAbsolutePath();
            }
        }
        for (Map.Entry<String, Path> e : registered(env)) {
            if (e.getKey().equals(idOrPath) && Files.isRegularFile(e.getValue().resolve(ExperimentStore.FILE))) {
                return e.getValue();
            }
        }
        throw new ConfigException("no experiment '" + idOrPath + "' (looked in " + (root == null ? "" : root + ", ") + defaultRoot
                + " and its list " + defaultRoot.resolve(REGISTRY) + "); give the experiment's folder instead");
    }

    /** Holds the experiment folder's lock until closed; fails when another runner holds it. */
    static AutoCloseable lock(Path dir) throws IOException {
        Path file = dir.resolve(".lock");
        FileChannel ch = new RandomAccessFile(file.toFile(), "rw").getChannel();
        FileLock lock;
        try {
            lock = ch.tryLock();
        } catch (OverlappingFileLockException e) {
            lock = null;
        }
        if (lock == null) {
            ch.close();
            String holder = Files.readString(file, StandardCharsets.UTF_8).strip();
            throw new ConfigException("experiment " + dir.getFileName() + " is being run by another runner"
                    + (holder.isEmpty() ? "" : " (process " + holder + ")"));
        }
        ch.truncate(0);
        ch.write(java.nio.ByteBuffer.wrap(Long.toString(ProcessHandle.current().pid()).getBytes(StandardCharsets.US_ASCII)));
        FileLock held = lock;
        Path key = dir.toAbsolutePath().normalize();
        HELD.add(key);
        return () -> {
            HELD.remove(key);
            held.release();
            ch.close();
        };
    }

    /**
     * Whether a runner holds the folder's lock: this process, or the live Java process whose id the lock
     * file names. The lock itself is not tried: taking it, even for an instant, could turn away a runner
     * starting at that instant.
     */
    static boolean locked(Path dir) {
        Path key = dir.toAbsolutePath().normalize();
        if (HELD.contains(key)) {
            return true;
        }
        try {
            long pid = Long.parseLong(Files.readString(key.resolve(".lock"), StandardCharsets.US_ASCII).strip());
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive)
                    .map(p -> p.info().command().map(c -> c.endsWith("java")).orElse(true)).orElse(false);
        } catch (IOException | NumberFormatException e) {
            return false;
        }
    }
}
