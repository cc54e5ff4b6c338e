package org.tunekit.sdk.trial;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TrialClientFileTest {
    @TempDir
    Path dir;

    private final ByteArrayOutputStream stdout = new ByteArrayOutputStream();

    private Map<String, String> env(String... more) {
        Map<String, String> env = new HashMap<>();
        env.put("NNI_PLATFORM", "local");
        env.put("NNI_SYS_DIR", dir.toString());
        env.put("NNI_OUTPUT_DIR", dir.resolve("output").toString());
        env.put("NNI_TRIAL_JOB_ID", "Abc12");
        for (int i = 0; i < more.length; i += 2) {
            env.put(more[i], more[i + 1]);
        }
        return env;
    }

    private TrialClient client(Map<String, String> env) {
        return TrialClient.create(env, new PrintStream(stdout, true, UTF_8), new PrintStream(new ByteArrayOutputStream(), true, UTF_8));
    }

    private Path metricsFile() {
        return dir.resolve(".nni").resolve("metrics");
    }

    /** A frame as NNI's managers read it, built by hand: "ME", 6 digits of byte length, the text and "\n". */
    private static byte[] frame(String json) {
        byte[] body = (json + "\n").getBytes(UTF_8);
        byte[] head = ("ME" + String.format("%06d", body.length)).getBytes(UTF_8);
        byte[] frame = new byte[head.length + body.length];
        System.arraycopy(head, 0, frame, 0, head.length);
        System.arraycopy(body, 0, frame, head.length, body.length);
        return frame;
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /** Waits (bounded) until the metrics file holds these bytes, then writes the file: a manager answering a request. */
    private CompletableFuture<Void> answerWhenAsked(byte[] request, Path file, String content) {
        return CompletableFuture.runAsync(() -> {
            try {
                for (int i = 0; i < 2000; i++) {
                    if (Files.exists(metricsFile()) && indexOf(Files.readAllBytes(metricsFile()), request) >= 0) {
                        Files.writeString(file, content, UTF_8);
                        return;
                    }
                    Thread.sleep(10);
                }
                throw new IllegalStateException("the trial never asked for " + file);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    @Test
    void waitsForALateParameterFileAndWritesFramesByteForByte() throws Exception {
        TrialClient trial = client(env());
        assertThat(trial.kind()).isEqualTo(TrialEnvironment.Kind.FILE);
        assertThat(dir.resolve("output")).isDirectory();
        assertThat(dir.resolve(".nni")).isDirectory();

        byte[] request = frame("{\"trial_job_id\":\"Abc12\",\"type\":\"REQUEST_PARAMETER\",\"sequence\":0,\"parameter_index\":0}");
        CompletableFuture<Void> manager = answerWhenAsked(request, dir.resolve("parameter.cfg"),
                "{\"parameter_id\": 7, \"parameter_source\": \"algorithm\", \"parameters\": {\"x\": 0.5, \"lr\": 0.1}, \"parameter_index\": 0}");

        assertThat(trial.parameters().values()).isEqualTo(Map.of("x", 0.5, "lr", 0.1));
        manager.get(30, TimeUnit.SECONDS);
        assertThat(trial.parameterId()).isEqualTo(OptionalLong.of(7));

        trial.reportIntermediate(0.25);
        Map<String, Object> metrics = new LinkedHashMap<>();
        metrics.put("default", 0.5);
        metrics.put("精度", 0.9);
        trial.reportIntermediate(metrics);
        trial.reportFinal(0.75);

        String withNonAscii = "{\"parameter_id\":7,\"trial_job_id\":\"Abc12\",\"type\":\"PERIODICAL\",\"sequence\":1,"
                + "\"value\":\"{\\\"default\\\":0.5,\\\"精度\\\":0.9}\"}";
        byte[] nonAsciiFrame = frame(withNonAscii);
        // Two 3-byte characters: the length counts bytes, not characters.
        assertThat(new String(nonAsciiFrame, 2, 6, UTF_8)).isEqualTo(String.format("%06d", withNonAscii.length() + 1 + 4));
        assertThat(Files.readAllBytes(metricsFile())).isEqualTo(concat(
                request,
                frame("{\"parameter_id\":7,\"trial_job_id\":\"Abc12\",\"type\":\"PERIODICAL\",\"sequence\":0,\"value\":\"0.25\"}"),
                nonAsciiFrame,
                frame("{\"parameter_id\":7,\"trial_job_id\":\"Abc12\",\"type\":\"FINAL\",\"sequence\":0,\"value\":\"0.75\"}")));
        assertThat(stdout.size()).isZero();
    }

    @Test
    void aParameterFileThatExistsIsReadWithoutAsking() throws Exception {
        Files.writeString(dir.resolve("parameter.cfg"), "{\"parameter_id\": 1, \"parameters\": {\"a\": \"b\"}}");
        TrialClient trial = client(env());
        assertThat(trial.parameters().values()).isEqualTo(Map.of("a", "b"));
        assertThat(metricsFile()).doesNotExist();
        // Without multi-phase there is only the first set, and asking for another writes nothing.
        assertThat(trial.nextParameters()).isEmpty();
        assertThat(metricsFile()).doesNotExist();
        assertThat(trial.parameters().values()).isEqualTo(Map.of("a", "b"));
    }

    @Test
    void anEmptyParameterFileIsWaitedFor() throws Exception {
        Path file = dir.resolve("parameter.cfg");
        Files.createFile(file);
        CompletableFuture<Void> manager = CompletableFuture.runAsync(() -> {
            try {
                Thread.sleep(300);
                Files.writeString(file, "{\"parameter_id\": 2, \"parameters\": {\"n\": 3}}");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        TrialClient trial = client(env());
        assertThat(trial.parameters().getLong("n")).isEqualTo(3);
        manager.get(30, TimeUnit.SECONDS);
        assertThat(metricsFile()).doesNotExist();
    }

    @Test
    void multiPhaseAsksForTheNextFile() throws Exception {
        Files.writeString(dir.resolve("parameter.cfg"), "{\"parameter_id\": 1, \"parameters\": {\"x\": 1}}");
        TrialClient trial = client(env("MULTI_PHASE", "true"));
        assertThat(trial.parameters().get("x")).isEqualTo(1L);

        byte[] request = frame("{\"trial_job_id\":\"Abc12\",\"type\":\"REQUEST_PARAMETER\",\"sequence\":0,\"parameter_index\":1}");
        CompletableFuture<Void> manager = answerWhenAsked(request, dir.resolve("parameter_1.cfg"),
                "{\"parameter_id\": 2, \"parameters\": {\"x\": 2}}");
        assertThat(trial.nextParameters()).map(p -> p.get("x")).contains(2L);
        manager.get(30, TimeUnit.SECONDS);
        assertThat(trial.parameterId()).isEqualTo(OptionalLong.of(2));
        trial.reportFinal(0.5);
        assertThat(Files.readAllBytes(metricsFile())).isEqualTo(concat(request,
                frame("{\"parameter_id\":2,\"trial_job_id\":\"Abc12\",\"type\":\"FINAL\",\"sequence\":0,\"value\":\"0.5\"}")));
    }

    @Test
    void aReportBeforeTheParametersNamesNoParameterId() throws Exception {
        client(env()).reportIntermediate(Double.NaN);
        assertThat(Files.readAllBytes(metricsFile())).isEqualTo(
                frame("{\"parameter_id\":null,\"trial_job_id\":\"Abc12\",\"type\":\"PERIODICAL\",\"sequence\":0,\"value\":\"NaN\"}"));
    }

    @Test
    void offTheLocalPlatformMetricsGoToStandardOutput() throws Exception {
        Files.writeString(dir.resolve("parameter.cfg"), "{\"parameter_id\": 5, \"parameters\": {}}");
        TrialClient trial = client(env("NNI_PLATFORM", "remote"));
        trial.parameters();
        trial.reportFinal(Map.of("default", 1));
        assertThat(stdout.toString(UTF_8)).isEqualTo("NNISDK_MEb'{\"parameter_id\":5,\"trial_job_id\":\"Abc12\",\"type\":\"FINAL\","
                + "\"sequence\":0,\"value\":\"{\\\"default\\\":1}\"}'" + System.lineSeparator());
        assertThat(metricsFile()).doesNotExist();

        stdout.reset();
        client(env("REUSE_MODE", "true")).reportIntermediate(2.0);
        assertThat(stdout.toString(UTF_8)).startsWith("NNISDK_MEb'{\"parameter_id\":null,");
        assertThat(metricsFile()).doesNotExist();
    }

    @Test
    void aFrameOverTheLimitIsRefused() {
        TrialClient trial = client(env());
        Map<String, Object> metrics = new LinkedHashMap<>();
        metrics.put("default", 1.0);
        metrics.put("blob", "x".repeat(FileTrialChannel.MAX_FRAME_BYTES));
        assertThatThrownBy(() -> trial.reportFinal(metrics)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageMatching("metric frame of \\d+ bytes is longer than the 999999 its 6-digit length can count");
        assertThat(metricsFile()).doesNotExist();
    }

    @Test
    void aParameterFileThatIsNotJsonIsNamed() throws Exception {
        Path file = dir.resolve("parameter.cfg");
        Files.writeString(file, "{\"parameter_id\": 1, \"parameters\": ");
        assertThatThrownBy(() -> client(env()).parameters()).isInstanceOf(UncheckedIOException.class)
                .hasMessage("cannot get this trial's parameters: " + file + " is not a parameter record: invalid JSON at position 34: expected a value, found the end of the text");
        Files.writeString(file, "[1]");
        assertThatThrownBy(() -> client(env()).parameters()).isInstanceOf(UncheckedIOException.class)
                .hasMessage("cannot get this trial's parameters: " + file + " is not a parameter record: expected a JSON object, got [1]");
    }

    @Test
    void theFileChannelNeedsItsDirectoryAndJobId() {
        Map<String, String> noSysDir = env();
        noSysDir.remove("NNI_SYS_DIR");
        assertThatThrownBy(() -> client(noSysDir)).isInstanceOf(IllegalStateException.class)
                .hasMessage("NNI_SYS_DIR is not set, though NNI_PLATFORM=local says this trial runs under a manager that hands out parameters in files");
        Map<String, String> noJobId = env();
        noJobId.remove("NNI_TRIAL_JOB_ID");
        assertThatThrownBy(() -> client(noJobId)).isInstanceOf(IllegalStateException.class)
                .hasMessage("NNI_TRIAL_JOB_ID is not set, though NNI_PLATFORM says this trial runs under a manager");
    }
}
