package org.tunekit.dispatcher.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class PipeFrameCodecTest {

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private static List<Command> readAll(PipeFrameCodec codec, byte[] bytes) throws IOException {
        InputStream in = new ByteArrayInputStream(bytes);
        List<Command> out = new ArrayList<>();
        for (Command c = codec.read(in); c != null; c = codec.read(in)) {
            out.add(c);
        }
        return out;
    }

    /** Hands out at most one byte per read, as a slow pipe may. */
    private static InputStream trickle(byte[] bytes) {
        return new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(1, len));
            }
        };
    }

    @Test
    void aCommandWhosePayloadIsAnInProcessRecordIsNeverWrittenToAChannel() {
        Command end = Command.of(new Payloads.TrialEndData("T1", "SUCCEEDED", 1L));
        assertThatThrownBy(() -> PipeFrameCodec.encode(end))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("EN whose payload is a TrialEndData")
                .hasMessageContaining("cannot be written to a channel");
    }

    @Test
    void encodesTheHeaderAsNniDoes() {
        assertThat(new String(PipeFrameCodec.encode(new Command(CommandType.INITIALIZE, "{}")), StandardCharsets.ISO_8859_1))
                .isEqualTo("IN00000000000002{}");
        assertThat(PipeFrameCodec.encode(Command.of(CommandType.PING))).isEqualTo(ascii("PI00000000000000"));
        // the length counts UTF-8 bytes, not characters
        assertThat(Arrays.copyOf(PipeFrameCodec.encode(new Command(CommandType.REQUEST_TRIAL_JOBS, "é")), 16))
                .isEqualTo(ascii("GE00000000000002"));
    }

    @Test
    void roundTripsEveryCommandTowardsTheDispatcher() throws IOException {
        List<Command> sent = new ArrayList<>();
        for (CommandType t : CommandType.values()) {
            if (t.toDispatcher()) {
                sent.add(new Command(t, t == CommandType.PING ? "" : "{\"k\": \"" + t.code() + " ünïcödé ✓ 𝄞\"}"));
            }
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Command c : sent) {
            PipeFrameCodec.write(out, c);
        }
        PipeFrameCodec codec = new PipeFrameCodec();
        assertThat(readAll(codec, out.toByteArray())).isEqualTo(sent);
        assertThat(codec.offset()).isEqualTo(out.size());

        PipeFrameCodec slow = new PipeFrameCodec();
        InputStream in = trickle(out.toByteArray());
        for (Command c : sent) {
            assertThat(slow.read(in)).isEqualTo(c);
        }
        assertThat(slow.read(in)).isNull();
    }

    @Test
    void managerSideRoundTripsReplies() throws IOException {
        List<Command> sent = List.of(Command.of(CommandType.INITIALIZED), new Command(CommandType.NEW_TRIAL_JOB, "{\"parameter_id\": 0}"),
                new Command(CommandType.KILL_TRIAL_JOB, "\"abc\""), new Command(CommandType.ERROR, "boom"));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Command c : sent) {
            PipeFrameCodec.write(out, c);
        }
        assertThat(readAll(PipeFrameCodec.forManager(), out.toByteArray())).isEqualTo(sent);
    }

    @Test
    void endOfStreamBetweenFramesIsACleanEnd() throws IOException {
        PipeFrameCodec codec = new PipeFrameCodec();
        assertThat(codec.read(new ByteArrayInputStream(new byte[0]))).isNull();
        assertThat(codec.offset()).isZero();
    }

    @Test
    void aTruncatedHeaderIsAnError() throws IOException {
        // a partial header means a command was cut off: reported, unlike NNI, which takes it for a clean end
        PipeFrameCodec codec = new PipeFrameCodec();
        InputStream in = new ByteArrayInputStream(concat(ascii("PI00000000000000"), ascii("GE0000000")));
        assertThat(codec.read(in)).isEqualTo(Command.of(CommandType.PING));
        assertThatThrownBy(() -> codec.read(in)).isInstanceOf(ProtocolException.class)
                .hasMessage("truncated frame header at byte 16: the stream ended after 9 of 16 header bytes");
    }

    @Test
    void aTruncatedPayloadIsAnError() {
        PipeFrameCodec codec = new PipeFrameCodec();
        byte[] bytes = concat(ascii("PI00000000000000"), ascii("IN00000000000010{\"a\": 1"));
        assertThatThrownBy(() -> readAll(codec, bytes)).isInstanceOf(ProtocolException.class)
                .hasMessage("truncated IN frame at byte 16: the header announces 10 payload bytes but the stream ended after 7");
    }

    @Test
    void badCodeBytesAreNamedWithTheirOffset() {
        assertThatThrownBy(() -> readAll(new PipeFrameCodec(), ascii("in00000000000000")))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("bad command code at byte 0: 0x69 ('i') is not an upper-case ASCII letter");
        assertThatThrownBy(() -> readAll(new PipeFrameCodec(), concat(ascii("PI00000000000000"), ascii("I"), new byte[] {0x01},
                ascii("00000000000000"))))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("bad command code at byte 17: 0x01 is not an upper-case ASCII letter");
        assertThatThrownBy(() -> readAll(new PipeFrameCodec(), ascii("ZZ00000000000000")))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("unknown command code \"ZZ\" at byte 0");
    }

    @Test
    void commandsInTheWrongDirectionAreRefused() {
        assertThatThrownBy(() -> readAll(new PipeFrameCodec(), ascii("TR00000000000000")))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("command TR at byte 0 is sent by the dispatcher, never to it");
        assertThatThrownBy(() -> readAll(PipeFrameCodec.forManager(), ascii("GE000000000000011")))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("command GE at byte 0 is sent to the dispatcher, never by it");
    }

    @Test
    void nonDigitLengthsAreNamedWithTheirOffset() {
        assertThatThrownBy(() -> readAll(new PipeFrameCodec(), ascii("GE0000000000001x1")))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("bad length digit at byte 15 (GE frame): 0x78 ('x') is not an ASCII digit; the length is 14 decimal digits");
        assertThatThrownBy(() -> readAll(new PipeFrameCodec(), concat(ascii("PI00000000000000GE "), ascii("0000000000001"))))
                .isInstanceOf(ProtocolException.class)
                .hasMessageStartingWith("bad length digit at byte 18 (GE frame): 0x20 (' ')");
        // NNI's old 6-digit length is refused, not misread
        assertThatThrownBy(() -> readAll(new PipeFrameCodec(), ascii("GE000001" + "1" + "GE000001" + "1")))
                .isInstanceOf(ProtocolException.class)
                .hasMessageStartingWith("bad length digit at byte 9 (GE frame): 0x47 ('G')");
    }

    @Test
    void lengthsOverTheLimitAreRefusedBeforeReading() {
        PipeFrameCodec codec = new PipeFrameCodec(10);
        assertThatThrownBy(() -> readAll(codec, ascii("IN00000000000011{}")))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("payload length 11 of the IN frame at byte 0 is over the limit of 10 bytes");
        assertThatThrownBy(() -> readAll(new PipeFrameCodec(), ascii("IN99999999999999")))
                .isInstanceOf(ProtocolException.class)
                .hasMessageContaining("payload length 99999999999999")
                .hasMessageContaining("over the limit of " + PipeFrameCodec.DEFAULT_MAX_PAYLOAD);
    }

    @Test
    void invalidUtf8IsNamedWithItsOffset() {
        byte[] bad = concat(ascii("PI00000000000000"), ascii("IN00000000000004"), new byte[] {'"', 'a', (byte) 0xFF, '"'});
        assertThatThrownBy(() -> readAll(new PipeFrameCodec(), bad))
                .isInstanceOf(ProtocolException.class)
                .hasMessage("invalid UTF-8 in the payload of the IN frame at byte 34: 0xFF cannot start or continue a UTF-8 sequence there");
        // a multi-byte sequence cut short by the end of the payload
        byte[] cut = concat(ascii("IN00000000000003"), new byte[] {'a', (byte) 0xE2, (byte) 0x9C});
        assertThatThrownBy(() -> readAll(new PipeFrameCodec(), cut))
                .isInstanceOf(ProtocolException.class)
                .hasMessageStartingWith("invalid UTF-8 in the payload of the IN frame at byte 17: 0xE2");
        // an overlong encoding of '/'
        byte[] overlong = concat(ascii("IN00000000000002"), new byte[] {(byte) 0xC0, (byte) 0xAF});
        assertThatThrownBy(() -> readAll(new PipeFrameCodec(), overlong))
                .isInstanceOf(ProtocolException.class)
                .hasMessageStartingWith("invalid UTF-8 in the payload of the IN frame at byte 16: 0xC0");
    }

    @Test
    void theBufferGrowsForLargePayloads() throws IOException {
        String big = "x".repeat(100_000) + "é";
        byte[] frame = PipeFrameCodec.encode(new Command(CommandType.INITIALIZE, big));
        assertThat(readAll(new PipeFrameCodec(), concat(frame, frame))).extracting(Command::payload).containsExactly(big, big);
    }
}
