package org.tunekit.dispatcher.channel;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.ProtocolException;

/**
 * Coverage-guided fuzzing of the ZeroMQ frame: any bytes decode to a command to the dispatcher whose
 * frame is exactly those bytes, the end (a zero-length frame) or a {@link ProtocolException}.
 */
class ZmqDecodeFuzzTest {
    @FuzzTest(maxDuration = "60s")
    void decodesOrRefuses(FuzzedDataProvider data) {
        byte[] frame = data.consumeRemainingAsBytes();
        Object decoded;
        try {
            decoded = ZmqChannel.decode(frame);
        } catch (ProtocolException expected) {
            return;
        }
        if (decoded instanceof Command c) {
            if (!c.type().toDispatcher()) {
                throw new AssertionError("decoded a command the manager never sends: " + c);
            }
            // valid UTF-8 re-encodes to the same bytes: nothing was dropped or replaced
            if (!Arrays.equals(ZmqChannel.encode(c), frame)) {
                throw new AssertionError("decoding is not the inverse of encoding for " + new String(frame, StandardCharsets.ISO_8859_1));
            }
            return;
        }
        if (frame.length != 0 || !decoded.getClass().getSimpleName().equals("End")) {
            throw new AssertionError("decode returned " + decoded + " for " + frame.length + " bytes");
        }
    }
}
