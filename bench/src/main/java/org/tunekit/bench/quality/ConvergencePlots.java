package org.tunekit.bench.quality;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One convergence chart per function: median best-so-far regret against trials (log scale), one
 * line per tuner with its inter-quartile band, one panel per mode, and NNI's medians after 25, 50
 * and 100 trials as marked points. An NNI tuner whose name matches a Tunekit tuner's (ignoring case
 * and punctuation) takes that tuner's colour; the others are grey.
 */
final class ConvergencePlots {
    private static final String NNI_GREY = "#555555";

    private ConvergencePlots() {}

    /** The file name of a function's chart. */
    static String fileName(String function) {
        return "convergence-" + function + ".svg";
    }

    /** The chart of one function. */
    static String render(Results results, NniReference reference, String function) {
        Map<String, String> colors = new LinkedHashMap<>();
        for (int i = 0; i < results.tuners().size(); i++) {
            colors.put(results.tuners().get(i), SvgPlot.PALETTE.get(i % SvgPlot.PALETTE.size()));
        }
        Map<String, String> nniShapes = new LinkedHashMap<>();
        for (Mode mode : results.modes()) {
            for (String t : reference.tuners(mode)) {
                nniShapes.computeIfAbsent(t, k -> SvgPlot.SHAPES.get(nniShapes.size() % SvgPlot.SHAPES.size()));
            }
        }
        List<String> shownNni = new ArrayList<>();
        List<SvgPlot.Panel> panels = new ArrayList<>();
        int seeds = 0;
        for (Mode mode : results.modes()) {
            List<SvgPlot.Line> lines = new ArrayList<>();
            for (String tuner : results.tuners()) {
                List<Quantiles> curve = results.curve(tuner, function, mode);
                seeds = Math.max(seeds, curve.isEmpty() ? 0 : curve.get(0).n());
                double[] med = new double[curve.size()];
                double[] q1 = new double[curve.size()];
                double[] q3 = new double[curve.size()];
                for (int i = 0; i < curve.size(); i++) {
                    med[i] = curve.get(i).median();
                    q1[i] = curve.get(i).q1();
                    q3[i] = curve.get(i).q3();
                }
                lines.add(new SvgPlot.Line(tuner + " (" + mode.label() + ")", colors.get(tuner), med, q1, q3));
            }
            List<SvgPlot.Point> points = new ArrayList<>();
            List<String> nniTuners = reference.tuners(mode);
            for (int i = 0; i < nniTuners.size(); i++) {
                String nni = nniTuners.get(i);
                double offset = (i - (nniTuners.size() - 1) / 2.0) * 0.7;
                for (int c : new int[] {25, 50, 100}) {
                    if (c > results.trials()) {
                        continue;
                    }
                    Optional<NniReference.Anchor> a = reference.anchor(nni, mode, function, c);
                    if (a.isPresent() && a.get().median() != null) {
                        points.add(new SvgPlot.Point(NniReference.display(nni) + " after " + c + ": " + Numbers.sig3(a.get().median()), nniColor(nni, colors),
                                nniShapes.get(nni), c + offset, a.get().median()));
                        if (!shownNni.contains(nni)) {
                            shownNni.add(nni);
                        }
                    }
                }
            }
            String title = mode == Mode.BATCH ? "batch (" + Mode.BATCH.batchSize() + " per request)" : "sequential";
            panels.add(new SvgPlot.Panel(title, lines, points));
        }
        List<SvgPlot.LegendEntry> legend = new ArrayList<>();
        legend.add(new SvgPlot.LegendEntry("Tunekit (median, IQR band)", null, null));
        for (String tuner : results.tuners()) {
            legend.add(new SvgPlot.LegendEntry(tuner, colors.get(tuner), null));
        }
        if (!shownNni.isEmpty()) {
            legend.add(new SvgPlot.LegendEntry("", null, null));
            legend.add(new SvgPlot.LegendEntry("NNI / Optuna (median at 25/50/100)", null, null));
            for (String nni : shownNni) {
                legend.add(new SvgPlot.LegendEntry(nni, nniColor(nni, colors), nniShapes.get(nni)));
            }
        }
        String title = function + ": best-so-far regret, median over " + seeds + " seed" + (seeds == 1 ? "" : "s");
        List<Integer> marks = List.of(25, 50, 100);
        return SvgPlot.render(title, "trials", "regret (best so far − f*), log scale", results.trials(), marks, panels, legend);
    }

    private static String nniColor(String nni, Map<String, String> colors) {
        for (Map.Entry<String, String> e : colors.entrySet()) {
            if (NniReference.normalise(e.getKey()).equals(NniReference.normalise(nni))) {
                return e.getValue();
            }
        }
        return NNI_GREY;
    }
}
