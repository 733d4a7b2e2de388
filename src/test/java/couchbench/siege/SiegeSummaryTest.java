package couchbench.siege;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.results.RequestTally;
import couchbench.results.RunLog;
import couchbench.startup.Settings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** MemSet's page from known rounds: each figure's median and range over the rounds, and every round's figures. */
class SiegeSummaryTest {

  @TempDir
  Path folder;

  // Rounds of 1 s each at 2000, 3000 and 1000 sets/s, mean response times 2, 1 and 4 ms; the warm-up is left out.
  private static Map<String, RequestTally> threeRounds() {
    Map<String, RequestTally> requests = new LinkedHashMap<>();
    requests.put("warm-up memcache set", new RequestTally(99, 0, 99, 1, 1, 0, 1000));
    requests.put("memcache set round 1", new RequestTally(2000, 0, 4000, 1, 9, 1000, 2000));
    requests.put("memcache set round 2", new RequestTally(3000, 0, 3000, 1, 5, 2000, 3000));
    requests.put("memcache set round 3", new RequestTally(1000, 0, 4000, 2, 30, 3000, 4000));
    return requests;
  }

  @Test
  void shouldGiveEachFiguresMedianAndRangeOverTheRoundsAndEveryRoundsFigures() throws IOException {
    page(Map.of("rounds", "3", "users", "4", "duration", "2"), threeRounds());

    List<String> spread = Files.readAllLines(folder.resolve("siege-s-figures-over-the-rounds.csv"));
    assertEquals("request,figure,median,min,max,rounds", spread.get(0));
    assertTrue(spread.contains("memcache set,transactions,2000,1000,3000,3"), spread.toString());
    assertTrue(spread.contains("memcache set,transaction rate (trans/s),2000,1000,3000,3"), spread.toString());
    assertTrue(spread.contains("memcache set,response time (s),0.002,0.001,0.004,3"), spread.toString());
    assertTrue(spread.contains("memcache set,longest transaction (s),0.009,0.005,0.03,3"), spread.toString());
    assertTrue(spread.contains("memcache set,failed transactions,0,0,0,3"), spread.toString());
    assertEquals(10, spread.size(), "a row per figure, but throughput (n/a) and successful transactions"
        + " (= transactions): " + spread);

    List<String> rounds = Files.readAllLines(folder.resolve("siege-s-figures-round-by-round.csv"));
    assertEquals(4, rounds.size(), "a row per round, no warm-up: " + rounds);
    assertTrue(rounds.get(1).startsWith("memcache set round 1,2000,100,1,0.002,2000,n/a,"), rounds.toString());
    assertTrue(rounds.get(2).startsWith("memcache set round 2,3000,100,1,0.001,3000,n/a,"), rounds.toString());
    assertTrue(rounds.get(3).startsWith("memcache set round 3,1000,100,1,0.004,1000,n/a,"), rounds.toString());

    String html = Files.readString(folder.resolve("summary.html"));
    assertTrue(html.contains("4 users sending back to back for 2 s, in each of 3 rounds, one after the other"), html);
    assertTrue(html.contains("median of 3 rounds, with the range from the smallest to the largest round"), html);
    assertFalse(html.contains("class=\"warning\""), "2 s and hundreds of sets per user keep to the rule: " + html);
  }

  @Test
  void shouldGiveTheMedianOfTheTwoMiddleRoundsAndSayWhichRoundRestedOnTooFewRequests() throws IOException {
    Map<String, RequestTally> requests = threeRounds();
    requests.put("memcache set round 4", new RequestTally(31, 0, 31, 1, 1, 4000, 5000));

    page(Map.of("rounds", "4", "users", "4", "duration", "1"), requests);

    List<String> spread = Files.readAllLines(folder.resolve("siege-s-figures-over-the-rounds.csv"));
    assertTrue(spread.contains("memcache set,transactions,1500,31,3000,4"), "(1000 + 2000) / 2: " + spread);
    String html = Files.readString(folder.resolve("summary.html"));
    assertTrue(html.contains("Each step lasted 1 s (-Dduration=1), under the 2 s of load a figure should rest on"),
        html);
    assertTrue(html.contains("memcache set round 4 rested on 7.8 requests per user (31 requests by 4 users), under"
        + " the 8 a figure should rest on"), html);
    assertFalse(html.contains("memcache set round 3 rested on"), html);
  }

  @Test
  void shouldShowSiegesTableAsItWasWithOneRound() throws IOException {
    Map<String, RequestTally> requests = new LinkedHashMap<>();
    requests.put("warm-up memcache set", new RequestTally(99, 0, 99, 1, 1, 0, 1000));
    requests.put("memcache set", new RequestTally(2000, 0, 4000, 1, 9, 1000, 2000));

    page(Map.of("users", "4"), requests);

    assertEquals(List.of("siege-s-figures.csv", "summary.html"),
        Files.list(folder).map(file -> file.getFileName().toString()).sorted().toList());
    List<String> table = Files.readAllLines(folder.resolve("siege-s-figures.csv"));
    assertEquals(2, table.size(), table.toString());
    assertTrue(table.get(1).startsWith("memcache set,2000,100,1,0.002,2000,n/a,"), table.toString());
    String html = Files.readString(folder.resolve("summary.html"));
    assertFalse(html.contains("rounds") || html.contains("round 1"), html);
  }

  private void page(Map<String, String> parameters, Map<String, RequestTally> requests) {
    SiegePlan plan = SiegePlan.from(Settings.of(parameters, Map.of()));
    RunLog log = new RunLog("3.15.1", "MemSet", 0, requests, Map.of(), Map.of(), Map.of(), Map.of(), Map.of());
    SiegeSummary.page("MemSet", plan, MemcacheWorkloads.SET, "memcache at 127.0.0.1:11211", Optional.empty(),
        Optional.of(log)).writeTo(folder);
  }
}
