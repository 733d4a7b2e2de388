package couchbench.versus;

import couchbench.report.LineChart;
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
 * CouchVsMemcache's two charts: each operation's transaction rate, both systems side by side on a log axis (the
 * seed's question: how much faster is the cache?), and a whole record's read time by the three ways of reading it.
 */
final class VersusCharts {

  /** The operations along the rate chart's x axis, at 1, 2, 3, 4. */
  private static final List<String> OPERATIONS = List.of("write", "read", "record write", "record read");

  private static final List<String> RECORD_READS = List.of("CouchDB: 1 request", "memcache: F gets",
      "memcache: 1 multi-get");

  private VersusCharts() {}

  /**
   * @param requests siege's figures by request name, over the rounds
   * @param records siege's figures by record group name, over the rounds
   * @return transactions per second per operation, one line per system (and the multi-get's point), log y axis; with
   *     several rounds, each point the median with a bar over the range; an operation without transactions has no
   *     point
   */
  static LineChart rates(SiegeRounds requests, SiegeRounds records) {
    LineChart chart = LineChart.titled("transactions per second, per operation")
        .axes("operation", "transactions/s (log scale)").logY()
        .xCategories(OPERATIONS);
    // A log axis has no place for 0: a round without transactions has no rate.
    ToDoubleFunction<SiegeFigures> rate = figures -> figures.transactionRate() > 0 ? figures.transactionRate()
        : Double.NaN;
    chart = line(chart, requests.rounds(), "memcache", List.of(requests.spread(MemcacheRequests.SET, rate),
        requests.spread(MemcacheRequests.GET, rate), records.spread(MemcacheRequests.RECORD_WRITE, rate),
        records.spread(MemcacheRequests.RECORD_READ, rate)));
    chart = line(chart, requests.rounds(), "CouchDB", List.of(requests.spread(CouchRequests.SET, rate),
        requests.spread(CouchRequests.GET, rate), records.spread(CouchRequests.RECORD_WRITE, rate),
        records.spread(CouchRequests.RECORD_READ, rate)));
    return line(chart, requests.rounds(), "memcache multi-get", List.of(Optional.empty(), Optional.empty(),
        Optional.empty(), records.spread(MemcacheRequests.RECORD_MULTI_READ, rate)));
  }

  /**
   * @param records siege's figures by record group name, over the rounds
   * @param fields the fields of a record, F
   * @return the mean time to read a whole record: one CouchDB request, F memcache gets one after the other, one
   *     memcache get of F keys; each its own series of one point, with several rounds the median with the range
   */
  static LineChart recordReads(SiegeRounds records, int fields) {
    List<String> reads = RECORD_READS.stream().map(read -> read.replace("F", Integer.toString(fields))).toList();
    LineChart chart = LineChart.titled("time to read a whole record of " + fields + " fields")
        .axes("how it is read", "mean response time (ms)")
        .xCategories(reads);
    List<String> groups = List.of(CouchRequests.RECORD_READ, MemcacheRequests.RECORD_READ,
        MemcacheRequests.RECORD_MULTI_READ);
    for (int i = 0; i < groups.size(); i++) {
      List<Optional<Spread>> points = new ArrayList<>(Collections.nCopies(groups.size(), Optional.empty()));
      points.set(i, records.spread(groups.get(i), figures -> figures.responseTimeSeconds() * 1000));
      chart = line(chart, records.rounds(), reads.get(i), points);
    }
    return chart;
  }

  /**
   * A line through the figures that are there, x being their place, 1 to n: each figure's value with one round, its
   * median with a bar over its range with several.
   */
  private static LineChart line(LineChart chart, Rounds rounds, String name, List<Optional<Spread>> figures) {
    List<Integer> xs = new ArrayList<>();
    List<Spread> ys = new ArrayList<>();
    for (int i = 0; i < figures.size(); i++) {
      if (figures.get(i).isPresent()) {
        xs.add(i + 1);
        ys.add(figures.get(i).get());
      }
    }
    return rounds.repeated() ? chart.spreadSeries(name, xs, ys)
        : chart.series(name, xs, ys.stream().map(Spread::median).toList());
  }
}
