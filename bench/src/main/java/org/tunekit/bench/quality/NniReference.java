package org.tunekit.bench.quality;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * NNI's own tuners' figures on the same suite, to print and plot beside Tunekit's: the regret
 * quartiles ({@code nni-anchors.csv}) and the mean tuner time per run ({@code nni-tuner-time.csv}).
 * The built-in copy is the one committed under {@code bench/reference/}.
 *
 * @param anchors    the regret rows
 * @param tunerTimes the tuner-time rows
 * @param notes      the comment lines of the anchors file (provenance and legend), without the {@code #}
 */
record NniReference(List<Anchor> anchors, List<TunerTime> tunerTimes, List<String> notes) {
    static final String ANCHORS = "nni-anchors.csv";
    static final String TUNER_TIME = "nni-tuner-time.csv";
    /**
     * Further figures packaged beside the anchors, each an anchors-form CSV and its tuner-time CSV:
     * NNI's and Optuna's tuners on the high-dimensional functions, measured by the scripts in
     * {@code bench/reference/}. Optuna's tuner labels start with {@value #OPTUNA_PREFIX}.
     */
    static final List<String> EXTRA = List.of("nni-highdim", "optuna-highdim");
    /** The label prefix of Optuna's samplers among the reference tuners. */
    static final String OPTUNA_PREFIX = "optuna-";
    private static final String ANCHOR_HEADER = "tuner,mode,function,seeds,trials,median,q1,q3,note";
    private static final String TIME_HEADER = "tuner,mode,function,seconds";

    /**
     * One figure: regret quartiles after {@code trials} trials. Quartiles are {@code null} when NNI
     * gave only a median (one seed); everything numeric is {@code null} when the tuner rejected the space.
     *
     * @param tuner    NNI's tuner label, such as {@code tpe}
     * @param mode     the mode
     * @param function the function
     * @param seeds    how many seeds NNI ran, as published (may be a range such as {@code 2-3})
     * @param trials   after how many trials
     * @param median   the median regret, or {@code null}
     * @param q1       the first quartile, or {@code null}
     * @param q3       the third quartile, or {@code null}
     * @param note     {@code unsupported}, or empty
     */
    record Anchor(String tuner, Mode mode, String function, String seeds, int trials, Double median, Double q1, Double q3, String note) {}

    /**
     * NNI's mean seconds inside the tuner per run.
     *
     * @param tuner    NNI's tuner label
     * @param mode     the mode
     * @param function the function
     * @param seconds  mean seconds per 100-trial run
     */
    record TunerTime(String tuner, Mode mode, String function, double seconds) {}

    NniReference {
        anchors = List.copyOf(anchors);
        tunerTimes = List.copyOf(tunerTimes);
        notes = List.copyOf(notes);
    }

    /** No reference figures. */
    static NniReference none() {
        return new NniReference(List.of(), List.of(), List.of());
    }

    /**
     * The committed copy, packaged with the benchmark: {@value #ANCHORS} with its tuner times, then
     * each of {@link #EXTRA} that is packaged, rows and notes appended in that order.
     */
    static NniReference builtIn() throws IOException {
        String anchors = resource(ANCHORS, true);
        String times = resource(TUNER_TIME, true);
        NniReference ref = parse(new StringReader(anchors), "built-in " + ANCHORS, new StringReader(times), "built-in " + TUNER_TIME);
        for (String extra : builtInExtras()) {
            String a = resource(extra + ".csv", true);
            String t = resource(extra + "-time.csv", false);
            ref = ref.plus(parse(new StringReader(a), "built-in " + extra + ".csv", t == null ? null : new StringReader(t),
                    "built-in " + extra + "-time.csv"));
        }
        return ref;
    }

    /** The names (without {@code .csv}) of the {@link #EXTRA} files that are packaged. */
    static List<String> builtInExtras() throws IOException {
        List<String> out = new ArrayList<>();
        for (String extra : EXTRA) {
            if (resource(extra + ".csv", false) != null) {
                out.add(extra);
            }
        }
        return out;
    }

    /** This reference's rows, then {@code other}'s. */
    NniReference plus(NniReference other) {
        List<Anchor> a = new ArrayList<>(anchors);
        a.addAll(other.anchors);
        List<TunerTime> t = new ArrayList<>(tunerTimes);
        t.addAll(other.tunerTimes);
        List<String> n = new ArrayList<>(notes);
        n.addAll(other.notes);
        return new NniReference(a, t, n);
    }

    /** How the outputs name a reference tuner: {@code Optuna tpe} for {@code optuna-tpe}, else {@code NNI tpe}. */
    static String display(String tuner) {
        return tuner.startsWith(OPTUNA_PREFIX) ? "Optuna " + tuner.substring(OPTUNA_PREFIX.length()) : "NNI " + tuner;
    }

    private static String resource(String name, boolean required) throws IOException {
        try (InputStream in = NniReference.class.getResourceAsStream(name)) {
            if (in == null) {
                if (required) {
                    throw new IOException("the built-in reference " + name + " is missing from the class path");
                }
                return null;
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Reads an anchors CSV file, and {@code nni-tuner-time.csv} beside it when there is one. */
    static NniReference load(Path anchorsFile) throws IOException {
        Path times = anchorsFile.toAbsolutePath().resolveSibling(TUNER_TIME);
        try (Reader a = Files.newBufferedReader(anchorsFile, StandardCharsets.UTF_8)) {
            if (Files.isRegularFile(times)) {
                try (Reader t = Files.newBufferedReader(times, StandardCharsets.UTF_8)) {
                    return parse(a, anchorsFile.toString(), t, times.toString());
                }
            }
            return parse(a, anchorsFile.toString(), null, null);
        }
    }

    /**
     * Parses the two CSV texts ({@code times} may be {@code null}).
     *
     * @throws IOException naming the file, line and field that is wrong
     */
    static NniReference parse(Reader anchors, String anchorsName, Reader times, String timesName) throws IOException {
        List<Anchor> rows = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        for (Line line : lines(anchors, anchorsName, ANCHOR_HEADER, notes)) {
            String[] f = line.fields(9);
            String note = f[8];
            Double median = line.optionalNumber(f[5], "median");
            if (median == null && !"unsupported".equals(note)) {
                throw line.error("has no median and is not marked 'unsupported'");
            }
            rows.add(new Anchor(f[0], line.mode(f[1]), f[2], f[3], line.integer(f[4], "trials"), median,
                    line.optionalNumber(f[6], "q1"), line.optionalNumber(f[7], "q3"), note));
        }
        List<TunerTime> timeRows = new ArrayList<>();
        if (times != null) {
            for (Line line : lines(times, timesName, TIME_HEADER, new ArrayList<>())) {
                String[] f = line.fields(4);
                Double seconds = line.optionalNumber(f[3], "seconds");
                if (seconds == null) {
                    throw line.error("has no seconds");
                }
                timeRows.add(new TunerTime(f[0], line.mode(f[1]), f[2], seconds));
            }
        }
        return new NniReference(rows, timeRows, notes);
    }

    /** NNI's tuner labels, in the order they first appear. */
    List<String> tuners(Mode mode) {
        Set<String> s = new LinkedHashSet<>();
        anchors.stream().filter(a -> a.mode() == mode).forEach(a -> s.add(a.tuner()));
        return List.copyOf(s);
    }

    /** The figure for one tuner, mode, function and trial count. */
    Optional<Anchor> anchor(String tuner, Mode mode, String function, int trials) {
        return anchors.stream().filter(a -> a.tuner().equals(tuner) && a.mode() == mode && a.function().equals(function)
                && a.trials() == trials).findFirst();
    }

    /** NNI's mean tuner seconds per run for one tuner, mode and function. */
    Optional<Double> tunerSeconds(String tuner, Mode mode, String function) {
        return tunerTimes.stream().filter(t -> t.tuner().equals(tuner) && t.mode() == mode && t.function().equals(function))
                .map(TunerTime::seconds).findFirst();
    }

    /** The name reduced to lower-case letters and digits, to pair {@code TPE} with {@code tpe}. */
    static String normalise(String name) {
        return name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
    }

    private record Line(String source, int number, String text) {
        String[] fields(int count) throws IOException {
            String[] f = text.split(",", -1);
            if (f.length != count) {
                throw error("has " + f.length + " fields, expected " + count);
            }
            for (int i = 0; i < f.length; i++) {
                f[i] = f[i].trim();
            }
            return f;
        }

        Mode mode(String s) throws IOException {
            try {
                return Mode.parse(s);
            } catch (IllegalArgumentException e) {
                throw error(e.getMessage());
            }
        }

        int integer(String s, String field) throws IOException {
            try {
                return Integer.parseInt(s);
            } catch (NumberFormatException e) {
                throw error("field '" + field + "' is not an integer: '" + s + "'");
            }
        }

        Double optionalNumber(String s, String field) throws IOException {
            if (s.isEmpty()) {
                return null;
            }
            try {
                return Double.parseDouble(s);
            } catch (NumberFormatException e) {
                throw error("field '" + field + "' is not a number: '" + s + "'");
            }
        }

        IOException error(String what) {
            return new IOException(source + " line " + number + " " + what + ": " + text);
        }
    }

    private static List<Line> lines(Reader reader, String name, String header, List<String> comments) throws IOException {
        List<Line> out = new ArrayList<>();
        BufferedReader r = new BufferedReader(reader);
        boolean headerSeen = false;
        int n = 0;
        for (String l = r.readLine(); l != null; l = r.readLine()) {
            n++;
            if (l.isBlank()) {
                continue;
            }
            if (l.startsWith("#")) {
                comments.add(l.substring(1).trim());
                continue;
            }
            if (!headerSeen) {
                if (!l.trim().equals(header)) {
                    throw new IOException(name + " line " + n + ": expected the header '" + header + "', got '" + l + "'");
                }
                headerSeen = true;
                continue;
            }
            out.add(new Line(name, n, l));
        }
        if (!headerSeen) {
            throw new IOException(name + " has no header line '" + header + "'");
        }
        return out;
    }
}
