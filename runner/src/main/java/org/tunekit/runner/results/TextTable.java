package org.tunekit.runner.results;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** A plain-text table whose lines fit a width: wide columns cut with an ellipsis, trailing columns dropped last. */
final class TextTable {
    /** Narrowest a shrinkable column gets: room for 4 characters and the ellipsis. */
    static final int MIN_WIDTH = 5;
    private static final String GAP = "  ";

    /**
     * A column.
     *
     * @param header     its heading
     * @param right      true to align its cells to the right (numbers)
     * @param shrinkable true when its cells may be cut to fit; false keeps its natural width
     * @param droppable  true when it may be left out entirely when even cut columns do not fit (it and every
     *                   column after it must then be droppable)
     */
    record Column(String header, boolean right, boolean shrinkable, boolean droppable) {
    }

    private TextTable() {
    }

    /**
     * The table as lines (no line separators): the headings, a rule of dashes, one line per row. Lines fit the
     * width unless the columns that cannot shrink or be dropped are wider; when columns are dropped a last line
     * says how many. Cells are made one line; trailing spaces are removed.
     */
    static List<String> render(List<Column> columns, List<List<String>> rows, int width) {
        List<List<String>> cells = rows.stream()
                .map(row -> row.stream().map(c -> Values.oneLine(c == null ? "" : c)).toList()).toList();
        int n = columns.size();
        int[] natural = new int[n];
        for (int i = 0; i < n; i++) {
            natural[i] = Values.width(Values.oneLine(columns.get(i).header()));
            for (List<String> row : cells) {
                natural[i] = Math.max(natural[i], Values.width(row.get(i)));
            }
        }
        int keep = n;
        while (keep > 0 && columns.get(keep - 1).droppable() && minimumTotal(columns, natural, keep) > width) {
            keep--;
        }
        int[] widths = Arrays.copyOf(natural, keep);
        int total = total(widths);
        while (total > width) {
            int widest = -1;
            for (int i = 0; i < keep; i++) {
                if (columns.get(i).shrinkable() && widths[i] > MIN_WIDTH && (widest < 0 || widths[i] > widths[widest])) {
                    widest = i;
                }
            }
            if (widest < 0) {
                break;
            }
            widths[widest]--;
            total--;
        }
        List<String> lines = new ArrayList<>(rows.size() + 3);
        lines.add(line(columns, columns.stream().map(Column::header).map(Values::oneLine).toList(), widths));
        StringBuilder rule = new StringBuilder();
        for (int i = 0; i < keep; i++) {
            rule.append(i == 0 ? "" : GAP).append("-".repeat(widths[i]));
        }
        lines.add(rule.toString());
        for (List<String> row : cells) {
            lines.add(line(columns, row, widths));
        }
        if (keep < n) {
            int dropped = n - keep;
            lines.add(Values.truncate("(" + dropped + " more column" + (dropped == 1 ? "" : "s") + " not shown: "
                    + String.join(", ", columns.subList(keep, n).stream().map(Column::header).toList()) + ")",
                    Math.max(width, 1)));
        }
        return lines;
    }

    private static int minimumTotal(List<Column> columns, int[] natural, int keep) {
        int sum = 0;
        for (int i = 0; i < keep; i++) {
            sum += columns.get(i).shrinkable() ? Math.min(natural[i], MIN_WIDTH) : natural[i];
        }
        return sum + GAP.length() * Math.max(0, keep - 1);
    }

    private static int total(int[] widths) {
        int sum = 0;
        for (int w : widths) {
            sum += w;
        }
        return sum + GAP.length() * Math.max(0, widths.length - 1);
    }

    private static String line(List<Column> columns, List<String> cells, int[] widths) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < widths.length; i++) {
            String cell = Values.truncate(cells.get(i), widths[i]);
            String pad = " ".repeat(widths[i] - Values.width(cell));
            sb.append(i == 0 ? "" : GAP);
            if (columns.get(i).right()) {
                sb.append(pad).append(cell);
            } else {
                sb.append(cell).append(pad);
            }
        }
        return sb.toString().stripTrailing();
    }
}
