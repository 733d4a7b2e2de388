package couchbench.trend;

import couchbench.report.Table;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The columns of a run's seconds.csv as numbers, NaN where a second has no value; the "second" column is x. */
final class SecondsColumns {

  private SecondsColumns() {}

  /**
   * @param csv a seconds.csv, as couchbench writes it (a header, then a row a second; names quoted when they hold a
   *     comma)
   * @return each column by its name, in the file's order
   * @throws IOException when it cannot be read
   */
  static Map<String, double[]> read(Path csv) throws IOException {
    List<String> lines = Files.readAllLines(csv);
    Map<String, double[]> columns = new LinkedHashMap<>();
    if (lines.isEmpty()) {
      return columns;
    }
    List<String> names = Table.csvCells(lines.get(0));
    int rows = lines.size() - 1;
    for (String name : names) {
      columns.put(name, new double[rows]);
    }
    for (int row = 0; row < rows; row++) {
      List<String> cells = Table.csvCells(lines.get(row + 1));
      for (int column = 0; column < names.size(); column++) {
        String cell = column < cells.size() ? cells.get(column) : "";
        columns.get(names.get(column))[row] = cell.isEmpty() ? Double.NaN : Double.parseDouble(cell);
      }
    }
    return columns;
  }
}
