package org.tunekit.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.tunekit.dispatcher.plugin.ExperimentConfig;
import org.tunekit.dispatcher.protocol.Command;
import org.tunekit.dispatcher.protocol.CommandType;
import org.tunekit.dispatcher.protocol.JsonCodec;
import org.tunekit.sdk.Parameters;
import org.tunekit.sdk.space.SearchSpace;

/**
 * Replays every vector of {@code protocol-spec/vectors} against the real {@code tunekit} process
 * over a real pipe, and compares its replies as the vector says: order within each queue ({@code KI}
 * on its own, everything else together), payloads equal as JSON values ({@code exact}) or of the
 * right shape and inside the search space ({@code structure}); an {@code error} vector must end with
 * exactly one {@code ER} holding the given text, and a non-zero exit.
 *
 * <p>The manager's end of the pipe stays open after the input when the input holds {@code TE} or
 * the vector expects an error: the dispatcher must then exit on its own, as it must with a real
 * manager. Otherwise (or when the vector says {@code "close_input": true}) the input is closed
 * after the last byte, which is end of stream. A vector may give {@code exp_params} verbatim
 * instead of a {@code config} object.
 *
 * <p>Each replay gets a fresh scratch directory: {@code ${WORK}} in an environment value stands for
 * it, and a vector's {@code files} ({@code {"relative/path": "content"}}) are written into it
 * before the dispatcher starts (checkpoints to resume from, for example).
 */
class ConformanceIT {
    static final Path VECTORS = TunekitProcess.HOME.resolve("protocol-spec/vectors");
    private static final Duration LIMIT = Duration.ofSeconds(60);

    record Vector(String name, Map<String, Object> doc) {
        @SuppressWarnings("unchecked")
        <T> T get(String key) {
            return (T) doc.get(key);
        }
    }

    static List<Vector> vectors() throws IOException {
        List<Vector> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(VECTORS)) {
            for (Path p : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
                @SuppressWarnings("unchecked")
                Map<String, Object> doc = (Map<String, Object>) JsonCodec.parse(Files.readString(p), p.getFileName().toString());
                out.add(new Vector(p.getFileName().toString().replace(".json", ""), doc));
            }
        }
        return out;
    }

    @TestFactory
    Stream<DynamicTest> everyVectorReplays() throws IOException {
        List<Vector> vectors = vectors();
        assertThat(vectors).as("vectors in " + VECTORS).isNotEmpty();
        return vectors.stream().map(v -> DynamicTest.dynamicTest(v.name(), () -> replay(v)));
    }

    static final Set<String> OUTCOMES = Set.of("ok", "as_recorded", "sp", "error");
    static final Set<String> COMPARES = Set.of("exact", "structure");

    static void replay(Vector v) throws Exception {
        assertThat((String) v.get("name")).as("the vector's name is its file name").isEqualTo(v.name());
        assertThat((String) v.get("outcome")).as("outcome of " + v.name()).isIn(OUTCOMES);
        assertThat((String) v.get("compare")).as("compare of " + v.name()).isIn(COMPARES);
        @SuppressWarnings("unchecked")
        Map<String, Object> config = (Map<String, Object>) v.doc().get("config");
        String expParams = v.get("exp_params");
        Path work = Files.createTempDirectory("tunekit-vector-");
        Map<String, String> files = v.get("files");
        if (files != null) {
            for (Map.Entry<String, String> f : files.entrySet()) {
                Path target = work.resolve(f.getKey()).normalize();
                assertThat(target.startsWith(work)).as("file " + f.getKey() + " stays inside the scratch directory").isTrue();
                Files.createDirectories(target.getParent());
                Files.writeString(target, f.getValue());
            }
        }
        Map<String, String> env = new LinkedHashMap<>();
        Map<String, Object> vecEnv = v.get("env");
        if (vecEnv != null) {
            vecEnv.forEach((k, val) -> env.put(k, String.valueOf(val).replace("${WORK}", work.toString())));
        }
        List<List<Object>> input = v.get("input");
        String bytes = v.get("input_bytes_b64");
        boolean error = "error".equals(v.get("outcome"));
        boolean hasTerminate = input != null && input.stream().anyMatch(c -> "TE".equals(c.get(0)));
        Boolean closeInput = v.get("close_input");
        boolean close = closeInput != null ? closeInput : !(error || hasTerminate);
        try (TunekitProcess p = TunekitProcess.dispatch(expParams != null ? expParams : ExperimentConfig.encode(config), env)) {
            if (bytes != null) {
                p.sendRaw(Base64.getDecoder().decode(bytes));
            } else {
                for (List<Object> c : input) {
                    p.sendRaw(frame((String) c.get(0), (String) c.get(1)));
                }
            }
            if (close) {
                p.closeInput();
            }
            List<Command> replies = p.readAll(LIMIT);
            int status = p.waitFor(LIMIT);
            check(v, replies, status, p.stderr());
        } finally {
            deleteRecursively(work);
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** Frames a command in the pipe framing, whatever its code (vectors send unknown codes too). */
    static byte[] frame(String code, String payload) {
        byte[] body = payload.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] header = String.format("%s%014d", code, body.length).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        byte[] out = java.util.Arrays.copyOf(header, header.length + body.length);
        System.arraycopy(body, 0, out, header.length, body.length);
        return out;
    }

    static void check(Vector v, List<Command> replies, int status, String stderr) throws Exception {
        String context = "\nreplies: " + replies + "\nstderr:\n" + stderr;
        List<Command> actual = new ArrayList<>(replies);
        if ("error".equals(v.get("outcome"))) {
            assertThat(status).as("exit status" + context).isNotZero();
            assertThat(actual).as("replies must end with ER" + context).isNotEmpty();
            Command er = actual.remove(actual.size() - 1);
            assertThat(er.type()).as("last reply" + context).isEqualTo(CommandType.ERROR);
            List<String> mustContain = v.get("error_contains");
            if (mustContain != null) {
                for (String s : mustContain) {
                    assertThat(er.payload()).as("ER text" + context).contains(s);
                }
            }
            assertThat(actual).as("only one ER" + context).noneMatch(c -> c.type() == CommandType.ERROR);
        } else {
            assertThat(status).as("exit status" + context).isZero();
        }
        List<List<Object>> expectedRaw = v.get("expected");
        List<Command> expected = expectedRaw.stream()
                .map(e -> new Command(CommandType.ofCode((String) e.get(0)), (String) e.get(1))).toList();
        boolean structure = "structure".equals(v.get("compare"));
        List<SearchSpace> spaces = structure ? spacesOf(v) : List.of();
        compareQueue(expected.stream().filter(c -> c.type() == CommandType.KILL_TRIAL_JOB).toList(),
                actual.stream().filter(c -> c.type() == CommandType.KILL_TRIAL_JOB).toList(), structure, spaces, context);
        compareQueue(expected.stream().filter(c -> c.type() != CommandType.KILL_TRIAL_JOB).toList(),
                actual.stream().filter(c -> c.type() != CommandType.KILL_TRIAL_JOB).toList(), structure, spaces, context);
    }

    private static List<SearchSpace> spacesOf(Vector v) throws Exception {
        List<SearchSpace> spaces = new ArrayList<>();
        List<List<Object>> input = v.get("input");
        for (List<Object> c : input) {
            if (c.get(0).equals("IN") || c.get(0).equals("SS")) {
                @SuppressWarnings("unchecked")
                Map<String, Object> def = (Map<String, Object>) JsonCodec.parse((String) c.get(1), "space");
                spaces.add(SearchSpace.parse(def));
            }
        }
        return spaces;
    }

    private static void compareQueue(List<Command> expected, List<Command> actual, boolean structure,
                                     List<SearchSpace> spaces, String context) throws Exception {
        List<String> expectedCodes = expected.stream().map(c -> c.type().code()).toList();
        List<String> actualCodes = actual.stream().map(c -> c.type().code()).toList();
        assertThat(actualCodes).as("reply codes" + context).isEqualTo(expectedCodes);
        for (int i = 0; i < expected.size(); i++) {
            Command e = expected.get(i);
            Command a = actual.get(i);
            if (e.payload().isEmpty() || a.payload().isEmpty()) {
                assertThat(a.payload()).as("payload of reply " + i + context).isEqualTo(e.payload());
                continue;
            }
            Object ev = JsonCodec.parse(e.payload(), "expected payload");
            Object av = JsonCodec.parse(a.payload(), "actual payload");
            if (structure && e.type() == CommandType.NEW_TRIAL_JOB) {
                checkStructure(ev, av, spaces, i, context);
            } else {
                Optional<String> d = JsonComparison.difference(ev, av, e.type().code() + "[" + i + "]");
                if (d.isPresent()) {
                    fail(d.get() + "\nexpected: " + e.payload() + "\nactual:   " + a.payload() + context);
                }
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static void checkStructure(Object ev, Object av, List<SearchSpace> spaces, int i, String context) {
        Map<String, Object> e = (Map<String, Object>) ev;
        Map<String, Object> a = (Map<String, Object>) av;
        assertThat(a.keySet()).as("TR " + i + " keys" + context).isEqualTo(e.keySet());
        assertThat(((Number) a.get("parameter_id")).longValue()).as("TR " + i + " parameter_id" + context)
                .isEqualTo(((Number) e.get("parameter_id")).longValue());
        Map<String, Object> ep = (Map<String, Object>) e.get("parameters");
        Map<String, Object> ap = (Map<String, Object>) a.get("parameters");
        assertThat(ap.keySet()).as("TR " + i + " parameter names" + context).isEqualTo(ep.keySet());
        Parameters params = Parameters.of(ap);
        boolean fits = spaces.stream().anyMatch(s -> s.violation(params).isEmpty());
        assertThat(fits).as("TR " + i + " parameters " + ap + " inside the search space; "
                + spaces.stream().map(s -> s.violation(params).orElse("fits")).toList() + context).isTrue();
        for (String k : ep.keySet()) {
            Object x = ep.get(k);
            Object y = ap.get(k);
            boolean sameKind = (x instanceof Number) == (y instanceof Number) && (x instanceof Map) == (y instanceof Map)
                    && (x instanceof String) == (y instanceof String) && (x instanceof Long) == (y instanceof Long);
            assertThat(sameKind).as("TR " + i + " parameter " + k + ": expected a value like " + x + ", got " + y + context).isTrue();
        }
    }
}
