package couchbench.curve;

import couchbench.report.LineChart;
import couchbench.report.SummaryPage;
import couchbench.report.Table;
import couchbench.results.Histograms;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * A staircase on the page: the highest rate that met the goal, first; each step's rates and latencies in a table; and
 * the curve, latency against the rate achieved, one point per step, every system on one chart.
 */
public final class CurvePage {

  /** Systems drawn in one chart: four lines each. */
  private static final int SYSTEMS_PER_CHART = 2;

  private CurvePage() {}

  /**
   * @param page the simulation's page
   * @param staircase the staircase in words ({@link CurvePlan#describe})
   * @param steps each system's steps, by system, in the order they ran
   * @param highest each system's highest rate that met the goal, null for none
   * @return the page with the highest rates at its top, then the table and the chart added
   */
  public static SummaryPage addTo(SummaryPage page, String staircase, Map<String, List<StepFigures>> steps,
      Map<String, Double> highest) {
    List<String> highestLines = new ArrayList<>();
    highest.forEach((system, rate) -> highestLines.add(system + ": " + (rate == null
        ? "no step was met (90% of its rate or more, nothing failed, within the latency goal when one is given)"
        : String.format(Locale.ROOT, "%,.0f operations/s is the highest rate asked that was met (90%% of it or more,"
            + " nothing failed, within the latency goal when one is given)", rate))
        + "; " + staircase + "."));
    Table table = Table.of("system", "step", "asked (/s)", "achieved (/s)", "ok", "failed", "started late",
        "intended p50 (ms)",
        "intended p99 (ms)", "intended p99.9 (ms)", "actual p50 (ms)", "actual p99 (ms)", "actual p99.9 (ms)",
        "at the goal's percentile (ms)", "met");
    // One chart per SYSTEMS_PER_CHART systems (small multiples): each draws four lines, and a chart draws
    // Chart.MAX_SERIES.
    List<String> systems = List.copyOf(steps.keySet());
    List<LineChart> charts = new ArrayList<>();
    for (int first = 0; first < systems.size(); first += SYSTEMS_PER_CHART) {
      List<String> drawn = systems.subList(first, Math.min(systems.size(), first + SYSTEMS_PER_CHART));
      // Both axes logarithmic: the systems compared may differ a hundredfold in rate and in latency.
      LineChart chart = LineChart.titled("latency against the rate achieved, one point per step"
          + (systems.size() > SYSTEMS_PER_CHART ? ": " + String.join(", ", drawn) : ""))
          .axes("operations a second achieved", "ms").logX().logY();
      for (String system : drawn) {
        chart = curve(chart, system, steps.get(system));
      }
      charts.add(chart);
    }
    for (Map.Entry<String, List<StepFigures>> system : steps.entrySet()) {
      int number = 0;
      for (StepFigures step : system.getValue()) {
        Histogram intended = Histograms.decode(step.intendedMicros());
        Histogram actual = Histograms.decode(step.actualMicros());
        table = table.row(system.getKey(), ++number, step.target(), step.achieved(), step.ok(), step.failed(),
            step.late(),
            millis(intended, 50), millis(intended, 99), millis(intended, 99.9), millis(actual, 50),
            millis(actual, 99), millis(actual, 99.9), step.atGoalMicros() == null ? null : step.atGoalMicros() / 1000,
            step.met() ? "yes" : "no");
      }
    }
    return page.linesFirst(highestLines)
        .line("The staircase: " + staircase + ". Each step ran the same load at its rate asked, spread over the"
            + " threads; its settling seconds are not measured. A step's rate achieved counts the operations that ended"
            + " in its measured seconds; its latencies are theirs, from the intended start (queueing included) and"
            + " from the actual one. A step meets the goal when it achieved 90% of its rate or more, nothing failed,"
            + " and its latency at the goal's percentile is within the limit. A rate the threads cannot offer (a"
            + " thread runs one operation at a time: threads / latency) is missed for that reason: give more threads."
            + " Operations that started more than 2 ms after their intended start are counted: where the server kept"
            + " up, that is the load generator's own lag (a busy machine, a pause's resolution), and the intended"
            + " latencies include it.")
        .table("the staircase, step by step", table)
        .charts("latency against throughput", charts, charts.size() == 1 ? "" : "a chart for each "
            + SYSTEMS_PER_CHART + " systems, four lines each");
  }

  // A system's four lines, its steps sorted by the rate achieved: a search runs its steps out of order.
  private static LineChart curve(LineChart chart, String system, List<StepFigures> steps) {
    List<Double> achieved = new ArrayList<>();
    List<List<Double>> lines = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    for (StepFigures step : steps) {
      Histogram intended = Histograms.decode(step.intendedMicros());
      Histogram actual = Histograms.decode(step.actualMicros());
      if (intended.getTotalCount() > 0) {
        achieved.add(step.achieved());
        lines.get(0).add(plotted(intended, 50));
        lines.get(1).add(plotted(intended, 99));
        lines.get(2).add(plotted(intended, 99.9));
        lines.get(3).add(plotted(actual, 99));
      }
    }
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < achieved.size(); i++) {
      order.add(i);
    }
    order.sort((a, b) -> Double.compare(achieved.get(a), achieved.get(b)));
    List<String> names = List.of("p50", "p99", "p99.9", "p99 from the actual start");
    LineChart drawn = chart;
    for (int line = 0; line < names.size(); line++) {
      List<Double> ys = lines.get(line);
      drawn = drawn.series(system + " " + names.get(line), order.stream().map(achieved::get).toList(),
          order.stream().map(ys::get).toList());
    }
    return drawn;
  }

  // Unrounded, and above 0 for the logarithmic axis: a microsecond at least.
  private static double plotted(Histogram micros, double percentile) {
    return Math.max(1, micros.getValueAtPercentile(percentile)) / 1000.0;
  }

  private static double millis(Histogram micros, double percentile) {
    return micros.getTotalCount() == 0 ? 0 : Math.round(micros.getValueAtPercentile(percentile) / 10.0) / 100.0;
  }
}
