package org.tunekit.runner.results;

import java.time.Clock;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The report as one HTML page, its plots embedded as PNG data URIs. */
final class HtmlReport {
    static final String FILE = "report.html";
    /** How many trials the table of best trials shows. */
    static final int BEST_ROWS = 20;

    private static final String STYLE = """
            body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 2em auto;
                   max-width: 1100px; padding: 0 1em; color: #222; }
            h1 { margin-bottom: 0.1em; word-break: break-word; }
            .sub { color: #666; margin-top: 0; }
            h2 { margin-top: 1.6em; border-bottom: 1px solid #ddd; padding-bottom: 0.2em; }
            table { border-collapse: collapse; font-size: 0.9em; }
            th, td { padding: 0.25em 0.7em; text-align: left; vertical-align: top; }
            thead th { border-bottom: 2px solid #bbb; white-space: nowrap; }
            tbody tr:nth-child(even) { background: #f6f6f6; }
            td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
            table.facts th { color: #555; font-weight: normal; }
            .scroll { overflow-x: auto; }
            .message { max-width: 32em; white-space: pre-wrap; word-break: break-word; }
            figure { margin: 1em 0; }
            figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
            figcaption { color: #555; font-size: 0.9em; }
            .grid { display: flex; flex-wrap: wrap; gap: 0.5em 1em; }
            .grid figure { margin: 0; width: 400px; max-width: 100%; }
            .empty { color: #777; font-style: italic; }
            table.importance td:last-child { width: 320px; }
            table.importance .bar { height: 0.8em; background: #2563eb; border-radius: 2px; }
            details { margin-top: 1.6em; }
            summary { cursor: pointer; font-size: 1.2em; font-weight: bold; }
            """;

    private HtmlReport() {
    }

    /** Fewer succeeded trials than this tell nothing of which parameters matter (as the dashboard). */
    static final int IMPORTANCE_AT_LEAST = 8;

    /** Each parameter's importance to the final value, fANOVA as the dashboard computes it, as bars. */
    private static void importance(StringBuilder h, ExperimentResults r) {
        h.append("<h2>Hyperparameter importance</h2>\n");
        long succeeded = r.trials().stream().filter(t -> t.status() == TrialStatus.SUCCEEDED && t.finalValue() != null
                && Double.isFinite(t.finalValue())).count();
        Map<String, Double> importance = succeeded < IMPORTANCE_AT_LEAST ? Map.of()
                : Importance.of(r, r.searchSpace().isEmpty() ? null : r.searchSpace(), 0);
        if (importance.isEmpty()) {
            h.append("<p class=\"empty\">Needs at least ").append(IMPORTANCE_AT_LEAST)
                    .append(" succeeded trials whose values differ.</p>\n");
            return;
        }
        h.append("<p>fANOVA over a random forest of the ").append(succeeded)
                .append(" succeeded trials: the share of the final value's variance each parameter explains alone.</p>\n");
        h.append("<table class=\"importance\">\n");
        importance.forEach((name, v) -> h.append("<tr><th>").append(esc(name)).append("</th><td class=\"num\">")
                .append(String.format(java.util.Locale.ROOT, "%.3f", v)).append("</td><td><div class=\"bar\" style=\"width:")
                .append(String.format(java.util.Locale.ROOT, "%.1f", 100 * v)).append("%\"></div></td></tr>\n"));
        h.append("</table>\n");
    }

    static String render(ExperimentResults r, Clock clock) {
        StringBuilder h = new StringBuilder(64 * 1024);
        String title = r.name() == null || r.name().isBlank() ? r.id() : r.name();
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                .append("<title>").append(esc(title)).append(" · experiment report</title>\n")
                .append("<style>\n").append(STYLE).append("</style>\n</head>\n<body>\n");
        h.append("<h1>").append(esc(title)).append("</h1>\n");
        h.append("<p class=\"sub\">Experiment ").append(esc(r.id())).append("</p>\n");
        facts(h, r, clock);

        List<TrialRecord> ranking = Values.ranking(r);
        h.append("<h2>Best parameters</h2>\n");
        if (ranking.isEmpty()) {
            h.append("<p class=\"empty\">No trial has a final value.</p>\n");
        } else {
            bestParameters(h, ranking.get(0));
        }

        h.append("<h2>Best trials</h2>\n");
        if (ranking.isEmpty()) {
            h.append("<p class=\"empty\">No trial has a final value.</p>\n");
        } else {
            List<TrialRecord> best = ranking.subList(0, Math.min(BEST_ROWS, ranking.size()));
            if (ranking.size() > best.size()) {
                h.append("<p>The ").append(best.size()).append(" best of ").append(ranking.size())
                        .append(" trials with a final value.</p>\n");
            }
            trialTable(h, best, true);
        }

        ParetoFront.of(r).ifPresent(front -> pareto(h, r, front));
        if (!r.objectives().isEmpty() && ParetoFront.of(r).isEmpty()) {
            h.append("<h2>Pareto front</h2>\n<p class=\"empty\">No trial has reported every objective yet.</p>\n");
        }

        List<Plots.Plot> plots = Plots.all(r);
        h.append("<h2>Plots</h2>\n");
        if (plots.isEmpty()) {
            h.append("<p class=\"empty\">Nothing to plot yet: no trial has a final value or an intermediate result.</p>\n");
        }
        boolean inGrid = false;
        for (Plots.Plot p : plots) {
            boolean small = p.id().startsWith("parameter-");
            if (small && !inGrid) {
                h.append("<h3>Parameters against the final value</h3>\n")
                        .append("<p>One plot per parameter; the red diamond is the best trial.</p>\n")
                        .append("<div class=\"grid\">\n");
                inGrid = true;
            }
            figure(h, p);
        }
        if (inGrid) {
            h.append("</div>\n");
        }

        importance(h, r);

        h.append("<details>\n<summary>All trials (").append(r.trials().size()).append(")</summary>\n");
        if (r.trials().isEmpty()) {
            h.append("<p class=\"empty\">No trials.</p>\n");
        } else {
            trialTable(h, r.trials(), false);
        }
        h.append("</details>\n</body>\n</html>\n");
        return h.toString();
    }

    /** The Pareto front: its hypervolume and reference point, a plot for two objectives, and its trials. */
    private static void pareto(StringBuilder h, ExperimentResults r, ParetoFront front) {
        h.append("<h2>Pareto front</h2>\n<p>").append(front.trials().size()).append(" of ").append(front.counted())
                .append(" trials with every objective (").append(esc(front.objectivesText()))
                .append(") are not dominated by another. Hypervolume ").append(esc(Values.number(front.hypervolume())))
                .append(", reference point ").append(esc(front.referenceText())).append(".</p>\n");
        Plots.paretoFront(r, front).ifPresent(p -> figure(h, p));
        List<String> names = Values.parameterNames(front.trials());
        h.append("<div class=\"scroll\">\n<table>\n<thead><tr><th class=\"num\">#</th><th>trial</th>");
        for (var o : front.objectives()) {
            h.append("<th class=\"num\">").append(esc(o.metric())).append("</th>");
        }
        for (String n : names) {
            h.append("<th>").append(esc(n)).append("</th>");
        }
        h.append("</tr></thead>\n<tbody>\n");
        for (int i = 0; i < front.trials().size(); i++) {
            TrialRecord t = front.trials().get(i);
            h.append("<tr><td class=\"num\">").append(i + 1).append("</td><td>").append(esc(t.trialJobId())).append("</td>");
            for (double v : front.values().get(i)) {
                h.append("<td class=\"num\">").append(esc(Values.number(v))).append("</td>");
            }
            for (String n : names) {
                Object v = t.parameters().get(n);
                h.append("<td>").append(v == null ? "" : esc(Values.compact(v))).append("</td>");
            }
            h.append("</tr>\n");
        }
        h.append("</tbody>\n</table>\n</div>\n");
    }

    private static void facts(StringBuilder h, ExperimentResults r, Clock clock) {
        h.append("<table class=\"facts\">\n");
        fact(h, "Status", r.status() == null ? "unknown" : r.status());
        fact(h, "Optimisation", r.maximize() ? "maximize (higher is better)" : "minimize (lower is better)");
        fact(h, "Trials", Values.countsSentence(r));
        fact(h, "Started", r.started() == null ? "unknown" : r.started().toString());
        fact(h, "Ended", r.ended() == null ? "not recorded" : r.ended().toString());
        fact(h, "Elapsed", Values.elapsed(r, clock).map(Values::duration).orElse("unknown"));
        Optional<TrialRecord> best = Values.ranking(r).stream().findFirst();
        fact(h, "Best value", best.map(t -> Values.number(t.finalValue()) + " (trial " + t.trialJobId()
                + ", sequence " + t.sequence() + ")").orElse("none yet"));
        h.append("</table>\n");
    }

    private static void fact(StringBuilder h, String name, String value) {
        h.append("<tr><th>").append(esc(name)).append("</th><td>").append(esc(value)).append("</td></tr>\n");
    }

    private static void bestParameters(StringBuilder h, TrialRecord best) {
        List<String[]> lines = Values.parameterLines(best.parameters());
        if (lines.isEmpty()) {
            h.append("<p class=\"empty\">The best trial has no parameters.</p>\n");
            return;
        }
        h.append("<table class=\"params\">\n<tbody>\n");
        for (String[] l : lines) {
            String name = l[0];
            int depth = (name.length() - name.stripLeading().length()) / 2;
            h.append("<tr><th style=\"padding-left:").append(0.7 + 1.5 * depth).append("em\">")
                    .append(esc(name.stripLeading())).append("</th><td>").append(esc(l[1])).append("</td></tr>\n");
        }
        h.append("</tbody>\n</table>\n");
    }

    /** Trials as a table: ranked (rank, no exit code or message) or all in order of sequence. */
    private static void trialTable(StringBuilder h, List<TrialRecord> trials, boolean ranked) {
        List<String> names = Values.parameterNames(trials);
        boolean gpus = trials.stream().anyMatch(t -> t.gpus() != null);
        h.append("<div class=\"scroll\">\n<table>\n<thead><tr>");
        h.append(ranked ? "<th class=\"num\">#</th>" : "<th class=\"num\">sequence</th>");
        h.append("<th>trial</th><th class=\"num\">value</th><th>status</th><th class=\"num\">duration</th>");
        if (!ranked) {
            h.append("<th class=\"num\">exit</th><th>message</th>");
        }
        if (gpus) {
            h.append("<th>GPUs</th>");
        }
        for (String n : names) {
            h.append("<th>").append(esc(n)).append("</th>");
        }
        h.append("</tr></thead>\n<tbody>\n");
        for (int i = 0; i < trials.size(); i++) {
            TrialRecord t = trials.get(i);
            h.append("<tr><td class=\"num\">").append(ranked ? i + 1 : t.sequence()).append("</td>");
            h.append("<td>").append(esc(t.trialJobId())).append("</td>");
            h.append("<td class=\"num\">").append(t.finalValue() == null ? "" : esc(Values.number(t.finalValue())))
                    .append("</td>");
            h.append("<td>").append(esc(t.status().name())).append("</td>");
            h.append("<td class=\"num\">").append(esc(Values.duration(t).map(Values::duration).orElse("")))
                    .append("</td>");
            if (!ranked) {
                h.append("<td class=\"num\">").append(t.exitCode() == null ? "" : t.exitCode()).append("</td>");
                h.append("<td class=\"message\">").append(t.message() == null ? "" : esc(t.message())).append("</td>");
            }
            if (gpus) {
                h.append("<td>").append(t.gpus() == null ? "" : t.gpus().isEmpty() ? "none"
                        : esc(String.join(",", t.gpus().stream().map(String::valueOf).toList()))).append("</td>");
            }
            Map<String, Object> p = t.parameters();
            for (String n : names) {
                Object v = p.get(n);
                h.append(v instanceof Number ? "<td class=\"num\">" : "<td>")
                        .append(v == null ? "" : esc(Values.compact(v))).append("</td>");
            }
            h.append("</tr>\n");
        }
        h.append("</tbody>\n</table>\n</div>\n");
    }

    private static void figure(StringBuilder h, Plots.Plot p) {
        h.append("<figure id=\"").append(esc(p.id())).append("\">\n<img src=\"data:image/png;base64,")
                .append(Base64.getEncoder().encodeToString(p.png())).append("\" width=\"").append(p.width())
                .append("\" height=\"").append(p.height()).append("\" alt=\"").append(esc(p.title()))
                .append("\">\n");
        if (!p.caption().isEmpty()) {
            h.append("<figcaption>").append(esc(p.caption())).append("</figcaption>\n");
        }
        h.append("</figure>\n");
    }

    /** The text with HTML's special characters as entities, safe in element content and quoted attributes. */
    static String esc(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> sb.append(c);
            }
        }
        return sb.toString();
    }
}
