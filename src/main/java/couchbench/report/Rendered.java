package couchbench.report;

import java.awt.Color;
import java.awt.geom.Rectangle2D;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler.LegendPosition;

/**
 * A chart as XChart drew it: the PNG, and from XChart's own layout of that drawing the height of the legend's box and
 * of the plot. Tests read the layout, and the drawn chart itself; pages use the PNG.
 *
 * @param png the PNG file's bytes
 * @param legendHeight the legend box's height in pixels, 0 when there is no legend
 * @param plotHeight the plot area's height in pixels
 * @param chart the chart XChart drew, for a test to look into
 */
record Rendered(byte[] png, double legendHeight, double plotHeight, Chart<?, ?> chart) {

  /**
   * Numbers on the axes and on the bars as a reader writes them: never in scientific notation (XChart writes 700000
   * as "7E5"), thousands grouped, no trailing zeros. A pattern, not a function: XChart draws a log axis as a linear
   * one once its labels come from a function.
   */
  static final String PLAIN_NUMBERS = "#,##0.#####";

  /** XChart keeps its layout to itself; a subclass sees the legend and the plot it laid out. */
  static final class Xy extends XYChart {
    Xy(int width, int height) {
      super(width, height);
      look(getStyler());
    }

    Rectangle2D legendBounds() {
      return legend.getBounds();
    }

    Rectangle2D plotBounds() {
      return plot.getBounds();
    }
  }

  /** The same for a bar chart. */
  static final class Category extends CategoryChart {
    Category(int width, int height) {
      super(width, height);
      look(getStyler());
    }

    Rectangle2D legendBounds() {
      return legend.getBounds();
    }

    Rectangle2D plotBounds() {
      return plot.getBounds();
    }
  }

  static {
    // Runs and tests have no display; AWT must be told before its first use, or rendering fails.
    if (System.getProperty("java.awt.headless") == null) {
      System.setProperty("java.awt.headless", "true");
    }
  }

  /** @return an XY chart to draw on, made after AWT was told it has no display */
  static Xy xy(int width, int height) {
    return new Xy(width, height);
  }

  /** @return a bar chart to draw on, made after AWT was told it has no display */
  static Category category(int width, int height) {
    return new Category(width, height);
  }

  /** Every chart's look: plain numbers on the y axis, the legend right of the plot, white, a light grid. */
  private static void look(AxesChartStyler styler) {
    styler.setYAxisDecimalPattern(PLAIN_NUMBERS);
    styler.setLegendPosition(LegendPosition.OutsideE);
    styler.setChartBackgroundColor(Color.WHITE);
    styler.setPlotGridLinesColor(new Color(0xE8E8E8));
  }

  /**
   * Draws the chart.
   *
   * @param title the chart's title, for an error's message
   */
  static Rendered draw(Xy chart, String title) {
    return drawn(encode(chart, title), chart.legendBounds(), chart.plotBounds(), chart);
  }

  /** The same for a bar chart. */
  static Rendered draw(Category chart, String title) {
    return drawn(encode(chart, title), chart.legendBounds(), chart.plotBounds(), chart);
  }

  private static Rendered drawn(byte[] png, Rectangle2D legend, Rectangle2D plot, Chart<?, ?> chart) {
    return new Rendered(png, chart.getStyler().isLegendVisible() ? legend.getHeight() : 0, plot.getHeight(), chart);
  }

  private static byte[] encode(Chart<?, ?> chart, String title) {
    try {
      return BitmapEncoder.getBitmapBytes(chart, BitmapFormat.PNG);
    } catch (IOException e) {
      throw new UncheckedIOException("rendering chart '" + title + "'", e);
    }
  }
}
