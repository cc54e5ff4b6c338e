package org.tunekit.runner;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Reads the metrics a trial appends to {@code $NNI_SYS_DIR/.nni/metrics} (NNI 2.x's file trial
 * channel, still kept by NNI 3 for trials without {@code NNI_TRIAL_COMMAND_CHANNEL}). Each frame is
 * the ASCII bytes {@code ME}, the byte length of the rest as exactly 6 decimal digits, then that many
 * bytes: the metric's JSON text (UTF-8), which the trial ends with a newline.
 *
 * <p>{@link #poll} returns the frames completed since the last call and keeps a partial frame for the
 * next one, so a frame split across writes is read whole. A frame that breaks the format ends the
 * reading of that file: the frames before it are still returned, and {@link #problem} names the byte
 * offset and what is wrong; at the trial's end {@link #finish} does the same for a frame left
 * incomplete. The file may not exist yet: nothing to read.
 *
 * <p>Read through {@link TrialMetricFiles}.
 */
final class MetricsFileReader {
    static final int HEADER = 8;

    private final Path file;
    private long offset;
    private byte[] pending = new byte[0];
    private String problem;

    MetricsFileReader(Path file) {
        this.file = file;
    }

    /** What breaks the file's format, once found, else {@code null}. */
    String problem() {
        return problem;
    }

    /** The metric texts of the frames completed since the last call, in order, up to any that breaks the format. */
    List<String> poll() throws IOException {
        if (problem != null) {
            return List.of();
        }
        byte[] fresh = readFrom(offset);
        if (fresh.length == 0 && pending.length < HEADER) {
            return List.of();
        }
        long bufferStart = offset - pending.length;
        offset += fresh.length;
        byte[] buf = concat(pending, fresh);
        List<String> out = new ArrayList<>();
        int pos = 0;
        while (buf.length - pos >= HEADER) {
            long at = bufferStart + pos;
            if (buf[pos] != 'M' || buf[pos + 1] != 'E') {
                return broken(out, "expected 'ME' at byte " + at + " of " + file + ", found " + show(buf, pos, 2));
            }
            int length = 0;
            for (int i = 2; i < HEADER; i++) {
                byte b = buf[pos + i];
                if (b < '0' || b > '9') {
                    return broken(out, "the length of the frame at byte " + at + " of " + file + " must be 6 decimal digits, found "
                            + show(buf, pos + 2, 6) + " (byte " + (at + i) + ")");
                }
                length = length * 10 + (b - '0');
            }
            if (length == 0) {
                return broken(out, "the frame at byte " + at + " of " + file + " is empty");
            }
            if (buf.length - pos - HEADER < length) {
                break;
            }
            String text;
            try {
                text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(buf, pos + HEADER, length)).toString();
            } catch (CharacterCodingException e) {
                return broken(out, "the frame at byte " + at + " of " + file + " is not valid UTF-8");
            }
            out.add(text.strip());
            pos += HEADER + length;
        }
        pending = Arrays.copyOfRange(buf, pos, buf.length);
        return out;
    }

    /** After the trial ended: the frames still unread; a last frame left incomplete becomes the {@link #problem}. */
    List<String> finish() throws IOException {
        List<String> last = poll();
        if (problem == null && pending.length > 0) {
            long at = offset - pending.length;
            return broken(last, "the metrics file " + file + " ends inside a frame: " + pending.length + " bytes from byte " + at
                    + (pending.length >= HEADER ? " of a frame announcing " + new String(pending, 2, 6, StandardCharsets.US_ASCII) + " bytes" : "")
                    + " (the trial stopped while writing it)");
        }
        return last;
    }

    private List<String> broken(List<String> before, String message) {
        problem = message;
        pending = new byte[0];
        return before;
    }

    private byte[] readFrom(long position) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size <= position) {
                return new byte[0];
            }
            long want = Math.min(size - position, 64L << 20);
            ByteBuffer b = ByteBuffer.allocate((int) want);
            while (b.hasRemaining() && ch.read(b, position + b.position()) > 0) {
                // read until the buffer is full or the file ends
            }
            return Arrays.copyOf(b.array(), b.position());
        } catch (NoSuchFileException e) {
            return new byte[0];
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        if (a.length == 0) {
            return b;
        }
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static String show(byte[] buf, int from, int n) {
        StringBuilder sb = new StringBuilder("'");
        for (int i = from; i < Math.min(buf.length, from + n); i++) {
            int b = buf[i] & 0xff;
            sb.append(b >= 0x20 && b < 0x7f ? String.valueOf((char) b) : String.format("\\x%02x", b));
        }
        return sb.append('\'').toString();
    }
}
