package org.tunekit.bench.multiobjective;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.tunekit.bench.quality.Quantiles;
import org.tunekit.bench.quality.SvgPlot;

/**
 * {@code hv-PROBLEM.svg}: the median normalised hypervolume over trials, one line per tuner with
 * its interquartile band, one panel per mode, on a linear axis from the lowest quartile shown to 1.
 */
final class HypervolumePlot {
    private static final int W = 440;
    private static final int H = 340;
    private static final int LEFT = 64;
    private static final int TOP = 48;
    private static final int BOTTOM = 48;
    private static final int LEGEND = 140;

    private HypervolumePlot() {}

    static Path write(MultiObjectiveBenchmark.Config config, Problem p, List<MultiObjectiveBenchmark.Run> runs) throws IOException {
        int points = config.trials() / MultiObjectiveBenchmark.EVERY;
        List<String> tuners = List.copyOf(config.tuners().keySet());
        double low = 1;
        // medians and quartiles per (mode, tuner, x)
        List<double[][][]> panels = new ArrayList<>();
        for (int batch : config.batches()) {
            double[][][] q = new double[tuners.size()][points][];
            for (int t = 0; t < tuners.size(); t++) {
                for (int i = 0; i < points; i++) {
                    double[] v = MultiObjectiveBenchmark.values(runs, p.name(), tuners.get(t), batch, (i + 1) * MultiObjectiveBenchmark.EVERY);
                    if (v.length > 0) {
                        Quantiles qq = Quantiles.of(v);
                        q[t][i] = new double[] {qq.q1(), qq.median(), qq.q3()};
                        if (i >= 1) {
                            low = Math.min(low, qq.q1());
                        }
                    }
                }
            }
            panels.add(q);
        }
        low = Math.max(0, Math.floor(low * 10) / 10);
        double high = 1;
        int width = LEFT + panels.size() * (W + 20) + LEGEND;
        int height = TOP + H + BOTTOM;
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\">%n", width, height));
        s.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"22\" font-size=\"15\" font-weight=\"bold\">%s: normalised hypervolume over trials "
                + "(median, band Q1-Q3, %d seeds)</text>%n", LEFT, escape(p.name()), config.seeds().size()));
        for (int k = 0; k < panels.size(); k++) {
            int x0 = LEFT + k * (W + 20);
            int batch = config.batches().get(k);
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"13\">%s</text>%n", x0, TOP - 8,
                    batch == 1 ? "sequential" : "batches of " + batch));
            s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#444\"/>%n", x0, TOP, W, H));
            for (int g = 0; g <= 5; g++) {
                double v = low + (high - low) * g / 5;
                double y = TOP + H - (v - low) / (high - low) * H;
                s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>%n", x0, y, x0 + W, y));
                s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%.2f</text>%n", x0 - 4, y + 4, v));
            }
            for (int i = 0; i <= points; i += Math.max(1, points / 4)) {
                double x = x0 + (double) i / points * W;
                s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%d</text>%n", x, TOP + H + 16,
                        i * MultiObjectiveBenchmark.EVERY));
            }
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">trials</text>%n", x0 + W / 2, TOP + H + 36));
            double[][][] q = panels.get(k);
            for (int t = 0; t < tuners.size(); t++) {
                String color = SvgPlot.PALETTE.get(t % SvgPlot.PALETTE.size());
                StringBuilder band = new StringBuilder();
                StringBuilder back = new StringBuilder();
                StringBuilder line = new StringBuilder();
                for (int i = 0; i < points; i++) {
                    if (q[t][i] == null) {
                        continue;
                    }
                    double x = x0 + (double) (i + 1) / points * W;
                    line.append(line.length() == 0 ? "M" : " L").append(String.format(Locale.ROOT, "%.1f %.1f", x, y(q[t][i][1], low, high)));
                    band.append(band.length() == 0 ? "M" : " L").append(String.format(Locale.ROOT, "%.1f %.1f", x, y(q[t][i][2], low, high)));
                    back.insert(0, String.format(Locale.ROOT, " L%.1f %.1f", x, y(q[t][i][0], low, high)));
                }
                if (line.length() > 0) {
                    s.append("<path d=\"").append(band).append(back).append(" Z\" fill=\"").append(color).append("\" fill-opacity=\"0.12\" stroke=\"none\"/>\n");
                    s.append("<path d=\"").append(line).append("\" fill=\"none\" stroke=\"").append(color).append("\" stroke-width=\"2\"/>\n");
                }
            }
        }
        int lx = LEFT + panels.size() * (W + 20);
        for (int t = 0; t < tuners.size(); t++) {
            String color = SvgPlot.PALETTE.get(t % SvgPlot.PALETTE.size());
            int y = TOP + 16 + t * 20;
            s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"3\"/>%n", lx, y, lx + 24, y, color));
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"12\">%s</text>%n", lx + 30, y + 4, escape(tuners.get(t))));
        }
        s.append("</svg>\n");
        Path file = config.out().resolve("hv-" + p.name() + ".svg");
        Files.writeString(file, s.toString(), StandardCharsets.UTF_8);
        return file;
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static double y(double v, double low, double high) {
        double c = Math.max(low, Math.min(high, v));
        return TOP + H - (c - low) / (high - low) * H;
    }
}
