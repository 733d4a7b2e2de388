package couchbench.report;

import couchbench.rounds.Spread;
import java.awt.Color;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.knowm.xchart.CategorySeries.CategorySeriesRenderStyle;
import org.knowm.xchart.style.CategoryStyler;

/**
 * A bar chart of categories (operations, ways of reading a record), rendered to PNG with XChart: for each category a
 * group of bars, one per series, each labelled with its value in plain numbers. A series has a value or none for each
 * category; a category without value has no bar. Immutable: every method returns a new chart. At most
 * {@link Chart#MAX_SERIES} series.
 */
public final class BarChart implements Chart {

  /** One named series: a value per category, null where it has none; with rounds, each value's range. */
  record Series(String name, List<Double> values, List<Double> lows, List<Double> highs) {

    boolean ranged() {
      return !lows.isEmpty();
    }
  }

  private final String title;
  private final String xLabel;
  private final String yLabel;
  private final boolean logY;
  private final boolean overlapped;
  private final List<String> categories;
  private final List<Series> series;

  private BarChart(String title, String xLabel, String yLabel, boolean logY, boolean overlapped,
      List<String> categories, List<Series> series) {
    this.title = title;
    this.xLabel = xLabel;
    this.yLabel = yLabel;
    this.logY = logY;
    this.overlapped = overlapped;
    this.categories = categories;
    this.series = series;
  }

  /**
   * Starts a chart with no series.
   *
   * @param title the title drawn above the plot
   * @param categories the categories along the x axis, in order, each named under its group of bars
   * @return a new chart
   */
  public static BarChart titled(String title, List<String> categories) {
    if (categories.isEmpty()) {
      throw new IllegalArgumentException("bar chart '" + title + "' needs at least one category");
    }
    return new BarChart(title, "", "", false, false, List.copyOf(categories), List.of());
  }

  /**
   * Labels the axes.
   *
   * @param xLabel what the categories are
   * @param yLabel the value, with its unit
   * @return a new chart with these labels
   */
  public BarChart axes(String xLabel, String yLabel) {
    return new BarChart(title, xLabel, yLabel, logY, overlapped, categories, series);
  }

  /** @return a new chart whose y axis is logarithmic, for values orders of magnitude apart (each must be positive) */
  public BarChart logY() {
    return new BarChart(title, xLabel, yLabel, true, overlapped, categories, series);
  }

  /**
   * Draws every series' bars in the same place of its category, full width, and no legend: for series that each have
   * a value in one category only, which names them.
   *
   * @return a new chart so drawn
   */
  public BarChart oneBarPerCategory() {
    return new BarChart(title, xLabel, yLabel, logY, true, categories, series);
  }

  /**
   * Adds a series.
   *
   * @param name the legend entry, unique within the chart
   * @param values one value per category, null for none
   * @return a new chart with the series added
   * @throws IllegalArgumentException if there is not one value per category, the name is taken, or the chart has
   *     {@link Chart#MAX_SERIES} series already
   */
  public BarChart series(String name, List<? extends Number> values) {
    check(name, values.size());
    List<Double> doubles = new ArrayList<>();
    values.forEach(value -> doubles.add(value == null ? null : value.doubleValue()));
    return with(new Series(name, doubles, List.of(), List.of()));
  }

  /**
   * Adds a series of the medians of several rounds, each with the range of its rounds in the CSV; the bar is the
   * median.
   *
   * @param name the legend entry, unique within the chart
   * @param values one spread per category, null for none
   * @return a new chart with the series added
   * @throws IllegalArgumentException as {@link #series}
   */
  public BarChart spreadSeries(String name, List<Spread> values) {
    check(name, values.size());
    List<Double> medians = new ArrayList<>();
    List<Double> lows = new ArrayList<>();
    List<Double> highs = new ArrayList<>();
    for (Spread spread : values) {
      medians.add(spread == null ? null : spread.median());
      lows.add(spread == null ? null : spread.min());
      highs.add(spread == null ? null : spread.max());
    }
    return with(new Series(name, medians, lows, highs));
  }

  private void check(String name, int values) {
    if (values != categories.size()) {
      throw new IllegalArgumentException("series '" + name + "': " + values + " values for " + categories.size()
          + " categories " + categories);
    }
    Chart.checkNewSeries(title, name, series.stream().map(Series::name).toList(), series.size());
  }

  private BarChart with(Series added) {
    List<Series> next = new ArrayList<>(series);
    next.add(added);
    return new BarChart(title, xLabel, yLabel, logY, overlapped, categories, List.copyOf(next));
  }

  /**
   * @throws IllegalStateException if the log axis would have to show a value that is not positive
   */
  @Override
  public byte[] png(int width, int height) {
    return rendered(width, height).png();
  }

  /** Draws the chart, keeping XChart's layout of it. */
  Rendered rendered(int width, int height) {
    Rendered.Category chart = Rendered.category(width, height);
    chart.setTitle(title);
    chart.setXAxisTitle(xLabel);
    chart.setYAxisTitle(yLabel);
    CategoryStyler styler = chart.getStyler();
    styler.setDefaultSeriesRenderStyle(CategorySeriesRenderStyle.Bar);
    styler.setPlotGridVerticalLinesVisible(false);
    styler.setYAxisLogarithmic(logY);
    styler.setOverlapped(overlapped);
    styler.setLabelsVisible(true);
    styler.setLabelsPosition(1); // above the bar's top
    styler.setLabelsFontColorAutomaticEnabled(false);
    styler.setLabelsFontColor(Color.DARK_GRAY);
    List<Series> drawn = series.stream().filter(s -> s.values().stream().anyMatch(Objects::nonNull)).toList();
    styler.setLegendVisible(!overlapped && !drawn.isEmpty());
    if (drawn.isEmpty()) {
      // XChart draws no axes without a series: one of no bars keeps the categories on the page.
      chart.addSeries(" ", categories, categories.stream().map(c -> Double.NaN).toList());
    }
    // The bars' labels are written as the axis's numbers: to 3 significant digits of the smallest value, so that
    // 17245.87706 reads "17,246" beside "207", and 0.33013 ms reads "0.33".
    drawn.stream().flatMap(s -> s.values().stream()).filter(v -> v != null && v > 0).mapToDouble(v -> v).min()
        .ifPresent(min -> styler.setYAxisDecimalPattern(labelPattern(min)));
    if (logY) {
      // XChart starts bars at 0, which a log axis has not: they start at the power of 10 below the smallest value.
      // With no value, from 1 to 10.
      double min = drawn.stream().flatMap(s -> s.values().stream()).filter(v -> v != null && v > 0)
          .mapToDouble(v -> v).min().orElse(1);
      styler.setYAxisMin(Math.pow(10, Math.floor(Math.log10(min))));
      if (drawn.isEmpty()) {
        styler.setYAxisMax(10.0);
      }
    }
    for (Series s : drawn) {
      if (logY && s.values().stream().anyMatch(v -> v != null && !(v > 0))) {
        throw new IllegalStateException("chart '" + title + "', series '" + s.name()
            + "': a logarithmic y axis needs positive values, got " + s.values());
      }
      // XChart takes a missing value for 0, which a log axis refuses; NaN draws no bar on either axis.
      chart.addSeries(s.name(), categories, s.values().stream().map(v -> v == null ? Double.NaN : v).toList());
    }
    return Rendered.draw(chart, title);
  }

  /** @return a plain number pattern with the decimals that give the smallest value 3 significant digits */
  static String labelPattern(double smallest) {
    int decimals = Math.max(0, 2 - (int) Math.floor(Math.log10(smallest)));
    return decimals == 0 ? "#,##0" : "#,##0." + "#".repeat(decimals);
  }

  /**
   * @return one row per bar: the series, its category, the value; with the smallest and largest round of each when a
   *     series has ranges
   */
  @Override
  public Table data() {
    String x = xLabel.isEmpty() ? "category" : xLabel;
    String y = yLabel.isEmpty() ? "value" : yLabel;
    boolean ranged = series.stream().anyMatch(Series::ranged);
    Table data = ranged ? Table.of("series", x, y, "smallest round", "largest round") : Table.of("series", x, y);
    for (Series s : series) {
      for (int i = 0; i < categories.size(); i++) {
        Double value = s.values().get(i);
        if (value == null) {
          continue;
        }
        data = ranged
            ? data.row(s.name(), categories.get(i), value, s.ranged() ? s.lows().get(i) : null,
                s.ranged() ? s.highs().get(i) : null)
            : data.row(s.name(), categories.get(i), value);
      }
    }
    return data;
  }
}
