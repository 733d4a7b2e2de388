package couchbench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.report.SummaryPage;
import couchbench.report.Table;
import java.util.List;
import org.junit.jupiter.api.Test;

class SecondsPageTest {

  private static final long START = 1_000_000_400L;

  @Test
  void shouldLineUpTheLoadAndTheServersBySecondIntoTheLoadWithGapsWhereNothingWasRead() {
    LoadSeconds load = new LoadSeconds();
    load.record(START + 100, true, 2_000_000);
    load.record(START + 1_700, true, 6_000_000);
    ServerSeries servers = new ServerSeries(List.of("memcache sets (/s)", "memcache cpu (% of a core)"), List.of(
        new ServerSeries.Sample(START + 600, new double[] {Double.NaN, Double.NaN}),
        new ServerSeries.Sample(START + 1_600, new double[] {120.456, 7.5}),
        new ServerSeries.Sample(START + 3_600, new double[] {80, Double.NaN})), List.of());

    Table seconds = SecondsPage.of(load, servers, START).table();

    assertEquals(List.of("second", "requests (/s)", "failed (/s)", "p50 (ms)", "p99 (ms)", "max (ms)",
        "memcache sets (/s)", "memcache cpu (% of a core)"), seconds.columns());
    assertEquals(List.of(
        List.of("0", "1", "0", "2", "2", "2", "", ""),
        List.of("1", "0", "0", "", "", "", "120.5", "7.5"),
        List.of("2", "1", "0", "6", "6", "6", "", ""),
        List.of("3", "0", "0", "", "", "", "80", "")), seconds.rows(),
        "second 0 is the wall clock's second the load began in; a sample just after a whole second is the second's"
            + " before it");
  }

  @Test
  void shouldDrawTheLoadThenOneChartOfTheServersPerUnitAndSayWhatWasNotRead() {
    LoadSeconds load = new LoadSeconds();
    load.record(START, true, 1_000_000);
    ServerSeries servers = new ServerSeries(List.of("couchdb httpd requests (/s)", "couchdb erlang memory (MB)",
        "couchdb run queue (queued)"), List.of(new ServerSeries.Sample(START, new double[] {1, 2, 3})),
        List.of("memcache stats not read in 2 seconds (the first: ...)"));

    String html = SecondsPage.addTo(SummaryPage.titled("t"), SecondsPage.of(load, servers, START),
        servers.notes(), List.of(), START).toHtml();
    String shaded = SecondsPage.addTo(SummaryPage.titled("t"), SecondsPage.of(load, servers, START),
        servers.notes(), List.of(new RunOutput.Span("1 compact", START, START + 500)), START).toHtml();

    for (String chart : List.of("requests a second", "latency second by second", "the servers, operations a second",
        "the servers, memory in MB", "the servers, Erlang processes and messages queued")) {
      assertTrue(html.contains("alt=\"" + chart + "\""), chart);
    }
    assertTrue(html.contains("Servers second by second: memcache stats not read in 2 seconds"), html);
    assertTrue(html.contains("href=\"seconds.csv\""), html);
    assertTrue(!html.contains("Shaded") && shaded.contains("Shaded: when each background task ran"), shaded);
  }
}
