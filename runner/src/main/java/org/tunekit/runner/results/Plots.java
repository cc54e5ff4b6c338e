package org.tunekit.runner.results;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.LongFunction;
import java.util.stream.Collectors;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.XYSeries.XYSeriesRenderStyle;
import org.knowm.xchart.style.Styler.LegendLayout;
import org.knowm.xchart.style.Styler.LegendPosition;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.tunekit.sdk.space.Choice;
import org.tunekit.sdk.space.Parameter;
import org.tunekit.sdk.space.SearchSpace;

/**
 * The report's plots, drawn with XChart as PNG images: final value over trials, intermediate curves, and one
 * scatter per parameter against the final value. Values that are not finite are left out of every plot.
 */
final class Plots {
    static {
        // Drawing needs no display; without this a machine with no X server fails on the first chart.
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    static final int WIDE = 860;
    static final int SMALL_WIDTH = 400;
    static final int SMALL_HEIGHT = 290;

    /**
     * A plot drawn.
     *
     * @param id      a short name, unique in the report, usable in a file name
     * @param title   what it shows, for a heading
     * @param caption how to read it, in a sentence or two
     * @param png     the PNG image
     * @param width   its width in pixels
     * @param height  its height in pixels
     */
    record Plot(String id, String title, String caption, byte[] png, int width, int height) {
    }

    /** How a trial ended, as the plots colour it. */
    enum Group {
        RAN_TO_END("ran to the end", new Color(31, 119, 180)),
        STOPPED_EARLY("stopped early", new Color(255, 127, 14)),
        OTHER("other", new Color(127, 127, 127));

        final String label;
        final Color color;

        Group(String label, Color color) {
            this.label = label;
            this.color = color;
        }

        static Group of(TrialStatus s) {
            return s == TrialStatus.SUCCEEDED ? RAN_TO_END : s == TrialStatus.EARLY_STOPPED ? STOPPED_EARLY : OTHER;
        }
    }

    static final Color BEST = new Color(214, 39, 40);
    private static final Color BEST_SO_FAR = new Color(40, 40, 40);

    private Plots() {
    }

    /** Every plot the results allow, in the report's order. */
    static List<Plot> all(ExperimentResults r) {
        List<Plot> plots = new ArrayList<>();
        finalValues(r).ifPresent(plots::add);
        intermediate(r).ifPresent(plots::add);
        plots.addAll(parameters(r));
        return plots;
    }

    /** Final value (y) against trial sequence (x), points coloured by group, with the best so far as a line. */
    static Optional<Plot> finalValues(ExperimentResults r) {
        List<TrialRecord> withValue = r.trials().stream().filter(Plots::finiteFinal)
                .sorted(Comparator.comparingInt(TrialRecord::sequence)).toList();
        if (withValue.isEmpty()) {
            return Optional.empty();
        }
        TrialRecord best = bestFinite(r, withValue);
        XYChart chart = chart(WIDE, 400, "Final value of each trial", "trial sequence", valueTitle(r));
        chart.getStyler().setxAxisTickLabelsFormattingFunction(integerTicks(p -> p < 0 ? null : Long.toString(p)));
        chart.getStyler().setLegendPosition(LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(LegendLayout.Horizontal);
        logYIfWide(chart, withValue.stream().mapToDouble(TrialRecord::finalValue).toArray());

        // The best so far, as steps: flat until a trial improves on it.
        List<Double> xs = new ArrayList<>();
        List<Double> ys = new ArrayList<>();
        double bestSoFar = Double.NaN;
        for (TrialRecord t : withValue) {
            if (!t.status().ranked()) {
                // drawn as a point, but its parameters ran again: not a result to reach
                continue;
            }
            double v = t.finalValue();
            if (Double.isNaN(bestSoFar) || (r.maximize() ? v > bestSoFar : v < bestSoFar)) {
                if (!xs.isEmpty()) {
                    xs.add((double) t.sequence());
                    ys.add(bestSoFar);
                }
                bestSoFar = v;
                xs.add((double) t.sequence());
                ys.add(bestSoFar);
            }
        }
        int last = r.trials().stream().mapToInt(TrialRecord::sequence).max().orElse(0);
        if (!xs.isEmpty() && last > xs.get(xs.size() - 1)) {
            xs.add((double) last);
            ys.add(bestSoFar);
        }
        if (!xs.isEmpty()) {
            XYSeries line = chart.addSeries("best so far", xs, ys);
            line.setXYSeriesRenderStyle(XYSeriesRenderStyle.Line);
            line.setMarker(SeriesMarkers.NONE);
            line.setLineColor(BEST_SO_FAR);
            line.setLineWidth(1.5f);
            line.setLineStyle(SeriesLines.SOLID);
        }

        Map<Group, List<TrialRecord>> groups = byGroup(withValue);
        groups.forEach((g, trials) -> {
            XYSeries s = chart.addSeries(g.label + " (" + trials.size() + ")",
                    trials.stream().map(t -> (double) t.sequence()).toList(),
                    trials.stream().map(TrialRecord::finalValue).toList());
            s.setXYSeriesRenderStyle(XYSeriesRenderStyle.Scatter);
            s.setMarker(SeriesMarkers.CIRCLE);
            s.setMarkerColor(withAlpha(g.color, 200));
        });
        if (best != null) {
            XYSeries b = chart.addSeries("best: trial " + shortId(best), List.of((double) best.sequence()),
                    List.of(best.finalValue()));
            b.setXYSeriesRenderStyle(XYSeriesRenderStyle.Scatter);
            b.setMarker(SeriesMarkers.DIAMOND);
            b.setMarkerColor(BEST);
        }

        int missing = r.trials().size() - withValue.size();
        String caption = "Each point is a trial's final value; the line is the best value reached so far ("
                + (r.maximize() ? "higher" : "lower") + " is better)."
                + (missing == 0 ? "" : " " + missing + (missing == 1 ? " trial has" : " trials have")
                + " no final value to plot and " + (missing == 1 ? "is" : "are") + " not shown.");
        return Optional.of(plot("final-values", "Final values", caption, chart));
    }

    /**
     * For two objectives: every trial with both values as a grey point, the Pareto front's trials in red joined
     * by the staircase of the region they dominate, and the reference point; empty for more objectives.
     */
    static Optional<Plot> paretoFront(ExperimentResults r, ParetoFront front) {
        if (front.objectives().size() != 2) {
            return Optional.empty();
        }
        var ox = front.objectives().get(0);
        var oy = front.objectives().get(1);
        org.tunekit.sdk.objectives.Objectives objectives = r.objectiveList();
        List<Double> ax = new ArrayList<>();
        List<Double> ay = new ArrayList<>();
        for (TrialRecord t : r.trials()) {
            if (t.finalMetric() == null || front.trials().contains(t)) {
                continue;
            }
            try {
                double[] v = objectives.values(t.finalMetric(), "trial " + t.trialJobId());
                if (Double.isFinite(v[0]) && Double.isFinite(v[1])) {
                    ax.add(v[0]);
                    ay.add(v[1]);
                }
            } catch (IllegalArgumentException e) {
                // a trial without both values is not drawn
            }
        }
        XYChart chart = chart(WIDE, 440, "Pareto front", axisTitle(ox), axisTitle(oy));
        chart.getStyler().setLegendPosition(LegendPosition.OutsideS);
        chart.getStyler().setLegendLayout(LegendLayout.Horizontal);
        // the staircase: from the reference on the first axis, through every front point, to the reference on the second
        List<Double> sx = new ArrayList<>();
        List<Double> sy = new ArrayList<>();
        double[] ref = front.reference();
        List<double[]> values = front.values();
        sx.add(values.get(0)[0]);
        sy.add(ref[1]);
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                sx.add(values.get(i)[0]);
                sy.add(values.get(i - 1)[1]);
            }
            sx.add(values.get(i)[0]);
            sy.add(values.get(i)[1]);
        }
        sx.add(ref[0]);
        sy.add(values.get(values.size() - 1)[1]);
        XYSeries stairs = chart.addSeries("dominated region's edge", sx, sy);
        stairs.setXYSeriesRenderStyle(XYSeriesRenderStyle.Line);
        stairs.setMarker(SeriesMarkers.NONE);
        stairs.setLineColor(withAlpha(BEST, 140));
        stairs.setLineWidth(1.2f);
        if (!ax.isEmpty()) {
            XYSeries others = chart.addSeries("other trials (" + ax.size() + ")", ax, ay);
            others.setXYSeriesRenderStyle(XYSeriesRenderStyle.Scatter);
            others.setMarker(SeriesMarkers.CIRCLE);
            others.setMarkerColor(new Color(150, 150, 150, 170));
        }
        XYSeries f = chart.addSeries("Pareto front (" + values.size() + ")", values.stream().map(v -> v[0]).toList(),
                values.stream().map(v -> v[1]).toList());
        f.setXYSeriesRenderStyle(XYSeriesRenderStyle.Scatter);
        f.setMarker(SeriesMarkers.DIAMOND);
        f.setMarkerColor(BEST);
        XYSeries rp = chart.addSeries("reference point", List.of(ref[0]), List.of(ref[1]));
        rp.setXYSeriesRenderStyle(XYSeriesRenderStyle.Scatter);
        rp.setMarker(SeriesMarkers.CROSS);
        rp.setMarkerColor(BEST_SO_FAR);
        String caption = "Each grey point is a trial; red diamonds are the trials no other trial dominates ("
                + front.objectivesText() + "). The hypervolume is the area between the staircase and the reference point.";
        return Optional.of(plot("pareto-front", "Pareto front", caption, chart));
    }

    private static String axisTitle(org.tunekit.sdk.objectives.Objective o) {
        return o.metric() + (o.mode() == org.tunekit.sdk.OptimizeMode.MAXIMIZE ? " (higher is better)" : " (lower is better)");
    }

    /** Every trial's intermediate values (y) against their step (x), one line per trial coloured by group. */
    static Optional<Plot> intermediate(ExperimentResults r) {
        List<TrialRecord> curves = r.trials().stream()
                .filter(t -> t.intermediate().stream().anyMatch(v -> Double.isFinite(v))).toList();
        if (curves.isEmpty()) {
            return Optional.empty();
        }
        XYChart chart = chart(WIDE, 420, "Intermediate results", "step", "intermediate value");
        XYStyler styler = chart.getStyler();
        styler.setLegendPosition(LegendPosition.OutsideS);
        styler.setLegendLayout(LegendLayout.Horizontal);
        styler.setxAxisTickLabelsFormattingFunction(integerTicks(p -> p < 1 ? null : Long.toString(p)));
        logYIfWide(chart, curves.stream().flatMap(t -> t.intermediate().stream())
                .mapToDouble(Double::doubleValue).filter(Double::isFinite).toArray());

        Map<Group, List<TrialRecord>> groups = byGroup(curves);
        // Many lines: faint, so that where they crowd reads darker.
        int alpha = curves.size() > 100 ? 60 : curves.size() > 30 ? 110 : 170;
        // The legend names the groups, not the trials: one entry per group, from a series of a single point
        // (which draws no line) at a point already plotted, so the axes stay as the data make them.
        double[] anchor = null;
        for (Group g : List.of(Group.OTHER, Group.STOPPED_EARLY, Group.RAN_TO_END)) {
            for (TrialRecord t : groups.getOrDefault(g, List.of())) {
                double[][] xy = curve(t);
                XYSeries s = chart.addSeries("trial " + t.trialJobId() + " #" + t.sequence(), xy[0], xy[1]);
                s.setShowInLegend(false);
                s.setLineColor(withAlpha(g.color, alpha));
                s.setLineWidth(1f);
                s.setLineStyle(SeriesLines.SOLID);
                // A single point draws no line: give it a dot.
                s.setMarker(xy[0].length == 1 ? SeriesMarkers.CIRCLE : SeriesMarkers.NONE);
                s.setMarkerColor(withAlpha(g.color, alpha));
                if (anchor == null) {
                    anchor = new double[] {xy[0][0], xy[1][0]};
                }
            }
        }
        for (Group g : Group.values()) {
            List<TrialRecord> trials = groups.get(g);
            if (trials != null) {
                legendEntry(chart, g.label + " (" + trials.size() + ")" + otherStatuses(g, trials), g.color, anchor);
            }
        }
        Optional<TrialRecord> best = Values.ranking(r).stream().filter(curves::contains).findFirst();
        if (best.isPresent()) {
            double[][] xy = curve(best.get());
            XYSeries s = chart.addSeries("best: trial " + shortId(best.get()), xy[0], xy[1]);
            s.setLineColor(BEST);
            s.setLineWidth(2f);
            s.setLineStyle(SeriesLines.SOLID);
            s.setMarker(xy[0].length == 1 ? SeriesMarkers.DIAMOND : SeriesMarkers.NONE);
            s.setMarkerColor(BEST);
        }
        String caption = "One line per trial that reported intermediate results ("
                + curves.size() + "), coloured by how it ended"
                + (best.isPresent() ? "; the red line is the trial with the best final value." : ".");
        return Optional.of(plot("intermediate", "Intermediate results", caption, chart));
    }

    /**
     * One small scatter per parameter path: its value (x) against the final value (y). A {@code choice} of the
     * search space is drawn as categories, one per option in the space's order, whatever its options are (numbers
     * too: batch sizes 16, 32, 64, 128 are four places, not a line from 16 to 128): see {@link #parameterAxis}.
     */
    static List<Plot> parameters(ExperimentResults r) {
        List<TrialRecord> withValue = r.trials().stream().filter(Plots::finiteFinal).toList();
        if (withValue.isEmpty()) {
            return List.of();
        }
        TrialRecord best = bestFinite(r, withValue);
        Map<TrialRecord, Map<List<String>, Object>> flat = new IdentityHashMap<>();
        withValue.forEach(t -> flat.put(t, Values.flatten(t.parameters())));
        SearchSpace space = space(r);
        List<Plot> plots = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (List<String> path : Values.parameterPaths(withValue)) {
            List<TrialRecord> having = withValue.stream().filter(t -> flat.get(t).get(path) != null).toList();
            List<Object> values = having.stream().map(t -> flat.get(t).get(path)).toList();
            String name = Values.pathName(path);
            List<Object> options = choiceOptions(space, path);
            ParameterAxis axis = parameterAxis(values, having.stream().mapToInt(TrialRecord::sequence).toArray(), options);
            double[] xs = axis.xs();
            List<String> categories = axis.categories();
            CategoryLayout layout = categories == null ? null : CategoryLayout.of(categories, SMALL_WIDTH);
            XYChart chart = chart(SMALL_WIDTH, SMALL_HEIGHT + (layout == null ? 0 : layout.extraHeight()),
                    Values.truncate(Values.oneLine(name), 48), null, "final value");
            XYStyler styler = chart.getStyler();
            styler.setLegendVisible(false);
            logYIfWide(chart, having.stream().mapToDouble(TrialRecord::finalValue).toArray());
            String caption;
            if (layout == null) {
                boolean log = logWide(xs);
                if (log) {
                    styler.setXAxisLogarithmic(true);
                    styler.setXAxisDecimalPattern(LOG_PATTERN);
                }
                caption = log ? "log scale" : "";
            } else {
                layout.apply(chart);
                caption = (options != null ? "choice of " + options.size() + (options.size() == 1 ? " option" : " options")
                        : categories.size() + (categories.size() == 1 ? " value" : " values")) + ", points spread sideways to be seen";
            }
            XYSeries s = chart.addSeries("trials", xs, having.stream().mapToDouble(TrialRecord::finalValue).toArray());
            s.setXYSeriesRenderStyle(XYSeriesRenderStyle.Scatter);
            s.setMarker(SeriesMarkers.CIRCLE);
            s.setMarkerColor(withAlpha(Group.RAN_TO_END.color, having.size() > 100 ? 110 : 170));
            int bi = having.indexOf(best);
            if (bi >= 0) {
                XYSeries b = chart.addSeries("best", new double[] {xs[bi]}, new double[] {best.finalValue()});
                b.setXYSeriesRenderStyle(XYSeriesRenderStyle.Scatter);
                b.setMarker(SeriesMarkers.DIAMOND);
                b.setMarkerColor(BEST);
            }
            String id = uniqueId("parameter-" + name, ids);
            plots.add(plot(id, name, caption, chart));
        }
        return plots;
    }

    /**
     * Where a parameter's values lie along the x axis of its plot.
     *
     * @param categories the categories at positions 0..n-1, in the axis's order, or {@code null} for an axis of numbers
     * @param xs         each value's position: the number itself, or its category's position spread sideways by
     *                   {@link #jitter} (within a quarter of a position)
     */
    record ParameterAxis(List<String> categories, double[] xs) {
    }

    /**
     * The x axis of one parameter. With {@code options} (the parameter is a {@code choice}) it is one category per
     * option, in the search space's order and labelled with the option (a nested option with its name), numbers
     * included, then any value the options do not hold; without, the numbers as they are when every value is a
     * finite number, else the values as categories in the order of their text.
     *
     * @param values    the trials' values of the parameter, not {@code null}
     * @param sequences the trials' sequences, which spread their points sideways on a category axis
     * @param options   the values of the choice's options, or {@code null} when the parameter is not a choice
     */
    static ParameterAxis parameterAxis(List<Object> values, int[] sequences, List<Object> options) {
        double[] xs = new double[values.size()];
        if (options == null && values.stream().allMatch(v -> v instanceof Number n && Double.isFinite(n.doubleValue()))) {
            for (int i = 0; i < xs.length; i++) {
                xs[i] = ((Number) values.get(i)).doubleValue();
            }
            return new ParameterAxis(null, xs);
        }
        // as text, as the tables show them: 32 and 32.0 are one option
        java.util.LinkedHashSet<String> categories = new java.util.LinkedHashSet<>();
        if (options != null) {
            options.forEach(o -> categories.add(Values.compact(o)));
        }
        categories.addAll(new TreeSet<>(values.stream().map(Values::compact).toList()));
        List<String> ordered = List.copyOf(categories);
        Map<String, Integer> position = new HashMap<>();
        for (int i = 0; i < ordered.size(); i++) {
            position.put(ordered.get(i), i);
        }
        for (int i = 0; i < xs.length; i++) {
            xs[i] = position.get(Values.compact(values.get(i))) + jitter(sequences[i]);
        }
        return new ParameterAxis(ordered, xs);
    }

    /** The experiment's search space, or {@code null} when the results do not hold one it can read. */
    private static SearchSpace space(ExperimentResults r) {
        if (r.searchSpace().isEmpty()) {
            return null;
        }
        try {
            return SearchSpace.parse(r.searchSpace());
        } catch (RuntimeException e) {
            // a report is drawn whatever the stored space holds: its parameters then read by their values
            return null;
        }
    }

    /**
     * The values of the options of the {@code choice} a parameter path names (the {@link Values#flatten flattened}
     * path: a nested choice's sub-parameter under its name), or {@code null} when the space does not make it a
     * choice. A sub-parameter that several nested options define is a choice when each defines it as one; its
     * options are theirs, in order, each once.
     */
    static List<Object> choiceOptions(SearchSpace space, List<String> path) {
        if (space == null) {
            return null;
        }
        List<Parameter> definitions = definitions(space, path);
        if (definitions.isEmpty() || !definitions.stream().allMatch(p -> p instanceof Choice)) {
            return null;
        }
        List<Object> options = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Parameter p : definitions) {
            for (Choice.Option o : ((Choice) p).options()) {
                if (seen.add(Values.compact(o.value()))) {
                    options.add(o.value());
                }
            }
        }
        return options;
    }

    private static List<Parameter> definitions(SearchSpace space, List<String> path) {
        Parameter p = space.parameter(path.get(0));
        if (p == null || path.size() == 1) {
            return p == null ? List.of() : List.of(p);
        }
        List<Parameter> out = new ArrayList<>();
        if (p instanceof Choice c) {
            for (Choice.Option o : c.options()) {
                if (o.nested()) {
                    out.addAll(definitions(o.subspace(), path.subList(1, path.size())));
                }
            }
        }
        return out;
    }

    // ---- helpers

    private static boolean finiteFinal(TrialRecord t) {
        return t.finalValue() != null && Double.isFinite(t.finalValue());
    }

    /** The best ranked trial among those with a finite final value, or {@code null} when none is ranked (all LOST). */
    private static TrialRecord bestFinite(ExperimentResults r, List<TrialRecord> withValue) {
        return Values.ranking(r).stream().filter(withValue::contains).findFirst().orElse(null);
    }

    /** A trial's job id for a legend: on one line, at most 24 characters. */
    private static String shortId(TrialRecord t) {
        return Values.truncate(Values.oneLine(String.valueOf(t.trialJobId())), 24);
    }

    private static String valueTitle(ExperimentResults r) {
        return "final value (" + (r.maximize() ? "higher" : "lower") + " is better)";
    }

    private static Map<Group, List<TrialRecord>> byGroup(List<TrialRecord> trials) {
        Map<Group, List<TrialRecord>> groups = new EnumMap<>(Group.class);
        trials.forEach(t -> groups.computeIfAbsent(Group.of(t.status()), g -> new ArrayList<>()).add(t));
        return groups;
    }

    /** For the "other" group, which statuses it holds: {@code : failed, running}. */
    private static String otherStatuses(Group g, List<TrialRecord> trials) {
        if (g != Group.OTHER) {
            return "";
        }
        Set<TrialStatus> statuses = EnumSet.noneOf(TrialStatus.class);
        trials.forEach(t -> statuses.add(t.status()));
        return ": " + statuses.stream().map(Values::statusWords).collect(Collectors.joining(", "));
    }

    /** The trial's finite intermediate values as x (step, from 1) and y arrays. */
    private static double[][] curve(TrialRecord t) {
        List<Double> v = t.intermediate();
        int n = (int) v.stream().filter(d -> Double.isFinite(d)).count();
        double[][] xy = new double[2][n];
        int j = 0;
        for (int i = 0; i < v.size(); i++) {
            if (Double.isFinite(v.get(i))) {
                xy[0][j] = i + 1;
                xy[1][j] = v.get(i);
                j++;
            }
        }
        return xy;
    }

    private static void legendEntry(XYChart chart, String label, Color color, double[] at) {
        XYSeries s = chart.addSeries(label, new double[] {at[0]}, new double[] {at[1]});
        s.setLineColor(color);
        s.setLineWidth(3f);
        s.setLineStyle(SeriesLines.SOLID);
        s.setMarker(SeriesMarkers.NONE);
    }

    private static XYChart chart(int width, int height, String title, String xTitle, String yTitle) {
        XYChartBuilder builder = new XYChartBuilder().width(width).height(height).title(title);
        if (xTitle != null) {
            builder.xAxisTitle(xTitle);
        }
        XYChart chart = builder.yAxisTitle(yTitle).build();
        XYStyler s = chart.getStyler();
        s.setChartBackgroundColor(Color.WHITE);
        s.setPlotBackgroundColor(Color.WHITE);
        s.setPlotBorderColor(new Color(200, 200, 200));
        s.setPlotGridLinesColor(new Color(232, 232, 232));
        s.setPlotGridLinesStroke(new BasicStroke(1f));
        s.setChartTitleBoxVisible(false);
        s.setLegendBorderColor(new Color(220, 220, 220));
        s.setLegendPosition(LegendPosition.InsideNE);
        s.setMarkerSize(6);
        s.setXAxisTitleVisible(xTitle != null);
        s.setSeriesMarkers(new Marker[] {SeriesMarkers.CIRCLE});
        // The same decimal point whatever the machine's locale, as in the report's tables.
        s.setLocale(Locale.ROOT);
        return chart;
    }

    private static Plot plot(String id, String title, String caption, XYChart chart) {
        try {
            return new Plot(id, title, caption, BitmapEncoder.getBitmapBytes(chart, BitmapEncoder.BitmapFormat.PNG),
                    chart.getWidth(), chart.getHeight());
        } catch (IOException e) {
            throw new UncheckedIOException("drawing " + id, e);
        }
    }

    /**
     * True when a log axis reads better: every value positive, the largest over 100 times the smallest, and
     * the values crowding the low end of a linear axis (their median under a tenth of the largest). The last
     * keeps a parameter drawn evenly from [0, 0.5] linear when one draw happens to land near 0.
     */
    static boolean logWide(double[] values) {
        if (values.length == 0) {
            return false;
        }
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        double min = sorted[0];
        double max = sorted[sorted.length - 1];
        double median = sorted[sorted.length / 2];
        return min > 0 && max / min > 100 && median < max / 10;
    }

    private static void logYIfWide(XYChart chart, double[] values) {
        if (logWide(values)) {
            chart.getStyler().setYAxisLogarithmic(true);
            chart.getStyler().setYAxisDecimalPattern(LOG_PATTERN);
        }
    }

    /** Decades on a log axis all alike, {@code 1E-5} to {@code 1E2}, rather than {@code 1E-4} next to {@code 0.001}. */
    private static final String LOG_PATTERN = "0E0";

    /** A deterministic sideways spread in [-0.25, 0.25), evenly filled as trials come (golden-ratio steps). */
    static double jitter(int sequence) {
        double f = (sequence * 0.6180339887498949) % 1.0;
        return (f - 0.5) * 0.5;
    }

    /**
     * An x axis of categories at 0..n-1: labels at the integer positions, side by side where they fit, else
     * slanted, else upright (about 7 pixels a character), the chart taller by what slanted or upright labels take.
     */
    record CategoryLayout(List<String> labels, double plotWidth, int rotation, int extraHeight) {
        static CategoryLayout of(List<String> categories, int chartWidth) {
            List<String> labels = categoryLabels(categories);
            double plotWidth = 0.92 * (chartWidth - 80);
            double longest = labels.stream().mapToInt(Values::width).max().orElse(0) * 7.0;
            double room = plotWidth / labels.size() / 1.1;
            if (longest < room) {
                return new CategoryLayout(labels, plotWidth, 0, 0);
            }
            if ((longest + 14) * Math.sqrt(0.5) < room) {
                return new CategoryLayout(labels, plotWidth, 45, (int) Math.max(0, longest * Math.sqrt(0.5) - 14));
            }
            return new CategoryLayout(labels, plotWidth, 90, (int) Math.max(0, longest - 14));
        }

        /** The range half a position beyond each end; the tick labels; a tick spacing hint for one per position. */
        void apply(XYChart chart) {
            int n = labels.size();
            XYStyler s = chart.getStyler();
            s.setXAxisMin(-0.5);
            s.setXAxisMax(n - 0.5);
            s.setxAxisTickLabelsFormattingFunction(integerTicks(p -> p >= 0 && p < n ? labels.get((int) p) : null));
            // The axis picks a step of 1, 2, 5 or 10 times a power of ten whose width in pixels is near this
            // hint: near the width of one position it picks 1, then widens while labels overlap.
            s.setXAxisTickMarkSpacingHint((int) Math.max(20, Math.min(plotWidth / 2, plotWidth / n)));
            s.setXAxisLabelRotation(rotation);
        }
    }

    /**
     * Category labels: at most 14 characters, a longer one cut in the middle (names often differ at their
     * end: {@code resnet…ck_v2_50}); never blank; all different, a label alike an earlier one numbered.
     */
    static List<String> categoryLabels(List<String> categories) {
        List<String> labels = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (String c : categories) {
            String label = middleCut(c.isBlank() ? "\"" + c + "\"" : c, 14);
            for (int i = 2; !seen.add(label); i++) {
                label = middleCut(c, 11) + "~" + i;
            }
            labels.add(label);
        }
        return labels;
    }

    /** The text cut to the width by an ellipsis in the middle, keeping its start and its end. */
    static String middleCut(String s, int width) {
        int n = Values.width(s);
        if (n <= width) {
            return s;
        }
        int head = (width - 1) / 2;
        int tail = width - 1 - head;
        return s.substring(0, s.offsetByCodePoints(0, head)) + "…" + s.substring(s.offsetByCodePoints(0, n - tail));
    }

    /**
     * Tick labels for an axis of whole numbers: the label the function gives at a whole position, and at any
     * other position (between two, or one the function gives null for) a one-character blank.
     *
     * <p>XChart draws no tick at all when the labels of the axis's two ends are alike, and widens the tick step
     * until all labels differ, so blanks differ too: each is a different Unicode space, chosen from the position.
     * Below zero (the low end of a category axis, and the one or two ticks before the first) from one set, above
     * from another, indexed by twice the position modulo 7: the whole positions past the last label are a step
     * apart, and twice a step (2, 4, 10, 20 ... times a power of ten) is never a multiple of 7. Positions between
     * two whole ones may collide; the step then widens to 1, which has none.
     */
    static Function<Double, String> integerTicks(LongFunction<String> labelAt) {
        return x -> {
            long p = Math.round(x);
            if (Math.abs(x - p) < 1e-9) {
                String label = labelAt.apply(p);
                if (label != null) {
                    return label;
                }
            }
            long twice = Math.round(x * 2);
            return x < 0 ? String.valueOf(BELOW[(int) Math.floorMod(twice, BELOW.length)])
                    : String.valueOf(ABOVE[(int) Math.floorMod(twice, ABOVE.length)]);
        };
    }

    private static final char[] BELOW = {'\u2000', '\u2001'};
    private static final char[] ABOVE = {'\u2002', '\u2003', '\u2004', '\u2005', '\u2006', '\u2007', '\u2008'};

    private static Color withAlpha(Color c, int alpha) {
        return new Color(c.getRed(), c.getGreen(), c.getBlue(), alpha);
    }

    private static String uniqueId(String base, Set<String> taken) {
        String id = base.replaceAll("[^A-Za-z0-9._-]", "_");
        String candidate = id;
        for (int i = 2; !taken.add(candidate); i++) {
            candidate = id + "-" + i;
        }
        return candidate;
    }
}
