package couchbench.report;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A table of numbers for a summary page and its CSV file. Immutable: {@link #row} returns a new
 * table, so a table can be shared and extended without surprising anyone who holds it.
 * Cells are kept as formatted text, so the page and the CSV show exactly the same digits.
 */
public final class Table {

  private final List<String> columns;
  private final List<List<String>> rows;

  private Table(List<String> columns, List<List<String>> rows) {
    this.columns = columns;
    this.rows = rows;
  }

  /**
   * Starts an empty table.
   *
   * @param columns the column headings, at least one
   * @return a table with these columns and no rows
   */
  public static Table of(String... columns) {
    if (columns.length == 0) {
      throw new IllegalArgumentException("a table needs at least one column");
    }
    return new Table(List.of(Arrays.stream(columns).map(Table::format).toArray(String[]::new)), List.of());
  }

  /**
   * Adds a row; numbers are formatted for reading (see {@link #format}), null becomes empty.
   *
   * @param cells one value per column
   * @return a new table with the row appended; this one is unchanged
   */
  public Table row(Object... cells) {
    if (cells.length != columns.size()) {
      throw new IllegalArgumentException(
          "row has " + cells.length + " cells (expected: " + columns.size() + " for " + columns + ")");
    }
    List<List<String>> next = new ArrayList<>(rows);
    next.add(List.of(Arrays.stream(cells).map(Table::format).toArray(String[]::new)));
    return new Table(columns, List.copyOf(next));
  }

  /**
   * @param other a table of the same columns
   * @return a new table with this one's rows, then the other's
   * @throws IllegalArgumentException if the columns differ
   */
  public Table append(Table other) {
    if (!other.columns.equals(columns)) {
      throw new IllegalArgumentException("columns " + other.columns + " (expected: " + columns + ")");
    }
    List<List<String>> next = new ArrayList<>(rows);
    next.addAll(other.rows);
    return new Table(columns, List.copyOf(next));
  }

  /** @return the column headings */
  public List<String> columns() {
    return columns;
  }

  /** @return the rows, each with one formatted cell per column */
  public List<List<String>> rows() {
    return rows;
  }

  /** @return the table as CSV (RFC 4180 quoting), header first, each line ended by \n */
  public String toCsv() {
    StringBuilder csv = new StringBuilder();
    appendCsvLine(csv, columns);
    rows.forEach(row -> appendCsvLine(csv, row));
    return csv.toString();
  }

  /**
   * Reads back one line that {@link #toCsv} wrote.
   *
   * @param line a CSV line: a cell in double quotes may hold commas, and "" for a quote
   * @return its cells
   */
  public static List<String> csvCells(String line) {
    List<String> cells = new ArrayList<>();
    StringBuilder cell = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quoted && c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
        cell.append('"');
        i++;
      } else if (c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        cells.add(cell.toString());
        cell.setLength(0);
      } else {
        cell.append(c);
      }
    }
    cells.add(cell.toString());
    return cells;
  }

  private static void appendCsvLine(StringBuilder csv, List<String> cells) {
    for (int i = 0; i < cells.size(); i++) {
      if (i > 0) {
        csv.append(',');
      }
      String cell = cells.get(i);
      boolean quote = cell.indexOf(',') >= 0 || cell.indexOf('"') >= 0
          || cell.indexOf('\n') >= 0 || cell.indexOf('\r') >= 0;
      csv.append(quote ? '"' + cell.replace("\"", "\"\"") + '"' : cell);
    }
    csv.append('\n');
  }

  /**
   * Formats one cell. Integers print as they are. Doubles, floats and BigDecimals are rounded to
   * three significant digits, or to one decimal place once the integer part has three digits or
   * more (0.001234 is 0.00123, 12.3456 is 12.3, 1234.567 is 1234.6), without trailing zeros and
   * never in scientific notation, which readers and spreadsheets both stumble over.
   */
  static String format(Object value) {
    if (value == null) {
      return "";
    }
    if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      return Double.isFinite(d) ? format(new BigDecimal(Double.toString(d))) : Double.toString(d);
    }
    if (value instanceof BigDecimal decimal) {
      if (decimal.signum() == 0) {
        return "0";
      }
      int integerDigits = decimal.precision() - decimal.scale();
      BigDecimal rounded = integerDigits >= 3
          ? decimal.setScale(1, RoundingMode.HALF_UP)
          : decimal.round(new MathContext(3, RoundingMode.HALF_UP));
      return rounded.stripTrailingZeros().toPlainString();
    }
    return value.toString();
  }
}
