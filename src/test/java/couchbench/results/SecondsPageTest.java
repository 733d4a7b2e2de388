package couchbench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.report.SummaryPage;
import couchbench.report.Table;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SecondsPageTest {

  private static final long START = 1_000_000_400L;

  @Test
  void shouldLineUpTheLoadAndTheServersBySecondIntoTheLoadWithGapsWhereNothingWasRead() {
    LoadSeconds load = new LoadSeconds();
    load.record("get", START + 100, true, 2_000_000);
    load.record("get", START + 1_700, true, 6_000_000);
    ServerSeries servers = new ServerSeries(List.of("memcache sets (/s)", "memcache cpu (% of a core)"), List.of(
        new ServerSeries.Sample(START + 600, new double[] {Double.NaN, Double.NaN}),
        new ServerSeries.Sample(START + 1_600, new double[] {120.456, 7.5}),
        new ServerSeries.Sample(START + 3_600, new double[] {80, Double.NaN})), List.of());

    Table seconds = SecondsPage.of(load, List.of(), servers, START).table();

    assertEquals(List.of("second", "requests (/s)", "failed (/s)", "p50 (ms)", "p99 (ms)", "max (ms)",
        "p99 per minute (ms)", "memcache sets (/s)", "memcache cpu (% of a core)"), seconds.columns());
    assertEquals(List.of(
        List.of("0", "1", "0", "2", "2", "2", "", "", ""),
        List.of("1", "0", "0", "", "", "", "", "120.5", "7.5"),
        List.of("2", "1", "0", "6", "6", "6", "", "", ""),
        List.of("3", "0", "0", "", "", "", "", "80", "")), seconds.rows(),
        "second 0 is the wall clock's second the load began in; a sample just after a whole second is the second's"
            + " before it");
  }

  @Test
  void shouldDrawTheLoadThenOneChartOfTheServersPerUnitAndSayWhatWasNotRead() {
    LoadSeconds load = new LoadSeconds();
    load.record("get", START, true, 1_000_000);
    ServerSeries servers = new ServerSeries(List.of("couchdb httpd requests (/s)", "couchdb erlang memory (MB)",
        "couchdb run queue (queued)"), List.of(new ServerSeries.Sample(START, new double[] {1, 2, 3})),
        List.of("memcache stats not read in 2 seconds (the first: ...)"));

    String html = SecondsPage.addTo(SummaryPage.titled("t"), SecondsPage.of(load, List.of(), servers, START),
        servers.notes(), List.of(), START).toHtml();
    String shaded = SecondsPage.addTo(SummaryPage.titled("t"), SecondsPage.of(load, List.of(), servers, START),
        servers.notes(), List.of(new RunOutput.Span("1 compact", START, START + 500)), START).toHtml();

    for (String chart : List.of("requests a second", "latency second by second", "the servers, operations a second",
        "the servers, memory in MB", "the servers, Erlang processes and messages queued")) {
      assertTrue(html.contains("alt=\"" + chart + "\""), chart);
    }
    assertTrue(html.contains("Servers second by second: memcache stats not read in 2 seconds"), html);
    assertTrue(html.contains("href=\"seconds.csv\""), html);
    assertTrue(!html.contains("Shaded") && shaded.contains("Shaded: when each background task ran"), shaded);
  }

  @Test
  void shouldGiveEachKindSaidApartColumnsAndChartsOfItsOwnAfterTheLoadsRequests() {
    LoadSeconds load = new LoadSeconds();
    load.apart(SeriesKind.NOTIFICATION, List.of("notification continuous"));
    load.apart(SeriesKind.VERDICT, List.of("delivery continuous"));
    load.record("write", START + 100, true, 9_000_000);
    load.record("notification continuous", START + 200, true, 30_000_000);
    load.record("notification continuous", START + 300, true, 40_000_000);
    load.record("delivery continuous", START + 1_100, false, 0);
    ServerSeries servers = new ServerSeries(List.of("couchdb httpd requests (/s)"),
        List.of(new ServerSeries.Sample(START + 600, new double[] {3})), List.of());

    SecondsPage.Seconds seconds = SecondsPage.of(load, List.of(), servers, START);
    String html = SecondsPage.addTo(SummaryPage.titled("t"), seconds, List.of(), List.of(), START).toHtml();

    assertEquals(List.of("second", "requests (/s)", "failed (/s)", "p50 (ms)", "p99 (ms)", "max (ms)",
        "p99 per minute (ms)", "notifications (/s)", "notifications failed (/s)", "notification p50 (ms)",
        "notification p99 (ms)", "notification max (ms)", "notification p99 per minute (ms)", "verdicts (/s)",
        "verdicts failed (/s)", "verdict p50 (ms)", "verdict p99 (ms)", "verdict max (ms)",
        "verdict p99 per minute (ms)", "couchdb httpd requests (/s)"), seconds.columns());
    assertEquals(List.of(
        List.of("0", "1", "0", "9", "9", "9", "", "2", "0", "30", "40", "40", "", "0", "0", "", "", "", "", "3"),
        List.of("1", "0", "0", "", "", "", "", "0", "0", "", "", "", "", "1", "1", "", "", "", "", "")),
        seconds.table().rows(), "a write's 9 ms and the notifications' 30-40 ms each in their own columns");
    for (String chart : List.of("requests a second", "latency second by second", "notifications a second",
        "notification latency second by second", "verdicts a second", "verdict latency second by second",
        "the servers, operations a second")) {
      assertTrue(html.contains("alt=\"" + chart + "\""), chart);
    }
    assertTrue(html.contains("then apart from them, each on charts of its own: notifications"), html);
  }

  @Test
  void shouldPutTheLoadsOwnColumnsBetweenItsRequestsAndTheServersWithoutChartingThemAmongTheServers() {
    LoadSeconds load = new LoadSeconds();
    load.record("get", START + 100, true, 2_000_000);
    load.record("get", START + 2_100, true, 2_000_000);
    ServerSeries servers = new ServerSeries(List.of("memcache gets (/s)"),
        List.of(new ServerSeries.Sample(START + 600, new double[] {5})), List.of());
    List<LoadColumn> own = List.of(new LoadColumn("hit ratio (hits over reads)", Map.of(0L, 0.75, 2L, 1.0)));

    SecondsPage.Seconds seconds = SecondsPage.of(load, own, servers, START);
    String html = SecondsPage.addTo(SummaryPage.titled("t"), seconds, List.of(), List.of(), START).toHtml();

    assertEquals(List.of("second", "requests (/s)", "failed (/s)", "p50 (ms)", "p99 (ms)", "max (ms)",
        "p99 per minute (ms)", "hit ratio (hits over reads)", "memcache gets (/s)"), seconds.columns());
    assertEquals(List.of(List.of("0", "0.75", "5"), List.of("1", "", ""), List.of("2", "1", "")),
        seconds.table().rows().stream().map(row -> List.of(row.get(0), row.get(7), row.get(8))).toList(),
        "a second without a value is an empty cell, not 0");
    assertTrue(html.contains("the load&#39;s own figures (hit ratio (hits over reads)), in the file alone"), html);
    assertTrue(html.contains("alt=\"the servers, operations a second\"")
        && !html.contains("alt=\"the servers, hits over reads\""), html);
  }

  @Test
  void shouldGiveEachWholeMinuteThePercentileOfAllItsRequestsOnItsLastSecond(@TempDir Path folder)
      throws IOException {
    LoadSeconds load = new LoadSeconds();
    // Minute 0: 99 requests a second of 1 ms, and one second (second 30) of 100 requests of 50 ms: 1.6% of the
    // minute's requests are slow, so its p99 is 50 ms, though 59 of its 60 seconds have a p99 of 1 ms.
    for (int second = 0; second < 125; second++) {
      for (int request = 0; request < 100; request++) {
        load.record("get", START + second * 1000L, true, second == 30 ? 50_000_000 : 1_000_000);
      }
    }

    SecondsPage.Seconds seconds = SecondsPage.of(load, List.of(), new ServerSeries(List.of(), List.of(), List.of()),
        START);
    List<List<String>> rows = seconds.table().rows();

    int minute = 6;
    assertEquals("50", rows.get(59).get(minute), "the first minute's p99, on its last second");
    assertEquals("1", rows.get(119).get(minute), "the second minute's");
    assertEquals(List.of(59, 119), IntStream.range(0, rows.size())
        .filter(row -> !rows.get(row).get(minute).isEmpty()).boxed().toList(), "whole minutes only: 120-124 is cut"
            + " short");
    SecondsPage.addTo(SummaryPage.titled("t"), seconds, List.of(), List.of(), START).writeTo(folder);
    try (Stream<Path> files = Files.list(folder)) {
      assertTrue(files.filter(file -> file.toString().endsWith(".csv")).map(SecondsPageTest::read)
          .anyMatch(csv -> csv.contains("p99 per minute")), "drawn on the latency chart through its minutes");
    }
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
