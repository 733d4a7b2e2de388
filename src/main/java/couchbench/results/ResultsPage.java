package couchbench.results;

import couchbench.memcache.client.ProtocolErrors;
import couchbench.report.Chart;
import couchbench.report.LineChart;
import couchbench.report.Subset;
import couchbench.report.SummaryPage;
import couchbench.report.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;

/**
 * What every summary page shows from results.json: the servers' counts against the acknowledged requests, the memcache
 * servers' connections (one line, or with drops a warning and a table), the latency table and the percentile chart
 * of the measured requests: with more than {@link #MOST_CURVES} of them, the chart draws the fastest, the median and
 * the slowest by p99, and says so.
 */
final class ResultsPage {

  /** The most curves the percentile chart draws: one fewer than a chart can, an odd number with the median. */
  static final int MOST_CURVES = Chart.MAX_SERIES - 1;

  /** One entry's curve, its name in the legend. */
  private record Curve(String name, PercentileCurve curve, double p99Micros) {}

  private ResultsPage() {}

  /**
   * @param page the simulation's page
   * @param results the run's results
   * @param okTimes each entry's OK times by its OK tag
   * @return the page with the table and the chart of every entry that is not a warm-up
   */
  static SummaryPage addTo(SummaryPage page, Results results, Map<String, Histogram> okTimes) {
    Table table = Table.of("request", "kind", "timed by", "OK", "KO", "rate (/s)", "mean (us)", "p50 (us)",
        "p90 (us)", "p99 (us)", "p99.9 (us)", "p99.99 (us)", "max (us)");
    for (Results.ServerCount count : results.serverCounts()) {
      page = count.agrees() ? page.line("Server count: " + count.describe() + ".")
          : page.warning("Server count: " + count.describe() + ": something else wrote to the server meanwhile, it"
              + " lost writes, or it restarted" + (count.change() < 0 ? " (its counter went back)" : "") + ".");
    }
    page = connections(page, results.memcacheConnections());
    List<Curve> curves = new ArrayList<>();
    for (Results.Entry entry : results.requests()) {
      if (entry.warmUp() || entry.count() == 0) {
        continue;
      }
      Results.Latency l = entry.latency();
      table = table.row(entry.name(), entry.kind(), entry.clock(), entry.ok(), entry.ko(), entry.ratePerSecond(),
          l.mean(), l.p50(), l.p90(), l.p99(), l.p999(), l.p9999(), l.max());
      Histogram ok = okTimes.get(entry.okTag());
      if (ok != null && ok.getTotalCount() > 0) {
        curves.add(new Curve(entry.kind().equals("group") ? "group " + entry.name() : entry.name(),
            PercentileCurve.of(ok), PercentileCurve.p99Micros(ok)));
      }
    }
    Subset<Curve> drawn = Subset.lowestMedianHighest(curves, Curve::p99Micros, MOST_CURVES);
    String unit = PercentileCurve.unit(curves.stream().mapToDouble(c -> c.curve().maxMicros()).max().orElse(0));
    LineChart chart = PercentileCurve.chart("latency by percentile, OK requests"
        + (drawn.partial() ? " (" + drawn.drawn().size() + " of " + drawn.of() + ")" : ""), unit);
    for (Curve curve : curves) {
      chart = drawn.drawn().contains(curve) ? chart.series(curve.name(), curve.curve().xs(), curve.curve().in(unit))
          : chart.csvOnlySeries(curve.name(), curve.curve().xs(), curve.curve().in(unit));
    }
    return page
        .line("Latency of OK requests in microseconds, from results.json: memcache requests timed by couchbench's"
            + " client with the nanosecond clock, from the request handed to its connection to its reply decoded;"
            + " HTTP requests and groups at Gatling's precision, whole milliseconds. HdrHistogram, 3 significant"
            + " digits. Warm-up requests left out.")
        .table("latency in microseconds", table)
        .charts("latency by percentile", List.of(chart),
            drawn.describe("measured requests and groups", PercentileCurve.RANKED_BY, "fastest", "slowest"));
  }

  /** Each memcache server's connections: one line when none was dropped, else a warning and a table. */
  private static SummaryPage connections(SummaryPage page, List<Results.ServerConnections> servers) {
    if (servers.isEmpty()) {
      return page;
    }
    String each = servers.stream().map(Results.ServerConnections::describe).collect(Collectors.joining("; "));
    if (servers.stream().allMatch(server -> server.droppedInAll() == 0)) {
      return page.line("Memcache connections: " + each + ".");
    }
    Table table = Table.of("server", "opened", "dropped", "why", "reopened", "first reply no request was waiting for");
    for (Results.ServerConnections server : servers) {
      table = table.row(server.server(), server.opened(), server.droppedInAll(), server.why(), server.reopened(),
          server.firstReply() == null ? "" : server.firstReply());
    }
    boolean outOfStep = servers.stream()
        .anyMatch(server -> server.dropped().containsKey(ProtocolErrors.DropCause.OUT_OF_STEP.words()));
    return page.warning("Memcache connections dropped: " + each + (outOfStep
        ? ". A server broke the protocol: each reply out of step dropped its connection, which the next request opened"
            + " again, so the run's figures include those reconnects."
        : ". A server went away, stalled or answered out of protocol: see the failures below."))
        .table("memcache connections", table);
  }
}
