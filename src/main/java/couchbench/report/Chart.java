package couchbench.report;

/**
 * A chart for a summary page: a PNG drawn by XChart, and the numbers behind it for the CSV written beside it. At most
 * {@link #MAX_SERIES} series are drawn in one chart, since a reader cannot tell more apart by colour and marker; a
 * caller with more draws one chart per group of them (small multiples) or a chosen few, and says which.
 */
public sealed interface Chart permits LineChart, BarChart {

  /** The most series one chart draws; each chart refuses one more. */
  int MAX_SERIES = 8;

  /**
   * Renders the chart.
   *
   * @param width image width in pixels
   * @param height image height in pixels
   * @return the PNG file's bytes
   */
  byte[] png(int width, int height);

  /** @return the numbers behind the chart, one row per point, for the CSV written beside it */
  Table data();

  /**
   * Refuses a series whose name a chart has already, or one more than {@link #MAX_SERIES} drawn.
   *
   * @param title the chart's title, for the message
   * @param name the new series' name
   * @param names the names of the chart's series so far
   * @param drawn how many of them are drawn; -1 when the new series is not drawn (CSV only)
   */
  static void checkNewSeries(String title, String name, java.util.List<String> names, long drawn) {
    if (names.contains(name)) {
      throw new IllegalArgumentException("series '" + name + "' is already in chart '" + title + "'");
    }
    if (drawn == MAX_SERIES) {
      throw new IllegalArgumentException("chart '" + title + "' has " + MAX_SERIES + " series already, as many as a"
          + " reader tells apart: series '" + name + "' goes into another chart, or only into the CSV");
    }
  }
}
