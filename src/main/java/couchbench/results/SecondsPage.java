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
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;

/**
 * The run second by second on one time axis, seconds into the load: the requests and failures a second, the OK
 * requests' p50, p99 and max in each second (and the p99 of each whole minute, on its last second's row), the same
 * for each other kind of entry the run had apart ({@link SeriesKind}: notifications, lags, verdicts), the load's own
 * figures ({@link LoadColumn}: CacheAside's hit ratio, which its own page draws), then the servers' own figures (one
 * chart per unit), so that a dip in the load lines up with what the servers did then. The same numbers go to
 * {@link #FILE}, one row a second.
 */
final class SecondsPage {

  /** The file beside results.json that holds the run's seconds. */
  static final String FILE = "seconds.csv";

  /** The most lines a chart of the servers draws; the others are in its CSV only. */
  private static final int MOST_LINES = 7;

  /** The columns of each kind: the second's entries, the failed ones, the OK ones' p50, p99 and max, a minute's p99. */
  private static final int PER_KIND = 6;

  /** The seconds of a minute, whose p99 a long run's trend judges (a second's p99 of a few requests is noise). */
  private static final int MINUTE = 60;

  private static final String X = "seconds into the load";

  /** The figure of a minute's p99 column: "p99 per minute (ms)". */
  private static final String P99_PER_MINUTE = "p99 per minute";

  /** What the servers' charts are of, by the unit of their figures. */
  private static final Map<String, String> UNITS = Map.of("/s", "operations a second", "bytes/s", "bytes a second",
      "% of a core", "CPU in % of a core", "MB", "memory in MB", "queued", "Erlang processes and messages queued",
      "open", "connections open", "count", "Erlang processes, databases and files open");

  private SecondsPage() {}

  /**
   * The run's seconds as numbers, one row a second from the load's start: the load's columns, then the servers'; NaN
   * where a second has no such figure. The table and the charts are both made from them.
   *
   * @param columns the columns' names, "second" first
   * @param rows one row a second
   * @param loadsOwn how many of the columns are the load's own ({@link LoadColumn}), before the servers'
   */
  record Seconds(List<String> columns, List<double[]> rows, int loadsOwn) {

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
   * @param loadsOwn the load's own figures second by second
   * @param servers the servers' samples
   * @param loadStartMillis the load's start on the run's clock: second 0 is the second it started in, second 1 the
   *     next whole second, and so on
   * @return one row a second, from the load's start to its last second or sample: the load's requests' columns, then
   *     those of each other kind the run had ({@link SeriesKind}), the load's own, then the servers'
   */
  static Seconds of(LoadSeconds load, List<LoadColumn> loadsOwn, ServerSeries servers, long loadStartMillis) {
    List<SeriesKind> kinds = kinds(load);
    List<String> columns = new ArrayList<>(List.of("second"));
    for (SeriesKind kind : kinds) {
      columns.addAll(List.of(kind.countColumn(), kind.failedColumn(), kind.timeColumn("p50"), kind.timeColumn("p99"),
          kind.timeColumn("max"), kind.timeColumn(P99_PER_MINUTE)));
    }
    int ownFrom = columns.size();
    loadsOwn.forEach(own -> columns.add(own.name()));
    int serversFrom = columns.size();
    columns.addAll(servers.columns());
    long first = Math.floorDiv(loadStartMillis, 1000);
    List<Map<Long, LoadSeconds.Second>> byKind = new ArrayList<>();
    long last = -1;
    for (SeriesKind kind : kinds) {
      Map<Long, LoadSeconds.Second> byLoadSecond = new LinkedHashMap<>();
      load.seconds(kind).forEach(second -> byLoadSecond.put(second.epochSecond() - first, second));
      byKind.add(byLoadSecond);
      last = Math.max(last, byLoadSecond.keySet().stream().mapToLong(Long::longValue).max().orElse(-1));
    }
    for (LoadColumn own : loadsOwn) {
      last = Math.max(last, own.bySecond().keySet().stream().mapToLong(Long::longValue).max().orElse(-1));
    }
    Map<Long, ServerSeries.Sample> samples = new LinkedHashMap<>();
    servers.samples().forEach(sample -> samples.put(ServerSeries.loadSecond(sample.epochMillis(), loadStartMillis),
        sample));
    last = Math.max(last, samples.keySet().stream().mapToLong(Long::longValue).max().orElse(-1));
    List<double[]> rows = new ArrayList<>();
    for (long second = 0; second <= last; second++) {
      double[] row = new double[columns.size()];
      Arrays.fill(row, Double.NaN);
      row[0] = second;
      for (int kind = 0; kind < kinds.size(); kind++) {
        fill(row, 1 + kind * PER_KIND, byKind.get(kind).get(second));
      }
      for (int own = 0; own < loadsOwn.size(); own++) {
        row[ownFrom + own] = loadsOwn.get(own).bySecond().getOrDefault(second, Double.NaN);
      }
      ServerSeries.Sample sample = samples.get(second);
      if (sample != null) {
        for (int column = 0; column < servers.columns().size(); column++) {
          double value = sample.values()[column];
          row[serversFrom + column] = Double.isNaN(value) ? value : Math.round(value * 100) / 100.0;
        }
      }
      rows.add(row);
    }
    for (int kind = 0; kind < kinds.size(); kind++) {
      fillMinutes(rows, (kind + 1) * PER_KIND, byKind.get(kind)); // the kind's last column
    }
    return new Seconds(columns, rows, loadsOwn.size());
  }

  // Each whole minute's p99 (seconds 0-59, 60-119, ...) on the row of its last second; none for a minute cut short.
  private static void fillMinutes(List<double[]> rows, int column, Map<Long, LoadSeconds.Second> seconds) {
    for (int last = MINUTE - 1; last < rows.size(); last += MINUTE) {
      Histogram minute = Outcomes.newCompact();
      for (long second = last - MINUTE + 1; second <= last; second++) {
        LoadSeconds.Second loaded = seconds.get(second);
        if (loaded != null) {
          minute.add(loaded.okTimes());
        }
      }
      if (minute.getTotalCount() > 0) {
        rows.get(last)[column] = millis(minute.getValueAtPercentile(99));
      }
    }
  }

  // The load's requests always (other helpers' figures and tests read their columns), then each other kind it had.
  private static List<SeriesKind> kinds(LoadSeconds load) {
    List<SeriesKind> kinds = new ArrayList<>(List.of(SeriesKind.REQUEST));
    load.kinds().stream().filter(kind -> kind != SeriesKind.REQUEST).forEach(kinds::add);
    return kinds;
  }

  // One kind's figures of one second from the row's column given: 0 entries where it had none, no times.
  private static void fill(double[] row, int from, LoadSeconds.Second loaded) {
    row[from] = loaded == null ? 0 : loaded.ok() + loaded.ko();
    row[from + 1] = loaded == null ? 0 : loaded.ko();
    if (loaded != null && loaded.okTimes().getTotalCount() > 0) {
      row[from + 2] = millis(loaded.okTimes().getValueAtPercentile(50));
      row[from + 3] = millis(loaded.okTimes().getValueAtPercentile(99));
      row[from + 4] = millis(loaded.okTimes().getMaxValue());
    }
  }

  /**
   * Adds the charts of the run's seconds to the page, all on one time axis.
   *
   * @param page the page
   * @param seconds the run's seconds, {@link #of}
   * @param notes what the servers' sampling could not read, one line each
   * @param spans stretches of the run shaded on every chart, e.g. background tasks
   * @param loadStartMillis the load's start on the run's clock, as given to {@link #of}
   * @return the page with a line, the charts and a link to {@link #FILE}
   */
  static SummaryPage addTo(SummaryPage page, Seconds seconds, List<String> notes, List<RunOutput.Span> spans,
      long loadStartMillis) {
    if (seconds.rows().isEmpty()) {
      return page;
    }
    List<SeriesKind> kinds = Arrays.stream(SeriesKind.values())
        .filter(kind -> seconds.columns().contains(kind.countColumn())).toList();
    double end = Math.max(1, seconds.rows().size() - 1);
    int ownFrom = 1 + kinds.size() * PER_KIND;
    int serversFrom = ownFrom + seconds.loadsOwn();
    page = page.line("The run second by second (" + FILE + "): the load's requests that ended in each second and"
        + " their times" + (kinds.size() == 1 ? "" : kinds.subList(1, kinds.size()).stream()
            .map(kind -> kind.counted() + " (" + kind.what() + ")")
            .collect(Collectors.joining("; ", ", then apart from them, each on charts of its own: ", "")))
        + (seconds.loadsOwn() == 0 ? "" : "; the load's own figures (" + String.join(", ", seconds.columns()
            .subList(ownFrom, serversFrom)) + "), in the file alone: the page's own charts above draw them")
        + "; then the servers' own figures read once a second by couchbench (its reads are not in the load's"
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
    for (SeriesKind kind : kinds) {
      String apart = kinds.size() == 1 ? "" : kind == SeriesKind.REQUEST
          ? " (the load's requests alone)" : " (" + kind.what() + ")";
      String rate = kind.counted() + " a second";
      page = page.chart(rate, lines(onTheAxis.apply(rate + apart), seconds, kind.countColumn(),
          List.of(kind.countColumn(), kind.failedColumn())));
      String latency = kind.named("latency second by second");
      page = page.chart(latency, throughMinutes(lines(onTheAxis.apply("OK " + kind.counted() + "' latency in each"
          + " second" + apart), seconds, "ms", List.of(kind.timeColumn("p50"), kind.timeColumn("p99"),
          kind.timeColumn("max"))), seconds, kind.timeColumn(P99_PER_MINUTE)));
    }
    Map<String, List<String>> byUnit = new LinkedHashMap<>();
    for (String column : seconds.columns().subList(serversFrom, seconds.columns().size())) {
      byUnit.computeIfAbsent(ServerSeries.unit(column), any -> new ArrayList<>()).add(column);
    }
    for (Map.Entry<String, List<String>> unit : byUnit.entrySet()) {
      String title = "the servers, " + UNITS.getOrDefault(unit.getKey(), unit.getKey());
      page = page.chart(title, lines(onTheAxis.apply(title), seconds, unit.getKey(), unit.getValue()));
    }
    return page.link("the run second by second, " + FILE, FILE);
  }

  // A minute's p99 stands on its last second's row: drawn as a line through those points, not 59 gaps a minute.
  private static LineChart throughMinutes(LineChart chart, Seconds seconds, String column) {
    int index = seconds.columns().indexOf(column);
    List<double[]> minutes = seconds.rows().stream().filter(row -> !Double.isNaN(row[index])).toList();
    return minutes.isEmpty() ? chart : chart.series(column.replace(" (ms)", ""),
        minutes.stream().map(row -> row[0]).toList(), minutes.stream().map(row -> row[index]).toList());
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
