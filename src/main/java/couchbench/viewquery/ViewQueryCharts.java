package couchbench.viewquery;

import couchbench.report.Chart;
import couchbench.report.LineChart;
import couchbench.report.Subset;
import couchbench.rounds.Spread;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * ViewQuery's two charts: httperf's reply rate samples over the run, and how long the connections took. With several
 * rounds, the rate is each sample's median over the rounds with their range, and the connection times a line per
 * round.
 */
final class ViewQueryCharts {

  /** The most points drawn of the connection times: enough for the curve's shape at a chart's width. */
  private static final int MOST_POINTS = 200;

  private ViewQueryCharts() {}

  /**
   * @param tallies each round's finished load, round 1 first
   * @return replies per second in each of httperf's 5 s windows, at the window's end, seconds from the round's first
   *     start; with several rounds, each window's median over the rounds that reached it, with their range; empty
   *     when no round lasted a whole window, which would leave nothing to draw
   */
  static Optional<LineChart> replyRate(List<ConnFigures> tallies) {
    List<double[]> rounds = tallies.stream()
        .map(tally -> tally.replyRateOverTime(HttperfFigures.REPLY_RATE_WINDOW)).toList();
    int windows = rounds.stream().mapToInt(rates -> rates.length).max().orElse(0);
    if (windows == 0) {
      return Optional.empty();
    }
    List<Integer> ends = new ArrayList<>();
    List<Spread> values = new ArrayList<>();
    for (int i = 0; i < windows; i++) {
      int window = i;
      ends.add((i + 1) * HttperfFigures.REPLY_RATE_WINDOW);
      values.add(Spread.of(rounds.stream().filter(rates -> rates.length > window).map(rates -> rates[window])
          .toList()));
    }
    LineChart chart = LineChart.titled("reply rate, httperf's " + HttperfFigures.REPLY_RATE_WINDOW + " s samples"
            + (tallies.size() > 1 ? ", median of " + tallies.size() + " rounds (bars: their range)" : ""))
        .axes("end of the sample (s since the first connection)", "replies/s");
    return Optional.of(tallies.size() > 1 ? chart.spreadSeries("reply rate", ends, values)
        : chart.series("reply rate", ends, values.stream().map(Spread::median).toList()));
  }

  /**
   * @param tallies each round's finished load, round 1 first
   * @return the connection times' distribution: the share of connections that took at most each time; a line per
   *     round when there are several, drawn for at most 8 of them (the first 3, the middle one and the last 4), the
   *     others in the CSV only
   */
  static LineChart connectionTimes(List<ConnFigures> tallies) {
    List<Integer> drawn = Subset.lowestMedianHighest(IntStream.rangeClosed(1, tallies.size()).boxed().toList(),
        round -> round, Chart.MAX_SERIES).drawn();
    LineChart chart = LineChart.titled("connection times" + (drawn.size() < tallies.size() ? " (rounds "
            + drawn.stream().map(String::valueOf).collect(Collectors.joining(", ")) + " of " + tallies.size() + ")"
            : ""))
        .axes("connection time (ms)", "connections at most this long (%)");
    for (int round = 1; round <= tallies.size(); round++) {
      long[] sorted = tallies.get(round - 1).connectionMicros();
      List<Double> millis = new ArrayList<>();
      List<Double> percent = new ArrayList<>();
      int step = Math.max(1, sorted.length / MOST_POINTS);
      for (int i = step - 1; i < sorted.length; i += step) {
        millis.add(sorted[i] / 1e3);
        percent.add(100.0 * (i + 1) / sorted.length);
      }
      if (sorted.length > 0 && percent.get(percent.size() - 1) < 100) { // the slowest connection is always drawn
        millis.add(sorted[sorted.length - 1] / 1e3);
        percent.add(100.0);
      }
      String name = tallies.size() > 1 ? "round " + round : "connections";
      chart = drawn.contains(round) ? chart.series(name, millis, percent) : chart.csvOnlySeries(name, millis, percent);
    }
    return chart;
  }
}
