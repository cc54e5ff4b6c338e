package org.tunekit.runner.results;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ThreadLocalRandom;

/** Files replaced whole: a reader, or a kill at any moment, sees the old file or the new one, never a part. */
final class AtomicFiles {
    /** Writes text to a writer; may throw. */
    interface Body {
        void write(Writer out) throws IOException;
    }

    private AtomicFiles() {
    }

    /**
     * Writes the file in UTF-8: the text goes to a hidden temporary file in the same folder (created if missing),
     * is forced to the disk, then the temporary file is renamed over the target in one atomic move. On failure
     * the temporary file is deleted and the target is left as it was.
     *
     * @throws java.nio.file.AtomicMoveNotSupportedException if the file system cannot rename atomically
     */
    static void write(Path target, Body body) throws IOException {
        Path dir = target.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path temp = null;
        FileChannel channel = null;
        for (int attempt = 0; channel == null; attempt++) {
            temp = dir.resolve("." + target.getFileName() + "." + Long.toUnsignedString(
                    ThreadLocalRandom.current().nextLong(), 36) + ".tmp");
            try {
                // Not Files.createTempFile: it makes the file readable by its owner only, and the report is for others too.
                channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            } catch (FileAlreadyExistsException e) {
                if (attempt >= 10) {
                    throw e;
                }
            }
        }
        boolean moved = false;
        try {
            try (FileChannel ch = channel;
                 OutputStream os = Channels.newOutputStream(ch);
                 Writer out = new BufferedWriter(new OutputStreamWriter(os, StandardCharsets.UTF_8))) {
                body.write(out);
                out.flush();
                ch.force(true);
            }
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            moved = true;
        } finally {
            if (!moved) {
                Files.deleteIfExists(temp);
            }
        }
    }
}
