package couchbench.results;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The servers' own figures, read once a second during the load: named columns, each with its unit in brackets
 * ("couchdb httpd requests (/s)", "memcached cpu (% of a core)"), and one sample a second; a value that could not be
 * read (a server that did not answer in time, a figure it does not report) is NaN, a gap in its line.
 *
 * @param columns the figures, in order
 * @param samples the samples, in time order
 * @param notes what was not read and why, one line each, for the page
 */
public record ServerSeries(List<String> columns, List<Sample> samples, List<String> notes) {

  /** No sampling: -DsampleServers=false, or a run whose servers are all elsewhere and silent. */
  public static final ServerSeries NONE = new ServerSeries(List.of(), List.of(), List.of());

  /**
   * One reading of every column.
   *
   * @param epochMillis when it was taken
   * @param values one per column, NaN where it could not be read
   */
  public record Sample(long epochMillis, double[] values) {}

  public ServerSeries {
    columns = List.copyOf(columns);
    samples = List.copyOf(samples);
    notes = List.copyOf(notes);
  }

  /**
   * @param column a column's name
   * @return its unit, the text in its last brackets: "/s", "% of a core", "MB"; "" when it has none
   */
  public static String unit(String column) {
    int open = column.lastIndexOf(" (");
    return open < 0 || !column.endsWith(")") ? "" : column.substring(open + 2, column.length() - 1);
  }

  /**
   * @param epochMillis when a sample was taken, on the run's clock
   * @param loadStartMillis the load's start on the run's clock
   * @return the second into the load its figures are of: taken just after a whole second, its rates are of the second
   *     before, its gauges at that second's end
   */
  public static long loadSecond(long epochMillis, long loadStartMillis) {
    return Math.floorDiv(epochMillis - 500, 1000) - Math.floorDiv(loadStartMillis, 1000);
  }

  /**
   * @param column a column's name
   * @param loadStartMillis the load's start on the run's clock
   * @return its values by second into the load ({@link #loadSecond}), the seconds it could not be read left out; none
   *     for a column it does not have
   */
  public Map<Long, Double> bySecond(String column, long loadStartMillis) {
    int index = columns.indexOf(column);
    Map<Long, Double> values = new LinkedHashMap<>();
    for (Sample sample : samples) {
      if (index >= 0 && index < sample.values().length && !Double.isNaN(sample.values()[index])) {
        values.put(loadSecond(sample.epochMillis(), loadStartMillis), sample.values()[index]);
      }
    }
    return values;
  }
}
