package couchbench.report;

import couchbench.rounds.Spread;
import java.awt.BasicStroke;
import java.awt.Color;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.XYSeries.XYSeriesRenderStyle;
import org.knowm.xchart.style.XYStyler;
import org.knowm.xchart.style.lines.SeriesLines;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * A line chart (one line per series, a marker on every point) rendered to PNG with XChart, its axes labelled in plain
 * numbers. Immutable: every method returns a new chart, so a half-built chart can be reused as a template. At most
 * {@link Chart#MAX_SERIES} series.
 */
public final class LineChart implements Chart {

  /**
   * One named line; the values are copied to doubles once, when the series is added. Lows and highs, when there are
   * any (one of each per point), are the range drawn around each point as a vertical bar.
   */
  record Series(String name, List<Double> xs, List<Double> ys, List<Double> lows, List<Double> highs,
      boolean drawn) {

    boolean ranged() {
      return !lows.isEmpty();
    }
  }

  private final String title;
  private final String xLabel;
  private final String yLabel;
  private final boolean logX;
  private final boolean logY;
  private final Function<Double, String> xTickLabel;
  private final List<String> categories;
  private final List<Series> series;
  private final double[] xRange;
  private final List<ShadedBand.Band> bands;

  private LineChart(String title, String xLabel, String yLabel, boolean logX, boolean logY,
      Function<Double, String> xTickLabel, List<String> categories, List<Series> series, double[] xRange,
      List<ShadedBand.Band> bands) {
    this.title = title;
    this.xLabel = xLabel;
    this.yLabel = yLabel;
    this.logX = logX;
    this.logY = logY;
    this.xTickLabel = xTickLabel;
    this.categories = categories;
    this.series = series;
    this.xRange = xRange;
    this.bands = bands;
  }

  /**
   * Starts a chart with no series and unlabelled linear axes.
   *
   * @param title the title drawn above the plot
   * @return a new chart
   */
  public static LineChart titled(String title) {
    return new LineChart(title, "", "", false, false, null, List.of(), List.of(), null, List.of());
  }

  /**
   * Labels the axes.
   *
   * @param xLabel the horizontal axis label, with its unit
   * @param yLabel the vertical axis label, with its unit
   * @return a new chart with these labels
   */
  public LineChart axes(String xLabel, String yLabel) {
    return new LineChart(title, xLabel, yLabel, logX, logY, xTickLabel, categories, series, xRange, bands);
  }

  /**
   * Fixes the x axis' span, so that charts drawn one under the other share their time axis.
   *
   * @param min its left end
   * @param max its right end, above min
   * @return a new chart spanning that
   */
  public LineChart xRange(double min, double max) {
    return new LineChart(title, xLabel, yLabel, logX, logY, xTickLabel, categories, series, new double[] {min, max},
        bands);
  }

  /** @return a new chart whose x axis is logarithmic (every x must then be positive) */
  public LineChart logX() {
    return new LineChart(title, xLabel, yLabel, true, logY, xTickLabel, categories, series, xRange, bands);
  }

  /** @return a new chart whose y axis is logarithmic (every y must then be positive) */
  public LineChart logY() {
    return new LineChart(title, xLabel, yLabel, logX, true, xTickLabel, categories, series, xRange, bands);
  }

  /**
   * @param label the text of the x axis tick at a value, e.g. a percentile for 1/(1-p)
   * @return a new chart whose x ticks are labelled so
   */
  public LineChart xTickLabels(Function<Double, String> label) {
    return new LineChart(title, xLabel, yLabel, logX, logY, label, categories, series, xRange, bands);
  }

  /**
   * Makes the x axis one of categories, e.g. operations: the first at x = 1, the next at 2, and so on, the axis title
   * saying which is which, the axis spanning all of them whatever the points. Ticks keep their numbers: XChart's own
   * tick labels for names loop forever on an axis of one point, and vanish where two ticks would share a name.
   *
   * @param names the categories, in order
   * @return a new chart with a categorical x axis
   */
  public LineChart xCategories(List<String> names) {
    return new LineChart(title, xLabel, yLabel, logX, logY, xTickLabel, List.copyOf(names), series, xRange, bands);
  }

  /**
   * Adds a line.
   *
   * @param name the legend entry, unique within the chart
   * @param xs the x values
   * @param ys the y values, as many as xs
   * @return a new chart with the series added
   * @throws IllegalArgumentException if the sizes differ, a value is null, the name is taken, or the chart has
   *     {@link Chart#MAX_SERIES} series already
   */
  public LineChart series(String name, List<? extends Number> xs, List<? extends Number> ys) {
    checkSizes(name, xs, ys.size(), true);
    return with(new Series(name, doubles(name, xs), doubles(name, ys), List.of(), List.of(), true));
  }

  /**
   * Adds a series to the numbers behind the chart only, not to its picture: one of many the chart leaves out, so that
   * the CSV has them all. No limit on their number.
   *
   * @param name the series' name in the CSV, unique within the chart
   * @param xs the x values
   * @param ys the y values, as many as xs
   * @return a new chart with the series in its data
   * @throws IllegalArgumentException if the sizes differ, a value is null, or the name is taken
   */
  public LineChart csvOnlySeries(String name, List<? extends Number> xs, List<? extends Number> ys) {
    checkSizes(name, xs, ys.size(), false);
    return with(new Series(name, doubles(name, xs), doubles(name, ys), List.of(), List.of(), false));
  }

  /**
   * Adds a line through the medians of several rounds, each point with a bar from its smallest to its largest round.
   *
   * @param name the legend entry, unique within the chart
   * @param xs the x values
   * @param ys one spread per x value
   * @return a new chart with the series added
   * @throws IllegalArgumentException if the sizes differ, a value is null, the name is taken, or the chart has
   *     {@link Chart#MAX_SERIES} series already
   */
  public LineChart spreadSeries(String name, List<? extends Number> xs, List<Spread> ys) {
    checkSizes(name, xs, ys.size(), true);
    if (ys.stream().anyMatch(Objects::isNull)) {
      throw new IllegalArgumentException("series '" + name + "': null value in " + ys);
    }
    return with(new Series(name, doubles(name, xs), ys.stream().map(Spread::median).toList(),
        ys.stream().map(Spread::min).toList(), ys.stream().map(Spread::max).toList(), true));
  }

  /**
   * Shades a stretch of the x axis over the plot's height, its label at the top: when something ran (a background
   * task), under the lines it may explain. Not a series: in neither the legend nor {@link #data()}.
   *
   * @param label the text at its top, e.g. "1 compact"
   * @param from its left end, in x
   * @param to its right end, in x, not below from
   * @return a new chart with the band added
   * @throws IllegalArgumentException if to is below from
   */
  public LineChart band(String label, double from, double to) {
    List<ShadedBand.Band> next = new ArrayList<>(bands);
    next.add(new ShadedBand.Band(label, from, to));
    return new LineChart(title, xLabel, yLabel, logX, logY, xTickLabel, categories, series, xRange,
        List.copyOf(next));
  }

  private void checkSizes(String name, List<? extends Number> xs, int ys, boolean drawn) {
    if (xs.size() != ys) {
      throw new IllegalArgumentException("series '" + name + "': " + xs.size() + " x values but " + ys + " y values");
    }
    Chart.checkNewSeries(title, name, series.stream().map(Series::name).toList(),
        drawn ? series.stream().filter(Series::drawn).count() : -1);
  }

  private LineChart with(Series added) {
    List<Series> next = new ArrayList<>(series);
    next.add(added);
    return new LineChart(title, xLabel, yLabel, logX, logY, xTickLabel, categories, List.copyOf(next), xRange,
        bands);
  }

  /**
   * Renders the chart.
   *
   * @param width image width in pixels
   * @param height image height in pixels
   * @return the PNG file's bytes
   * @throws IllegalStateException if a log axis would have to show a value that is not positive
   */
  @Override
  public byte[] png(int width, int height) {
    return rendered(width, height).png();
  }

  /** Draws the chart, keeping XChart's layout of it. */
  Rendered rendered(int width, int height) {
    Rendered.Xy chart = Rendered.xy(width, height);
    chart.setTitle(title);
    chart.setXAxisTitle(xLabel);
    chart.setYAxisTitle(yLabel);
    XYStyler styler = chart.getStyler();
    styler.setDefaultSeriesRenderStyle(XYSeriesRenderStyle.Line);
    styler.setXAxisLogarithmic(logX);
    styler.setYAxisLogarithmic(logY);
    styler.setMarkerSize(8);
    // XChart draws a grid line at every minor tick of a log axis; dashed, they turn to noise.
    styler.setPlotGridLinesStroke(new BasicStroke(1f));
    // XChart refuses a series with no points; there is nothing to draw for it anyway.
    List<Series> drawn = series.stream().filter(s -> s.drawn() && !s.xs().isEmpty()).toList();
    styler.setLegendVisible(!drawn.isEmpty());
    if (xTickLabel != null && !drawn.isEmpty()) { // with no point, XChart's labelling of the ticks never ends
      styler.setxAxisTickLabelsFormattingFunction(xTickLabel);
    } else if (categories.isEmpty()) {
      styler.setXAxisDecimalPattern(Rendered.PLAIN_NUMBERS);
    }
    if (!categories.isEmpty()) {
      chart.setXAxisTitle(xLabel + " (" + numbered() + ")");
      styler.setXAxisMin(0.5);
      styler.setXAxisMax(categories.size() + 0.5);
      styler.setXAxisDecimalPattern("0");
      styler.setXAxisTickMarkSpacingHint(width / (categories.size() + 2)); // about a tick per category
    }
    if (xRange != null) {
      styler.setXAxisMin(xRange[0]);
      styler.setXAxisMax(xRange[1]);
    }
    styler.setErrorBarsColorSeriesColor(true);
    Color[] colors = styler.getSeriesColors();
    for (int i = 0; i < drawn.size(); i++) {
      Series s = drawn.get(i);
      checkPositive(s, s.xs(), logX, "x");
      checkPositive(s, s.ys(), logY, "y");
      checkPositive(s, s.lows(), logY, "y");
      // Colours fixed here, so that a line's range bars can wear the line's colour.
      Color color = colors[i % colors.length];
      XYSeries line = chart.addSeries(s.name(), s.xs(), s.ys());
      line.setLineColor(color);
      line.setMarkerColor(color);
      if (s.ranged()) {
        addRange(chart, s, color);
      }
    }
    bands.forEach(band -> chart.addAnnotation(new ShadedBand(band)));
    return Rendered.draw(chart, title);
  }

  /**
   * XChart's error bars are symmetric: a range from low to high is a bar of half its length either side of its middle,
   * on a series of its own that draws nothing else and has no legend entry.
   */
  private static void addRange(XYChart chart, Series s, Color color) {
    List<Double> middles = new ArrayList<>();
    List<Double> halves = new ArrayList<>();
    for (int i = 0; i < s.xs().size(); i++) {
      middles.add((s.lows().get(i) + s.highs().get(i)) / 2);
      halves.add((s.highs().get(i) - s.lows().get(i)) / 2);
    }
    XYSeries range = chart.addSeries(s.name() + " (range)", s.xs(), middles, halves);
    range.setShowInLegend(false);
    range.setMarker(SeriesMarkers.NONE);
    range.setLineStyle(SeriesLines.NONE);
    range.setLineColor(color);
  }

  /**
   * @return the numbers behind the chart, one row per point, for the CSV written beside it; a category by name; with
   *     the smallest and largest round of each point when a series has a range
   */
  @Override
  public Table data() {
    String x = xLabel.isEmpty() ? "x" : xLabel;
    String y = yLabel.isEmpty() ? "y" : yLabel;
    boolean ranged = series.stream().anyMatch(Series::ranged);
    Table data = ranged ? Table.of("series", x, y, "smallest round", "largest round") : Table.of("series", x, y);
    for (Series s : series) {
      for (int i = 0; i < s.xs().size(); i++) {
        double at = s.xs().get(i);
        Object xCell = categories.isEmpty() ? at : categories.get((int) Math.round(at) - 1);
        data = ranged
            ? data.row(s.name(), xCell, s.ys().get(i), s.ranged() ? s.lows().get(i) : null,
                s.ranged() ? s.highs().get(i) : null)
            : data.row(s.name(), xCell, s.ys().get(i));
      }
    }
    return data;
  }

  /** @return e.g. "1 write, 2 read" */
  private String numbered() {
    List<String> numbered = new ArrayList<>();
    for (int i = 0; i < categories.size(); i++) {
      numbered.add((i + 1) + " " + categories.get(i));
    }
    return String.join(", ", numbered);
  }

  // XChart's own message for this case names neither the chart nor the series.
  private void checkPositive(Series s, List<Double> values, boolean log, String axis) {
    if (log && values.stream().anyMatch(v -> !(v > 0))) {
      throw new IllegalStateException("chart '" + title + "', series '" + s.name()
          + "': a logarithmic " + axis + " axis needs positive values, got " + values);
    }
  }

  private static List<Double> doubles(String name, List<? extends Number> values) {
    if (values.stream().anyMatch(Objects::isNull)) {
      throw new IllegalArgumentException("series '" + name + "': null value in " + values);
    }
    return values.stream().map(Number::doubleValue).toList();
  }
}
