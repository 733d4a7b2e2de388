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
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Every run kept, on one page: reports/history/history.html (its charts beside it), a row per run, then per simulation
 * and parameter set its headline figure ({@link Headlines}) and its requests' latencies across its runs, each run's
 * spread where it had rounds. Runs with other parameters of the load ({@link LoadParameters}) are another set, never
 * one series with these.
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
    SummaryPage page = SummaryPage.titled("History: " + runs(history.runs().size()) + " under " + root)
        .line("Each run's results.json, oldest first. Runs of one simulation with the same parameters of the load are"
            + " one parameter set, drawn as one series; another set is drawn apart and named by what differs."
            + " Parameters that say where a run's files go or how it is judged (" + String.join(", ",
            LoadParameters.NOT_THE_LOAD.keySet()) + ") do not make another set. Each set shows its simulation's"
            + " headline figure, then its requests' latencies. With rounds, a figure is the median of the run's"
            + " rounds, its bar the range.");
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
      List<Headline> drawn = Headlines.of(each.simulation()).stream()
          .filter(headline -> each.runs().values().stream().anyMatch(run -> !headline.read(run).isEmpty()))
          .toList();
      if (drawn.isEmpty()) {
        if (Headlines.BY_SIMULATION.containsKey(each.simulation())) {
          page = page.warning(set + ": no run holds its headline figure (" + Headlines.of(each.simulation()).stream()
              .map(Headline::title).collect(Collectors.joining("; ")) + "): its requests' rates are drawn instead.");
        }
        drawn = List.of(Headlines.REQUESTS_A_SECOND);
      }
      for (Headline headline : drawn) {
        page = page.charts(set + ", " + headline.title(), charts(each, headline),
            runs(each.runs().size()) + "; " + headline.source() + ".");
      }
      page = page.charts(set + ", latency of each request", latencies(each), runs(each.runs().size())
          + "; each measured request's p50, p99 and p99.9 in results.json.");
    }
    return page;
  }

  // "1 run", "2 runs"
  private static String runs(int count) {
    return count + (count == 1 ? " run" : " runs");
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

  // The headline across the set's runs: a chart per group of series (at most a chart's worth drawn, the rest in its
  // CSV), a latency in ms where a value passes 1 ms, else in µs.
  private static List<Chart> charts(Series series, Headline headline) {
    List<List<Headline.Reading>> runs = series.runs().values().stream().map(headline::read).toList();
    double scale = headline.latency() ? micros(runs.stream().flatMap(List::stream).map(Headline.Reading::value)) : 1;
    String unit = !headline.latency() ? headline.unit() : scale == 1 ? "µs" : "ms";
    Map<String, Map<String, List<Integer>>> xs = new LinkedHashMap<>();
    Map<String, Map<String, List<Spread>>> ys = new LinkedHashMap<>();
    for (int i = 0; i < runs.size(); i++) {
      for (Headline.Reading reading : runs.get(i)) {
        xs.computeIfAbsent(reading.chart(), any -> new LinkedHashMap<>())
            .computeIfAbsent(reading.series(), any -> new ArrayList<>()).add(i + 1);
        ys.computeIfAbsent(reading.chart(), any -> new LinkedHashMap<>())
            .computeIfAbsent(reading.series(), any -> new ArrayList<>()).add(divided(reading.value(), scale));
      }
    }
    List<Chart> charts = new ArrayList<>();
    xs.forEach((name, seriesXs) -> charts.add(chart(headline.title() + " across runs" + (name.isEmpty() ? ""
        : " (" + name + ")"), unit, seriesXs, ys.get(name))));
    return charts;
  }

  // The requests' p50, p99 and p99.9 across the set's runs, a line per request, in one unit.
  private static List<Chart> latencies(Series series) {
    List<Figure> figures = List.of(Figure.P50, Figure.P99, Figure.P999);
    List<RunFigures> runs = series.runs().values().stream().map(RunFigures::of).toList();
    double scale = micros(runs.stream().flatMap(run -> run.requests().stream()
        .flatMap(request -> figures.stream().map(figure -> run.spread(request, figure)))));
    List<Chart> charts = new ArrayList<>();
    for (Figure figure : figures) {
      Map<String, List<Integer>> xs = new LinkedHashMap<>();
      Map<String, List<Spread>> ys = new LinkedHashMap<>();
      for (int i = 0; i < runs.size(); i++) {
        RunFigures run = runs.get(i);
        for (String request : run.requests()) {
          xs.computeIfAbsent(request, any -> new ArrayList<>()).add(i + 1);
          ys.computeIfAbsent(request, any -> new ArrayList<>()).add(divided(run.spread(request, figure), scale));
        }
      }
      charts.add(chart(figure.label() + " across runs", scale == 1 ? "µs" : "ms", xs, ys));
    }
    return charts;
  }

  private static LineChart chart(String title, String unit, Map<String, List<Integer>> xs,
      Map<String, List<Spread>> ys) {
    LineChart chart = LineChart.titled(title).axes("run of the set", unit);
    int drawn = 0;
    for (String name : xs.keySet()) {
      chart = drawn++ < Chart.MAX_SERIES ? chart.spreadSeries(name, xs.get(name), ys.get(name))
          : chart.csvOnlySeries(name, xs.get(name), ys.get(name).stream().map(Spread::median).toList());
    }
    return chart;
  }

  // What latencies in microseconds are divided by to be drawn: 1000 (ms) where one passes 1 ms, else 1 (µs).
  private static double micros(Stream<Spread> latencies) {
    return latencies.anyMatch(latency -> latency.max() >= 1000) ? 1000 : 1;
  }

  private static Spread divided(Spread spread, double by) {
    return new Spread(spread.median() / by, spread.min() / by, spread.max() / by, spread.rounds());
  }
}
