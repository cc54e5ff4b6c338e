package org.tunekit.runner;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Coverage-guided fuzzing of the trial's metrics file: bytes from the fuzzer, appended in two
 * writes with a poll after each as a running trial would, are read as frames or stop the reading
 * with {@link MetricsFileReader#problem()}; only an {@link IOException} may be thrown. The frames
 * read must not depend on where the file was cut.
 */
class MetricsFileReaderFuzzTest {
    @FuzzTest(maxDuration = "60s")
    void readsFramesOrNamesTheProblem(FuzzedDataProvider data) throws IOException {
        int where = data.consumeInt();
        byte[] bytes = data.consumeRemainingAsBytes();
        int cut = Math.floorMod(where, bytes.length + 1);
        Path file = Files.createTempFile("tunekit-metrics-fuzz", ".bin");
        try {
            MetricsFileReader split = new MetricsFileReader(file);
            List<String> frames = new ArrayList<>();
            Files.write(file, java.util.Arrays.copyOfRange(bytes, 0, cut));
            frames.addAll(split.poll());
            Files.write(file, java.util.Arrays.copyOfRange(bytes, cut, bytes.length), StandardOpenOption.APPEND);
            frames.addAll(split.poll());
            frames.addAll(split.finish());

            MetricsFileReader whole = new MetricsFileReader(file);
            List<String> once = new ArrayList<>(whole.finish());
            if (!frames.equals(once)) {
                throw new AssertionError("cut at " + cut + " read " + frames + ", whole read " + once);
            }
            if ((split.problem() == null) != (whole.problem() == null)) {
                throw new AssertionError("cut at " + cut + " problem " + split.problem() + ", whole problem " + whole.problem());
            }
            for (String f : frames) {
                if (f == null) {
                    throw new AssertionError("a null frame");
                }
            }
        } finally {
            Files.deleteIfExists(file);
        }
    }
}
