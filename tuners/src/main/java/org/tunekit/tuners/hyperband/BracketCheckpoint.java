package org.tunekit.tuners.hyperband;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.tunekit.sdk.Parameters;
import org.tunekit.tuners.common.ValueText;
import org.tunekit.tuners.hyperband.BracketSchedule.Bracket;
import org.tunekit.tuners.hyperband.BracketSchedule.Entry;
import org.tunekit.tuners.hyperband.BracketSchedule.State;

/**
 * The checkpoint of a {@link BracketSchedule}: one text file of lines, the first naming the algorithm
 * and the format, then {@code schedule s_max eta R}, {@code position seed draws round next_s}, while
 * the smallest budget is being found {@code settling n} and a {@code curve} line per start-up curve,
 * and each unfinished bracket ({@code bracket round s rung to_sample [startup]}) followed by its
 * entries ({@code entry number D|R loss values}). Lines with other first words are the subclass's.
 * A running trial is written as ready: its result dies with the stopped experiment, so it is handed
 * out again after a resume.
 */
final class BracketCheckpoint {
    /** The format written; format 1 is read too. */
    static final int FORMAT = 2;

    /**
     * A checkpoint as read, before it replaces the advisor's state.
     *
     * @param rest the lines that are not this class's, in order: the subclass's
     */
    record Restored(int sMax, boolean settling, List<double[]> curves, long seed, long draws, long round, int nextS,
                    List<Bracket> brackets, List<String> rest) {}

    private BracketCheckpoint() {
    }

    /** The file of the checkpoint of algorithm {@code name} in {@code directory}. */
    static Path file(Path directory, String name) {
        return directory.resolve(name.toLowerCase(java.util.Locale.ROOT) + "-state.txt");
    }

    /** The lines of {@code schedule}'s state, to which the subclass appends its own. */
    static List<String> lines(String name, BracketSchedule schedule) {
        List<String> lines = new ArrayList<>();
        lines.add(name + " " + FORMAT);
        lines.add("schedule " + schedule.sMax + " " + schedule.eta + " " + Double.toHexString(schedule.maxBudget));
        lines.add("position " + schedule.seed + " " + schedule.draws + " " + schedule.round + " " + schedule.nextS);
        if (schedule.settling) {
            lines.add("settling " + schedule.startupTrials);
            for (double[] c : schedule.settlingCurves) {
                StringBuilder sb = new StringBuilder("curve");
                for (double v : c) {
                    sb.append(' ').append(Double.toHexString(v));
                }
                lines.add(sb.toString());
            }
        }
        for (Bracket b : schedule.brackets) {
            lines.add("bracket " + b.round + " " + b.s + " " + b.rung + " " + b.toSample + (b.startup ? " startup" : ""));
            for (Entry e : b.entries) {
                // a running trial's result dies with the experiment: it is handed out again on resume
                boolean done = e.state == State.DONE;
                lines.add("entry " + e.number + " " + (done ? "D" : "R") + " " + Double.toHexString(done ? e.loss : Double.NaN)
                        + " " + ValueText.write(e.config.values()));
            }
        }
        return lines;
    }

    static void write(Path file, List<String> lines) throws IOException {
        try (BufferedWriter w = new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(file), StandardCharsets.UTF_8))) {
            for (String line : lines) {
                w.write(line);
                w.write('\n');
            }
        }
    }

    /**
     * Reads the checkpoint in {@code file} against the schedule the class arguments give.
     *
     * @return the state it holds, or {@code null} when there is no such file
     * @throws IOException naming the file and line, when it is malformed or its schedule differs from {@code schedule}'s
     */
    static Restored read(Path file, String name, BracketSchedule schedule) throws IOException {
        if (!Files.exists(file)) {
            return null;
        }
        List<String> lines = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(Files.newInputStream(file), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                if (!line.isBlank()) {
                    lines.add(line);
                }
            }
        }
        if (lines.isEmpty() || !lines.get(0).equals(name + " " + FORMAT) && !lines.get(0).equals(name + " 1")) {
            throw new IOException(file + ": line 1 must be \"" + name + " " + FORMAT + "\" (or format 1), got "
                    + (lines.isEmpty() ? "nothing" : "\"" + lines.get(0) + "\""));
        }
        int sMax = schedule.sMax;
        int eta = schedule.eta;
        double maxBudget = schedule.maxBudget;
        int startupTrials = schedule.startupTrials;
        List<Bracket> restored = new ArrayList<>();
        List<String> rest = new ArrayList<>();
        List<double[]> curves = new ArrayList<>();
        boolean restoredSettling = false;
        int restoredSMax = sMax;
        Bracket current = null;
        long[] position = null;
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i);
            String[] w = line.split(" ");
            try {
                switch (w[0]) {
                    case "schedule" -> {
                        restoredSMax = Integer.parseInt(w[1]);
                        // with min_budget "auto" s_max is whatever the start-up trials found
                        boolean sMaxMatches = startupTrials > 0 ? restoredSMax >= 0 && restoredSMax <= BracketMath.MAX_S : restoredSMax == sMax;
                        if (!sMaxMatches || Integer.parseInt(w[2]) != eta
                                || Double.compare(Double.parseDouble(w[3]), maxBudget) != 0) {
                            throw new IOException(file + " line " + (i + 1) + ": the checkpoint's schedule (s_max " + w[1] + ", eta "
                                    + w[2] + ", max budget " + Double.parseDouble(w[3]) + ") differs from the class arguments' (s_max "
                                    + sMax + ", eta " + eta + ", max budget " + maxBudget + ")");
                        }
                    }
                    case "position" -> position = new long[] {Long.parseLong(w[1]), Long.parseLong(w[2]),
                            Long.parseLong(w[3]), Integer.parseInt(w[4])};
                    case "settling" -> {
                        if (startupTrials == 0) {
                            throw new IOException(file + " line " + (i + 1) + ": the checkpoint is still finding the smallest budget, "
                                    + "but min_budget is not \"auto\"");
                        }
                        restoredSettling = true;
                    }
                    case "curve" -> {
                        double[] c = new double[w.length - 1];
                        for (int k = 1; k < w.length; k++) {
                            c[k - 1] = Double.parseDouble(w[k]);
                        }
                        curves.add(c);
                    }
                    case "bracket" -> {
                        current = schedule.new Bracket(Long.parseLong(w[1]), Integer.parseInt(w[2]));
                        current.rung = Integer.parseInt(w[3]);
                        current.toSample = Long.parseLong(w[4]);
                        current.startup = w.length > 5 && w[5].equals("startup");
                        if (current.s < 0 || current.s > restoredSMax || current.rung < 0 || current.rung > current.s) {
                            throw new IOException(file + " line " + (i + 1) + ": bracket " + current.s + " rung " + current.rung + " is outside the schedule");
                        }
                        restored.add(current);
                    }
                    case "entry" -> {
                        if (current == null) {
                            throw new IOException(file + " line " + (i + 1) + ": entry before any bracket");
                        }
                        @SuppressWarnings("unchecked")
                        Map<String, Object> values = (Map<String, Object>) ValueText.read(w[4]);
                        Entry e = new Entry(Long.parseLong(w[1]), Parameters.of(values));
                        if (w[2].equals("D")) {
                            e.state = State.DONE;
                            e.loss = Double.parseDouble(w[3]);
                        }
                        current.entries.add(e);
                    }
                    default -> rest.add(line);
                }
            } catch (RuntimeException e) {
                throw new IOException(file + " line " + (i + 1) + " is malformed: \"" + line + "\" (" + e.getMessage() + ")", e);
            }
        }
        if (position == null) {
            throw new IOException(file + ": no \"position\" line");
        }
        if (!restoredSettling && startupTrials > 0 && restored.stream().anyMatch(b -> b.startup && b.toSample > 0)) {
            throw new IOException(file + ": a start-up bracket is still drawing but there is no \"settling\" line");
        }
        return new Restored(restoredSMax, restoredSettling, curves, position[0], position[1], position[2], (int) position[3],
                restored, rest);
    }
}
