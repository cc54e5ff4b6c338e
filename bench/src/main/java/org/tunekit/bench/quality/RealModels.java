package org.tunekit.bench.quality;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.tunekit.demo.TestFunction;
import org.tunekit.dispatcher.protocol.JsonCodec;
import org.tunekit.dispatcher.protocol.ProtocolException;
import org.tunekit.sdk.Parameters;

/**
 * The real-model problems of {@code bench/realmodels/problems.py} (scikit-learn models on the data sets it ships,
 * cross-validated, with Bayesmark's search spaces) as test functions of the quality benchmark. Each evaluation is
 * answered by a Python process of the calling thread's (Debian's {@code python3-sklearn}; {@code TUNEKIT_BENCH_PYTHON}
 * names another interpreter), started on first use and ended with the JVM. A function's value is the problem's
 * cross-validated loss, and its "optimum" 0, a bound every loss is above: the regret the benchmark records is the
 * loss itself.
 */
public final class RealModels {
    private static final String SCRIPT = "problems.py";
    private static final List<Worker> WORKERS = new CopyOnWriteArrayList<>();
    private static final ThreadLocal<Worker> WORKER = ThreadLocal.withInitial(Worker::start);
    private static Path script;

    private RealModels() {}

    /** Every problem, by name (MODEL-DATASET-METRIC), in the script's order. */
    public static Map<String, TestFunction> all() {
        Map<String, TestFunction> out = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : spaces().entrySet()) {
            String name = e.getKey();
            @SuppressWarnings("unchecked")
            Map<String, Object> space = (Map<String, Object>) e.getValue();
            out.put(name, new TestFunction(name, space, 0.0, p -> WORKER.get().evaluate(name, p)));
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> spaces() {
        try {
            Process p = new ProcessBuilder(python(), script().toString(), "--list").redirectError(ProcessBuilder.Redirect.INHERIT).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() != 0) {
                throw new IllegalStateException(python() + " " + script() + " --list failed (exit " + p.exitValue() + "): is python3-sklearn installed?");
            }
            return (Map<String, Object>) JsonCodec.parse(out, "the problems' search spaces");
        } catch (ProtocolException e) {
            throw new IllegalStateException(e.getMessage(), e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + python() + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static String python() {
        String p = System.getenv("TUNEKIT_BENCH_PYTHON");
        return p == null || p.isBlank() ? "/usr/bin/python3" : p;
    }

    /** The script, copied once from the benchmark's class path to a temporary file. */
    private static synchronized Path script() throws IOException {
        if (script == null) {
            Path f = Files.createTempFile("tunekit-realmodels", ".py");
            f.toFile().deleteOnExit();
            try (InputStream in = RealModels.class.getResourceAsStream(SCRIPT)) {
                if (in == null) {
                    throw new IOException(SCRIPT + " is missing from the benchmark's class path");
                }
                Files.copy(in, f, StandardCopyOption.REPLACE_EXISTING);
            }
            script = f;
        }
        return script;
    }

    /** A Python process answering one request a line. */
    private static final class Worker {
        private final Process process;
        private final BufferedWriter in;
        private final BufferedReader out;

        private Worker(Process process) {
            this.process = process;
            this.in = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
            this.out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        }

        static Worker start() {
            try {
                Process p = new ProcessBuilder(python(), script().toString(), "--serve").redirectError(ProcessBuilder.Redirect.INHERIT).start();
                Worker w = new Worker(p);
                if (WORKERS.isEmpty()) {
                    Runtime.getRuntime().addShutdownHook(new Thread(() -> WORKERS.forEach(x -> x.process.destroy()), "realmodels-stop"));
                }
                WORKERS.add(w);
                return w;
            } catch (IOException e) {
                throw new UncheckedIOException("cannot start " + python() + ": " + e.getMessage(), e);
            }
        }

        double evaluate(String problem, Parameters p) {
            try {
                Map<String, Object> request = new LinkedHashMap<>();
                request.put("problem", problem);
                request.put("parameters", p.values());
                in.write(JsonCodec.write(request));
                in.newLine();
                in.flush();
                String line = out.readLine();
                if (line == null) {
                    throw new IllegalStateException("the Python process of " + problem + " ended (exit " + process.waitFor() + ")");
                }
                Map<?, ?> answer = (Map<?, ?>) JsonCodec.parse(line, "the answer for " + problem);
                if (answer.get("error") != null) {
                    throw new IllegalStateException(problem + " at " + p.values() + ": " + answer.get("error"));
                }
                return ((Number) answer.get("value")).doubleValue();
            } catch (ProtocolException e) {
                throw new IllegalStateException(e.getMessage(), e);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }
}
