package couchbench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.rounds.Spread;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.internal.chartpart.Axis;
import org.knowm.xchart.style.AxesChartStyler;

/**
 * What a reader sees of a chart, read from XChart's own layout of the drawing: a legend no taller than the plot with
 * as many series as a chart draws, and axes numbered in plain numbers.
 */
class ChartLayoutTest {

  /** Legend entries as long as the longest a page draws, e.g. "group memcache record multi-get read round 12". */
  private static final String LONG_NAME = "group memcache record multi-get read round 12 ";

  @Test
  void shouldKeepTheLegendOfTheMostSeriesALineChartDrawsWithinThePlot() {
    LineChart chart = LineChart.titled("latency by percentile, OK requests").axes("percentile", "latency (ms)");
    for (int i = 0; i < Chart.MAX_SERIES; i++) {
      chart = chart.spreadSeries(LONG_NAME + i, List.of(1, 2, 3), Collections.nCopies(3, new Spread(5, 1, 9, 3)));
    }

    Rendered drawn = chart.rendered(Block.CHART_WIDTH, Block.CHART_HEIGHT);

    assertTrue(drawn.legendHeight() > 0, "a legend is drawn");
    assertTrue(drawn.legendHeight() <= drawn.plotHeight(),
        "legend " + drawn.legendHeight() + " px high, plot " + drawn.plotHeight() + " px");
  }

  @Test
  void shouldKeepTheLegendOfTheMostSeriesABarChartDrawsWithinThePlot() {
    BarChart chart = BarChart.titled("transactions per second", List.of("write", "read")).axes("operation", "tx/s");
    for (int i = 0; i < Chart.MAX_SERIES; i++) {
      chart = chart.series(LONG_NAME + i, List.of(100 + i, 200 + i));
    }

    Rendered drawn = chart.rendered(Block.CHART_WIDTH, Block.CHART_HEIGHT);

    assertTrue(drawn.legendHeight() > 0, "a legend is drawn");
    assertTrue(drawn.legendHeight() <= drawn.plotHeight(),
        "legend " + drawn.legendHeight() + " px high, plot " + drawn.plotHeight() + " px");
  }

  @Test
  void shouldRefuseOneSeriesMoreThanAReaderTellsApartButKeepAnyNumberInTheCsv() {
    LineChart line = LineChart.titled("t");
    BarChart bars = BarChart.titled("t", List.of("a"));
    for (int i = 0; i < Chart.MAX_SERIES; i++) {
      line = line.series("s" + i, List.of(1), List.of(i));
      bars = bars.series("s" + i, List.of(i));
    }
    LineChart fullLine = line;
    BarChart fullBars = bars;

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> fullLine.series("one more", List.of(1), List.of(1)));
    assertTrue(e.getMessage().contains("one more"), e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> fullBars.series("one more", List.of(1)));
    LineChart withRest = fullLine.csvOnlySeries("one more", List.of(1), List.of(1))
        .csvOnlySeries("and another", List.of(2), List.of(2));
    assertEquals(Chart.MAX_SERIES + 3, withRest.data().toCsv().split("\n").length, "every series in the CSV");
    withRest.png(300, 200);
  }

  @Test
  void shouldNumberTheAxesInPlainNumbersLinearOrLog() throws Exception {
    LineChart micros = LineChart.titled("latency").axes("x", "latency (us)")
        .series("a", List.of(1, 2, 3), List.of(70_000.0, 700_000.0, 1_100_000.0));
    LineChart log = LineChart.titled("upload").axes("bytes", "s").logX().logY()
        .series("raw", List.of(10, 10_000_000), List.of(0.0004, 3.0));
    BarChart bars = BarChart.titled("rates", List.of("write", "read")).axes("operation", "tx/s").logY()
        .series("memcache", List.of(500_000, 1_200_000)).series("CouchDB", List.of(90, 300));

    List<String> linear = yTickLabels(micros.rendered(900, 500));
    List<String> logY = yTickLabels(log.rendered(900, 500));
    List<String> barY = yTickLabels(bars.rendered(900, 500));

    for (List<String> labels : List.of(linear, logY, barY)) {
      assertFalse(labels.isEmpty());
      assertTrue(labels.stream().noneMatch(label -> label.contains("E")), "no scientific notation: " + labels);
    }
    assertTrue(linear.contains("700,000") || linear.contains("600,000"), linear.toString());
    assertTrue(logY.contains("0.001") && logY.contains("1"), "a log axis stays one, in decades: " + logY);
    assertTrue(barY.contains("1,000,000") && barY.contains("100"), "a log axis stays one, in decades: " + barY);
  }

  @Test
  void shouldLabelBarsToThreeSignificantDigitsOfTheSmallest() {
    assertEquals("#,##0", BarChart.labelPattern(206.68997), "17245.87706 reads 17,246 beside 207");
    assertEquals("#,##0.###", BarChart.labelPattern(0.33013), "0.33013 reads 0.33");
    BarChart rates = BarChart.titled("rates", List.of("write", "read")).series("memcache", List.of(17245.87706, 206.69));

    AxesChartStyler styler = (AxesChartStyler) rates.rendered(900, 500).chart().getStyler();
    assertEquals("#,##0", styler.getYAxisDecimalPattern(), "the labels' pattern, as XChart drew them");
  }

  /** The labels XChart drew along the y axis; it keeps its axes to its own package. */
  private static List<String> yTickLabels(Rendered drawn) throws Exception {
    Method yAxis = org.knowm.xchart.internal.chartpart.Chart.class.getDeclaredMethod("getYAxis");
    yAxis.setAccessible(true);
    Axis<?, ?> axis = (Axis<?, ?>) yAxis.invoke(drawn.chart());
    return new ArrayList<>(axis.getAxisTickCalculator().getTickLabels()).stream().filter(l -> l != null && !l.isBlank()).toList();
  }
}
