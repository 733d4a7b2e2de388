package couchbench.viewquery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.startup.Settings;
import couchbench.targets.CouchTarget;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ViewQuerySummaryTest {

  private static final CouchTarget TARGET = new CouchTarget("http://127.0.0.1:5984", Optional.empty(), false);
  private static final IndexBuild INDEX = new IndexBuild(12.5, 2, 470, Optional.empty(), false);

  /**
   * A round of known figures: a connection every {@code gapMillis} from 0 to 5 s, each with one call answered 200
   * after {@code replyMillis}; the one 5 s window then holds the replies of those started before 5 s.
   */
  private static HttperfFigures round(long gapMillis, long replyMillis) {
    return round(gapMillis, replyMillis, 5_000);
  }

  /** As above, the connections starting from 0 to {@code lastMillis}. */
  private static HttperfFigures round(long gapMillis, long replyMillis, long lastMillis) {
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
    return new HttperfFigures(tally, ErrorKinds.count(0, Map.of()), tally.cpuSeconds());
  }

  @Test
  void shouldGiveEachFigureAsTheMedianOfTheRoundsWithTheirRange(@TempDir Path folder) throws IOException {
    ViewQueryPlan plan = plan(Map.of("rate", "20", "conns", "120", "rounds", "3"));
    // 6, 11 and 21 connections; 1, 2 and 4 replies/s in the window; replies after 10, 30 and 20 ms.
    List<HttperfFigures> figures = List.of(round(1_000, 10), round(500, 30), round(250, 20));

    ViewQuerySummary.page("ViewQuery", plan, TARGET, INDEX, figures, Optional.empty(), false).writeTo(folder);

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

    ViewQuerySummary.page("ViewQuery", plan, TARGET, INDEX, List.of(round(1_000, 10)), Optional.empty(), false)
        .writeTo(folder);

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

    ViewQuerySummary.page("ViewQuery", plan, TARGET, INDEX, List.of(round(200, 10, 3_000)), Optional.empty(), false)
        .writeTo(folder);

    assertFalse(Files.exists(folder.resolve("reply-rate-over-the-run.png")), "no chart of an empty axis");
    assertTrue(Files.readString(folder.resolve("summary.html")).contains("Reply rate over the run: no chart, since the"
        + " load lasted less than one of httperf"), "the page says why");
    assertTrue(Files.exists(folder.resolve("connection-times.png")), "the other chart is drawn");
  }

  @Test
  void shouldWarnWhenALoadRestsOnLessThanTwoSeconds(@TempDir Path folder) throws IOException {
    ViewQueryPlan plan = plan(Map.of("rate", "20", "conns", "30", "rounds", "2"));

    ViewQuerySummary.page("ViewQuery", plan, TARGET, INDEX, List.of(round(1_000, 10), round(1_000, 10)),
        Optional.empty(), false).writeTo(folder);

    assertTrue(Files.readString(folder.resolve("summary.html")).contains("Warning: the load of each round lasts 1.50 s"
        + " (30 connections at 20/s), under the 2 s a figure should rest on: raise -Dconns or lower -Drate."));
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
