package org.tunekit.dispatcher.channel;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.ProtocolException;

/**
 * Coverage-guided fuzzing of the WebSocket envelope: any text frame decodes to a command to the
 * dispatcher, {@code null} ({@code _nop_}), the end ({@code _bye_}) or a {@link ProtocolException}.
 */
class WebSocketDecodeFuzzTest {
    @FuzzTest(maxDuration = "60s")
    void decodesOrRefuses(FuzzedDataProvider data) {
        String text = data.consumeRemainingAsString();
        Object decoded;
        try {
            decoded = WebSocketMessageCodec.decode(text);
        } catch (ProtocolException expected) {
            return;
        }
        if (decoded == null) {
            return;
        }
        if (decoded instanceof Command c) {
            if (!c.type().toDispatcher() || c.payload() == null) {
                throw new AssertionError("decoded a command the manager never sends: " + c);
            }
            return;
        }
        if (!decoded.getClass().getSimpleName().equals("End")) {
            throw new AssertionError("decode returned a " + decoded.getClass() + ": " + decoded);
        }
    }
}
