package couchbench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.report.SummaryPage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultsPageTest {

  @TempDir
  Path folder;

  /** A request's OK times: 100 of them from 1 ms to 100 ms times its factor, in nanoseconds. */
  private static Histogram times(int factor) {
    Histogram nanos = new Histogram(Outcomes.HIGHEST_NANOS, Outcomes.SIGNIFICANT_DIGITS);
    for (int i = 1; i <= 100; i++) {
      nanos.recordValue(i * 1_000_000L * factor);
    }
    return nanos;
  }

  @Test
  void shouldDrawTheFastestTheMedianAndTheSlowestOfSixtyStepsInMillisecondsAndWriteThemAll() throws IOException {
    List<Results.Entry> entries = new ArrayList<>();
    Map<String, Histogram> okTimes = new HashMap<>();
    for (int step = 1; step <= 60; step++) {
      Results.Entry entry = SummaryInput.entry("bulk B=" + step + " T=1", 100, Map.of());
      entries.add(entry);
      okTimes.put(entry.okTag(), times(step));
    }

    ResultsPage.addTo(SummaryPage.titled("BulkInsert"), SummaryInput.results("BulkInsert", null, entries), okTimes)
        .writeTo(folder);

    List<String> csv = Files.readAllLines(folder.resolve("latency-by-percentile.csv"));
    assertEquals("series,\"percentile, as log10(1/(1-p)): 1 = p90, 2 = p99, 3 = p99.9\",latency (ms)", csv.get(0));
    Set<String> series = csv.stream().skip(1).map(line -> line.substring(0, line.indexOf(','))).collect(
        Collectors.toSet());
    assertEquals(60, series.size(), "every step's curve in the CSV");
    assertTrue(csv.stream().anyMatch(line -> line.startsWith("bulk B=60 T=1,2,600")),
        "in milliseconds: B=60's maximum is 100 ms * 60");
    String page = Files.readString(folder.resolve("summary.html"));
    assertTrue(page.contains("The chart draws 7 of the 60 measured requests and groups: the 3 fastest, the median"
        + " and the 3 slowest by p99; the CSV has them all."), "the page says which curves the chart draws");
  }

  @Test
  void shouldDrawMicrosecondsWhenEveryLatencyIsBelowOneMillisecond() throws IOException {
    Results.Entry get = SummaryInput.entry("memcache get", 100, Map.of());
    Histogram nanos = new Histogram(Outcomes.HIGHEST_NANOS, Outcomes.SIGNIFICANT_DIGITS);
    for (int i = 1; i <= 100; i++) {
      nanos.recordValue(i * 5_000L);
    }

    ResultsPage.addTo(SummaryPage.titled("MemGet"), SummaryInput.results("MemGet", null, List.of(get)),
        Map.of(get.okTag(), nanos)).writeTo(folder);

    List<String> csv = Files.readAllLines(folder.resolve("latency-by-percentile.csv"));
    assertTrue(csv.get(0).endsWith(",latency (µs)"), csv.get(0));
    assertTrue(csv.stream().anyMatch(line -> line.startsWith("memcache get,2,500")), "the maximum, 500 µs");
    assertTrue(!Files.readString(folder.resolve("summary.html")).contains("The chart draws"), "all drawn, said nothing");
  }

  @Test
  void shouldSayTheConnectionsInOneLineWithoutDropsAndWarnWithATableOfWhyWithThem() throws IOException {
    ResultsPage.addTo(SummaryPage.titled("MemGet"), withConnections(
        new Results.ServerConnections("127.0.0.1:4000", 16, Map.of(), 0, null)), Map.of()).writeTo(folder);
    String calm = Files.readString(folder.resolve("summary.html"));
    assertTrue(calm.contains("Memcache connections: 127.0.0.1:4000: 16 opened, 0 dropped."), calm);
    assertFalse(Files.exists(folder.resolve("memcache-connections.csv")), "no table without drops");

    ResultsPage.addTo(SummaryPage.titled("MemSet"), withConnections(
        new Results.ServerConnections("127.0.0.1:4000", 902, Map.of("out-of-step reply", 900L), 900,
            "STORED\\r\\n"),
        new Results.ServerConnections("127.0.0.1:4001", 3, Map.of("closed by the server", 1L), 1, null)), Map.of())
        .writeTo(folder);
    String dropped = Files.readString(folder.resolve("summary.html"));
    assertTrue(dropped.contains("Memcache connections dropped: 127.0.0.1:4000: 902 opened, 900 dropped (900"
        + " out-of-step reply, the first reply no request was waiting for &quot;STORED\\r\\n&quot;), 900 reopened;"
        + " 127.0.0.1:4001: 3 opened, 1 dropped (1 closed by the server), 1 reopened. A server broke the protocol"),
        dropped);
    assertEquals(List.of("server,opened,dropped,why,reopened,first reply no request was waiting for",
        "127.0.0.1:4000,902,900,900 out-of-step reply,900,STORED\\r\\n",
        "127.0.0.1:4001,3,1,1 closed by the server,1,"),
        Files.readAllLines(folder.resolve("memcache-connections.csv")));
  }

  private static Results withConnections(Results.ServerConnections... servers) {
    Results plain = SummaryInput.results("MemGet", null, List.of());
    return new Results(plain.schema(), plain.run(), plain.requests(), plain.errors(), plain.keyFiles(),
        plain.serverCounts(), null, List.of(), List.of(servers));
  }
}
