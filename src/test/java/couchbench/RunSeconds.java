package couchbench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A run's seconds.csv, read back: each column's values by second, NaN where a cell is empty. */
public record RunSeconds(Map<String, List<Double>> columns) {

  /**
   * @param runFolder a run folder holding seconds.csv
   * @return its columns
   */
  public static RunSeconds of(Path runFolder) throws IOException {
    List<String> lines = Files.readAllLines(runFolder.resolve("seconds.csv"));
    List<String> names = Arrays.asList(lines.get(0).split(",", -1));
    Map<String, List<Double>> columns = new LinkedHashMap<>();
    names.forEach(name -> columns.put(name, new ArrayList<>()));
    for (String line : lines.subList(1, lines.size())) {
      String[] cells = line.split(",", -1);
      for (int i = 0; i < names.size(); i++) {
        columns.get(names.get(i)).add(cells[i].isEmpty() ? Double.NaN : Double.parseDouble(cells[i]));
      }
    }
    return new RunSeconds(columns);
  }

  /**
   * @param name a column, e.g. "requests (/s)"
   * @return its values, one a second
   * @throws AssertionError when there is no such column, naming those there are
   */
  public List<Double> column(String name) {
    List<Double> values = columns.get(name);
    if (values == null) {
      throw new AssertionError("no column '" + name + "' in seconds.csv, only " + columns.keySet());
    }
    return values;
  }
}
