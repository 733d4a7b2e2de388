package couchbench.siege;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.results.RequestTally;
import couchbench.report.Table;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SiegeFiguresTest {

  // Three transactions of 10, 20 and 30 ms and two failures, the last ending 1 s after the first began.
  private static final RequestTally TALLY = RequestTally.EMPTY
      .with(1000, 1010, true)
      .with(1005, 1025, true)
      .with(1030, 1900, false)
      .with(1020, 1050, true)
      .with(1990, 2000, false);

  @Test
  void shouldTallyPassedRequestsTimesAndTheSpanOfAll() {
    assertEquals(new RequestTally(3, 2, 60, 10, 30, 1000, 2000), TALLY);
    assertEquals(1000, TALLY.spanMillis());
    assertEquals(0, RequestTally.EMPTY.spanMillis());
  }

  @Test
  void shouldComputeSiegesFiguresFromTransactionsOnly() {
    SiegeFigures figures = SiegeFigures.of(TALLY);

    assertEquals(3, figures.transactions());
    assertEquals(2, figures.failed());
    assertEquals(60.0, figures.availabilityPercent(), 1e-9, "3 of 5");
    assertEquals(1.0, figures.elapsedSeconds(), 1e-9);
    assertEquals(0.02, figures.responseTimeSeconds(), 1e-9, "the failure's 870 ms does not count");
    assertEquals(3.0, figures.transactionRate(), 1e-9);
    assertEquals(0.06, figures.concurrency(), 1e-9, "60 ms of transactions in 1 s");
    assertEquals(0.03, figures.longestSeconds(), 1e-9);
    assertEquals(0.01, figures.shortestSeconds(), 1e-9);
  }

  @Test
  void shouldLeaveUndefinedFiguresUndefined() {
    SiegeFigures onlyFailures = SiegeFigures.of(RequestTally.EMPTY.with(0, 500, false).with(100, 1000, false));
    assertEquals(0.0, onlyFailures.availabilityPercent());
    assertEquals(0.0, onlyFailures.transactionRate());
    assertTrue(Double.isNaN(onlyFailures.responseTimeSeconds()));
    assertTrue(Double.isNaN(onlyFailures.longestSeconds()));
    SiegeFigures instant = SiegeFigures.of(RequestTally.EMPTY.with(7, 7, true));
    assertEquals(0.0, instant.elapsedSeconds());
    assertTrue(Double.isNaN(instant.transactionRate()), "no time elapsed: no rate");
    assertTrue(Double.isNaN(instant.concurrency()));
    assertTrue(Double.isNaN(SiegeFigures.of(RequestTally.EMPTY).availabilityPercent()));
  }

  @Test
  void shouldPrintSiegesTableWithThroughputNotAvailable() {
    Map<String, SiegeFigures> figures = new LinkedHashMap<>();
    figures.put("couchdb get", SiegeFigures.of(TALLY));
    figures.put("memcache get", SiegeFigures.of(RequestTally.EMPTY.with(5, 5, true)));

    Table table = SiegeFigures.table(figures);

    assertEquals(List.of("request", "transactions", "availability (%)", "elapsed time (s)", "response time (s)",
        "transaction rate (trans/s)", "throughput (MB/s)", "concurrency", "successful transactions",
        "failed transactions", "longest transaction (s)", "shortest transaction (s)"), table.columns());
    assertEquals(List.of("couchdb get", "3", "60", "1", "0.02", "3", "n/a", "0.06", "3", "2", "0.03", "0.01"),
        table.rows().get(0));
    assertEquals(List.of("memcache get", "1", "100", "0", "0", "n/a", "n/a", "n/a", "1", "0", "0", "0"),
        table.rows().get(1));
  }
}
