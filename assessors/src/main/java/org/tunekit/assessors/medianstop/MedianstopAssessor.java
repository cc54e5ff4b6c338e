package org.tunekit.assessors.medianstop;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.tunekit.assessors.support.SettlingStep;
import org.tunekit.sdk.AssessResult;
import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.OptimizeMode;

/**
 * The median stopping rule as NNI applies it: a running trial that has reported {@code s} results
 * ({@code s >= start_step}) is stopped when its best result so far is strictly worse than the median,
 * over the trials that completed successfully with at least {@code s} results, of their running
 * averages after {@code s} results. With an even number of such trials the median taken is the
 * lenient one: the lower of the two middle values when maximising, the upper when minimising. When
 * no completed trial reached step {@code s}, the trial goes on. Trials that failed, were cancelled or
 * were stopped early do not count.
 *
 * <p>{@code start_step} {@code "auto"} (beyond NNI's arguments) judges nothing until 10 trials have
 * completed and then starts at their {@link SettlingStep}, the step from which their values predict
 * their final ranking.
 *
 * <p>NNI rescans every completed trial on each result. Here each step keeps the running averages of
 * the completed trials in a {@link StepMedian}, filled once when a trial completes, and each running
 * trial keeps its best value: a judgement costs O(1) plus the new results, a completion O(s log n).
 */
final class MedianstopAssessor implements Assessor {
    static final String CHECKPOINT_FILE = "medianstop.state";
    private static final int CHECKPOINT_MAGIC = 0x544b4d53; // "TKMS"
    /** Version 2 adds the settling state of {@code start_step} auto; version 1 files are still read. */
    private static final int CHECKPOINT_VERSION = 2;
    /** Used in the arguments for the first judgement to be found from the first completed trials. */
    static final String AUTO = "auto";
    /** With {@link #AUTO}, how many completed trials the first judgement is found from. */
    static final int AUTO_TRIALS = 10;

    private final boolean maximize;
    /** The first step judged; -1 while {@link #settling} has not found it. */
    private int startStep;
    /** Finds the first judgement with {@code start_step} auto, else {@code null}. */
    private final SettlingStep settling;
    private final Map<String, RunningTrial> running = new HashMap<>();
    /** Index {@code s - 1}: running averages after {@code s} results of the completed trials that reached step {@code s}. */
    private final List<StepMedian> completedAverages = new ArrayList<>();

    /** A running trial: its results as first seen, and its best result so far. */
    private static final class RunningTrial {
        double[] values = new double[8];
        int size;
        double best;
        /** How many entries of the last history {@link #best} covers. */
        int bestCovers;

        void append(double v) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = v;
        }
    }

    MedianstopAssessor(ClassArguments arguments) {
        arguments.requireOnly("optimize_mode", "start_step");
        this.maximize = OptimizeMode.from(arguments, OptimizeMode.MAXIMIZE) == OptimizeMode.MAXIMIZE;
        this.startStep = AUTO.equals(arguments.get("start_step")) ? -1 : arguments.getInt("start_step", 0, 0);
        this.settling = startStep < 0 ? new SettlingStep(AUTO_TRIALS) : null;
    }

    @Override
    public AssessResult assessTrial(String trialJobId, List<Metric> history) {
        int step = history.size();
        if (startStep < 0) {
            RunningTrial t = running.computeIfAbsent(trialJobId, k -> new RunningTrial());
            for (int i = t.size; i < step; i++) {
                t.append(history.get(i).value());
            }
            settling.observe(trialJobId, history);
            return AssessResult.GOOD;
        }
        if (step < startStep || step == 0) {
            return AssessResult.GOOD;
        }
        RunningTrial t = running.computeIfAbsent(trialJobId, k -> new RunningTrial());
        for (int i = t.size; i < step; i++) {
            t.append(history.get(i).value());
        }
        if (step > t.bestCovers && t.bestCovers > 0) {
            for (int i = t.bestCovers; i < step; i++) {
                t.best = better(t.best, history.get(i).value());
            }
        } else {
            // first judgement, or a value was replaced: look at the whole history
            t.best = history.get(0).value();
            for (int i = 1; i < step; i++) {
                t.best = better(t.best, history.get(i).value());
            }
        }
        t.bestCovers = step;
        if (step > completedAverages.size()) {
            return AssessResult.GOOD;
        }
        StepMedian m = completedAverages.get(step - 1);
        if (maximize) {
            return t.best < m.lowerMedian() ? AssessResult.BAD : AssessResult.GOOD;
        }
        return t.best > m.upperMedian() ? AssessResult.BAD : AssessResult.GOOD;
    }

    private double better(double a, double b) {
        return maximize ? Math.max(a, b) : Math.min(a, b);
    }

    @Override
    public void trialEnd(String trialJobId, boolean success) {
        RunningTrial t = running.remove(trialJobId);
        if (t != null && success) {
            addCompleted(Arrays.copyOf(t.values, t.size));
        }
        if (startStep < 0 && settling.trialEnd(trialJobId, success)) {
            startStep = settling.step().orElseThrow();
        }
    }

    /** The first step judged, once known. */
    OptionalInt startStep() {
        return startStep < 0 ? OptionalInt.empty() : OptionalInt.of(startStep);
    }

    private void addCompleted(double[] values) {
        double sum = 0;
        for (int i = 0; i < values.length; i++) {
            sum += values[i];
            if (completedAverages.size() <= i) {
                completedAverages.add(new StepMedian());
            }
            completedAverages.get(i).add(sum / (i + 1));
        }
    }

    /** How many completed trials reached step {@code step} (1-based); for tests. */
    int completedAt(int step) {
        return step <= completedAverages.size() ? completedAverages.get(step - 1).size() : 0;
    }

    @Override
    public void saveCheckpoint(Path directory) throws IOException {
        try (DataOutputStream out = new DataOutputStream(new java.io.BufferedOutputStream(
                Files.newOutputStream(directory.resolve(CHECKPOINT_FILE))))) {
            out.writeInt(CHECKPOINT_MAGIC);
            out.writeInt(CHECKPOINT_VERSION);
            out.writeInt(completedAverages.size());
            for (StepMedian m : completedAverages) {
                List<Double> values = m.values();
                out.writeInt(values.size());
                for (double v : values) {
                    out.writeDouble(v);
                }
            }
            out.writeInt(running.size());
            for (Map.Entry<String, RunningTrial> e : new LinkedHashMap<>(running).entrySet()) {
                byte[] id = e.getKey().getBytes(StandardCharsets.UTF_8);
                out.writeInt(id.length);
                out.write(id);
                RunningTrial t = e.getValue();
                out.writeInt(t.size);
                for (int i = 0; i < t.size; i++) {
                    out.writeDouble(t.values[i]);
                }
            }
            out.writeBoolean(settling != null);
            if (settling != null) {
                out.writeInt(settling.step().orElse(0));
                List<double[]> curves = settling.completedCurves();
                out.writeInt(curves.size());
                for (double[] c : curves) {
                    out.writeInt(c.length);
                    for (double v : c) {
                        out.writeDouble(v);
                    }
                }
            }
        }
    }

    @Override
    public void loadCheckpoint(Path directory) throws IOException {
        Path file = directory.resolve(CHECKPOINT_FILE);
        if (!Files.exists(file)) {
            return;
        }
        try (DataInputStream in = new DataInputStream(new java.io.BufferedInputStream(Files.newInputStream(file)))) {
            int version = in.readInt() == CHECKPOINT_MAGIC ? in.readInt() : -1;
            if (version != 1 && version != CHECKPOINT_VERSION) {
                throw new IOException(file + " is not a Medianstop checkpoint (version 1 or " + CHECKPOINT_VERSION + ")");
            }
            List<StepMedian> steps = new ArrayList<>();
            int stepCount = nonNegative(in.readInt(), file, "step count");
            for (int s = 0; s < stepCount; s++) {
                StepMedian m = new StepMedian();
                int n = nonNegative(in.readInt(), file, "count at step " + (s + 1));
                for (int i = 0; i < n; i++) {
                    m.add(in.readDouble());
                }
                steps.add(m);
            }
            Map<String, RunningTrial> trials = new HashMap<>();
            int trialCount = nonNegative(in.readInt(), file, "running trial count");
            for (int k = 0; k < trialCount; k++) {
                int len = nonNegative(in.readInt(), file, "trial id length");
                String id = new String(in.readNBytes(len), StandardCharsets.UTF_8);
                RunningTrial t = new RunningTrial();
                int n = nonNegative(in.readInt(), file, "history length of " + id);
                for (int i = 0; i < n; i++) {
                    t.append(in.readDouble());
                }
                trials.put(id, t);
            }
            boolean hasSettling = version >= 2 && in.readBoolean();
            if (hasSettling != (settling != null)) {
                throw new IOException(file + ": written with start_step " + (hasSettling ? "\"auto\"" : "a number")
                        + ", but start_step is now " + (settling != null ? "\"auto\"" : "a number"));
            }
            if (hasSettling) {
                int settled = nonNegative(in.readInt(), file, "settling step");
                int curveCount = nonNegative(in.readInt(), file, "settling curve count");
                List<double[]> curves = new ArrayList<>();
                for (int k = 0; k < curveCount; k++) {
                    double[] c = new double[nonNegative(in.readInt(), file, "settling curve length")];
                    for (int i = 0; i < c.length; i++) {
                        c[i] = in.readDouble();
                    }
                    curves.add(c);
                }
                settling.restore(settled, curves);
                startStep = settled == 0 ? -1 : settled;
            }
            completedAverages.clear();
            completedAverages.addAll(steps);
            running.clear();
            running.putAll(trials);
        }
    }

    private static int nonNegative(int v, Path file, String what) throws IOException {
        if (v < 0) {
            throw new IOException(file + ": corrupt " + what + " " + v);
        }
        return v;
    }
}
