package couchbench.siege;

import couchbench.report.Table;
import couchbench.results.RequestTally;
import couchbench.results.RunLog;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The figures siege prints at the end of a run (seed 000's tables), for one request name of a
 * Gatling run. Siege counts a transaction per completed hit and a failure per hit that got no
 * usable answer; here Gatling's checks decide, so the transactions are the requests that passed,
 * the failures those that failed, and "successful transactions" equals "transactions". Response
 * times are those of the transactions, as siege times only completed hits. A figure that is
 * undefined (no transaction, or no time elapsed) is NaN and shows as n/a.
 *
 * @param transactions requests of this name that passed
 * @param failed requests of this name that failed
 * @param elapsedSeconds from the first request of this name sent to the last one ended (siege
 *     times its whole run; in a run of phases this is the phase of this request name)
 * @param responseTimeSeconds the mean response time of the transactions
 * @param concurrency the sum of the transactions' response times divided by the elapsed time:
 *     how many were in flight on average
 * @param longestSeconds the longest transaction
 * @param shortestSeconds the shortest transaction
 */
public record SiegeFigures(long transactions, long failed, double elapsedSeconds, double responseTimeSeconds,
    double concurrency, double longestSeconds, double shortestSeconds) {

  /** Gatling's simulation.log records no response sizes, so siege's throughput cannot be computed. */
  static final String NO_THROUGHPUT = "n/a";

  /**
   * Computes the figures from Gatling's records of one request name.
   *
   * @param tally the request name's counts and times, e.g. from {@link RunLog#requests}
   * @return the figures
   */
  public static SiegeFigures of(RequestTally tally) {
    double elapsed = tally.spanMillis() / 1000.0;
    double sum = tally.okMillisSum() / 1000.0;
    boolean any = tally.ok() > 0;
    return new SiegeFigures(tally.ok(), tally.ko(), elapsed,
        any ? sum / tally.ok() : Double.NaN,
        elapsed > 0 ? sum / elapsed : Double.NaN,
        any ? tally.okMaxMillis() / 1000.0 : Double.NaN,
        any ? tally.okMinMillis() / 1000.0 : Double.NaN);
  }

  /**
   * The figures of every name of a run's tallies, e.g. {@link RunLog#groups}: for a group, a
   * transaction is a group that passed, its time the group's duration.
   *
   * @param tallies tally by request or group name
   * @return figures by the same names, in the same order
   */
  public static Map<String, SiegeFigures> of(Map<String, RequestTally> tallies) {
    Map<String, SiegeFigures> figures = new LinkedHashMap<>();
    tallies.forEach((name, tally) -> figures.put(name, of(tally)));
    return figures;
  }

  /** @return transactions / (transactions + failed) in percent, as siege's availability; NaN without requests */
  public double availabilityPercent() {
    long all = transactions + failed;
    return all == 0 ? Double.NaN : 100.0 * transactions / all;
  }

  /** @return transactions per second of elapsed time; NaN when no time elapsed */
  public double transactionRate() {
    return elapsedSeconds > 0 ? transactions / elapsedSeconds : Double.NaN;
  }

  /**
   * Siege's table, one row per request name, its columns in siege's order.
   *
   * @param figures figures by request name
   * @return the table; throughput is n/a (Gatling records no response sizes)
   */
  public static Table table(Map<String, SiegeFigures> figures) {
    return table("request", figures);
  }

  /**
   * Siege's table, one row per name, its columns in siege's order.
   *
   * @param nameColumn the first column's heading, e.g. "request" or "record operation"
   * @param figures figures by name
   * @return the table; throughput is n/a (Gatling records no response sizes)
   */
  public static Table table(String nameColumn, Map<String, SiegeFigures> figures) {
    Table table = Table.of(nameColumn, "transactions", "availability (%)", "elapsed time (s)",
        "response time (s)", "transaction rate (trans/s)", "throughput (MB/s)", "concurrency",
        "successful transactions", "failed transactions", "longest transaction (s)",
        "shortest transaction (s)");
    for (Map.Entry<String, SiegeFigures> entry : figures.entrySet()) {
      SiegeFigures f = entry.getValue();
      table = table.row(entry.getKey(), f.transactions(), cell(f.availabilityPercent()), cell(f.elapsedSeconds()),
          cell(f.responseTimeSeconds()), cell(f.transactionRate()), NO_THROUGHPUT, cell(f.concurrency()),
          f.transactions(), f.failed(), cell(f.longestSeconds()), cell(f.shortestSeconds()));
    }
    return table;
  }

  private static Object cell(double value) {
    return Double.isNaN(value) ? "n/a" : value;
  }
}
