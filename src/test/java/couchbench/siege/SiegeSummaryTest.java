package couchbench.siege;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.curve.StepFigures;
import couchbench.requests.MemcacheRequests;
import couchbench.results.Histograms;
import couchbench.results.Results;
import couchbench.startup.Settings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MemSet's and MemGet's pages from known entries: each figure's median and range over the rounds, every round's
 * figures, the step-length warnings; and the page of two injectors merged.
 */
class SiegeSummaryTest {

  private static final String TARGET = "memcache at 127.0.0.1:11211";

  @TempDir
  Path folder;

  // Rounds of 1 s each at 2000, 3000 and 1000 sets/s, mean response times 2, 1 and 4 ms; the warm-up is left out.
  private static List<Results.Entry> threeRounds() {
    List<Results.Entry> entries = new ArrayList<>();
    entries.add(set("warm-up memcache set", 99, 1000, 1000, 1000, 0, 1000));
    entries.add(set("memcache set round 1", 2000, 2000, 1000, 9000, 1000, 2000));
    entries.add(set("memcache set round 2", 3000, 1000, 1000, 5000, 2000, 3000));
    entries.add(set("memcache set round 3", 1000, 4000, 2000, 30_000, 3000, 4000));
    return entries;
  }

  private static Results.Entry set(String name, long ok, double mean, double min, double max, long from, long to) {
    return SiegeResults.entry(name, "request", ok, 0, mean, min, max, from, to);
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
    assertTrue(html.contains("Target: " + TARGET + "."), html);
    assertTrue(html.contains("Values written: 100 bytes of random text under each new key."), html);
    assertTrue(html.contains("4 users sending back to back for 2 s, in each of 3 rounds, one after the other"), html);
    assertTrue(html.contains("median of 3 rounds, with the range from the smallest to the largest round"), html);
    assertTrue(html.contains("memcache requests are timed by couchbench&#39;s client, from the request written to its"
        + " reply decoded, to the microsecond"), html);
    assertFalse(html.contains("class=\"warning\""), "2 s and hundreds of sets per user keep to the rule: " + html);
    assertFalse(html.contains("all injectors"), "one injector's page: " + html);
  }

  @Test
  void shouldGiveTheMedianOfTheTwoMiddleRoundsAndSayWhichRoundRestedOnTooFewRequests() throws IOException {
    List<Results.Entry> entries = threeRounds();
    entries.add(set("memcache set round 4", 31, 1000, 1000, 1000, 4000, 5000));

    page(Map.of("rounds", "4", "users", "4", "duration", "1"), entries);

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
    page(Map.of("users", "4"), List.of(set("warm-up memcache set", 99, 1000, 1000, 1000, 0, 1000),
        set("memcache set", 2000, 2000, 1000, 9000, 1000, 2000)));

    assertEquals(List.of("siege-s-figures.csv", "summary.html"),
        Files.list(folder).map(file -> file.getFileName().toString()).sorted().toList());
    List<String> table = Files.readAllLines(folder.resolve("siege-s-figures.csv"));
    assertEquals(2, table.size(), table.toString());
    assertTrue(table.get(1).startsWith("memcache set,2000,100,1,0.002,2000,n/a,"), table.toString());
    String html = Files.readString(folder.resolve("summary.html"));
    assertFalse(html.contains("rounds") || html.contains("round 1"), html);
  }

  @Test
  void shouldSayWhatAReadRunsKeysWereDrawnFrom() throws IOException {
    SiegeSummary.of("MemGet", SiegePlan.from(Settings.of(Map.of("users", "4"), Map.of())), MemcacheRequests.GET)
        .page(SiegeResults.of("MemGet", null, List.of(TARGET), List.of(SiegeResults.entry("memcache get", "request",
            2000, 0, 500, 100, 900, 0, 1000))), new SiegeSummary.Figures("all 1,200 keys of data/keys/memcache.csv", List.of(), null))
        .writeTo(folder);

    assertTrue(Files.readString(folder.resolve("summary.html")).contains("Keys read: all 1,200 keys of"
        + " data/keys/memcache.csv, each request picking one at random."));
  }

  @Test
  void shouldMergeTheKeysReadIntoTheOneDescriptionTheInjectorsShareElseEachInjectors() {
    SiegeSummary summary = SiegeSummary.of("MemGet", SiegePlan.from(Settings.of(Map.of(), Map.of())),
        MemcacheRequests.GET);
    SiegeSummary.Figures shared = new SiegeSummary.Figures("all 1,200 keys of keys.csv", List.of(), null);

    assertEquals(shared, summary.merge(List.of(shared, shared)));
    assertEquals("injector 0/2: all 1,200 keys of keys.csv; injector 1/2: all 10 keys of other.csv",
        summary.merge(List.of(shared, new SiegeSummary.Figures("all 10 keys of other.csv", List.of(), null))).keysRead());
    assertNull(summary.merge(List.of(SiegeSummary.Figures.WRITE, SiegeSummary.Figures.WRITE)).keysRead());
  }

  @Test
  void shouldShowTheMergedRunsSiegeTableOfTheWholeRun() throws IOException {
    // Injector 0: 2000 sets from 1 s to 3 s at a mean of 2 ms; injector 1: 3000 from 2 s to 4 s at 1 ms. Merged, as
    // Merge adds them up: 5000 sets from 1 s to 4 s at a mean of 1.4 ms, the shortest and longest of both.
    Results merged = SiegeResults.of("MemSet", "*/2", List.of(TARGET), List.of(
        set("memcache set", 5000, 1400, 500, 12_000, 1000, 4000)));
    SiegeSummary summary = SiegeSummary.of("MemSet", SiegePlan.from(Settings.of(Map.of("users", "8", "duration",
        "3", "warmup", "0"), Map.of())), MemcacheRequests.SET);

    summary.page(merged, summary.merge(List.of(SiegeSummary.Figures.WRITE, SiegeSummary.Figures.WRITE)))
        .writeTo(folder);

    List<String> table = Files.readAllLines(folder.resolve("siege-s-figures.csv"));
    assertEquals(List.of("memcache set", "5000", "100", "3", "0.0014", "1666.7", "n/a", "2.33", "5000", "0",
        "0.012", "0.0005"), List.of(table.get(1).split(",")), "transactions summed, over the union of the windows,"
        + " concurrency 5000 x 1.4 ms / 3 s");
    String html = Files.readString(folder.resolve("summary.html"));
    assertTrue(html.contains("8 users sending back to back for 3 s."), "the whole run's users: " + html);
    assertFalse(html.contains("share"), html);
    assertTrue(html.contains("Siege&#39;s figures of all injectors: their transactions and failures added up"), html);
  }

  @Test
  void shouldDrawTheMergedStaircaseOnTheWholeRate() throws IOException {
    // Each of two injectors ran half of 100/s then 200/s, every get at 1 ms: the merged steps are 100/s and 200/s.
    SiegeSummary summary = SiegeSummary.of("MemGet", SiegePlan.from(Settings.of(Map.of("users", "8", "targets",
        "100,200", "sla", "p99<5ms"), Map.of())), MemcacheRequests.GET);
    SiegeSummary.Figures injector = new SiegeSummary.Figures("all 10 keys of keys.csv", List.of(half(50), half(100)),
        100.0);

    SiegeSummary.Figures merged = summary.merge(List.of(injector, injector));
    summary.page(SiegeResults.of("MemGet", "*/2", List.of(TARGET), List.of(SiegeResults.entry("memcache get",
        "request", 3000, 0, 1000, 900, 1100, 0, 26_000))), merged).writeTo(folder);

    assertEquals(List.of(100.0, 200.0), merged.steps().stream().map(StepFigures::target).toList());
    assertEquals(200.0, merged.highestRate());
    List<String> steps = Files.readAllLines(folder.resolve("the-staircase-step-by-step.csv"));
    assertTrue(steps.get(2).startsWith("MemGet,2,200,200,2000,0,0,1,"), steps.toString());
    assertTrue(Files.readString(folder.resolve("summary.html")).contains("MemGet: 200 operations/s is the highest"
        + " rate asked that was met"));
  }

  // Half a step's share, met: ten seconds of gets at 1 ms.
  private static StepFigures half(double rate) {
    Histogram micros = new Histogram(3);
    micros.recordValueWithCount(1_000, (long) rate * 10);
    String encoded = Histograms.encode(micros);
    return new StepFigures(rate, rate, (long) rate * 10, 0, 0, encoded, encoded, 1_000.0, true);
  }

  private void page(Map<String, String> parameters, List<Results.Entry> entries) {
    SiegePlan plan = SiegePlan.from(Settings.of(parameters, Map.of()));
    SiegeSummary.of("MemSet", plan, MemcacheRequests.SET)
        .page(SiegeResults.of("MemSet", null, List.of(TARGET), entries), SiegeSummary.Figures.WRITE).writeTo(folder);
  }
}
