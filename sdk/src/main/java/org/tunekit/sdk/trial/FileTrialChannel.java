package org.tunekit.sdk.trial;

import org.tunekit.sdk.internal.Json;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import org.tunekit.sdk.ParameterRecord;

/**
 * NNI 2's trial channel, which NNI 3 keeps for its legacy platforms: the manager writes each
 * parameter record to a file in the trial's directory ({@code parameter.cfg}, then
 * {@code parameter_1.cfg}, ...), and the trial appends its metrics to {@code .nni/metrics} as
 * frames: {@code ME}, the byte length of the JSON text and its newline as 6 decimal digits, then
 * that text and newline in UTF-8. Off the {@code local} platform, or in reuse mode, metrics go to
 * standard output as {@code NNISDK_MEb'<JSON text>'} lines instead.
 */
final class FileTrialChannel implements TrialChannel {
    /** The largest frame body (JSON text and newline), in bytes, that 6 digits can count. */
    static final int MAX_FRAME_BYTES = 999_999;
    /** How often to look for a parameter file that is not there yet. */
    static final long POLL_MILLIS = 200;

    private final Path sysDir;
    private final Path metricsFile;
    private final String trialJobId;
    private final boolean multiPhase;
    /** Where metrics go when not to the metrics file; {@code null} when to the file. */
    private final PrintStream stdout;

    /**
     * Creates {@code .nni} in the trial's directory and the output directory, when missing.
     *
     * @throws IllegalStateException  when {@code NNI_SYS_DIR} is not set
     * @throws java.io.UncheckedIOException when a directory cannot be created
     */
    FileTrialChannel(TrialEnvironment env, PrintStream stdout) {
        if (env.sysDir() == null) {
            throw new IllegalStateException("NNI_SYS_DIR is not set, though NNI_PLATFORM=" + env.platform()
                    + " says this trial runs under a manager that hands out parameters in files");
        }
        this.sysDir = env.sysDir();
        this.metricsFile = sysDir.resolve(".nni").resolve("metrics");
        this.trialJobId = env.requireTrialJobId();
        this.multiPhase = env.multiPhase();
        this.stdout = env.metricsToFile() ? null : stdout;
        try {
            Files.createDirectories(metricsFile.getParent());
            Files.createDirectories(env.outputDirectory());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot create the trial's directories under " + sysDir + ": " + e, e);
        }
    }

    /**
     * Waits for the parameter file to exist and be non-empty. When it is not there at first, a
     * {@code REQUEST_PARAMETER} metric asks the manager for it. Without multi-phase there is only
     * the first set.
     */
    @Override
    public Optional<ParameterRecord> requestParameters(int index) throws IOException {
        if (index > 0 && !multiPhase) {
            return Optional.empty();
        }
        Path file = parameterFile(index);
        if (!Files.exists(file)) {
            Map<String, Object> request = new LinkedHashMap<>();
            request.put("trial_job_id", trialJobId);
            request.put("type", "REQUEST_PARAMETER");
            request.put("sequence", 0);
            request.put("parameter_index", index);
            send(Json.write(request));
        }
        return Optional.of(readWhenWritten(file));
    }

    @Override
    public void sendMetric(MetricMessage message) throws IOException {
        send(message.toJson());
    }

    @Override
    public String describe() {
        return sysDir.toString();
    }

    Path parameterFile(int index) {
        return sysDir.resolve(index == 0 ? "parameter.cfg" : "parameter_" + index + ".cfg");
    }

    Path metricsFile() {
        return metricsFile;
    }

    /**
     * Reads the file once it is there and not empty. A text that is not JSON is read again after a
     * pause, in case the manager was still writing it; the same text twice is an error.
     */
    private ParameterRecord readWhenWritten(Path file) throws IOException {
        String previous = null;
        while (true) {
            String text = readIfWritten(file);
            if (text != null) {
                try {
                    return TrialChannel.parseRecord(Json.parse(text), file.toString());
                } catch (IllegalArgumentException e) {
                    if (text.equals(previous)) {
                        throw new IOException(file + " is not a parameter record: " + e.getMessage(), e);
                    }
                    previous = text;
                }
            }
            pause(file);
        }
    }

    private static void pause(Path awaited) throws InterruptedIOException {
        try {
            Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            InterruptedIOException interrupted = new InterruptedIOException("interrupted while waiting for " + awaited);
            interrupted.initCause(e);
            throw interrupted;
        }
    }

    private static String readIfWritten(Path file) throws IOException {
        try {
            if (!Files.isRegularFile(file) || Files.size(file) == 0) {
                return null;
            }
            return Files.readString(file, UTF_8);
        } catch (NoSuchFileException e) {
            return null;
        }
    }

    private void send(String text) throws IOException {
        if (stdout != null) {
            if (text.length() > MAX_FRAME_BYTES) {
                throw new IllegalArgumentException("metric text of " + text.length()
                        + " characters is longer than the " + MAX_FRAME_BYTES + " a manager reads");
            }
            stdout.println("NNISDK_MEb'" + text + "'");
            stdout.flush();
            return;
        }
        byte[] body = (text + "\n").getBytes(UTF_8);
        if (body.length > MAX_FRAME_BYTES) {
            throw new IllegalArgumentException("metric frame of " + body.length
                    + " bytes is longer than the " + MAX_FRAME_BYTES + " its 6-digit length can count");
        }
        byte[] frame = new byte[8 + body.length];
        frame[0] = 'M';
        frame[1] = 'E';
        System.arraycopy(String.format("%06d", body.length).getBytes(US_ASCII), 0, frame, 2, 6);
        System.arraycopy(body, 0, frame, 8, body.length);
        try (FileChannel out = FileChannel.open(metricsFile,
                StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ByteBuffer buffer = ByteBuffer.wrap(frame);
            while (buffer.hasRemaining()) {
                out.write(buffer);
            }
        } catch (IOException e) {
            throw new IOException("cannot append a metric to " + metricsFile + ": " + e, e);
        }
        // Touched as NNI's trial side does, for a manager that watches the file's modification time.
        Files.setLastModifiedTime(metricsFile, FileTime.from(Instant.now()));
    }
}
