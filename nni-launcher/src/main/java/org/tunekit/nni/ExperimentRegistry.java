package org.tunekit.nni;

import com.google.gson.FormattingStyle;
import com.google.gson.Gson;
import com.google.gson.GsonBuilder;
import com.google.gson.JsonParseException;
import com.google.gson.ToNumberPolicy;
import com.google.gson.reflect.TypeToken;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongPredicate;

/**
 * NNI's list of experiments, {@code ~/nni-experiments/.experiment} ({@code $HOME} is honoured, and
 * the folder is always this one whatever {@code experimentWorkingDirectory} says): what {@code nnictl
 * experiment list}, {@code nnictl stop}, {@code nnictl resume} and the web UI's experiment list read.
 * A JSON object of experiment id to entry ({@code id}, {@code port}, {@code startTime} in ms,
 * {@code endTime} ({@code "N/A"} until the manager sets it), {@code status}, {@code platform},
 * {@code experimentName}, {@code tag}, {@code pid} (the manager's), {@code webuiUrl}, {@code logDir}
 * (the experiments folder, not the experiment's), {@code prefixUrl}), written with an indent of 4.
 * The manager updates {@code status} and {@code endTime} of its own entry as the experiment goes.
 *
 * <p>Writers take NNI's lock: a file {@code .experiment.lock.PID} made with exclusive create, while
 * no other {@code .experiment.lock.*} is younger than 2 s (older ones count as stale).
 */
public final class ExperimentRegistry {
    private static final long STALE_MILLIS = 2000;
    private static final Gson GSON = new GsonBuilder().serializeNulls().disableHtmlEscaping()
            .setFormattingStyle(FormattingStyle.PRETTY.withIndent("    ")).setObjectToNumberStrategy(ToNumberPolicy.LONG_OR_DOUBLE).create();

    private final Path file;

    /** The registry in {@code folder} (normally {@code ~/nni-experiments}). */
    public ExperimentRegistry(Path folder) {
        this.file = folder.resolve(".experiment");
    }

    /** The registry of this user: {@code $HOME/nni-experiments/.experiment}. */
    public static ExperimentRegistry forHome(String home) {
        return new ExperimentRegistry(Path.of(home, "nni-experiments"));
    }

    /** The file. */
    public Path file() {
        return file;
    }

    /**
     * The entry nnictl writes when it has started a manager ({@code Experiments.add_experiment}).
     *
     * @param id        the experiment id
     * @param port      the manager's port
     * @param startTime when it started, ms since the epoch
     * @param platform  the training service platform, or {@code hybrid}
     * @param name      {@code experimentName}, or {@code null}
     * @param pid       the manager's process id
     * @param logDir    the experiments folder ({@code experimentWorkingDirectory})
     * @param prefixUrl the URL prefix, or {@code null}
     */
    public static Map<String, Object> entry(String id, int port, long startTime, String platform, String name, long pid, Path logDir,
                                            String prefixUrl) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("id", id);
        e.put("port", (long) port);
        e.put("startTime", startTime);
        e.put("endTime", "N/A");
        e.put("status", "INITIALIZED");
        e.put("platform", platform);
        e.put("experimentName", name);
        e.put("tag", new ArrayList<>());
        e.put("pid", pid);
        e.put("webuiUrl", new ArrayList<>());
        e.put("logDir", logDir.toString());
        e.put("prefixUrl", prefixUrl);
        return e;
    }

    /** Every entry, by id (empty when there is no file). */
    public Map<String, Map<String, Object>> read() throws IOException {
        return parse(readText());
    }

    /** Adds (or replaces) an entry. */
    public void put(Map<String, Object> entry) throws IOException {
        update(all -> all.put((String) entry.get("id"), entry));
    }

    /** Sets one key of an entry, if the entry exists. */
    public void set(String id, String key, Object value) throws IOException {
        update(all -> {
            Map<String, Object> e = all.get(id);
            if (e != null) {
                e.put(key, value);
            }
        });
    }

    /**
     * Marks {@code STOPPED} every entry not yet stopped whose manager is gone, as nnictl does before
     * it looks for experiments ({@code update_experiment}).
     */
    public void markGoneAsStopped(LongPredicate alive) throws IOException {
        Map<String, Map<String, Object>> all = read();
        boolean any = all.values().stream().anyMatch(e -> !"STOPPED".equals(e.get("status")) && !isAlive(e, alive));
        if (any) {
            update(m -> m.values().forEach(e -> {
                if (!"STOPPED".equals(e.get("status")) && !isAlive(e, alive)) {
                    e.put("status", "STOPPED");
                }
            }));
        }
    }

    private static boolean isAlive(Map<String, Object> entry, LongPredicate alive) {
        return entry.get("pid") instanceof Number n && alive.test(n.longValue());
    }

    /** Reads, changes and writes the list under NNI's lock. */
    public void update(Consumer<Map<String, Map<String, Object>>> change) throws IOException {
        Files.createDirectories(file.getParent());
        Path lock = lock();
        try {
            String text = readText();
            Map<String, Map<String, Object>> all;
            try {
                all = parse(text);
            } catch (IOException e) {
                // nnictl would start afresh and lose the list; keep a copy for the user instead
                Path copy = file.resolveSibling(".experiment.unreadable");
                Files.copy(file, copy, StandardCopyOption.REPLACE_EXISTING);
                System.err.println("tunekit nni: " + file + " was not valid JSON (copied to " + copy + "); starting a new list");
                all = new LinkedHashMap<>();
            }
            change.accept(all);
            Path tmp = file.resolveSibling(".experiment.tunekit-" + ProcessHandle.current().pid());
            Files.writeString(tmp, GSON.toJson(all), StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(lock);
        }
    }

    private Path lock() throws IOException {
        Path mine = file.resolveSibling(".experiment.lock." + ProcessHandle.current().pid());
        long deadline = System.currentTimeMillis() + 10_000;
        while (true) {
            if (!lockedByOthers(mine)) {
                try {
                    Files.createFile(mine);
                    return mine;
                } catch (FileAlreadyExistsException e) {
                    // ours from a crash, or a race: wait for it to go stale
                }
            }
            if (System.currentTimeMillis() > deadline) {
                throw new IOException("the experiment list " + file + " stays locked (a " + file.getFileName()
                        + ".lock.* file younger than 2 s keeps coming back); try again");
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while waiting for the lock of " + file, e);
            }
        }
    }

    private boolean lockedByOthers(Path mine) throws IOException {
        try (DirectoryStream<Path> locks = Files.newDirectoryStream(file.getParent(), ".experiment.lock.*")) {
            for (Path p : locks) {
                try {
                    long age = System.currentTimeMillis() - Files.getLastModifiedTime(p).toMillis();
                    if (age < STALE_MILLIS && !p.equals(mine)) {
                        return true;
                    }
                    if (p.equals(mine) && age >= STALE_MILLIS) {
                        Files.deleteIfExists(p);
                    }
                } catch (NoSuchFileException gone) {
                    // released meanwhile
                }
            }
        }
        return false;
    }

    private String readText() throws IOException {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    private Map<String, Map<String, Object>> parse(String text) throws IOException {
        if (text == null || text.isBlank()) {
            return new LinkedHashMap<>();
        }
        try {
            Map<String, Map<String, Object>> all = GSON.fromJson(text, new TypeToken<LinkedHashMap<String, LinkedHashMap<String, Object>>>() {}.getType());
            return all == null ? new LinkedHashMap<>() : all;
        } catch (JsonParseException | ClassCastException | IllegalStateException e) {
            throw new IOException(file + " is not NNI's experiment list (a JSON object of id to entry): " + e.getMessage(), e);
        }
    }

    /** The entries of experiments not yet stopped, in the file's order. */
    public static List<Map<String, Object>> running(Map<String, Map<String, Object>> all) {
        return all.values().stream().filter(e -> !"STOPPED".equals(e.get("status"))).toList();
    }
}
