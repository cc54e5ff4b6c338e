package org.tunekit.runner;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MetricsFileReaderTest {
    @TempDir
    Path tmp;

    private static byte[] frame(String json) {
        byte[] body = (json + "\n").getBytes(StandardCharsets.UTF_8);
        byte[] head = String.format("ME%06d", body.length).getBytes(StandardCharsets.US_ASCII);
        byte[] out = new byte[head.length + body.length];
        System.arraycopy(head, 0, out, 0, head.length);
        System.arraycopy(body, 0, out, head.length, body.length);
        return out;
    }

    private void append(Path f, byte[] bytes, int from, int to) throws Exception {
        Files.write(f, java.util.Arrays.copyOfRange(bytes, from, to), StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    @Test
    void aMissingFileHasNothingYet() throws Exception {
        MetricsFileReader r = new MetricsFileReader(tmp.resolve("metrics"));
        assertThat(r.poll()).isEmpty();
        assertThat(r.finish()).isEmpty();
        assertThat(r.problem()).isNull();
    }

    @Test
    void framesSplitAtEveryByteAreReadWholeWithMultiByteText() throws Exception {
        Path f = tmp.resolve("metrics");
        byte[] a = frame("{\"type\": \"PERIODICAL\", \"value\": \"0.5\", \"note\": \"précis\"}");
        byte[] b = frame("{\"type\": \"FINAL\", \"value\": \"0.75\"}");
        byte[] all = new byte[a.length + b.length];
        System.arraycopy(a, 0, all, 0, a.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        MetricsFileReader r = new MetricsFileReader(f);
        java.util.List<String> got = new java.util.ArrayList<>();
        for (int i = 0; i < all.length; i++) {
            append(f, all, i, i + 1);
            got.addAll(r.poll());
        }
        got.addAll(r.finish());
        assertThat(got).containsExactly("{\"type\": \"PERIODICAL\", \"value\": \"0.5\", \"note\": \"précis\"}", "{\"type\": \"FINAL\", \"value\": \"0.75\"}");
        assertThat(r.problem()).isNull();
    }

    @Test
    void aBadHeaderNamesItsByteAndKeepsTheFramesBeforeIt() throws Exception {
        Path f = tmp.resolve("metrics");
        byte[] good = frame("{\"value\": 1}");
        Files.write(f, good);
        Files.write(f, "MX0000012{}".getBytes(StandardCharsets.US_ASCII), StandardOpenOption.APPEND);
        MetricsFileReader r = new MetricsFileReader(f);
        assertThat(r.poll()).containsExactly("{\"value\": 1}");
        assertThat(r.problem()).isEqualTo("expected 'ME' at byte " + good.length + " of " + f + ", found 'MX'");
        assertThat(r.poll()).isEmpty();
    }

    @Test
    void aLengthThatIsNotSixDigitsIsNamed() throws Exception {
        Path f = tmp.resolve("metrics");
        Files.write(f, "ME00a012{\"value\": 1}\n".getBytes(StandardCharsets.US_ASCII));
        MetricsFileReader r = new MetricsFileReader(f);
        assertThat(r.poll()).isEmpty();
        assertThat(r.problem()).contains("must be 6 decimal digits, found '00a012' (byte 4)");
    }

    @Test
    void aTruncatedLastFrameIsReportedAtTheEnd() throws Exception {
        Path f = tmp.resolve("metrics");
        byte[] good = frame("{\"value\": 1}");
        Files.write(f, good);
        Files.write(f, "ME000050{\"val".getBytes(StandardCharsets.US_ASCII), StandardOpenOption.APPEND);
        MetricsFileReader r = new MetricsFileReader(f);
        assertThat(r.poll()).hasSize(1);
        assertThat(r.problem()).isNull();
        assertThat(r.finish()).isEmpty();
        assertThat(r.problem()).contains("ends inside a frame: 13 bytes from byte " + good.length + " of a frame announcing 000050 bytes");
    }
}
