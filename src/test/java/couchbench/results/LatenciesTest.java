package couchbench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;

import couchbench.report.Table;
import java.util.List;
import org.junit.jupiter.api.Test;

class LatenciesTest {

  @Test
  void shouldGivePercentilesInMicrosecondsToHdrHistogramsPrecision() {
    Latencies latencies = new Latencies();
    for (int micros = 1; micros <= 1000; micros++) {
      latencies.record("memcache get", true, micros * 1000L);
    }
    latencies.record("memcache get", false, 5_000_000L);
    latencies.record("warm-up memcache get", true, 1000L);

    Table table = latencies.table(name -> !name.startsWith("warm-up"));

    assertEquals(List.of("request", "OK", "KO", "mean (us)", "p50 (us)", "p90 (us)", "p99 (us)", "p99.9 (us)",
        "p99.99 (us)", "max (us)"), table.columns());
    assertEquals(1, table.rows().size(), "the warm-up left out: " + table.rows());
    List<String> row = table.rows().get(0);
    assertEquals(List.of("memcache get", "1000", "1"), row.subList(0, 3));
    // HdrHistogram with 3 significant digits: each figure within 0.1% of the exact one.
    double[] exact = {500.5, 500, 900, 990, 999, 1000, 1000};
    for (int i = 0; i < exact.length; i++) {
      double figure = Double.parseDouble(row.get(3 + i));
      assertEquals(exact[i], figure, exact[i] * 0.001, table.columns().get(3 + i));
    }
    assertEquals(1, latencies.ko("memcache get").getTotalCount());
    assertEquals(0, latencies.ok("never sent").getTotalCount());
  }
}
