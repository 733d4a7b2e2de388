package couchbench.results;

import couchbench.report.LineChart;
import couchbench.report.SummaryPage;
import couchbench.report.Table;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The run second by second on one time axis, seconds into the load: the requests and failures a second, the OK
 * requests' p50, p99 and max in each second, then the servers' own figures (one chart per unit), so that a dip in
 * the load lines up with what the servers did then. The same numbers go to {@link #FILE}, one row a second.
 */
final class SecondsPage {

  /** The file beside results.json that holds the run's seconds. */
  static final String FILE = "seconds.csv";

  /** The most lines a chart of the servers draws; the others are in its CSV only. */
  private static final int MOST_LINES = 7;

  private static final String X = "seconds into the load";

  /** What the servers' charts are of, by the unit of their figures. */
  private static final Map<String, String> UNITS = Map.of("/s", "operations a second", "bytes/s", "bytes a second",
      "% of a core", "CPU in % of a core", "MB", "memory in MB", "queued", "Erlang processes and messages queued",
      "open", "connections open");

  private SecondsPage() {}

  /**
   * The run's seconds as numbers, one row a second from the load's start: the load's columns, then the servers'; NaN
   * where a second has no such figure. The table and the charts are both made from them.
   *
   * @param columns the columns' names, "second" first
   * @param rows one row a second
   */
  record Seconds(List<String> columns, List<double[]> rows) {

    /** @return the rows as {@link #FILE} holds them, an empty cell for NaN */
    Table table() {
      Table table = Table.of(columns.toArray(String[]::new));
      for (double[] row : rows) {
        table = table.row(Arrays.stream(row).mapToObj(value -> Double.isNaN(value) ? null
            : value == Math.rint(value) ? (Object) (long) value : value).toArray());
      }
      return table;
    }
  }

  /**
   * @param load the load's seconds
   * @param servers the servers' samples
   * @param loadStartMillis the load's start, epoch milliseconds: second 0 is the wall clock's second it started in,
   *     second 1 the next whole second, and so on
   * @return one row a second, from the load's start to its last second or sample
   */
  static Seconds of(LoadSeconds load, ServerSeries servers, long loadStartMillis) {
    List<String> columns = new ArrayList<>(List.of("second", "requests (/s)", "failed (/s)", "p50 (ms)", "p99 (ms)",
        "max (ms)"));
    columns.addAll(servers.columns());
    long first = Math.floorDiv(loadStartMillis, 1000);
    Map<Long, LoadSeconds.Second> byLoadSecond = new LinkedHashMap<>();
    load.seconds().forEach(second -> byLoadSecond.put(second.epochSecond() - first, second));
    // A sample is taken just after a whole second: its rates are of the second before, its gauges at that second's end.
    Map<Long, ServerSeries.Sample> samples = new LinkedHashMap<>();
    servers.samples().forEach(sample -> samples.put(Math.floorDiv(sample.epochMillis() - 500, 1000) - first,
        sample));
    long last = Math.max(byLoadSecond.keySet().stream().mapToLong(Long::longValue).max().orElse(-1),
        samples.keySet().stream().mapToLong(Long::longValue).max().orElse(-1));
    List<double[]> rows = new ArrayList<>();
    for (long second = 0; second <= last; second++) {
      double[] row = new double[columns.size()];
      Arrays.fill(row, Double.NaN);
      row[0] = second;
      row[1] = 0;
      row[2] = 0;
      LoadSeconds.Second loaded = byLoadSecond.get(second);
      if (loaded != null) {
        row[1] = loaded.ok() + loaded.ko();
        row[2] = loaded.ko();
        if (loaded.okTimes().getTotalCount() > 0) {
          row[3] = millis(loaded.okTimes().getValueAtPercentile(50));
          row[4] = millis(loaded.okTimes().getValueAtPercentile(99));
          row[5] = millis(loaded.okTimes().getMaxValue());
        }
      }
      ServerSeries.Sample sample = samples.get(second);
      if (sample != null) {
        for (int column = 0; column < servers.columns().size(); column++) {
          double value = sample.values()[column];
          row[6 + column] = Double.isNaN(value) ? value : Math.round(value * 100) / 100.0;
        }
      }
      rows.add(row);
    }
    return new Seconds(columns, rows);
  }

  /**
   * Adds the charts of the run's seconds to the page, all on one time axis.
   *
   * @param page the page
   * @param seconds the run's seconds, {@link #of}
   * @param notes what the servers' sampling could not read, one line each
   * @param spans stretches of the run shaded on every chart, e.g. background tasks
   * @param loadStartMillis the load's start, epoch milliseconds, as given to {@link #of}
   * @return the page with a line, the charts and a link to {@link #FILE}
   */
  static SummaryPage addTo(SummaryPage page, Seconds seconds, List<String> notes, List<RunOutput.Span> spans,
      long loadStartMillis) {
    if (seconds.rows().isEmpty()) {
      return page;
    }
    double end = Math.max(1, seconds.rows().size() - 1);
    page = page.line("The run second by second (" + FILE + "): the requests that ended in each second and their"
        + " times, then the servers' own figures read once a second by couchbench (its reads are not in the load's"
        + " requests; a server's own request counter counts them). A gap in a line is a second without that figure."
        + (spans.isEmpty() ? "" : " Shaded: when each background task ran, from its start to its end."));
    for (String note : notes) {
      page = page.line("Servers second by second: " + note + ".");
    }
    // A second's row holds what ended within it, drawn at its start: a span is placed on the same scale.
    long second0 = Math.floorDiv(loadStartMillis, 1000);
    Function<String, LineChart> onTheAxis = title -> {
      LineChart chart = LineChart.titled(title).xRange(0, end);
      for (RunOutput.Span span : spans) {
        chart = chart.band(span.label(), span.fromMillis() / 1000.0 - second0, span.toMillis() / 1000.0 - second0);
      }
      return chart;
    };
    page = page.chart("requests a second", lines(onTheAxis.apply("requests a second"), seconds, "requests (/s)",
        List.of("requests (/s)", "failed (/s)")));
    page = page.chart("latency second by second", lines(onTheAxis.apply("OK requests' latency in each second"),
        seconds, "ms", List.of("p50 (ms)", "p99 (ms)", "max (ms)")));
    Map<String, List<String>> byUnit = new LinkedHashMap<>();
    for (String column : seconds.columns().subList(6, seconds.columns().size())) {
      byUnit.computeIfAbsent(ServerSeries.unit(column), any -> new ArrayList<>()).add(column);
    }
    for (Map.Entry<String, List<String>> unit : byUnit.entrySet()) {
      String title = "the servers, " + UNITS.getOrDefault(unit.getKey(), unit.getKey());
      page = page.chart(title, lines(onTheAxis.apply(title), seconds, unit.getKey(), unit.getValue()));
    }
    return page.link("the run second by second, " + FILE, FILE);
  }

  // The columns' lines on a chart of the run's time axis.
  private static LineChart lines(LineChart onTheAxis, Seconds seconds, String unit, List<String> columns) {
    LineChart chart = onTheAxis.axes(X, unit);
    List<Double> xs = seconds.rows().stream().map(row -> row[0]).toList();
    for (int drawn = 0; drawn < columns.size(); drawn++) {
      int column = seconds.columns().indexOf(columns.get(drawn));
      List<Double> ys = seconds.rows().stream().map(row -> row[column]).toList();
      String name = columns.get(drawn).replace(" (" + unit + ")", "");
      chart = drawn < MOST_LINES ? chart.series(name, xs, ys) : chart.csvOnlySeries(name, xs, ys);
    }
    return chart;
  }

  private static double millis(long nanos) {
    return Math.round(nanos / 1e4) / 100.0;
  }
}
