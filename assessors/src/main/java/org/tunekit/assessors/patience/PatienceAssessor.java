package org.tunekit.assessors.patience;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.ServiceLoader;
import java.util.TreeSet;
import org.tunekit.sdk.AssessResult;
import org.tunekit.sdk.Assessor;
import org.tunekit.sdk.ClassArguments;
import org.tunekit.sdk.InvalidClassArgumentException;
import org.tunekit.sdk.Metric;
import org.tunekit.sdk.OptimizeMode;
import org.tunekit.sdk.spi.AssessorProvider;

/**
 * Patience. With {@code n} values and patience {@code p}, once {@code n > p}: the reference is the best
 * of the first {@code n - p} values, and the trial has improved when one of its last {@code p} values
 * beats the reference by more than {@code min_delta}. A trial that has not improved is {@code BAD};
 * otherwise the wrapped assessor (if any) decides. NaN values never count as an improvement, and a
 * reference that is all NaN is beaten by any number. The wrapped assessor sees every history, even when
 * patience has run out, so its own records stay complete; its checkpoint goes to the sub-directory
 * {@code wrapped}.
 */
final class PatienceAssessor implements Assessor {
    static final String WRAPPED_DIRECTORY = "wrapped";
    private static final String BUILT_IN_PACKAGE = "org.tunekit.assessors.";

    private final int patience;
    private final double minDelta;
    private final OptimizeMode mode;
    private final Assessor wrapped;

    PatienceAssessor(int patience, double minDelta, OptimizeMode mode, Assessor wrapped) {
        this.patience = patience;
        this.minDelta = minDelta;
        this.mode = mode;
        this.wrapped = wrapped;
    }

    static PatienceAssessor fromArguments(ClassArguments arguments) {
        arguments.requireOnly("patience", "min_delta", "optimize_mode", "wrapped");
        if (!arguments.has("patience")) {
            throw new InvalidClassArgumentException("class argument 'patience' is required (steps without improvement)");
        }
        int patience = arguments.getInt("patience", 0, 1);
        double minDelta = arguments.getDouble("min_delta", 0, 0, Double.MAX_VALUE);
        OptimizeMode mode = OptimizeMode.from(arguments, OptimizeMode.MAXIMIZE);
        Assessor wrapped = null;
        if (arguments.has("wrapped")) {
            ClassArguments spec = arguments.getNested("wrapped").requireOnly("name", "classArgs");
            String name = spec.getString("name", null);
            if (name == null) {
                throw new InvalidClassArgumentException("class argument 'wrapped.name' is required");
            }
            wrapped = builtIn(name).create(spec.getNested("classArgs"));
        }
        return new PatienceAssessor(patience, minDelta, mode, wrapped);
    }

    /** The built-in assessor provider of this module called {@code name} (or by one of its aliases). */
    static AssessorProvider builtIn(String name) {
        TreeSet<String> known = new TreeSet<>();
        for (AssessorProvider provider : ServiceLoader.load(AssessorProvider.class, PatienceAssessor.class.getClassLoader())) {
            if (!provider.getClass().getName().startsWith(BUILT_IN_PACKAGE)) {
                continue;
            }
            known.add(provider.name());
            List<String> names = new ArrayList<>(provider.aliases());
            names.add(provider.name());
            for (String n : names) {
                if (n.toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
                    return provider;
                }
            }
        }
        throw new InvalidClassArgumentException("class argument 'wrapped.name' must name a built-in assessor, one of "
                + known + ", got \"" + name + "\"");
    }

    @Override
    public AssessResult assessTrial(String trialJobId, List<Metric> history) {
        AssessResult inner = wrapped == null ? AssessResult.GOOD : wrapped.assessTrial(trialJobId, history);
        int n = history.size();
        if (n > patience && !improvedRecently(history)) {
            return AssessResult.BAD;
        }
        return inner;
    }

    private boolean improvedRecently(List<Metric> history) {
        int split = history.size() - patience;
        double reference = Double.NaN;
        for (int i = 0; i < split; i++) {
            double v = history.get(i).value();
            if (!Double.isNaN(v) && (Double.isNaN(reference) || mode.isBetter(v, reference))) {
                reference = v;
            }
        }
        double bar = Double.isNaN(reference) ? Double.NaN
                : mode == OptimizeMode.MAXIMIZE ? reference + minDelta : reference - minDelta;
        for (int i = split; i < history.size(); i++) {
            double v = history.get(i).value();
            if (!Double.isNaN(v) && (Double.isNaN(bar) || mode.isBetter(v, bar))) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void trialEnd(String trialJobId, boolean success) {
        if (wrapped != null) {
            wrapped.trialEnd(trialJobId, success);
        }
    }

    @Override
    public void saveCheckpoint(Path directory) throws IOException {
        if (wrapped != null) {
            Path sub = directory.resolve(WRAPPED_DIRECTORY);
            Files.createDirectories(sub);
            wrapped.saveCheckpoint(sub);
        }
    }

    @Override
    public void loadCheckpoint(Path directory) throws IOException {
        Path sub = directory.resolve(WRAPPED_DIRECTORY);
        if (wrapped != null && Files.isDirectory(sub)) {
            wrapped.loadCheckpoint(sub);
        }
    }
}
