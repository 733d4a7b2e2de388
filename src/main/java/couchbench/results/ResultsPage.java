package couchbench.results;

import couchbench.report.LineChart;
import couchbench.report.SummaryPage;
import couchbench.report.Table;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * What every summary page shows from results.json: the servers' counts against the acknowledged requests, the latency
 * table and the percentile chart of the measured requests.
 */
final class ResultsPage {

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
          : page.warning("Server count: " + count.describe() + ": something else wrote to the server meanwhile, or"
              + " it lost writes.");
    }
    LineChart chart = PercentileCurve.chart("latency by percentile, OK requests");
    for (Results.Entry entry : results.requests()) {
      if (entry.warmUp() || entry.count() == 0) {
        continue;
      }
      Results.Latency l = entry.latency();
      table = table.row(entry.name(), entry.kind(), entry.clock(), entry.ok(), entry.ko(), entry.ratePerSecond(),
          l.mean(), l.p50(), l.p90(), l.p99(), l.p999(), l.p9999(), l.max());
      Histogram ok = okTimes.get(entry.okTag());
      if (ok != null && ok.getTotalCount() > 0) {
        PercentileCurve curve = PercentileCurve.of(ok);
        chart = chart.series(entry.kind().equals("group") ? "group " + entry.name() : entry.name(), curve.xs(),
            curve.micros());
      }
    }
    return page
        .line("Latency of OK requests in microseconds, from results.json: memcache requests timed by couchbench's"
            + " client with the nanosecond clock, from the request handed to its connection to its reply decoded;"
            + " HTTP requests and groups at Gatling's precision, whole milliseconds. HdrHistogram, 3 significant"
            + " digits. Warm-up requests left out.")
        .table("latency in microseconds", table)
        .chart("latency by percentile", chart);
  }
}
