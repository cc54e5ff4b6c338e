package org.tunekit.dispatcher;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The dispatcher's state in {@code NNI_CHECKPOINT_DIRECTORY}, written so that a kill at any instant,
 * even in the middle of a write, leaves the last complete state readable.
 *
 * <ul>
 *   <li>Each plugin's checkpoint is a generation: the plugin saves into a fresh folder
 *       {@code NAME.N}, its files are forced to disk, a file {@code NAME.N.json} beside it records
 *       what the dispatcher needs with it, and only then the link {@code NAME} is switched to the new
 *       folder in one rename. A kill before the rename leaves {@code NAME} on the previous complete
 *       generation; the unfinished folder is removed at the next save. A plain folder {@code NAME}
 *       (the layout of clean stops before generations) is read as it is and adopted at the first save.</li>
 *   <li>Parameter ids are reserved ahead in {@code next-parameter-id}, a file replaced by a rename:
 *       no id at or above the recorded number has been handed out, so a resumed dispatcher starts
 *       there and never reuses one (ids skipped by a crash are simply never used).</li>
 * </ul>
 */
final class CheckpointStore {
    static final String NEXT_ID = "next-parameter-id";
    private static final Pattern GENERATION = Pattern.compile("(.+)\\.(\\d+)");

    private final Path root;

    CheckpointStore(Path root) {
        this.root = root;
    }

    /** The folder of the current checkpoint of {@code name}, or {@code null} when there is none. */
    Path current(String name) {
        Path link = root.resolve(name);
        return Files.isDirectory(link) ? link : null;
    }

    /** What the dispatcher recorded with the current checkpoint of {@code name}, or {@code null}. */
    String sidecar(String name) throws IOException {
        Path link = root.resolve(name);
        if (!Files.isSymbolicLink(link)) {
            return null;
        }
        Path target = Files.readSymbolicLink(link);
        Path json = root.resolve(target.getFileName() + ".json");
        return Files.isRegularFile(json) ? Files.readString(json, StandardCharsets.UTF_8) : null;
    }

    /** Writes a new generation of {@code name}'s checkpoint with {@code save} and makes it current. */
    void save(String name, Checkpoints.CheckpointCall save, String sidecar) throws Exception {
        Files.createDirectories(root);
        Path link = root.resolve(name);
        if (Files.isDirectory(link, LinkOption.NOFOLLOW_LINKS)) {
            // a folder from a clean stop of an earlier version: it becomes generation 0
            Files.move(link, root.resolve(name + ".0"), StandardCopyOption.ATOMIC_MOVE);
            Files.createSymbolicLink(link, Path.of(name + ".0"));
        }
        long next = generations(name).stream().mapToLong(CheckpointStore::number).max().orElse(0) + 1;
        Path dir = root.resolve(name + "." + next);
        Files.createDirectory(dir);
        save.call(dir);
        forceAll(dir);
        if (sidecar != null) {
            writeAtomically(root.resolve(name + "." + next + ".json"), sidecar);
        }
        Path tmpLink = root.resolve("." + name + ".link-" + next);
        Files.deleteIfExists(tmpLink);
        Files.createSymbolicLink(tmpLink, Path.of(dir.getFileName().toString()));
        Files.move(tmpLink, link, StandardCopyOption.ATOMIC_MOVE);
        forceDirectory(root);
        try (Stream<Path> links = Files.list(root)) {
            for (Path stale : links.filter(p -> p.getFileName().toString().startsWith("." + name + ".link-")).toList()) {
                Files.deleteIfExists(stale);
            }
        }
        for (Path old : generations(name)) {
            if (number(old) != next) {
                deleteTree(old);
                Files.deleteIfExists(root.resolve(old.getFileName() + ".json"));
            }
        }
    }

    /** The first parameter id that is surely unused, as recorded; 0 when nothing was recorded. */
    long reservedIds() throws IOException {
        try {
            String text = Files.readString(root.resolve(NEXT_ID), StandardCharsets.US_ASCII).strip();
            return text.isEmpty() ? 0 : Long.parseLong(text);
        } catch (NoSuchFileException e) {
            return 0;
        } catch (NumberFormatException e) {
            throw new IOException(root.resolve(NEXT_ID) + " does not hold a number", e);
        }
    }

    /** Records that no id at or above {@code next} has been handed out. */
    void reserveIds(long next) throws IOException {
        Files.createDirectories(root);
        writeAtomically(root.resolve(NEXT_ID), Long.toString(next));
    }

    private List<Path> generations(String name) throws IOException {
        try (Stream<Path> s = Files.list(root)) {
            return s.filter(p -> {
                Matcher m = GENERATION.matcher(p.getFileName().toString());
                return m.matches() && m.group(1).equals(name) && Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS);
            }).toList();
        }
    }

    private static long number(Path generation) {
        Matcher m = GENERATION.matcher(generation.getFileName().toString());
        return m.matches() ? Long.parseLong(m.group(2)) : -1;
    }

    /** Replaces {@code file} with {@code text} in one rename, after forcing the new content to disk. */
    static void writeAtomically(Path file, String text) throws IOException {
        Path tmp = file.resolveSibling("." + file.getFileName() + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ch.write(java.nio.ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
            ch.force(true);
        }
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private static void forceAll(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.toList()) {
                if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE)) {
                        ch.force(true);
                    }
                }
            }
        }
        forceDirectory(dir);
    }

    private static void forceDirectory(Path dir) {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // not every file system lets a folder be opened for syncing; the renames are atomic either way
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (NoSuchFileException | FileAlreadyExistsException e) {
            // already gone
        }
    }
}
