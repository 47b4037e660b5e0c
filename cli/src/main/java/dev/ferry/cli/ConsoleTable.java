package dev.ferry.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * A plain-text table for the console: each column as wide as its widest cell, text columns
 * aligned left and number columns right, two spaces between columns, a dashed rule under the
 * header. Cells are rendered by the caller, so the table never guesses a number format.
 */
final class ConsoleTable {
  enum Align { LEFT, RIGHT }

  private final List<String> headers = new ArrayList<>();
  private final List<Align> aligns = new ArrayList<>();
  private final List<List<String>> rows = new ArrayList<>();

  /** Adds a column; columns are added before any row. */
  ConsoleTable column(String header, Align align) {
    if (!rows.isEmpty()) {
      throw new IllegalStateException("columns come before rows");
    }
    headers.add(header);
    aligns.add(align);
    return this;
  }

  /** Adds a row with one cell per column. */
  ConsoleTable row(String... cells) {
    if (cells.length != headers.size()) {
      throw new IllegalArgumentException(
          "a row has " + cells.length + " cells, the table " + headers.size() + " columns");
    }
    rows.add(List.of(cells));
    return this;
  }

  int rowCount() {
    return rows.size();
  }

  void print(PrintWriter out) {
    int[] widths = widths();
    out.println(line(headers, widths));
    List<String> rules = new ArrayList<>();
    for (int width : widths) {
      rules.add("-".repeat(width));
    }
    out.println(line(rules, widths));
    for (List<String> row : rows) {
      out.println(line(row, widths));
    }
    out.flush();
  }

  private int[] widths() {
    int[] widths = new int[headers.size()];
    for (int c = 0; c < widths.length; c++) {
      widths[c] = headers.get(c).length();
      for (List<String> row : rows) {
        widths[c] = Math.max(widths[c], row.get(c).length());
      }
    }
    return widths;
  }

  private String line(List<String> cells, int[] widths) {
    StringBuilder s = new StringBuilder();
    for (int c = 0; c < widths.length; c++) {
      String cell = cells.get(c);
      String pad = " ".repeat(widths[c] - cell.length());
      s.append(c == 0 ? "" : "  ");
      s.append(aligns.get(c) == Align.RIGHT ? pad + cell : cell + pad);
    }
    return s.toString().stripTrailing();
  }
}
