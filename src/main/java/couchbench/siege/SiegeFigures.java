package couchbench.siege;

import couchbench.report.Table;
import couchbench.results.Results;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The figures siege prints at the end of a run (seed 000's tables), for one request name or group of a
 * run, from its entry in results.json. Siege counts a transaction per completed hit and a failure per hit that got no
 * usable answer; here Gatling's checks decide, so the transactions are the requests that passed,
 * the failures those that failed, and "successful transactions" equals "transactions". Response
 * times are those of the transactions, as siege times only completed hits. A figure that is
 * undefined (no transaction, or no time elapsed) is NaN and shows as n/a. Times are those of the entry: to the
 * microsecond for memcache requests (couchbench's client times them), Gatling's whole milliseconds for HTTP requests
 * and groups; the mean, shortest and longest are its histogram's (three significant digits).
 *
 * @param transactions requests of this name that passed
 * @param failed requests of this name that failed
 * @param elapsedSeconds from the first request of this name sent to the last one ended (siege
 *     times its whole run; in a run of phases this is the phase of this request name)
 * @param responseTimeSeconds the mean response time of the transactions
 * @param concurrency the sum of the transactions' response times (their mean times their number)
 *     divided by the elapsed time: how many were in flight on average
 * @param longestSeconds the longest transaction
 * @param shortestSeconds the shortest transaction
 */
public record SiegeFigures(long transactions, long failed, double elapsedSeconds, double responseTimeSeconds,
    double concurrency, double longestSeconds, double shortestSeconds) {

  /** Gatling's simulation.log records no response sizes, so siege's throughput cannot be computed. */
  public static final String NO_THROUGHPUT = "n/a";

  private static final double MICROS = 1e6;

  /**
   * Computes the figures from results.json's entry of one request name or group: for a group, a transaction is a
   * group that passed, its time the group's duration.
   *
   * @param entry the entry; for a merged run, the injectors' added up
   * @return the figures
   */
  public static SiegeFigures of(Results.Entry entry) {
    double elapsed = entry.firstStart() == null || entry.lastEnd() == null ? 0
        : Duration.between(Instant.parse(entry.firstStart()), Instant.parse(entry.lastEnd())).toNanos() / 1e9;
    boolean any = entry.ok() > 0;
    Results.Latency latency = entry.latency();
    double mean = latency.mean() / MICROS;
    return new SiegeFigures(entry.ok(), entry.ko(), elapsed,
        any ? mean : Double.NaN,
        elapsed > 0 ? (any ? mean * entry.ok() : 0) / elapsed : Double.NaN,
        any ? latency.max() / MICROS : Double.NaN,
        any && latency.min() != null ? latency.min() / MICROS : Double.NaN);
  }

  /**
   * The figures of every entry of one kind, by name.
   *
   * @param results a run's results
   * @param kind "request" or "group"
   * @return figures by the entries' names, in their order
   */
  public static Map<String, SiegeFigures> of(Results results, String kind) {
    Map<String, SiegeFigures> figures = new LinkedHashMap<>();
    results.requests().stream().filter(entry -> entry.kind().equals(kind))
        .forEach(entry -> figures.put(entry.name(), of(entry)));
    return figures;
  }

  /**
   * How the page's times were taken, for its explanation.
   *
   * @param results a run's results
   * @return one line naming each clock its measured entries were timed by; empty without entries
   */
  public static Optional<String> timing(Results results) {
    Set<String> clocks = results.requests().stream().filter(entry -> !entry.warmUp()).map(Results.Entry::clock)
        .collect(Collectors.toSet());
    List<String> said = new ArrayList<>();
    if (clocks.contains(Results.CLIENT_CLOCK)) {
      said.add("memcache requests are timed by couchbench's client, from the request written to its reply decoded,"
          + " to the microsecond (Gatling's own report has them in whole milliseconds)");
    }
    if (clocks.contains(Results.GATLING_CLOCK)) {
      said.add((clocks.contains(Results.CLIENT_CLOCK) ? "HTTP requests and groups" : "requests")
          + " by Gatling, in whole milliseconds");
    }
    return said.isEmpty() ? Optional.empty() : Optional.of("Times: " + String.join("; ", said) + ".");
  }

  /**
   * What siege's figures of a merged run are, for its page.
   *
   * @param results a run's results
   * @return one line for the merged results of several injectors; empty for one injector's
   */
  public static Optional<String> merged(Results results) {
    return results.run().merged() ? Optional.of("Siege's figures of all injectors: their"
        + " transactions and failures added up; the elapsed time from the first request of any injector to the last"
        + " one's end (the union of their windows), so the transaction rate is the whole run's; the response time the"
        + " mean of every injector's transactions, the longest and shortest of all of them, and the concurrency their"
        + " summed time over the elapsed time (from the injectors' added histograms). Requests per user count all"
        + " injectors' users.") : Optional.empty();
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
