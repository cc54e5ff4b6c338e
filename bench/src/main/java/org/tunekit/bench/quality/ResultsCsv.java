package org.tunekit.bench.quality;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the {@code regret.csv} and {@code runs.csv} that {@link CsvWriters} wrote back into
 * {@link Results}: tuners, functions and modes in the order they first appear, the budget the
 * largest trial number.
 */
final class ResultsCsv {
    private ResultsCsv() {}

    /**
     * Reads both files.
     *
     * @throws IOException naming the file and line that is malformed, or a successful run of
     *     {@code runs.csv} that has no complete curve in {@code regret.csv}
     */
    static Results read(Path regretFile, Path runsFile) throws IOException {
        Map<RunKey, List<Double>> curves = new LinkedHashMap<>();
        for (Row row : rows(regretFile, CsvWriters.REGRET_HEADER, 6)) {
            RunKey key = row.key();
            int trial = row.integer(4);
            List<Double> curve = curves.computeIfAbsent(key, k -> new ArrayList<>());
            if (trial != curve.size() + 1) {
                throw row.error("trial " + trial + " does not follow trial " + curve.size());
            }
            curve.add(row.number(5));
        }
        Set<String> tuners = new LinkedHashSet<>();
        Set<String> functions = new LinkedHashSet<>();
        Set<Mode> modes = new LinkedHashSet<>();
        int trials = 0;
        for (List<Double> c : curves.values()) {
            trials = Math.max(trials, c.size());
        }
        List<RunResult> runs = new ArrayList<>();
        for (Row row : rows(runsFile, CsvWriters.RUNS_HEADER, 7)) {
            RunKey key = row.key();
            tuners.add(key.tuner());
            functions.add(key.function());
            modes.add(key.mode());
            long nanos = Math.round(row.number(5) * 1e9);
            String failure = row.fields.get(6);
            if (!failure.isEmpty()) {
                runs.add(RunResult.failed(key, failure, nanos));
                continue;
            }
            List<Double> curve = curves.get(key);
            if (curve == null || curve.size() != trials) {
                throw row.error("is a successful run without " + trials + " trials in " + regretFile.getFileName());
            }
            double[] regret = curve.stream().mapToDouble(Double::doubleValue).toArray();
            runs.add(new RunResult(key, regret, row.integer(4), nanos, null));
        }
        if (runs.isEmpty()) {
            throw new IOException(runsFile + " holds no run");
        }
        return new Results(List.copyOf(tuners), List.copyOf(functions), List.copyOf(modes), trials, runs);
    }

    private record Row(Path file, int number, List<String> fields) {
        RunKey key() throws IOException {
            Mode mode;
            try {
                mode = Mode.parse(fields.get(2));
            } catch (IllegalArgumentException e) {
                throw error(e.getMessage());
            }
            return new RunKey(fields.get(0), fields.get(1), mode, integer(3));
        }

        int integer(int i) throws IOException {
            try {
                return Integer.parseInt(fields.get(i));
            } catch (NumberFormatException e) {
                throw error("field " + (i + 1) + " is not an integer: '" + fields.get(i) + "'");
            }
        }

        double number(int i) throws IOException {
            try {
                return Double.parseDouble(fields.get(i));
            } catch (NumberFormatException e) {
                throw error("field " + (i + 1) + " is not a number: '" + fields.get(i) + "'");
            }
        }

        IOException error(String what) {
            return new IOException(file + " line " + number + " " + what);
        }
    }

    private static List<Row> rows(Path file, String header, int count) throws IOException {
        List<Row> out = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String first = r.readLine();
            if (first == null || !first.equals(header)) {
                throw new IOException(file + " line 1: expected the header '" + header + "', got '" + first + "'");
            }
            int n = 1;
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                n++;
                if (line.isEmpty()) {
                    continue;
                }
                List<String> fields = split(line);
                if (fields.size() != count) {
                    throw new IOException(file + " line " + n + " has " + fields.size() + " fields, expected " + count);
                }
                out.add(new Row(file, n, fields));
            }
        }
        return out;
    }

    /** Splits one CSV line, undoing the quoting of {@link CsvWriters#field}. */
    static List<String> split(String line) {
        List<String> out = new ArrayList<>();
        StringBuilder cur = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                    cur.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    cur.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                out.add(cur.toString());
                cur.setLength(0);
            } else {
                cur.append(c);
            }
        }
        out.add(cur.toString());
        return out;
    }
}
