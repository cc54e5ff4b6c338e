package org.tunekit.tuners.common;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A tuner's binary checkpoint: one file in the checkpoint directory that starts with a magic number
 * and a format version (two big-endian ints), followed by what the tuner writes with a
 * {@link DataOutputStream}. Reading checks both and names the file when either is wrong.
 *
 * @param fileName the file's name in the checkpoint directory
 * @param magic the first int of the file, which tells this tuner's checkpoints from others
 * @param version the format version, the second int
 * @param owner how the error message names the tuner ("is not a {@code owner} checkpoint")
 */
public record CheckpointFile(String fileName, int magic, int version, String owner) {

    /** Writes the body of a checkpoint. */
    @FunctionalInterface
    public interface Body {
        /** Writes the state after the header. */
        void write(DataOutputStream out) throws IOException;
    }

    /** Reads the body of a checkpoint. */
    @FunctionalInterface
    public interface Restore {
        /**
         * Reads the state after the header.
         *
         * @param file the checkpoint file, for error messages
         */
        void read(DataInputStream in, Path file) throws IOException;
    }

    /** The checkpoint file in {@code directory}. */
    public Path file(Path directory) {
        return directory.resolve(fileName);
    }

    /** Writes the header and then {@code body} to the checkpoint file in {@code directory}, replacing any. */
    public void write(Path directory, Body body) throws IOException {
        try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file(directory))))) {
            out.writeInt(magic);
            out.writeInt(version);
            body.write(out);
        }
    }

    /**
     * Checks the header of the checkpoint file in {@code directory} and hands the rest to
     * {@code restore}.
     *
     * @return {@code false}, and nothing read, when there is no such file
     * @throws IOException when the file does not start with this magic number and version, or
     *     {@code restore} fails
     */
    public boolean read(Path directory, Restore restore) throws IOException {
        Path file = file(directory);
        if (!Files.exists(file)) {
            return false;
        }
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
            if (in.readInt() != magic || in.readInt() != version) {
                throw new IOException(file + " is not a " + owner + " checkpoint (version " + version + ")");
            }
            restore.read(in, file);
        }
        return true;
    }
}
