package couchbench.results;

import java.util.List;

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
}
