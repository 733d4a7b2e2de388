package couchbench.results;

import couchbench.memcache.MemcacheTimings;
import couchbench.report.SummaryPage;
import couchbench.report.Table;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Each request name's times in nanoseconds, OK and KO apart, on HdrHistogram (3 significant
 * digits: a percentile is exact to 0.1%), for percentiles finer than Gatling's whole
 * milliseconds. Recorded from every event loop at once.
 */
public final class Latencies implements MemcacheTimings {

  /** Up to an hour: anything longer is a request that timed out many times over. */
  private static final long HIGHEST_NANOS = 3_600_000_000_000L;
  private static final int SIGNIFICANT_DIGITS = 3;

  private final Map<String, Outcomes> byName = new ConcurrentHashMap<>();

  @Override
  public void record(String requestName, boolean ok, long nanos) {
    Outcomes outcomes = byName.get(requestName);
    if (outcomes == null) {
      outcomes = byName.computeIfAbsent(requestName, name -> new Outcomes());
    }
    (ok ? outcomes.ok : outcomes.ko).recordValue(Math.min(Math.max(nanos, 1), HIGHEST_NANOS));
  }

  /**
   * @param requestName a request name
   * @return a copy of its OK requests' histogram, in nanoseconds; empty when none was recorded
   */
  public Histogram ok(String requestName) {
    Outcomes outcomes = byName.get(requestName);
    return outcomes == null ? newHistogram() : outcomes.ok.copy();
  }

  /**
   * @param requestName a request name
   * @return a copy of its failed requests' histogram, in nanoseconds; empty when none was recorded
   */
  public Histogram ko(String requestName) {
    Outcomes outcomes = byName.get(requestName);
    return outcomes == null ? newHistogram() : outcomes.ko.copy();
  }

  /**
   * The table of the OK requests' times in microseconds, a row per request name, by name.
   *
   * @param included which request names get a row
   * @return the table
   */
  public Table table(Predicate<String> included) {
    Table table = Table.of("request", "OK", "KO", "mean (us)", "p50 (us)", "p90 (us)", "p99 (us)",
        "p99.9 (us)", "p99.99 (us)", "max (us)");
    for (String name : byName.keySet().stream().filter(included).sorted().toList()) {
      Histogram ok = ok(name);
      table = table.row(name, ok.getTotalCount(), ko(name).getTotalCount(), micros(ok.getMean()),
          micros(ok, 50), micros(ok, 90), micros(ok, 99), micros(ok, 99.9), micros(ok, 99.99),
          micros(ok.getMaxValue()));
    }
    return table;
  }

  /**
   * Adds the table to a summary page, with a line on how the times were taken.
   *
   * @param page the page
   * @param included which request names get a row
   * @return the page with the table
   */
  public SummaryPage addTo(SummaryPage page, Predicate<String> included) {
    return page.line("Latency of OK requests in microseconds, timed by couchbench's memcache client with the"
            + " nanosecond clock from the request handed to its connection to its reply decoded (Gatling's"
            + " report rounds to whole milliseconds); HdrHistogram, 3 significant digits.")
        .table("latency in microseconds", table(included));
  }

  private static String micros(Histogram histogram, double percentile) {
    return micros(histogram.getValueAtPercentile(percentile));
  }

  private static String micros(double nanos) {
    return String.format(Locale.ROOT, "%.1f", nanos / 1000);
  }

  private static Histogram newHistogram() {
    return new Histogram(HIGHEST_NANOS, SIGNIFICANT_DIGITS);
  }

  private static final class Outcomes {
    final ConcurrentHistogram ok = new ConcurrentHistogram(HIGHEST_NANOS, SIGNIFICANT_DIGITS);
    final ConcurrentHistogram ko = new ConcurrentHistogram(HIGHEST_NANOS, SIGNIFICANT_DIGITS);
  }
}
