package org.tunekit.dispatcher.protocol;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Coverage-guided fuzzing of the pipe framing: any bytes decode to commands, a clean end of
 * stream, or a {@link ProtocolException}, never another exception and never a hang. Without
 * {@code JAZZER_FUZZ} only the seeds under {@code PipeFrameCodecFuzzTestInputs/} run.
 */
class PipeFrameCodecFuzzTest {
    /** Small, so that a fuzzed length over it is refused before any payload is read. */
    private static final long MAX_PAYLOAD = 4096;

    @FuzzTest(maxDuration = "60s")
    void decodesOrRefuses(byte[] data) throws IOException {
        decodeAll(new PipeFrameCodec(MAX_PAYLOAD), new ByteArrayInputStream(data), data.length);
    }

    @FuzzTest(maxDuration = "60s")
    void managerSideDecodesOrRefuses(byte[] data) throws IOException {
        decodeAll(PipeFrameCodec.forManager(), new ByteArrayInputStream(data), data.length);
    }

    private static void decodeAll(PipeFrameCodec codec, InputStream in, int size) throws IOException {
        // every command consumes at least its 16-byte header, so more reads than this would be a loop
        int limit = size / PipeFrameCodec.HEADER_LENGTH + 1;
        try {
            for (int i = 0; i <= limit; i++) {
                Command c = codec.read(in);
                if (c == null) {
                    if (codec.offset() != size) {
                        throw new AssertionError("clean end at byte " + codec.offset() + " of " + size);
                    }
                    return;
                }
                if (c.type() == null || c.payload() == null) {
                    throw new AssertionError("a command without a type or payload: " + c);
                }
                // a decoded command encodes back to a frame that decodes to the same command
                byte[] again = PipeFrameCodec.encode(c);
                PipeFrameCodec other = PipeFrameCodec.forManager();
                if (c.type().toDispatcher()) {
                    other = new PipeFrameCodec(MAX_PAYLOAD);
                }
                Command back = other.read(new ByteArrayInputStream(again));
                if (!c.equals(back)) {
                    throw new AssertionError("round trip changed " + c + " into " + back);
                }
            }
            throw new AssertionError("more commands than the input holds headers for");
        } catch (ProtocolException expected) {
            // the declared error for malformed input
        }
    }
}
