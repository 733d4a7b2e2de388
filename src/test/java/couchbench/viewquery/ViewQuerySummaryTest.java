package couchbench.viewquery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.report.LineChart;
import couchbench.report.SummaryPage;
import couchbench.results.Results;
import couchbench.results.SummaryInput;
import couchbench.startup.Settings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ViewQuerySummaryTest {

  private static final String SERVER = "http://127.0.0.1:5984";
  private static final IndexBuild INDEX = new IndexBuild(12.5, 2, 470, null, false);

  /**
   * A round of known figures: a connection every {@code gapMillis} from 0 to 5 s, each with one call answered 200
   * after {@code replyMillis}; the one 5 s window then holds the replies of those started before 5 s.
   */
  private static ConnFigures round(long gapMillis, long replyMillis) {
    return round(gapMillis, replyMillis, 5_000);
  }

  /** As above, the connections starting from 0 to {@code lastMillis}. */
  private static ConnFigures round(long gapMillis, long replyMillis, long lastMillis) {
    AtomicLong now = new AtomicLong();
    ConnTally tally = new ConnTally(now::get, now::get);
    for (long start = 0; start <= lastMillis; start += gapMillis) {
      now.set(start * 1_000_000);
      long connection = tally.connectionStarted();
      long sent = tally.requestSent();
      now.addAndGet(replyMillis * 1_000_000);
      tally.countReply(sent, 200);
      tally.countReplySize(470);
      tally.connectionEnded(connection);
    }
    return tally.figures();
  }

  /** The page of a run of one injector, built as the run builds it. */
  private static SummaryPage page(ViewQueryPlan plan, List<ConnFigures> rounds) {
    List<Results.Entry> entries = plan.rounds().numbers().stream()
        .map(round -> SummaryInput.entry(plan.requestName(round), rounds.get(round - 1).replies(), Map.of())).toList();
    return SummaryInput.page(ViewQuerySummary.of(plan), SummaryInput.results("ViewQuery", null, entries),
        new ViewQueryFigures(SERVER, INDEX, false, rounds));
  }

  @Test
  void shouldDrawTheConnectionTimesOfEightRoundsOfNineAndWriteAllNine() {
    List<ConnFigures> nine = IntStream.range(0, 9).mapToObj(i -> round(1_000, 10)).toList();

    LineChart chart = ViewQueryCharts.connectionTimes(nine);

    assertEquals(9, chart.data().rows().stream().map(row -> row.get(0)).distinct().count(), "every round in the CSV");
    chart.png(900, 500);
  }

  @Test
  void shouldGiveEachFigureAsTheMedianOfTheRoundsWithTheirRange(@TempDir Path folder) throws IOException {
    ViewQueryPlan plan = plan(Map.of("rate", "20", "conns", "120", "rounds", "3"));
    // 6, 11 and 21 connections; 1, 2 and 4 replies/s in the window; replies after 10, 30 and 20 ms.
    List<ConnFigures> figures = List.of(round(1_000, 10), round(500, 30), round(250, 20));

    page(plan, figures).writeTo(folder);

    Map<String, String> spreads = rows(folder.resolve("figures.csv"));
    assertEquals("median,min,max", spreads.get("figure"));
    assertEquals("11,6,21", spreads.get("connections"));
    assertEquals("11,6,21", spreads.get("status 2xx"));
    assertEquals("2,1,4", spreads.get("reply rate avg"));
    assertEquals("1,1,1", spreads.get("reply rate samples"));
    assertEquals("20,10,30", spreads.get("reply time avg ms"));
    assertEquals("20,10,30", spreads.get("connection time max ms"));
    assertEquals("0,0,0", spreads.get("failed requests"));
    assertEquals("12.5,12.5,12.5", spreads.get("index build ms"), "measured once, before round 1");
    Map<String, String> byRound = rows(folder.resolve("figures-by-round.csv"));
    assertEquals("round 1,round 2,round 3", byRound.get("figure"));
    assertEquals("6,11,21", byRound.get("connections"));
    assertEquals("1,2,4", byRound.get("reply rate avg"));
    assertEquals(List.of("series,end of the sample (s since the first connection),replies/s,smallest round,"
        + "largest round", "reply rate,5,2,1,4"), Files.readAllLines(folder.resolve("reply-rate-over-the-run.csv")));
    List<String> connections = Files.readAllLines(folder.resolve("connection-times.csv"));
    assertEquals("series,connection time (ms),connections at most this long (%)", connections.get(0));
    assertEquals(1 + 6 + 11 + 21, connections.size(), "a line per round, a point per connection: " + connections);
    assertTrue(connections.contains("round 1,10,100") && connections.contains("round 2,30,100")
        && connections.contains("round 3,20,100"), connections.toString());
    for (int round = 1; round <= 3; round++) {
      String httperf = Files.readString(folder.resolve("httperf-s-figures-round-" + round + ".txt"));
      assertTrue(httperf.startsWith("Total: connections " + List.of(6, 11, 21).get(round - 1) + " "), httperf);
    }
    String page = Files.readString(folder.resolve("summary.html"));
    assertTrue(page.contains("Rounds: median of 3 rounds, with the range from the smallest to the largest round."),
        page);
    assertFalse(page.contains("Warning"), "6 s a round: " + page);
  }

  @Test
  void shouldKeepOneRoundsPageAsItWas(@TempDir Path folder) throws IOException {
    ViewQueryPlan plan = plan(Map.of("rate", "20", "conns", "120"));

    page(plan, List.of(round(1_000, 10))).writeTo(folder);

    Map<String, String> figures = rows(folder.resolve("figures.csv"));
    assertEquals("value", figures.get("figure"));
    assertEquals("6", figures.get("connections"));
    assertFalse(Files.exists(folder.resolve("figures-by-round.csv")));
    assertEquals(List.of("series,end of the sample (s since the first connection),replies/s", "reply rate,5,1"),
        Files.readAllLines(folder.resolve("reply-rate-over-the-run.csv")));
    assertTrue(Files.readAllLines(folder.resolve("connection-times.csv")).contains("connections,10,100"));
    assertTrue(Files.exists(folder.resolve("httperf-s-figures.txt")));
  }

  @Test
  void shouldSayThereIsNoReplyRateChartWhenTheLoadIsShorterThanOneSample(@TempDir Path folder) throws IOException {
    ViewQueryPlan plan = plan(Map.of("rate", "5", "conns", "15"));

    page(plan, List.of(round(200, 10, 3_000))).writeTo(folder);

    assertFalse(Files.exists(folder.resolve("reply-rate-over-the-run.png")), "no chart of an empty axis");
    assertTrue(Files.readString(folder.resolve("summary.html")).contains("Reply rate over the run: no chart, since the"
        + " load lasted less than one of httperf"), "the page says why");
    assertTrue(Files.exists(folder.resolve("connection-times.png")), "the other chart is drawn");
  }

  @Test
  void shouldWarnWhenALoadRestsOnLessThanTwoSeconds(@TempDir Path folder) throws IOException {
    ViewQueryPlan plan = plan(Map.of("rate", "20", "conns", "30", "rounds", "2"));

    page(plan, List.of(round(1_000, 10), round(1_000, 10))).writeTo(folder);

    assertTrue(Files.readString(folder.resolve("summary.html")).contains("Warning: the load of each round lasts 1.50 s"
        + " (30 connections at 20/s), under the 2 s a figure should rest on: raise -Dconns or lower -Drate."));
  }

  @Test
  void shouldMergeTwoInjectorsConnectionsIntoTheWholeRunsFigures(@TempDir Path folder) throws IOException {
    // Injector 1 starts 0.5 s after injector 0 and ends 5 s after it: the union is 11 s, two of httperf's windows.
    ConnFigures first = new ConnFigures(3, 3, 0, 1, new long[] {0, 0, 2, 0, 0, 1}, 2, 0.5, 1_000_000L, 1_006_000L,
        new long[] {10_000, 20_000, 30_000}, new long[] {5_000, 6_000, 7_000}, new long[] {470, 470, 20},
        new long[] {1_000_010, 1_002_000, 1_005_500});
    ConnFigures second = new ConnFigures(2, 3, 1, 1, new long[] {0, 0, 2, 0, 0, 0}, 3, 0.25, 1_000_500L, 1_011_000L,
        new long[] {40_000, 50_000}, new long[] {8_000, 9_000}, new long[] {470, 470},
        new long[] {1_004_000, 1_009_000});
    IndexBuild readOnly = new IndexBuild(3.5, 2, 470, null, true);
    ViewQuerySummary summary = ViewQuerySummary.of(plan(Map.of("rate", "20", "conns", "120")));

    ViewQueryFigures merged = summary.merge(List.of(new ViewQueryFigures(SERVER, INDEX, false, List.of(first)),
        new ViewQueryFigures("http://10.0.0.2:5984", readOnly, true, List.of(second))));

    assertEquals(new ViewQueryFigures(SERVER, INDEX, true, List.of(new ConnFigures(5, 6, 1, 2,
        new long[] {0, 0, 4, 0, 0, 1}, 5, 0.75, 1_000_000L, 1_011_000L,
        new long[] {10_000, 20_000, 30_000, 40_000, 50_000}, new long[] {5_000, 6_000, 7_000, 8_000, 9_000},
        new long[] {470, 470, 20, 470, 470}, new long[] {1_000_010, 1_002_000, 1_005_500, 1_004_000, 1_009_000}))),
        merged, "counts, maxima and CPU added, samples together, the union window, injector 0's index build");
    assertEquals(merged, SummaryInput.readBack(ViewQueryFigures.class, merged), "results.json keeps it as it is");
    Results results = SummaryInput.results("ViewQuery", "*/2", List.of(SummaryInput.entry("view list", 4,
        Map.of("i.n.c.AbstractChannel$AnnotatedConnectException: Connection refused: /127.0.0.1:5984", 1L,
            "status.find.is(200), but actually found 503", 1L))));
    SummaryInput.page(summary, results, merged).writeTo(folder);

    Map<String, String> figures = rows(folder.resolve("figures.csv"));
    assertEquals("5", figures.get("connections"));
    assertEquals("6", figures.get("requests"));
    assertEquals("5", figures.get("replies"));
    assertEquals("11", figures.get("test-duration s"));
    assertEquals("0.455", figures.get("connection rate conn/s"), "5 connections over the union's 11 s");
    assertEquals("5", figures.get("concurrent connections max"), "the sum of the maxima");
    assertEquals("2", figures.get("reply rate samples"));
    assertEquals("0.5", figures.get("reply rate avg"), "3 replies in the first 5 s, 2 in the next, on one clock");
    assertEquals("4", figures.get("status 2xx"));
    assertEquals("1", figures.get("status 5xx"));
    assertEquals("1", figures.get("errors connrefused"), "sorted by the merged entry's messages");
    assertEquals("0", figures.get("errors other"));
    assertEquals("2", figures.get("failed requests"));
    assertEquals("30", figures.get("connection time median ms"));
    assertEquals("12.5", figures.get("index build ms"), "injector 0's");
    assertEquals(List.of("series,end of the sample (s since the first connection),replies/s", "reply rate,5,0.6",
        "reply rate,10,0.4"), Files.readAllLines(folder.resolve("reply-rate-over-the-run.csv")));
    String httperf = Files.readString(folder.resolve("httperf-s-figures.txt"));
    assertTrue(httperf.contains("CPU time [s]: 0.75 (user and system, the 2 injectors' Gatling JVMs added;"), httperf);
    String page = Files.readString(folder.resolve("summary.html"));
    assertTrue(page.contains("httperf --client=0/1 --server=127.0.0.1 --port=5984"
        + " --uri=/todo/_design/todo/_view/list --rate=20 --num-conns=120 --num-calls=1"), "the whole run's: " + page);
    assertTrue(page.contains("Merged from 2 injectors: counts add"), page);
    assertTrue(page.contains("the sum of the injectors&#39; maxima, an upper bound"), page);
    assertTrue(page.contains("Warning: CouchDB refused the login during the run"), "injector 1's: " + page);
  }

  private static ViewQueryPlan plan(Map<String, String> properties) {
    return ViewQueryPlan.from(Settings.of(properties, Map.of()));
  }

  /** @return a CSV's rows by their first cell, the rest of the line as it is; the header under "figure" */
  private static Map<String, String> rows(Path csv) throws IOException {
    Map<String, String> rows = new HashMap<>();
    for (String line : Files.readAllLines(csv)) {
      String[] cells = line.split(",", 2);
      rows.put(cells[0], cells[1]);
    }
    return rows;
  }
}
