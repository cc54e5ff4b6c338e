package org.tunekit.gpus;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Finds this machine's NVIDIA GPUs and the compute processes on them by running {@code nvidia-smi}.
 *
 * <p>{@link #gpus()} returns no GPUs when there is no executable {@code nvidia-smi} on the search path;
 * that is not an error. It throws {@link NvidiaSmiException} when {@code nvidia-smi} exits with a status
 * other than 0, does not finish within the timeout (it is then killed, with its children), or prints a
 * line that is not what was asked for; the message names the command, its exit status and the line.
 *
 * <p>Two queries are run, each in CSV without header or units:
 * {@code --query-gpu=index,uuid,name,memory.total,memory.used,memory.free,utilization.gpu,utilization.memory,driver_version}
 * and {@code --query-compute-apps=gpu_uuid,pid,used_memory,process_name} (the name last, since it may
 * hold commas). Every field is checked: a line with the wrong number of fields, a number that is not
 * one, a GPU index seen twice or a process on a GPU UUID that was not listed is refused.
 * {@code [N/A]} is accepted only for a process's memory.
 *
 * <p>Instances are immutable; each call runs {@code nvidia-smi} afresh.
 */
public final class NvidiaSmi {
    /** The command's name, looked up on the search path. */
    static final String COMMAND = "nvidia-smi";
    static final List<String> GPU_QUERY = List.of(
            "--query-gpu=index,uuid,name,memory.total,memory.used,memory.free,utilization.gpu,utilization.memory,driver_version",
            "--format=csv,noheader,nounits");
    static final List<String> PROCESS_QUERY = List.of(
            "--query-compute-apps=gpu_uuid,pid,used_memory,process_name",
            "--format=csv,noheader,nounits");
    static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(20);

    private static final int GPU_FIELDS = 9;
    private static final int PROCESS_FIELDS = 4;
    private static final String NOT_AVAILABLE = "[N/A]";

    private final String searchPath;
    private final Duration timeout;

    NvidiaSmi(String searchPath, Duration timeout) {
        this.searchPath = searchPath;
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, got " + timeout);
        }
    }

    /** Looks {@code nvidia-smi} up on this process's {@code PATH}. */
    public static NvidiaSmi onProcessPath() {
        return onPath(System.getenv("PATH"));
    }

    /**
     * Looks {@code nvidia-smi} up on {@code searchPath}, directories separated by {@link File#pathSeparator}
     * (empty entries are skipped; {@code null} finds nothing), and gives it 20 seconds a query.
     */
    public static NvidiaSmi onPath(String searchPath) {
        return new NvidiaSmi(searchPath, DEFAULT_TIMEOUT);
    }

    /**
     * This machine's GPUs, sorted by index, each with its compute processes; empty when there is no
     * {@code nvidia-smi} on the search path.
     *
     * @throws NvidiaSmiException when {@code nvidia-smi} fails, hangs, or prints what cannot be read
     */
    public List<Gpu> gpus() throws NvidiaSmiException {
        Optional<Path> executable = find();
        if (executable.isEmpty()) {
            return List.of();
        }
        return read(executable.get(), this::run);
    }

    /**
     * Runs one query of {@code nvidia-smi} somewhere (another machine, over SSH) for {@link #read}.
     */
    @FunctionalInterface
    public interface Runner {
        /**
         * Runs {@code command} ({@code nvidia-smi} and its arguments, each one word).
         *
         * @return what it printed on stdout after exiting with status 0, or {@code null} when there is no {@code nvidia-smi}
         * @throws NvidiaSmiException when it fails, naming the command and why
         */
        String run(List<String> command) throws NvidiaSmiException;
    }

    /**
     * The GPUs a machine's {@code nvidia-smi} reports, read exactly as {@link #gpus()} reads this machine's,
     * the two queries run by {@code runner}; empty when the runner finds no {@code nvidia-smi}.
     *
     * @throws NvidiaSmiException when a query fails or prints what cannot be read
     */
    public static List<Gpu> read(Runner runner) throws NvidiaSmiException {
        return read(Path.of(COMMAND), runner);
    }

    private static List<Gpu> read(Path executable, Runner runner) throws NvidiaSmiException {
        List<String> gpuQuery = command(executable, GPU_QUERY);
        String gpuOutput = runner.run(gpuQuery);
        if (gpuOutput == null) {
            return List.of();
        }
        List<Row> gpuRows = rows(gpuQuery, gpuOutput, GPU_FIELDS, false);
        List<String> processQuery = command(executable, PROCESS_QUERY);
        String processOutput = runner.run(processQuery);
        List<Row> processRows = rows(processQuery, processOutput == null ? "" : processOutput, PROCESS_FIELDS, true);
        return assemble(gpuQuery, gpuRows, processQuery, processRows);
    }

    /** The first executable {@code nvidia-smi} on the search path. */
    Optional<Path> find() {
        if (searchPath == null) {
            return Optional.empty();
        }
        for (String directory : searchPath.split(File.pathSeparator, -1)) {
            if (directory.isEmpty()) {
                continue;
            }
            Path candidate = Path.of(directory, COMMAND);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate.toAbsolutePath());
            }
        }
        return Optional.empty();
    }

    private static List<String> command(Path executable, List<String> arguments) {
        List<String> command = new ArrayList<>();
        command.add(executable.toString());
        command.addAll(arguments);
        return List.copyOf(command);
    }

    /** What the command printed on stdout, once it has exited with status 0. */
    private String run(List<String> command) throws NvidiaSmiException {
        Path stdout = null;
        Path stderr = null;
        try {
            // Files rather than pipes: a hung child holding a pipe open can then never block the reader.
            stdout = Files.createTempFile("tunekit-nvidia-smi", ".out");
            stderr = Files.createTempFile("tunekit-nvidia-smi", ".err");
            Process process = new ProcessBuilder(command)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")))
                    .redirectOutput(stdout.toFile())
                    .redirectError(stderr.toFile())
                    .start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                throw new NvidiaSmiException(render(command) + " did not finish within " + describe(timeout) + "; it was killed");
            }
            int status = process.exitValue();
            if (status != 0) {
                String says = firstLine(Files.readString(stderr, StandardCharsets.UTF_8));
                if (says.isEmpty()) {
                    says = firstLine(Files.readString(stdout, StandardCharsets.UTF_8));
                }
                throw new NvidiaSmiException(render(command) + " exited with status " + status
                        + (says.isEmpty() ? " and printed nothing" : ": " + says));
            }
            return Files.readString(stdout, StandardCharsets.UTF_8);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NvidiaSmiException(render(command) + " was interrupted", e);
        } catch (IOException e) {
            if (e instanceof NvidiaSmiException n) {
                throw n;
            }
            throw new NvidiaSmiException(render(command) + " could not be run: " + e.getMessage(), e);
        } finally {
            deleteQuietly(stdout);
            deleteQuietly(stderr);
        }
    }

    /** One line of a query's output and its trimmed fields. */
    private record Row(String line, String[] fields) {
        String field(int i) {
            return fields[i];
        }
    }

    /** The non-blank lines of {@code output}, each split into exactly {@code fields} trimmed fields. */
    private static List<Row> rows(List<String> command, String output, int fields, boolean lastMayHoldCommas)
            throws NvidiaSmiException {
        List<Row> rows = new ArrayList<>();
        for (String line : output.split("\r?\n", -1)) {
            if (line.isBlank()) {
                continue;
            }
            String[] row = line.split(",", lastMayHoldCommas ? fields : -1);
            if (row.length != fields) {
                throw unreadable(command, line, "expected " + fields + " comma-separated fields, found " + row.length);
            }
            for (int i = 0; i < row.length; i++) {
                row[i] = row[i].strip();
            }
            rows.add(new Row(line, row));
        }
        return rows;
    }

    private static List<Gpu> assemble(List<String> gpuQuery, List<Row> gpuRows, List<String> processQuery,
            List<Row> processRows) throws NvidiaSmiException {
        Map<String, Integer> indexByUuid = new HashMap<>();
        Set<Integer> indices = new HashSet<>();
        for (Row row : gpuRows) {
            int index = integer(gpuQuery, row, 0, "index");
            if (!indices.add(index)) {
                throw unreadable(gpuQuery, row.line(), "GPU index " + index + " appears twice");
            }
            if (indexByUuid.put(text(gpuQuery, row, 1, "uuid"), index) != null) {
                throw unreadable(gpuQuery, row.line(), "GPU UUID " + row.field(1) + " appears twice");
            }
        }
        Map<Integer, List<GpuProcess>> processesByIndex = new HashMap<>();
        for (Row row : processRows) {
            Integer index = indexByUuid.get(row.field(0));
            if (index == null) {
                throw unreadable(processQuery, row.line(), "no GPU has UUID '" + row.field(0) + "'");
            }
            long pid = number(processQuery, row, 1, "pid");
            OptionalLong memory = row.field(2).equals(NOT_AVAILABLE) ? OptionalLong.empty() : OptionalLong.of(number(processQuery, row, 2, "used_memory"));
            processesByIndex.computeIfAbsent(index, i -> new ArrayList<>()).add(new GpuProcess(pid, row.field(3), index, memory));
        }
        List<Gpu> gpus = new ArrayList<>();
        for (Row row : gpuRows) {
            int index = Integer.parseInt(row.field(0));
            gpus.add(new Gpu(index, row.field(1), text(gpuQuery, row, 2, "name"), text(gpuQuery, row, 8, "driver_version"),
                    number(gpuQuery, row, 3, "memory.total"), number(gpuQuery, row, 4, "memory.used"),
                    number(gpuQuery, row, 5, "memory.free"), percent(gpuQuery, row, 6, "utilization.gpu"),
                    percent(gpuQuery, row, 7, "utilization.memory"), processesByIndex.getOrDefault(index, List.of())));
        }
        gpus.sort(Comparator.comparingInt(Gpu::index));
        return List.copyOf(gpus);
    }

    private static String text(List<String> command, Row row, int field, String what) throws NvidiaSmiException {
        if (row.field(field).isEmpty() || row.field(field).equals(NOT_AVAILABLE)) {
            throw unreadable(command, row.line(), what + " is '" + row.field(field) + "'");
        }
        return row.field(field);
    }

    private static long number(List<String> command, Row row, int field, String what) throws NvidiaSmiException {
        String value = row.field(field);
        if (!value.matches("[0-9]{1,18}")) {
            throw unreadable(command, row.line(), what + " '" + value + "' is not a whole number");
        }
        return Long.parseLong(value);
    }

    private static int integer(List<String> command, Row row, int field, String what) throws NvidiaSmiException {
        long value = number(command, row, field, what);
        if (value > Integer.MAX_VALUE) {
            throw unreadable(command, row.line(), what + " " + value + " is too large");
        }
        return (int) value;
    }

    private static int percent(List<String> command, Row row, int field, String what) throws NvidiaSmiException {
        long value = number(command, row, field, what);
        if (value > 100) {
            throw unreadable(command, row.line(), what + " " + value + " is over 100");
        }
        return (int) value;
    }

    private static NvidiaSmiException unreadable(List<String> command, String line, String why) {
        return new NvidiaSmiException(render(command) + " (exit status 0) printed a line that could not be read: '"
                + line + "' (" + why + ")");
    }

    private static String render(List<String> command) {
        return "'" + String.join(" ", command) + "'";
    }

    private static String firstLine(String text) {
        return text.strip().lines().findFirst().orElse("").strip();
    }

    private static String describe(Duration duration) {
        long millis = duration.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + " s" : millis + " ms";
    }

    private static void deleteQuietly(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // a leftover temporary file is harmless
            }
        }
    }
}
