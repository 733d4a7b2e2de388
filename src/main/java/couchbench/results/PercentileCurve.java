package couchbench.results;

import couchbench.report.LineChart;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramIterationValue;

/**
 * Latency by percentile, drawn as HdrHistogram's plotter draws it: the x axis is 1/(1-p) on a log scale, so that
 * p90, p99, p99.9 are equally spaced and the tail gets room; the y axis is the latency in microseconds.
 *
 * @param xs 1/(1-p) at each point
 * @param micros the latency at each point
 */
record PercentileCurve(List<Double> xs, List<Double> micros) {

  /** Points per halving of the distance to 100%, as in HdrHistogram's percentile distribution output. */
  private static final int TICKS_PER_HALF_DISTANCE = 5;

  /**
   * @param nanos a histogram in nanoseconds
   * @return its curve, up to the last value below the 100th percentile and the maximum at 1/(1-p) = count
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
      double x = 1 / (1 - p);
      if (p >= 1 || x >= count) {
        break;
      }
      xs.add(x);
      micros.add(nanos.highestEquivalentValue(value.getValueIteratedTo()) / 1000.0);
    }
    xs.add(Math.max(count, 1.0001));
    micros.add(nanos.getMaxValue() / 1000.0);
    return new PercentileCurve(List.copyOf(xs), List.copyOf(micros));
  }

  /** @return an empty chart with the axes and tick labels of a percentile curve */
  static LineChart chart(String title) {
    return LineChart.titled(title).axes("percentile (log scale of 1/(1-p))", "latency (us)").logX()
        .xTickLabels(PercentileCurve::percentileLabel);
  }

  /** @return e.g. "99.9%" for x = 1000 */
  static String percentileLabel(double x) {
    double p = 100 * (1 - 1 / x);
    String text = String.format(Locale.ROOT, "%.4f", p).replaceAll("0+$", "").replaceAll("\\.$", "");
    return text + "%";
  }
}
