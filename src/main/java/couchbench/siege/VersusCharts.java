package couchbench.siege;

import couchbench.report.LineChart;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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
   * @param requests siege's figures by request name
   * @param records siege's figures by record group name
   * @return transactions per second per operation, one line per system (and the multi-get's point), log y axis;
   *     an operation without transactions has no point
   */
  static LineChart rates(Map<String, SiegeFigures> requests, Map<String, SiegeFigures> records) {
    LineChart chart = LineChart.titled("transactions per second, per operation")
        .axes("operation", "transactions/s (log scale)").logY()
        .xCategories(OPERATIONS);
    chart = withRates(chart, "memcache", requests.get(MemcacheWorkloads.SET), requests.get(MemcacheWorkloads.GET),
        records.get(MemcacheWorkloads.RECORD_WRITE), records.get(MemcacheWorkloads.RECORD_READ));
    chart = withRates(chart, "CouchDB", requests.get(CouchWorkloads.SET), requests.get(CouchWorkloads.GET),
        records.get(CouchWorkloads.RECORD_WRITE), records.get(CouchWorkloads.RECORD_READ));
    return withRates(chart, "memcache multi-get", null, null, null, records.get(MemcacheWorkloads.RECORD_MULTI_READ));
  }

  /**
   * @param records siege's figures by record group name
   * @param fields the fields of a record, F
   * @return the mean time to read a whole record: one CouchDB request, F memcache gets one after the other, one
   *     memcache get of F keys; each its own series of one point
   */
  static LineChart recordReads(Map<String, SiegeFigures> records, int fields) {
    List<String> reads = RECORD_READS.stream().map(read -> read.replace("F", Integer.toString(fields))).toList();
    LineChart chart = LineChart.titled("time to read a whole record of " + fields + " fields")
        .axes("how it is read", "mean response time (ms)")
        .xCategories(reads);
    List<String> groups = List.of(CouchWorkloads.RECORD_READ, MemcacheWorkloads.RECORD_READ,
        MemcacheWorkloads.RECORD_MULTI_READ);
    for (int i = 0; i < groups.size(); i++) {
      SiegeFigures figures = records.get(groups.get(i));
      boolean timed = figures != null && figures.transactions() > 0;
      chart = chart.series(reads.get(i),
          timed ? List.of(i + 1) : List.<Integer>of(), timed ? List.of(figures.responseTimeSeconds() * 1000) : List.of());
    }
    return chart;
  }

  /** A line through the rates of the operations that had transactions, x being the operation's place, 1 to 4. */
  private static LineChart withRates(LineChart chart, String name, SiegeFigures... operations) {
    List<Integer> xs = new ArrayList<>();
    List<Double> ys = new ArrayList<>();
    for (int i = 0; i < operations.length; i++) {
      SiegeFigures figures = operations[i];
      if (figures != null && figures.transactionRate() > 0) {
        xs.add(i + 1);
        ys.add(figures.transactionRate());
      }
    }
    return chart.series(name, xs, ys);
  }
}
