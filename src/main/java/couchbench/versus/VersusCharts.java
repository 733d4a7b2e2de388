package couchbench.versus;

import couchbench.report.BarChart;
import couchbench.requests.CouchRequests;
import couchbench.requests.MemcacheRequests;
import couchbench.rounds.Rounds;
import couchbench.rounds.Spread;
import couchbench.siege.SiegeFigures;
import couchbench.siege.SiegeRounds;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.function.ToDoubleFunction;

/**
 * CouchVsMemcache's two bar charts: each operation's transaction rate, both systems' bars side by side on a log axis
 * (the seed's question: how much faster is the cache?), and a whole record's read time by the three ways of reading
 * it. With several rounds, each bar is the median of the rounds; their range is in the CSV.
 */
final class VersusCharts {

  /** The operations along the rate chart's x axis. */
  private static final List<String> OPERATIONS = List.of("write", "read", "record write", "record read");

  private static final List<String> RECORD_READS = List.of("CouchDB: 1 request", "memcache: F gets",
      "memcache: 1 multi-get");

  private VersusCharts() {}

  /**
   * @param requests siege's figures by request name, over the rounds
   * @param records siege's figures by record group name, over the rounds
   * @return transactions per second per operation, a bar per system (and the multi-get's bar), log y axis; with
   *     several rounds, each bar the median, its range in the CSV; an operation without transactions has no bar
   */
  static BarChart rates(SiegeRounds requests, SiegeRounds records) {
    BarChart chart = BarChart.titled("transactions per second, per operation"
            + (requests.rounds().repeated() ? " (median of " + requests.rounds().count() + " rounds)" : ""), OPERATIONS)
        .axes("operation", "transactions/s (log scale)").logY();
    // A log axis has no place for 0: a round without transactions has no rate.
    ToDoubleFunction<SiegeFigures> rate = figures -> figures.transactionRate() > 0 ? figures.transactionRate()
        : Double.NaN;
    chart = bars(chart, requests.rounds(), "memcache", List.of(requests.spread(MemcacheRequests.SET, rate),
        requests.spread(MemcacheRequests.GET, rate), records.spread(MemcacheRequests.RECORD_WRITE, rate),
        records.spread(MemcacheRequests.RECORD_READ, rate)));
    chart = bars(chart, requests.rounds(), "CouchDB", List.of(requests.spread(CouchRequests.SET, rate),
        requests.spread(CouchRequests.GET, rate), records.spread(CouchRequests.RECORD_WRITE, rate),
        records.spread(CouchRequests.RECORD_READ, rate)));
    return bars(chart, requests.rounds(), "memcache multi-get", List.of(Optional.empty(), Optional.empty(),
        Optional.empty(), records.spread(MemcacheRequests.RECORD_MULTI_READ, rate)));
  }

  /**
   * @param records siege's figures by record group name, over the rounds
   * @param fields the fields of a record, F
   * @return the mean time to read a whole record: one CouchDB request, F memcache gets one after the other, one
   *     memcache get of F keys; a bar each (each its own series, named as its category), with several rounds the
   *     median, its range in the CSV
   */
  static BarChart recordReads(SiegeRounds records, int fields) {
    List<String> reads = RECORD_READS.stream().map(read -> read.replace("F", Integer.toString(fields))).toList();
    BarChart chart = BarChart.titled("time to read a whole record of " + fields + " fields"
            + (records.rounds().repeated() ? " (median of " + records.rounds().count() + " rounds)" : ""), reads)
        .axes("how it is read", "mean response time (ms)")
        .oneBarPerCategory();
    List<String> groups = List.of(CouchRequests.RECORD_READ, MemcacheRequests.RECORD_READ,
        MemcacheRequests.RECORD_MULTI_READ);
    for (int i = 0; i < groups.size(); i++) {
      List<Optional<Spread>> points = new ArrayList<>(Collections.nCopies(groups.size(), Optional.empty()));
      points.set(i, records.spread(groups.get(i), figures -> figures.responseTimeSeconds() * 1000));
      chart = bars(chart, records.rounds(), reads.get(i), points);
    }
    return chart;
  }

  /**
   * A series of the figures that are there, one per category: each figure's value with one round, its median with
   * the range in the CSV with several.
   */
  private static BarChart bars(BarChart chart, Rounds rounds, String name, List<Optional<Spread>> figures) {
    List<Spread> values = figures.stream().map(figure -> figure.orElse(null)).toList();
    return rounds.repeated() ? chart.spreadSeries(name, values)
        : chart.series(name, values.stream().map(spread -> spread == null ? null : spread.median()).toList());
  }
}
