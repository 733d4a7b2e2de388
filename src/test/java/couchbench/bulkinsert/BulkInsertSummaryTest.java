package couchbench.bulkinsert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.couchdb.DocWriteReply;
import couchbench.resources.CpuMeter;
import couchbench.results.Results;
import couchbench.results.Summary;
import couchbench.results.SummaryInput;
import couchbench.startup.Settings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BulkInsertSummaryTest {

  /** The results of a run of the plan, its figures as results.json holds them, and its page of both. */
  static void writePage(BulkInsertPlan plan, Results results, BulkInsertFigures figures, Path folder)
      throws IOException {
    writePage(BulkInsertSummary.of(plan), results, figures, folder);
  }

  static void writePage(Summary<BulkInsertFigures> summary, Results results, BulkInsertFigures figures, Path folder) {
    SummaryInput.page(summary, results, figures).writeTo(folder);
  }

  /**
   * @param injector the run's injector share: null for one injector, "*&#47;N" for a merged run
   * @param entries the run's entries: none when Gatling's log could not be read
   */
  static Results results(String injector, List<Results.Entry> entries) {
    return results(injector, Map.of(), entries);
  }

  /** The same, of a run with these parameters. */
  static Results results(String injector, Map<String, String> parameters, List<Results.Entry> entries) {
    return SummaryInput.results("BulkInsert", injector, parameters, entries);
  }

  /** A step's entry as Gatling's log gives it: its OK replies, its failures by message. */
  static Results.Entry entry(String name, long ok, Map<String, Long> failures) {
    return SummaryInput.entry(name, ok, failures);
  }

  /** Every step's entry, as many OK as the step's replies, no failure. */
  private static List<Results.Entry> entries(BulkInsertFigures figures) {
    return figures.steps().stream().map(step -> entry(step.name(), step.replies(), Map.of())).toList();
  }

  /** The figures of the tallies, as BulkInsertChains gives them. */
  private static BulkInsertFigures figures(BulkInsertPlan plan, List<StepTally> tallies, String server) {
    return new BulkInsertFigures(plan.steps().stream().map(step -> tallies.get(plan.steps().indexOf(step))
        .figures(plan.name(step))).collect(Collectors.toList()), server, false);
  }

  private static CpuMeter.Reading reading(double client, double jit, Double server) {
    return new CpuMeter.Reading(Optional.of(client), Optional.of(client * 0.9), Optional.of(client * 0.1),
        Optional.of(jit), Optional.of(0.0), Optional.ofNullable(server));
  }

  private static List<StepTally> tallies(Double serverAtEnd) {
    StepTally ran = new StepTally(1);
    ran.cpuAtStart(reading(10, 2, serverAtEnd == null ? null : 100.0));
    ran.cpuAtEnd(reading(10.5, 2.25, serverAtEnd));
    return List.of(ran, new StepTally(1)); // the second never ran to its end: no CPU row
  }

  @Test
  void shouldShowTheClientsCpuBesideTheServersStepByStep(@TempDir Path folder) throws IOException {
    BulkInsertPlan plan = BulkInsertPlan.from(Settings.of(Map.of("batchSizes", "64,1024", "threads", "1",
        "single", "false"), Map.of()));

    writePage(plan, results(null, List.of()), figures(plan, tallies(102.0), "beam.smp (pid 4242)"), folder);

    assertEquals(List.of(
        "method,B,T,client CPU (s),client user (s),client system (s),client JIT (s),client GC (s),server CPU (s),"
            + "client / server",
        "bulk (_bulk_docs),64,1,0.5,0.45,0.05,0.25,0,2,0.25"), Files.readAllLines(folder.resolve("cpu-by-step.csv")));
    String page = Files.readString(folder.resolve("summary.html"));
    assertTrue(page.contains("the server, beam.smp (pid 4242)"), page);
    assertTrue(page.contains("In all steps: client 0.50 s, server 2.00 s."), page);
  }

  /** A step that acknowledged these documents in these seconds, in replies of B each, by one user. */
  private static StepTally ran(int batchSize, int replies, double seconds) {
    long[] now = {0};
    StepTally tally = new StepTally(1, () -> now[0]);
    tally.userStarted();
    for (int i = 0; i < replies; i++) {
      tally.countSent(batchSize);
      tally.countReply(new DocWriteReply(batchSize, Set.of()));
    }
    now[0] = (long) (seconds * 1e9);
    tally.userEnded();
    tally.keepServerDocCount((long) batchSize * replies);
    return tally;
  }

  @Test
  void shouldDrawEightThreadCountsOfNineAndSaySo(@TempDir Path folder) throws IOException {
    BulkInsertPlan plan = BulkInsertPlan.from(Settings.of(Map.of("batchSizes", "4", "threads", "1,2,3,4,5,6,7,8,9",
        "single", "false"), Map.of()));
    List<StepTally> tallies = IntStream.range(0, 9).mapToObj(i -> ran(4, 2, 1)).toList();
    BulkInsertFigures figures = figures(plan, tallies, null);

    writePage(plan, results(null, entries(figures)), figures, folder);

    assertEquals(10, Files.readAllLines(folder.resolve("docs-per-second-against-batch-size.csv")).size(),
        "every T in the CSV");
    assertTrue(Files.readString(folder.resolve("summary.html")).contains("The chart draws 8 of the 9 thread counts:"
        + " the 3 smallest T, the middle one and the 4 largest; the CSV has them all."));
  }

  @Test
  void shouldDrawTheTimeToCreateTheDocumentsInOneChartPerThreadCountWithEveryStepInOneCsv(@TempDir Path folder)
      throws IOException {
    BulkInsertPlan plan = BulkInsertPlan.from(Settings.of(Map.of("batchSizes", "4,16,64", "threads", "1,2",
        "single", "false"), Map.of()));
    List<StepTally> tallies = List.of(ran(4, 2, 1), ran(16, 2, 1), ran(64, 2, 1), ran(4, 2, 1), ran(16, 2, 1),
        ran(64, 2, 1));
    BulkInsertFigures figures = figures(plan, tallies, null);

    writePage(plan, results(null, entries(figures)), figures, folder);

    assertTrue(Files.exists(folder.resolve("time-to-create-the-documents-1.png")), "T=1's chart");
    assertTrue(Files.exists(folder.resolve("time-to-create-the-documents-2.png")), "T=2's chart");
    assertFalse(Files.exists(folder.resolve("time-to-create-the-documents-3.png")));
    List<String> csv = Files.readAllLines(folder.resolve("time-to-create-the-documents.csv"));
    assertEquals(List.of("B=4 T=1", "B=16 T=1", "B=64 T=1", "B=4 T=2", "B=16 T=2", "B=64 T=2"),
        csv.stream().skip(1).map(line -> line.substring(0, line.indexOf(','))).distinct().toList(),
        "every step in the one CSV");
    assertTrue(Files.readString(folder.resolve("summary.html")).contains("One chart per thread count T"),
        "the page says what the charts draw");
  }

  @Test
  void shouldGiveEachStepsMedianAndRangeOverItsRoundsBesideTheRoundsThemselves(@TempDir Path folder)
      throws IOException {
    BulkInsertPlan plan = BulkInsertPlan.from(Settings.of(Map.of("batchSizes", "8,64", "threads", "1",
        "single", "false", "rounds", "3"), Map.of()));
    // docs/s of B=8: 32, 16, 64 (median 32); of B=64: 256, 128, and nothing (a round the run never reached).
    List<StepTally> rounds = List.of(ran(8, 8, 2), ran(64, 8, 2), ran(8, 8, 4), ran(64, 8, 4), ran(8, 8, 1),
        new StepTally(1));
    BulkInsertFigures figures = figures(plan, rounds, null);

    writePage(plan, results(null, entries(figures)), figures, folder);

    assertEquals(List.of("method,B,T,rounds,docs acknowledged,seconds,docs/s,min,max",
        "bulk (_bulk_docs),8,1,3,64,2,32,16,64",
        "bulk (_bulk_docs),64,1,2,512,3,192,128,256"),
        Files.readAllLines(folder.resolve("docs-per-second-by-step.csv")), "medians over the rounds that ran");
    List<String> perRound = Files.readAllLines(folder.resolve("docs-per-second-by-step-and-round.csv"));
    assertEquals("round,method,B,T,replies,failed replies,failed requests,docs sent,docs acknowledged,doc_count,"
        + "seconds,docs/s", perRound.get(0));
    assertEquals(List.of("1,bulk (_bulk_docs),8,1,8,0,0,64,64,64,2,32", "3,bulk (_bulk_docs),64,1,0,0,0,0,0,,0,0"),
        List.of(perRound.get(1), perRound.get(6)), "every round as it ran");
    assertEquals(List.of("series,batch size B (documents per _bulk_docs request),documents per second,"
            + "smallest round,largest round", "T=1,8,32,16,64", "T=1,64,192,128,256"),
        Files.readAllLines(folder.resolve("docs-per-second-against-batch-size.csv")), "the chart draws the range");
    assertEquals(List.of("series,documents created,seconds since the step's start", "B=64 T=1,64,0"),
        Files.readAllLines(folder.resolve("time-to-create-the-documents.csv")).subList(0, 2), "round 1's progress");
    assertEquals(9, Files.readAllLines(folder.resolve("time-to-create-the-documents.csv")).size(),
        "B=64 (a power of 4) of round 1 only, a point for each of its 8 replies");
    String page = Files.readString(folder.resolve("summary.html"));
    assertTrue(page.contains("median of 3 rounds"), page);
    assertTrue(page.contains("the time chart shows round 1"), "the page says which round the time chart shows");
    assertTrue(page.contains("Counts disagree: bulk B=64 T=1 round 3: 0 acknowledged, doc_count not read"), page);
  }

  @Test
  void shouldNameTheStepsWhoseFiguresRestOnLessThanTheRule(@TempDir Path folder) throws IOException {
    BulkInsertPlan plan = BulkInsertPlan.from(Settings.of(Map.of("batchSizes", "8,64", "threads", "1",
        "single", "false", "stepRequests", "1", "stepSeconds", "0"), Map.of()));
    BulkInsertFigures figures = figures(plan, List.of(ran(8, 8, 2), ran(64, 3, 0.25)), null);

    writePage(plan, results(null, entries(figures)), figures, folder);

    String page = Files.readString(folder.resolve("summary.html"));
    assertTrue(page.contains("1 steps rest on fewer than 2 s of load or 8 requests per user"), page);
    assertTrue(page.contains("bulk B=64 T=1 (0.25 s, 3 replies to 1 users)"), page);
    assertFalse(page.contains("bulk B=8 T=1 ("), "a step that kept to the rule is not named");
    assertTrue(page.contains("each user sends at least 1 requests"), "the rule as set, on the page");
    assertEquals("bulk (_bulk_docs),64,1,3,0,0,192,192,192,0.25,768",
        Files.readAllLines(folder.resolve("docs-per-second-by-step.csv")).get(2), "one round: the table as it was,"
            + " with the documents sent");
  }

  @Test
  void shouldSayWhenTheServersCpuIsNotKnown(@TempDir Path folder) throws IOException {
    BulkInsertPlan plan = BulkInsertPlan.from(Settings.of(Map.of("batchSizes", "64,1024", "threads", "1",
        "single", "false"), Map.of()));

    writePage(plan, results(null, List.of()), figures(plan, tallies(null), null), folder);

    assertEquals("bulk (_bulk_docs),64,1,0.5,0.45,0.05,0.25,0,,",
        Files.readAllLines(folder.resolve("cpu-by-step.csv")).get(1), "the client's figures, the server's empty");
    assertTrue(Files.readString(folder.resolve("summary.html"))
        .contains("the server: n/a, it is not on this machine, or its process could not be seen."));
  }

  @Test
  void shouldNameEachStepsFailedRequestsWithGatlingsMessages(@TempDir Path folder) throws IOException {
    BulkInsertPlan plan = BulkInsertPlan.from(Settings.of(Map.of("batchSizes", "4,8", "threads", "2",
        "single", "false"), Map.of()));
    BulkInsertFigures figures = figures(plan, List.of(ran(4, 8, 2), ran(8, 8, 2)), null);

    writePage(plan, results(null, List.of(entry("bulk B=4 T=2", 8, Map.of()),
        entry("bulk B=8 T=2", 8, Map.of("Premature close", 3L)))), figures, folder);

    assertTrue(Files.readString(folder.resolve("summary.html"))
        .contains("3 requests failed, by step and Gatling&#39;s message: bulk B=8 T=2 (3 &quot;Premature close&quot;)."),
        Files.readString(folder.resolve("summary.html")));
    assertEquals(List.of("0", "3"), Files.readAllLines(folder.resolve("docs-per-second-by-step.csv")).subList(1, 3)
        .stream().map(row -> row.split(",")[5]).toList(), "failed requests, each step's own");
  }
}
