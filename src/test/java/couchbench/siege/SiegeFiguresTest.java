package couchbench.siege;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.report.Table;
import couchbench.results.Results;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SiegeFiguresTest {

  // Three transactions of 10, 20 and 30 ms (mean 20 ms) and two failures, the last ending 1 s after the first began.
  private static final Results.Entry ENTRY =
      SiegeResults.entry("couchdb get", "request", 3, 2, 20_000, 10_000, 30_000, 1000, 2000);

  @Test
  void shouldComputeSiegesFiguresFromTransactionsOnly() {
    SiegeFigures figures = SiegeFigures.of(ENTRY);

    assertEquals(3, figures.transactions());
    assertEquals(2, figures.failed());
    assertEquals(60.0, figures.availabilityPercent(), 1e-9, "3 of 5");
    assertEquals(1.0, figures.elapsedSeconds(), 1e-9, "from the first start to the last end");
    assertEquals(0.02, figures.responseTimeSeconds(), 1e-9, "the transactions' mean: failures do not count");
    assertEquals(3.0, figures.transactionRate(), 1e-9);
    assertEquals(0.06, figures.concurrency(), 1e-9, "60 ms of transactions in 1 s");
    assertEquals(0.03, figures.longestSeconds(), 1e-9);
    assertEquals(0.01, figures.shortestSeconds(), 1e-9);
  }

  @Test
  void shouldLeaveUndefinedFiguresUndefined() {
    SiegeFigures onlyFailures = SiegeFigures.of(SiegeResults.entry("x", "request", 0, 2, 0, 0, 0, 0, 1000));
    assertEquals(0.0, onlyFailures.availabilityPercent());
    assertEquals(0.0, onlyFailures.transactionRate());
    assertEquals(0.0, onlyFailures.concurrency());
    assertTrue(Double.isNaN(onlyFailures.responseTimeSeconds()));
    assertTrue(Double.isNaN(onlyFailures.longestSeconds()));
    SiegeFigures instant = SiegeFigures.of(SiegeResults.entry("x", "request", 1, 0, 7000, 7000, 7000, 7, 7));
    assertEquals(0.0, instant.elapsedSeconds());
    assertTrue(Double.isNaN(instant.transactionRate()), "no time elapsed: no rate");
    assertTrue(Double.isNaN(instant.concurrency()));
    Results.Entry unseen = new Results.Entry("x", "request", Results.GATLING_CLOCK, false, 0, 0, 0, Map.of(), 0,
        new Results.Latency("us", null, 0, 0, 0, 0, 0, 0, 0), "ok", "ko", null, null);
    assertTrue(Double.isNaN(SiegeFigures.of(unseen).availabilityPercent()));
    assertEquals(0.0, SiegeFigures.of(unseen).elapsedSeconds(), "no window: nothing elapsed");
  }

  @Test
  void shouldTakeTheRequestsOrTheGroupsOfARun() {
    Results results = SiegeResults.of("CouchVsMemcache", null, List.of(), List.of(ENTRY,
        SiegeResults.entry("memcache record read", "group", 5, 0, 2000, 1000, 3000, 0, 1000)));

    assertEquals(List.of("couchdb get"), List.copyOf(SiegeFigures.of(results, "request").keySet()));
    assertEquals(5, SiegeFigures.of(results, "group").get("memcache record read").transactions());
  }

  @Test
  void shouldPrintSiegesTableWithThroughputNotAvailable() {
    Map<String, SiegeFigures> figures = new LinkedHashMap<>();
    figures.put("couchdb get", SiegeFigures.of(ENTRY));
    figures.put("memcache get", SiegeFigures.of(SiegeResults.entry("memcache get", "request", 1, 0, 12.5, 12.5,
        12.5, 5, 5)));

    Table table = SiegeFigures.table(figures);

    assertEquals(List.of("request", "transactions", "availability (%)", "elapsed time (s)", "response time (s)",
        "transaction rate (trans/s)", "throughput (MB/s)", "concurrency", "successful transactions",
        "failed transactions", "longest transaction (s)", "shortest transaction (s)"), table.columns());
    assertEquals(List.of("couchdb get", "3", "60", "1", "0.02", "3", "n/a", "0.06", "3", "2", "0.03", "0.01"),
        table.rows().get(0));
    assertEquals(List.of("memcache get", "1", "100", "0", "0.0000125", "n/a", "n/a", "n/a", "1", "0", "0.0000125",
        "0.0000125"), table.rows().get(1), "a client-timed request to the microsecond");
  }
}
