package couchbench.history;

import couchbench.report.Chart;
import couchbench.report.LineChart;
import couchbench.report.SummaryPage;
import couchbench.report.Table;
import couchbench.results.Results;
import couchbench.results.RunFolders;
import couchbench.rounds.Spread;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Every run kept, on one page: reports/history/history.html (its charts beside it), a row per run, then per simulation
 * and parameter set the headline figures across its runs, each run's spread where it had rounds. Runs with other
 * parameters are another set, never one series with these.
 *
 * <p>{@code mvn -q exec:java@history}, or {@code java couchbench.history.History [results root]}.
 */
public final class History {

  /** The folder under the results root that holds the page. */
  public static final String FOLDER = "history";

  /** The page's name. */
  public static final String PAGE = "history.html";

  private History() {}

  /** A simulation's runs of one parameter set. */
  private record Series(String simulation, int set, Map<String, String> parameters, Map<Path, Results> runs) {}

  /** @param args optionally the results root; reports/ (or -Dcouchbench.reports) by default */
  public static void main(String[] args) {
    Path root = args.length > 0 && args[0] != null && !args[0].isBlank() ? Path.of(args[0])
        : RunFolders.resultsRoot();
    try {
      System.out.println("history: " + write(root).toAbsolutePath());
    } catch (UncheckedIOException e) {
      System.err.println("history: " + e.getMessage() + (e.getCause() == null ? "" : " (" + e.getCause().getMessage()
          + ")") + ": give -Dcouchbench.reports a readable results folder");
      System.exit(1);
    }
  }

  /**
   * @param root the results root
   * @return the page written
   */
  public static Path write(Path root) {
    RunHistory history = RunHistory.read(root);
    return page(root, history).writeTo(root.resolve(FOLDER), PAGE);
  }

  static SummaryPage page(Path root, RunHistory history) {
    List<Series> series = series(history);
    SummaryPage page = SummaryPage.titled("History: " + history.runs().size() + " runs under " + root)
        .line("Each run's results.json, oldest first. Runs of one simulation with the same parameters are one"
            + " parameter set, drawn as one series; another set is drawn apart and named by what differs. With rounds,"
            + " a figure is the median of the run's rounds, its bar the range.");
    for (String leftOut : history.leftOut()) {
      page = page.warning("Left out: " + leftOut + ".");
    }
    Table runs = Table.of("run", "simulation", "start", "parameter set", "parameters that differ from set 1",
        "targets", "couchbench");
    for (Series each : series) {
      Map<String, String> first = series.stream().filter(s -> s.simulation().equals(each.simulation())).findFirst()
          .orElseThrow().parameters();
      String differ = String.join("; ", LoadParameters.differences(first, each.parameters()));
      for (Map.Entry<Path, Results> kept : each.runs().entrySet()) {
        Results run = kept.getValue();
        runs = runs.row(kept.getKey().getFileName().toString(), each.simulation(), run.run().start(), each.set(),
            differ.isEmpty() ? "" : differ, String.join("; ", run.run().targets()), run.run().versions().couchbench());
      }
    }
    page = page.table("the runs", runs);
    for (Series each : series) {
      String set = each.simulation() + ", parameter set " + each.set();
      page = page.charts(set + ", throughput", charts(each, List.of(Figure.THROUGHPUT)), each.runs().size() + " runs")
          .charts(set + ", latency", charts(each, List.of(Figure.P50, Figure.P99, Figure.P999)),
              each.runs().size() + " runs");
    }
    return page;
  }

  // Each simulation's runs by parameter set, the sets numbered in the order their first run started.
  private static List<Series> series(RunHistory history) {
    Map<String, Series> bySet = new LinkedHashMap<>();
    Map<String, Integer> setsOfSimulation = new TreeMap<>();
    for (Map.Entry<Path, Results> kept : history.runs().entrySet()) {
      Results run = kept.getValue();
      Map<String, String> parameters = LoadParameters.of(run.run().parameters());
      String key = run.run().simulation() + " " + parameters;
      Series series = bySet.computeIfAbsent(key, any -> new Series(run.run().simulation(),
          setsOfSimulation.merge(run.run().simulation(), 1, Integer::sum), parameters, new LinkedHashMap<>()));
      series.runs().put(kept.getKey(), run);
    }
    return List.copyOf(bySet.values());
  }

  // Each figure across the set's runs, a line per request (at most a chart's worth drawn, the rest in its CSV).
  private static List<Chart> charts(Series series, List<Figure> figures) {
    List<RunFigures> runs = series.runs().values().stream().map(RunFigures::of).toList();
    List<Chart> charts = new ArrayList<>();
    for (Figure figure : figures) {
      LineChart chart = LineChart.titled(figure.label() + " across runs").axes("run of the set", figure.unit());
      Map<String, List<Integer>> xs = new LinkedHashMap<>();
      Map<String, List<Spread>> ys = new LinkedHashMap<>();
      for (int i = 0; i < runs.size(); i++) {
        RunFigures run = runs.get(i);
        for (String request : run.requests()) {
          xs.computeIfAbsent(request, any -> new ArrayList<>()).add(i + 1);
          ys.computeIfAbsent(request, any -> new ArrayList<>()).add(run.spread(request, figure));
        }
      }
      int drawn = 0;
      for (String request : xs.keySet()) {
        chart = drawn++ < Chart.MAX_SERIES ? chart.spreadSeries(request, xs.get(request), ys.get(request))
            : chart.csvOnlySeries(request, xs.get(request), ys.get(request).stream().map(Spread::median).toList());
      }
      charts.add(chart);
    }
    return charts;
  }
}
