package org.tunekit.runner;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the metrics NNI's {@code nni} package (2.x and 3) prints to the trial's standard output when
 * {@code NNI_PLATFORM} is not {@code local}: one line {@code NNISDK_MEb'<the metric's JSON>'} each, which
 * NNI's own remote trial keeper reads the same way. Other lines are the trial's own output.
 *
 * <p>{@link #poll} returns the metrics of the lines completed since the last call; a line still being
 * written waits for the next call, or for {@code atEnd}. The file may not exist yet: nothing to read.
 * Read through {@link TrialMetricFiles}.
 */
final class PrintedMetrics {
    static final String PREFIX = "NNISDK_MEb'";

    private final Path file;
    private long offset;

    PrintedMetrics(Path file) {
        this.file = file;
    }

    /** The metrics' JSON texts of the lines completed since the last call (at the trial's end: also a last line without a newline). */
    List<String> poll(boolean atEnd) throws IOException {
        byte[] fresh;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size <= offset) {
                return List.of();
            }
            ByteBuffer b = ByteBuffer.allocate((int) Math.min(size - offset, 64L << 20));
            while (b.hasRemaining() && ch.read(b, offset + b.position()) > 0) {
                // read until the buffer is full or the file ends
            }
            fresh = java.util.Arrays.copyOf(b.array(), b.position());
        } catch (NoSuchFileException e) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i <= fresh.length; i++) {
            boolean lineEnd = i < fresh.length ? fresh[i] == '\n' : atEnd && i > start;
            if (!lineEnd) {
                continue;
            }
            String line = new String(fresh, start, i - start, StandardCharsets.UTF_8).strip();
            start = Math.min(i + 1, fresh.length);
            if (line.startsWith(PREFIX) && line.endsWith("'") && line.length() > PREFIX.length()) {
                out.add(line.substring(PREFIX.length(), line.length() - 1));
            }
        }
        offset += start;
        return out;
    }
}
