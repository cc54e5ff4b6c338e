package org.tunekit.assessors.support;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The checkpoint format of the built-in assessors: a header line {@code tunekit-assessor-state <kind> 1},
 * then one record per line, its tokens separated by single spaces. Tokens are URL-encoded (UTF-8), so a
 * trial id may hold any character; numbers are written with {@link Double#toString(double)}, which reads
 * back exactly (including {@code NaN} and infinities).
 */
public final class StateFile {
    private static final String MAGIC = "tunekit-assessor-state";
    private static final String VERSION = "1";

    private StateFile() {}

    /** Writes {@code records} (lists of tokens) to {@code file}, replacing it. */
    public static void write(Path file, String kind, List<List<String>> records) throws IOException {
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            out.write(MAGIC + ' ' + kind + ' ' + VERSION);
            out.newLine();
            for (List<String> record : records) {
                StringBuilder line = new StringBuilder();
                for (String token : record) {
                    if (line.length() > 0) {
                        line.append(' ');
                    }
                    line.append(URLEncoder.encode(token, StandardCharsets.UTF_8));
                }
                out.write(line.toString());
                out.newLine();
            }
        }
    }

    /**
     * Reads the records of {@code file}, which must have been written for {@code kind}; an absent file
     * reads as no records.
     *
     * @throws IOException naming the file and line when the header or a line is malformed
     */
    public static List<Record> read(Path file, String kind) throws IOException {
        List<Record> records = new ArrayList<>();
        if (!Files.exists(file)) {
            return records;
        }
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String header = in.readLine();
            String expected = MAGIC + ' ' + kind + ' ' + VERSION;
            if (!expected.equals(header)) {
                throw new IOException(file + ":1: expected header '" + expected + "', got '" + header + "'");
            }
            int number = 1;
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                number++;
                if (line.isBlank()) {
                    continue;
                }
                List<String> tokens = new ArrayList<>();
                for (String raw : Arrays.asList(line.split(" ", -1))) {
                    try {
                        tokens.add(URLDecoder.decode(raw, StandardCharsets.UTF_8));
                    } catch (IllegalArgumentException e) {
                        throw new IOException(file + ":" + number + ": bad token '" + raw + "'", e);
                    }
                }
                records.add(new Record(file, number, List.copyOf(tokens)));
            }
        }
        return records;
    }

    /** A record: {@code keyword}, then {@code texts}, then {@code numbers}. */
    public static List<String> record(String keyword, List<String> texts, double... numbers) {
        List<String> tokens = new ArrayList<>(1 + texts.size() + numbers.length);
        tokens.add(keyword);
        tokens.addAll(texts);
        for (double n : numbers) {
            tokens.add(token(n));
        }
        return tokens;
    }

    /** A number as a token. */
    public static String token(double value) {
        return Double.toString(value);
    }

    /**
     * One line of a state file.
     *
     * @param file   the file, for error messages
     * @param line   the line number, for error messages
     * @param tokens the decoded tokens; the first is the record's keyword
     */
    public record Record(Path file, int line, List<String> tokens) {

        /** The first token. */
        public String keyword() {
            return tokens.get(0);
        }

        /** Fails unless the record has exactly {@code count} tokens. */
        public Record expectSize(int count) throws IOException {
            if (tokens.size() != count) {
                throw error("expected " + count + " tokens, got " + tokens.size());
            }
            return this;
        }

        /** Fails unless the record has at least {@code count} tokens. */
        public Record expectAtLeast(int count) throws IOException {
            if (tokens.size() < count) {
                throw error("expected at least " + count + " tokens, got " + tokens.size());
            }
            return this;
        }

        /** Token {@code index} as text. */
        public String text(int index) throws IOException {
            if (index >= tokens.size()) {
                throw error("token " + index + " is missing");
            }
            return tokens.get(index);
        }

        /** Token {@code index} as a number. */
        public double number(int index) throws IOException {
            String t = text(index);
            try {
                return Double.parseDouble(t);
            } catch (NumberFormatException e) {
                throw error("token " + index + " is not a number: '" + t + "'");
            }
        }

        /** Token {@code index} as a non-negative integer. */
        public int count(int index) throws IOException {
            String t = text(index);
            try {
                int v = Integer.parseInt(t);
                if (v >= 0) {
                    return v;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw error("token " + index + " is not a non-negative integer: '" + t + "'");
        }

        /** Tokens from {@code from} to the end, as numbers. */
        public double[] numbersFrom(int from) throws IOException {
            double[] values = new double[Math.max(0, tokens.size() - from)];
            for (int i = 0; i < values.length; i++) {
                values[i] = number(from + i);
            }
            return values;
        }

        /** An error naming the file and line. */
        public IOException error(String message) {
            return new IOException(file + ":" + line + ": " + message + " in record '" + keyword() + "'");
        }
    }
}
