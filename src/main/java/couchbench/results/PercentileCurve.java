package couchbench.results;

import couchbench.report.LineChart;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * Latency by percentile, drawn as HdrHistogram's plotter draws it: the x axis is log10(1/(1-p)), so that p90, p99,
 * p99.9 are equally spaced (at 1, 2, 3) and the tail gets room; the y axis is the latency in milliseconds, or in
 * microseconds where every value is below 1 ms. The x values are the logarithms themselves on a linear axis, since
 * XChart's log axis labels its ticks by position.
 *
 * @param xs log10(1/(1-p)) at each point
 * @param micros the latency at each point
 */
public record PercentileCurve(List<Double> xs, List<Double> micros) {

  /** Points per halving of the distance to 100%, as in HdrHistogram's percentile distribution output. */
  private static final int TICKS_PER_HALF_DISTANCE = 5;

  /**
   * @param nanos a histogram in nanoseconds
   * @return its curve, up to the last value below the 100th percentile, and the maximum where 1/(1-p) = count
   */
  static PercentileCurve of(Histogram nanos) {
    List<Double> xs = new ArrayList<>();
    List<Double> micros = new ArrayList<>();
    long count = nanos.getTotalCount();
    if (count == 0) {
      return new PercentileCurve(List.of(), List.of());
    }
    for (HistogramIterationValue value : nanos.percentiles(TICKS_PER_HALF_DISTANCE)) {
      double p = value.getPercentileLevelIteratedTo() / 100;
      if (p >= 1 || 1 / (1 - p) >= count) {
        break;
      }
      xs.add(Math.log10(1 / (1 - p)));
      micros.add(nanos.highestEquivalentValue(value.getValueIteratedTo()) / 1000.0);
    }
    xs.add(Math.log10(Math.max(count, 2)));
    micros.add(nanos.getMaxValue() / 1000.0);
    return new PercentileCurve(List.copyOf(xs), List.copyOf(micros));
  }

  /**
   * A chart of several histograms' curves, in the unit their largest value needs.
   *
   * @param title the chart's title
   * @param nanosByName each curve's histogram in nanoseconds, by its name in the legend, at most
   *     {@link couchbench.report.Chart#MAX_SERIES}; an empty histogram draws no curve
   * @return the chart
   */
  public static LineChart chartOf(String title, Map<String, Histogram> nanosByName) {
    Map<String, PercentileCurve> curves = new LinkedHashMap<>();
    nanosByName.forEach((name, nanos) -> {
      if (nanos.getTotalCount() > 0) {
        curves.put(name, of(nanos));
      }
    });
    String unit = unit(curves.values().stream().mapToDouble(PercentileCurve::maxMicros).max().orElse(0));
    LineChart chart = chart(title, unit);
    for (Map.Entry<String, PercentileCurve> curve : curves.entrySet()) {
      chart = chart.series(curve.getKey(), curve.getValue().xs(), curve.getValue().in(unit));
    }
    return chart;
  }

  /** Ranked by this figure, the fastest first, when a chart draws a few of many curves. */
  static final String RANKED_BY = "p99";

  /** @return the latency at the 99th percentile, in microseconds, for ranking the curves */
  static double p99Micros(Histogram nanos) {
    return nanos.getValueAtPercentile(99) / 1000.0;
  }

  /** @return the largest latency on the curve, in microseconds; 0 when it has no point */
  double maxMicros() {
    return micros.stream().mapToDouble(Double::doubleValue).max().orElse(0);
  }

  /**
   * @param maxMicros the largest value the chart shows, in microseconds
   * @return "ms", or "µs" when every value is below 1 ms
   */
  static String unit(double maxMicros) {
    return maxMicros < 1000 ? "µs" : "ms";
  }

  /** @return the latencies in the unit, "ms" or "µs" */
  List<Double> in(String unit) {
    return unit.equals("ms") ? micros.stream().map(us -> us / 1000).toList() : micros;
  }

  /**
   * @param unit "ms" or "µs", from {@link #unit}
   * @return an empty chart with the axes and tick labels of a percentile curve
   */
  static LineChart chart(String title, String unit) {
    return LineChart.titled(title).axes("percentile, as log10(1/(1-p)): 1 = p90, 2 = p99, 3 = p99.9",
            "latency (" + unit + ")")
        .xTickLabels(PercentileCurve::percentileLabel);
  }

  /**
   * @return e.g. "99.9%" for x = 3; a blank between whole numbers, where the percentile is not a round one (XChart
   *     cannot draw an empty label)
   */
  static String percentileLabel(double x) {
    if (Math.abs(x - Math.rint(x)) > 1e-9 || x < 0) {
      return " ";
    }
    // 100 - 10^(2 - x): 0, 90, 99, 99.9, ...
    BigDecimal p = BigDecimal.valueOf(100).subtract(BigDecimal.ONE.movePointRight(2 - (int) Math.rint(x)));
    return p.stripTrailingZeros().toPlainString() + "%";
  }
}
