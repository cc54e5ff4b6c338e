package org.tunekit.bench.quality;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A small hand-written SVG chart: side-by-side panels sharing a logarithmic y axis, each with lines
 * (and optional shaded bands) plus marked points, and one legend on the right. Values that are not
 * positive are drawn on the bottom edge of the axis.
 */
public final class SvgPlot {
    /** The colours given to series in turn. */
    public static final List<String> PALETTE = List.of("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
            "#e377c2", "#17becf", "#bcbd22", "#7f7f7f");
    /** The marker shapes given to series in turn. */
    public static final List<String> SHAPES = List.of("circle", "square", "diamond", "triangle", "triangle-down", "cross", "plus", "star",
            "hexagon");

    private static final int PANEL_W = 470;
    private static final int PANEL_H = 420;
    private static final int LEFT = 72;
    private static final int RIGHT = 18;
    private static final int TOP = 62;
    private static final int BOTTOM = 56;
    private static final int LEGEND_W = 230;

    /**
     * One line.
     *
     * @param label  its legend text
     * @param color  an SVG colour
     * @param y      the values at x = 1, 2, ...
     * @param lower  the band's lower edge at each x, or {@code null} for no band
     * @param upper  the band's upper edge at each x, or {@code null}
     */
    record Line(String label, String color, double[] y, double[] lower, double[] upper) {}

    /**
     * One marked point.
     *
     * @param label its legend text
     * @param color its colour
     * @param shape one of {@link #SHAPES}
     * @param x     where on the x axis
     * @param y     the value
     */
    record Point(String label, String color, String shape, double x, double y) {}

    /**
     * One panel.
     *
     * @param title  its heading
     * @param lines  its lines
     * @param points its marked points
     */
    record Panel(String title, List<Line> lines, List<Point> points) {}

    /**
     * One legend entry: a line swatch when {@code shape} is {@code null}, otherwise a marker.
     *
     * @param label the text
     * @param color the colour
     * @param shape the marker shape, or {@code null}
     */
    public record LegendEntry(String label, String color, String shape) {}

    /**
     * One point of a scatter chart, with whiskers (an interval) in both directions.
     *
     * @param label its legend text, also written beside it
     * @param color its colour
     * @param shape one of {@link #SHAPES}
     * @param x     the x value
     * @param xLow  the left end of its horizontal whisker
     * @param xHigh the right end
     * @param y     the y value (drawn on a logarithmic axis)
     * @param yLow  the lower end of its vertical whisker
     * @param yHigh the upper end
     */
    public record ErrorPoint(String label, String color, String shape, double x, double xLow, double xHigh, double y, double yLow,
            double yHigh) {}

    /**
     * A dashed reference line of a scatter chart.
     *
     * @param vertical true for a line at x = {@code at}, false for one at y = {@code at}
     * @param at       where
     * @param label    its text
     */
    public record Guide(boolean vertical, double at, String label) {}

    private static final int SCATTER_W = 760;
    private static final int SCATTER_H = 520;
    private static final int SCATTER_LEGEND_W = 300;

    private SvgPlot() {}

    /**
     * Renders the chart.
     *
     * @param xMax     the right end of the x axis (the left end is 0)
     * @param xMarks   x positions to mark with a dashed vertical line
     */
    static String render(String title, String xLabel, String yLabel, int xMax, List<Integer> xMarks, List<Panel> panels,
            List<LegendEntry> legend) {
        double[] range = logRange(panels);
        double lo = range[0];
        double hi = range[1];
        int width = panels.size() * PANEL_W + LEGEND_W;
        int legendH = 40 + legend.size() * 20;
        int height = Math.max(PANEL_H, legendH + TOP);
        StringBuilder s = new StringBuilder();
        s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(width).append("\" height=\"").append(height)
                .append("\" viewBox=\"0 0 ").append(width).append(' ').append(height)
                .append("\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">\n");
        s.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        s.append(text(width / 2.0, 22, "middle", 16, "bold", title));
        for (int p = 0; p < panels.size(); p++) {
            renderPanel(s, panels.get(p), p * PANEL_W, lo, hi, xMax, xMarks, xLabel, p == 0 ? yLabel : null);
        }
        renderLegend(s, legend, panels.size() * PANEL_W + 10, TOP);
        s.append("</svg>\n");
        return s.toString();
    }

    private static void renderPanel(StringBuilder s, Panel panel, int x0, double lo, double hi, int xMax, List<Integer> xMarks,
            String xLabel, String yLabel) {
        double left = x0 + LEFT;
        double right = x0 + PANEL_W - RIGHT;
        double top = TOP;
        double bottom = PANEL_H - BOTTOM;
        Axis ax = new Axis(left, right, top, bottom, xMax, Math.log10(lo), Math.log10(hi));
        s.append(text((left + right) / 2, top - 12, "middle", 14, "bold", panel.title()));
        // grid: decades, minor ticks, x ticks
        int d0 = (int) Math.round(Math.log10(lo));
        int d1 = (int) Math.round(Math.log10(hi));
        int labelEvery = Math.max(1, (d1 - d0 + 9) / 10);
        for (int d = d0; d <= d1; d++) {
            double y = ax.y(Math.pow(10, d));
            s.append(line(left, y, right, y, "#d0d0d0", 1, null));
            if ((d - d0) % labelEvery == 0) {
                s.append(text(left - 6, y + 4, "end", 11, null, decade(d)));
            }
            if (d < d1 && d1 - d0 <= 8) {
                for (int m = 2; m <= 9; m++) {
                    double ym = ax.y(m * Math.pow(10, d));
                    s.append(line(left, ym, left + 4, ym, "#808080", 1, null));
                    s.append(line(left, ym, right, ym, "#f0f0f0", 1, null));
                }
            }
        }
        int step = xStep(xMax);
        for (int x = 0; x <= xMax; x += step) {
            double px = ax.x(x);
            s.append(line(px, bottom, px, bottom + 5, "#404040", 1, null));
            s.append(text(px, bottom + 18, "middle", 11, null, Integer.toString(x)));
        }
        for (int m : xMarks) {
            if (m > 0 && m <= xMax) {
                s.append(line(ax.x(m), top, ax.x(m), bottom, "#b0b0b0", 1, "4 3"));
            }
        }
        s.append("<rect x=\"").append(f(left)).append("\" y=\"").append(f(top)).append("\" width=\"").append(f(right - left))
                .append("\" height=\"").append(f(bottom - top)).append("\" fill=\"none\" stroke=\"#404040\"/>\n");
        s.append(text((left + right) / 2, bottom + 40, "middle", 12, null, xLabel));
        if (yLabel != null) {
            double cy = (top + bottom) / 2;
            s.append("<text x=\"").append(f(x0 + 18)).append("\" y=\"").append(f(cy)).append("\" text-anchor=\"middle\" font-size=\"12\" transform=\"rotate(-90 ")
                    .append(f(x0 + 18)).append(' ').append(f(cy)).append(")\">").append(escape(yLabel)).append("</text>\n");
        }
        for (Line l : panel.lines()) {
            if (l.lower() != null && l.upper() != null && l.y().length > 0) {
                StringBuilder pts = new StringBuilder();
                for (int i = 0; i < l.upper().length; i++) {
                    pts.append(f(ax.x(i + 1))).append(',').append(f(ax.y(l.upper()[i]))).append(' ');
                }
                for (int i = l.lower().length - 1; i >= 0; i--) {
                    pts.append(f(ax.x(i + 1))).append(',').append(f(ax.y(l.lower()[i]))).append(' ');
                }
                s.append("<polygon points=\"").append(pts.toString().trim()).append("\" fill=\"").append(l.color())
                        .append("\" fill-opacity=\"0.12\" stroke=\"none\"/>\n");
            }
        }
        for (Line l : panel.lines()) {
            if (l.y().length == 0) {
                continue;
            }
            StringBuilder pts = new StringBuilder();
            for (int i = 0; i < l.y().length; i++) {
                pts.append(f(ax.x(i + 1))).append(',').append(f(ax.y(l.y()[i]))).append(' ');
            }
            s.append("<polyline points=\"").append(pts.toString().trim()).append("\" fill=\"none\" stroke=\"").append(l.color())
                    .append("\" stroke-width=\"2\" stroke-linejoin=\"round\"><title>").append(escape(l.label())).append("</title></polyline>\n");
        }
        for (Point p : panel.points()) {
            s.append(marker(p.shape(), ax.x(p.x()), ax.y(p.y()), p.color(), p.label()));
        }
    }

    /**
     * Renders a scatter chart: a linear x axis from 0, a logarithmic y axis, each point with its
     * whiskers and its label, dashed guides, and a legend on the right.
     */
    public static String renderScatter(String title, String xLabel, String yLabel, List<ErrorPoint> points, List<Guide> guides,
            List<LegendEntry> legend) {
        double xMaxValue = 0;
        List<Line> forRange = new ArrayList<>();
        for (ErrorPoint p : points) {
            xMaxValue = Math.max(xMaxValue, Math.max(p.x(), p.xHigh()));
            forRange.add(new Line(p.label(), p.color(), new double[] {p.y(), p.yLow(), p.yHigh()}, null, null));
        }
        for (Guide g : guides) {
            if (g.vertical()) {
                xMaxValue = Math.max(xMaxValue, g.at());
            } else {
                forRange.add(new Line(g.label(), "none", new double[] {g.at()}, null, null));
            }
        }
        int step = xStep((int) Math.ceil(xMaxValue * 1.08));
        int xMax = Math.max(step, (int) (Math.ceil(xMaxValue * 1.08 / step) * step));
        double[] range = niceLogRange(forRange);
        double lo = range[0];
        double hi = range[1];
        int width = SCATTER_W + SCATTER_LEGEND_W;
        int height = Math.max(SCATTER_H, TOP + 40 + legend.size() * 20);
        double left = LEFT + 10;
        double right = SCATTER_W - RIGHT;
        double top = TOP;
        double bottom = SCATTER_H - BOTTOM;
        Axis ax = new Axis(left, right, top, bottom, xMax, Math.log10(lo), Math.log10(hi));
        StringBuilder s = new StringBuilder();
        s.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(width).append("\" height=\"").append(height)
                .append("\" viewBox=\"0 0 ").append(width).append(' ').append(height)
                .append("\" font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">\n");
        s.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        s.append(text(width / 2.0, 24, "middle", 16, "bold", title));
        for (int d = (int) Math.floor(Math.log10(lo)); d <= (int) Math.ceil(Math.log10(hi)); d++) {
            for (int m = 1; m <= 9; m++) {
                double v = m * Math.pow(10, d);
                if (v < lo * (1 - 1e-9) || v > hi * (1 + 1e-9)) {
                    continue;
                }
                double y = ax.y(v);
                boolean labelled = m == 1 || m == 2 || m == 5;
                s.append(line(left, y, right, y, m == 1 ? "#d0d0d0" : "#f0f0f0", 1, null));
                s.append(line(left, y, left + (labelled ? 6 : 3), y, "#808080", 1, null));
                if (labelled) {
                    s.append(text(left - 6, y + 4, "end", 11, null, sig(v)));
                }
            }
        }
        for (int x = 0; x <= xMax; x += step) {
            double px = ax.x(x);
            s.append(line(px, top, px, bottom, "#f0f0f0", 1, null));
            s.append(line(px, bottom, px, bottom + 5, "#404040", 1, null));
            s.append(text(px, bottom + 18, "middle", 11, null, Integer.toString(x)));
        }
        for (Guide g : guides) {
            if (g.vertical()) {
                double px = ax.x(g.at());
                s.append(line(px, top, px, bottom, "#909090", 1.2, "5 4"));
                s.append(text(px + 4, top + 14, "start", 11, null, g.label()));
            } else {
                double py = ax.y(g.at());
                boolean crowdedAbove = guides.stream().anyMatch(o -> o != g && !o.vertical() && ax.y(o.at()) < py && py - ax.y(o.at()) < 16);
                s.append(line(left, py, right, py, "#909090", 1.2, "5 4"));
                s.append(text(left + 6, crowdedAbove ? py + 14 : py - 5, "start", 11, null, g.label()));
            }
        }
        s.append("<rect x=\"").append(f(left)).append("\" y=\"").append(f(top)).append("\" width=\"").append(f(right - left))
                .append("\" height=\"").append(f(bottom - top)).append("\" fill=\"none\" stroke=\"#404040\"/>\n");
        s.append(text((left + right) / 2, bottom + 40, "middle", 12, null, xLabel));
        double cy = (top + bottom) / 2;
        s.append("<text x=\"18\" y=\"").append(f(cy)).append("\" text-anchor=\"middle\" font-size=\"12\" transform=\"rotate(-90 18 ")
                .append(f(cy)).append(")\">").append(escape(yLabel)).append("</text>\n");
        for (ErrorPoint p : points) {
            double px = ax.x(p.x());
            double py = ax.y(p.y());
            s.append(line(ax.x(p.xLow()), py, ax.x(p.xHigh()), py, p.color(), 1.5, null));
            s.append(line(px, ax.y(p.yLow()), px, ax.y(p.yHigh()), p.color(), 1.5, null));
            s.append(line(ax.x(p.xLow()), py - 4, ax.x(p.xLow()), py + 4, p.color(), 1.5, null));
            s.append(line(ax.x(p.xHigh()), py - 4, ax.x(p.xHigh()), py + 4, p.color(), 1.5, null));
            s.append(line(px - 4, ax.y(p.yLow()), px + 4, ax.y(p.yLow()), p.color(), 1.5, null));
            s.append(line(px - 4, ax.y(p.yHigh()), px + 4, ax.y(p.yHigh()), p.color(), 1.5, null));
        }
        List<double[]> taken = new ArrayList<>();
        for (ErrorPoint p : points) {
            double px = ax.x(p.x());
            double py = ax.y(p.y());
            taken.add(new double[] {px - 7, py - 7, px + 7, py + 7});
        }
        for (ErrorPoint p : points) {
            double px = ax.x(p.x());
            double py = ax.y(p.y());
            s.append(marker(p.shape(), px, py, p.color(), p.label()));
            double w = 6.6 * p.label().length();
            // label beside the marker: the first of eight places that overlaps no marker nor earlier label
            double[][] places = {{px + 9, py - 8}, {px + 9, py + 16}, {px - 9 - w, py - 8}, {px - 9 - w, py + 16},
                {px - w / 2, py - 14}, {px - w / 2, py + 22}, {px + 9, py - 22}, {px + 9, py + 30}};
            double[] at = places[0];
            for (double[] c : places) {
                double[] box = {c[0], c[1] - 11, c[0] + w, c[1] + 2};
                if (taken.stream().noneMatch(b -> box[0] < b[2] && b[0] < box[2] && box[1] < b[3] && b[1] < box[3])) {
                    at = c;
                    break;
                }
            }
            taken.add(new double[] {at[0], at[1] - 11, at[0] + w, at[1] + 2});
            s.append("<text x=\"").append(f(at[0])).append("\" y=\"").append(f(at[1])).append("\" font-size=\"11\" fill=\"")
                    .append(p.color()).append("\">").append(escape(p.label())).append("</text>\n");
        }
        renderLegend(s, legend, SCATTER_W + 10, TOP);
        s.append("</svg>\n");
        return s.toString();
    }

    /** A logarithmic range from a 1-2-5 value at or below the smallest positive value to one at or above the largest, with a margin. */
    static double[] niceLogRange(List<Line> lines) {
        double[] decades = logRange(List.of(new Panel("", lines, List.of())));
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (Line l : lines) {
            for (double v : l.y()) {
                if (v > 0 && Double.isFinite(v)) {
                    min = Math.min(min, v);
                    max = Math.max(max, v);
                }
            }
        }
        if (min == Double.POSITIVE_INFINITY) {
            return decades;
        }
        double lo = decades[0];
        for (double c = decades[0]; c <= min / 1.1; c = nextNice(c)) {
            lo = c;
        }
        double hi = decades[1];
        for (double c = decades[1]; c >= max * 1.1; c = previousNice(c)) {
            hi = c;
        }
        return hi > lo ? new double[] {lo, hi} : decades;
    }

    private static double nextNice(double v) {
        double d = Math.pow(10, Math.floor(Math.log10(v) + 1e-9));
        double m = Math.round(v / d);
        return (m == 1 ? 2 : m == 2 ? 5 : 10) * d;
    }

    private static double previousNice(double v) {
        double d = Math.pow(10, Math.floor(Math.log10(v) + 1e-9));
        double m = Math.round(v / d);
        return m == 1 ? 0.5 * d : (m == 5 ? 2 : 1) * d;
    }

    private static String sig(double v) {
        return new java.math.BigDecimal(v).round(new java.math.MathContext(2)).stripTrailingZeros().toPlainString();
    }

    private static void renderLegend(StringBuilder s, List<LegendEntry> legend, double x, double y) {
        double cy = y;
        for (LegendEntry e : legend) {
            if (e.color() == null) {
                s.append(text(x, cy + 4, "start", 12, "bold", e.label()));
            } else if (e.shape() == null) {
                s.append(line(x, cy, x + 24, cy, e.color(), 2.5, null));
                s.append(text(x + 32, cy + 4, "start", 12, null, e.label()));
            } else {
                s.append(marker(e.shape(), x + 12, cy, e.color(), null));
                s.append(text(x + 32, cy + 4, "start", 12, null, e.label()));
            }
            cy += 20;
        }
    }

    private record Axis(double left, double right, double top, double bottom, int xMax, double logLo, double logHi) {
        double x(double v) {
            return left + (right - left) * v / xMax;
        }

        double y(double v) {
            double l = v > 0 ? Math.log10(v) : logLo;
            l = Math.max(logLo, Math.min(logHi, l));
            return bottom - (bottom - top) * (l - logLo) / (logHi - logLo);
        }
    }

    /** Whole decades covering every positive value drawn (at least one decade wide). */
    static double[] logRange(List<Panel> panels) {
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        List<Double> values = new ArrayList<>();
        for (Panel p : panels) {
            for (Line l : p.lines()) {
                for (double[] a : new double[][] {l.y(), l.lower(), l.upper()}) {
                    if (a != null) {
                        for (double v : a) {
                            values.add(v);
                        }
                    }
                }
            }
            for (Point pt : p.points()) {
                values.add(pt.y());
            }
        }
        for (double v : values) {
            if (v > 0 && Double.isFinite(v)) {
                min = Math.min(min, v);
                max = Math.max(max, v);
            }
        }
        if (min == Double.POSITIVE_INFINITY) {
            return new double[] {0.1, 10};
        }
        min = Math.max(min, 1e-12);
        double lo = Math.pow(10, Math.floor(Math.log10(min)));
        double hi = Math.pow(10, Math.ceil(Math.log10(max)));
        if (hi <= lo) {
            hi = lo * 10;
        }
        return new double[] {lo, hi};
    }

    static int xStep(int xMax) {
        for (int step : new int[] {1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000}) {
            if (xMax / step <= 8) {
                return step;
            }
        }
        return Math.max(1, xMax / 8);
    }

    private static String decade(int d) {
        if (d >= -2 && d <= 3) {
            return new java.math.BigDecimal(java.math.BigInteger.ONE, -d).toPlainString();
        }
        return "1e" + d;
    }

    private static String marker(String shape, double x, double y, String color, String title) {
        double r = 5;
        String style = "fill=\"white\" stroke=\"" + color + "\" stroke-width=\"2\"";
        String t = title == null ? "" : "<title>" + escape(title) + "</title>";
        String body = switch (shape) {
            case "square" -> "<rect x=\"" + f(x - r + 0.5) + "\" y=\"" + f(y - r + 0.5) + "\" width=\"" + f(2 * r - 1) + "\" height=\"" + f(2 * r - 1) + "\" " + style + ">" + t + "</rect>";
            case "diamond" -> polygon(style, t, x, y - r - 1, x + r + 1, y, x, y + r + 1, x - r - 1, y);
            case "triangle" -> polygon(style, t, x, y - r - 1, x + r + 1, y + r, x - r - 1, y + r);
            case "triangle-down" -> polygon(style, t, x, y + r + 1, x + r + 1, y - r, x - r - 1, y - r);
            case "cross" -> "<path d=\"M" + f(x - r) + "," + f(y - r) + " L" + f(x + r) + "," + f(y + r) + " M" + f(x - r) + "," + f(y + r)
                    + " L" + f(x + r) + "," + f(y - r) + "\" stroke=\"" + color + "\" stroke-width=\"2.2\">" + t + "</path>";
            case "plus" -> "<path d=\"M" + f(x - r - 1) + "," + f(y) + " L" + f(x + r + 1) + "," + f(y) + " M" + f(x) + "," + f(y - r - 1)
                    + " L" + f(x) + "," + f(y + r + 1) + "\" stroke=\"" + color + "\" stroke-width=\"2.2\">" + t + "</path>";
            case "star" -> polygon(style, t, regular(x, y, 10, r + 2, (r + 2) * 0.45));
            case "hexagon" -> polygon(style, t, regular(x, y, 6, r + 0.5, r + 0.5));
            default -> "<circle cx=\"" + f(x) + "\" cy=\"" + f(y) + "\" r=\"" + f(r) + "\" " + style + ">" + t + "</circle>";
        };
        return body + "\n";
    }

    /** The corners of a regular polygon (or, with two radii, a star) around (x, y), pointing up. */
    private static double[] regular(double x, double y, int corners, double outer, double inner) {
        double[] xy = new double[2 * corners];
        for (int i = 0; i < corners; i++) {
            double a = -Math.PI / 2 + 2 * Math.PI * i / corners;
            double rr = i % 2 == 0 ? outer : inner;
            xy[2 * i] = x + rr * Math.cos(a);
            xy[2 * i + 1] = y + rr * Math.sin(a);
        }
        return xy;
    }

    private static String polygon(String style, String title, double... xy) {
        StringBuilder pts = new StringBuilder();
        for (int i = 0; i < xy.length; i += 2) {
            pts.append(f(xy[i])).append(',').append(f(xy[i + 1])).append(' ');
        }
        return "<polygon points=\"" + pts.toString().trim() + "\" " + style + ">" + title + "</polygon>";
    }

    private static String line(double x1, double y1, double x2, double y2, String color, double width, String dash) {
        return "<line x1=\"" + f(x1) + "\" y1=\"" + f(y1) + "\" x2=\"" + f(x2) + "\" y2=\"" + f(y2) + "\" stroke=\"" + color
                + "\" stroke-width=\"" + f(width) + "\"" + (dash == null ? "" : " stroke-dasharray=\"" + dash + "\"") + "/>\n";
    }

    private static String text(double x, double y, String anchor, int size, String weight, String content) {
        return "<text x=\"" + f(x) + "\" y=\"" + f(y) + "\" text-anchor=\"" + anchor + "\" font-size=\"" + size + "\""
                + (weight == null ? "" : " font-weight=\"" + weight + "\"") + ">" + escape(content) + "</text>\n";
    }

    private static String f(double v) {
        return String.format(Locale.ROOT, "%.1f", v);
    }

    /** Escapes text for XML content and attribute values. */
    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
