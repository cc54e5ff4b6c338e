package org.tunekit.dispatcher.protocol;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * NNI's pipe framing: two ASCII code bytes, the payload's length in bytes as 14 zero-padded ASCII
 * decimal digits, then the UTF-8 payload. Strict: a bad code, a non-digit in the length, a length
 * over the limit, a truncated header or payload, or invalid UTF-8 is a {@link ProtocolException}
 * naming the byte offset in the stream. End of stream exactly between frames is a clean end.
 *
 * <p>One codec reads one stream; it counts the bytes it has read. Not thread-safe.
 */
public final class PipeFrameCodec {
    /** Bytes before the payload: 2 code bytes and 14 length digits. */
    public static final int HEADER_LENGTH = 16;
    private static final int LENGTH_DIGITS = 14;
    /** The default largest payload accepted, 256 MiB. */
    public static final long DEFAULT_MAX_PAYLOAD = 256L << 20;

    private final long maxPayload;
    private final boolean readsReplies;
    private final byte[] header = new byte[HEADER_LENGTH];
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT)
            .onUnmappableCharacter(CodingErrorAction.REPORT);
    private byte[] buffer = new byte[8192];
    private long offset;

    /** A dispatcher-side codec (it reads the manager's commands) with the default payload limit. */
    public PipeFrameCodec() {
        this(DEFAULT_MAX_PAYLOAD);
    }

    /** A dispatcher-side codec accepting payloads up to {@code maxPayload} bytes. */
    public PipeFrameCodec(long maxPayload) {
        this(maxPayload, false);
    }

    private PipeFrameCodec(long maxPayload, boolean readsReplies) {
        this.maxPayload = maxPayload;
        this.readsReplies = readsReplies;
    }

    /** A manager-side codec: it reads the dispatcher's replies ({@code ID}, {@code TR}, ...). */
    public static PipeFrameCodec forManager() {
        return new PipeFrameCodec(DEFAULT_MAX_PAYLOAD, true);
    }

    /** Bytes consumed so far. */
    public long offset() {
        return offset;
    }

    /**
     * Reads the next command.
     *
     * @return the command, or {@code null} at a clean end of stream
     * @throws ProtocolException on malformed input
     * @throws IOException       when reading fails
     */
    public Command read(InputStream in) throws IOException {
        int got = readFully(in, header, 0, HEADER_LENGTH);
        if (got == 0) {
            return null;
        }
        long frameStart = offset;
        if (got < HEADER_LENGTH) {
            offset += got;
            throw new ProtocolException("truncated frame header at byte " + frameStart + ": the stream ended after "
                    + got + " of " + HEADER_LENGTH + " header bytes");
        }
        CommandType type = CommandType.ofCode(header[0], header[1]);
        if (type == null) {
            int bad = (header[0] < 'A' || header[0] > 'Z') ? 0 : 1;
            if (bad == 1 && header[1] >= 'A' && header[1] <= 'Z') {
                // two letters, but not a command of the protocol
                throw new ProtocolException("unknown command code \"" + (char) header[0] + (char) header[1]
                        + "\" at byte " + frameStart);
            }
            throw new ProtocolException("bad command code at byte " + (frameStart + bad) + ": " + describeByte(header[bad])
                    + " is not an upper-case ASCII letter");
        }
        if (type.toDispatcher() == readsReplies) {
            throw new ProtocolException("command " + type.code() + " at byte " + frameStart
                    + (readsReplies ? " is sent to the dispatcher, never by it" : " is sent by the dispatcher, never to it"));
        }
        long length = 0;
        for (int i = 2; i < HEADER_LENGTH; i++) {
            byte b = header[i];
            if (b < '0' || b > '9') {
                throw new ProtocolException("bad length digit at byte " + (frameStart + i) + " (" + type.code() + " frame): "
                        + describeByte(b) + " is not an ASCII digit; the length is " + LENGTH_DIGITS + " decimal digits");
            }
            length = length * 10 + (b - '0');
        }
        if (length > maxPayload) {
            throw new ProtocolException("payload length " + length + " of the " + type.code() + " frame at byte " + frameStart
                    + " is over the limit of " + maxPayload + " bytes");
        }
        offset += HEADER_LENGTH;
        int n = (int) length;
        if (n == 0) {
            return Command.of(type);
        }
        if (buffer.length < n) {
            buffer = new byte[Math.max(n, buffer.length * 2)];
        }
        int read = readFully(in, buffer, 0, n);
        if (read < n) {
            offset += read;
            throw new ProtocolException("truncated " + type.code() + " frame at byte " + frameStart + ": the header announces "
                    + n + " payload bytes but the stream ended after " + read);
        }
        String payload = decodeUtf8(type, buffer, n, offset);
        offset += n;
        return new Command(type, payload);
    }

    private String decodeUtf8(CommandType type, byte[] bytes, int n, long payloadStart) throws ProtocolException {
        boolean ascii = true;
        for (int i = 0; i < n; i++) {
            if (bytes[i] < 0) {
                ascii = false;
                break;
            }
        }
        if (ascii) {
            return new String(bytes, 0, n, StandardCharsets.ISO_8859_1);
        }
        ByteBuffer in = ByteBuffer.wrap(bytes, 0, n);
        CharBuffer out = CharBuffer.allocate(n);
        decoder.reset();
        CoderResult r = decoder.decode(in, out, true);
        if (r.isError()) {
            int at = in.position();
            throw new ProtocolException("invalid UTF-8 in the payload of the " + type.code() + " frame at byte "
                    + (payloadStart + at) + ": " + describeByte(bytes[at]) + " cannot start or continue a UTF-8 sequence there");
        }
        r = decoder.flush(out);
        out.flip();
        return out.toString();
    }

    private int readFully(InputStream in, byte[] b, int off, int len) throws IOException {
        int total = 0;
        while (total < len) {
            int r = in.read(b, off + total, len - total);
            if (r < 0) {
                break;
            }
            total += r;
        }
        return total;
    }

    private static String describeByte(byte b) {
        int v = b & 0xff;
        String hex = String.format("0x%02X", v);
        return (v >= 0x20 && v < 0x7f) ? hex + " ('" + (char) v + "')" : hex;
    }

    /** Encodes one command as a frame. */
    public static byte[] encode(Command command) {
        byte[] payload = command.wireText().getBytes(StandardCharsets.UTF_8);
        byte[] frame = new byte[HEADER_LENGTH + payload.length];
        writeHeader(command.type(), payload.length, frame);
        System.arraycopy(payload, 0, frame, HEADER_LENGTH, payload.length);
        return frame;
    }

    /** Writes one frame to {@code out} (not flushed). */
    public static void write(OutputStream out, Command command) throws IOException {
        out.write(encode(command));
    }

    private static void writeHeader(CommandType type, long length, byte[] into) {
        into[0] = (byte) type.code().charAt(0);
        into[1] = (byte) type.code().charAt(1);
        long v = length;
        for (int i = HEADER_LENGTH - 1; i >= 2; i--) {
            into[i] = (byte) ('0' + (v % 10));
            v /= 10;
        }
    }
}
