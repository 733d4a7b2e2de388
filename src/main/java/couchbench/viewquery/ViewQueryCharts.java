package couchbench.viewquery;

import couchbench.report.LineChart;
import java.util.ArrayList;
import java.util.List;

/** ViewQuery's two charts: httperf's reply rate samples over the run, and how long the connections took. */
final class ViewQueryCharts {

  /** The most points drawn of the connection times: enough for the curve's shape at a chart's width. */
  private static final int MOST_POINTS = 200;

  private ViewQueryCharts() {}

  /**
   * @param tally the finished load's tally
   * @return replies per second in each of httperf's 5 s windows, at the window's end, seconds from the first start
   */
  static LineChart replyRate(ConnTally tally) {
    double[] rates = tally.replyRateOverTime(HttperfFigures.REPLY_RATE_WINDOW);
    List<Integer> ends = new ArrayList<>();
    List<Double> values = new ArrayList<>();
    for (int i = 0; i < rates.length; i++) {
      ends.add((i + 1) * HttperfFigures.REPLY_RATE_WINDOW);
      values.add(rates[i]);
    }
    return LineChart.titled("reply rate, httperf's " + HttperfFigures.REPLY_RATE_WINDOW + " s samples")
        .axes("end of the sample (s since the first connection)", "replies/s")
        .series("reply rate", ends, values);
  }

  /**
   * @param tally the finished load's tally
   * @return the connection times' distribution: the share of connections that took at most each time
   */
  static LineChart connectionTimes(ConnTally tally) {
    long[] sorted = tally.connectionTimes().sorted();
    List<Double> millis = new ArrayList<>();
    List<Double> percent = new ArrayList<>();
    int step = Math.max(1, sorted.length / MOST_POINTS);
    for (int i = step - 1; i < sorted.length; i += step) {
      millis.add(sorted[i] / 1e6);
      percent.add(100.0 * (i + 1) / sorted.length);
    }
    if (sorted.length > 0 && percent.get(percent.size() - 1) < 100) { // the slowest connection is always drawn
      millis.add(sorted[sorted.length - 1] / 1e6);
      percent.add(100.0);
    }
    return LineChart.titled("connection times")
        .axes("connection time (ms)", "connections at most this long (%)")
        .series("connections", millis, percent);
  }
}
