package couchbench.bulkinsert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.bulkinsert.BulkInsertFigures.Cpu;
import couchbench.bulkinsert.BulkInsertFigures.Point;
import couchbench.bulkinsert.BulkInsertFigures.Step;
import couchbench.merge.MergeCommand;
import couchbench.results.Summary;
import couchbench.startup.Settings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BulkInsertFiguresTest {

  private static final String SERVER = "node (pid 7)";

  /** Injector 0 starts B=8 at t0 and runs 2 s; injector 1 starts 0.5 s later and runs 2.5 s: the union is 3 s. */
  private static final long T0 = 1_764_583_200_000L;

  private static BulkInsertFigures injector0() {
    return new BulkInsertFigures(List.of(
        new Step("bulk B=8 T=1", 1, 80, 80, 10, 0, 80, T0, 2.0, List.of(new Point(1.0, 40), new Point(2.0, 80)),
            new Cpu(1.0, 0.75, 0.25, 0.25, 0.125, 100.0, 103.0)),
        new Step("bulk B=64 T=1", 1, 128, 128, 2, 0, 128, T0 + 3000, 1.0, List.of(new Point(1.0, 128)),
            new Cpu(0.5, 0.5, 0.0, 0.0, 0.0, 103.0, 104.0))),
        SERVER, false);
  }

  private static BulkInsertFigures injector1() {
    return new BulkInsertFigures(List.of(
        new Step("bulk B=8 T=1", 1, 64, 64, 8, 1, 64, T0 + 500, 2.5, List.of(new Point(0.5, 16), new Point(2.5, 64)),
            new Cpu(1.5, 1.25, 0.25, 0.5, 0.125, 100.5, 104.0)),
        // Its doc_count not read, its CPU not to the end: the login was refused.
        new Step("bulk B=64 T=1", 1, 64, 64, 1, 0, BulkInsertFigures.NOT_READ, T0 + 3500, 0.5,
            List.of(new Point(0.5, 64)), null)),
        SERVER, true);
  }

  @Test
  void shouldAddTheCountsAndTakeTheUnionWindowTheClientsCpuSummedAndTheServersOnce() {
    BulkInsertFigures merged = BulkInsertFigures.merged(List.of(injector0(), injector1()));

    assertEquals(new BulkInsertFigures(List.of(
        new Step("bulk B=8 T=1", 2, 144, 144, 18, 1, 144, T0, 3.0,
            // On the union's clock: injector 1's points 0.5 s later, each the sum of both curves by then.
            List.of(new Point(1.0, 40), new Point(1.0, 56), new Point(2.0, 96), new Point(3.0, 144)),
            new Cpu(2.5, 2.0, 0.5, 0.75, 0.25, 100.0, 104.0)),
        new Step("bulk B=64 T=1", 2, 192, 192, 3, 0, BulkInsertFigures.NOT_READ, T0 + 3000, 1.0,
            List.of(new Point(1.0, 128), new Point(1.0, 192)), null)),
        SERVER, true), merged);
    assertEquals(48, merged.steps().get(0).docsPerSecond(), "144 documents over the union's 3 s");
    assertEquals(4.0, merged.steps().get(0).cpu().server(), "the server's 100 s to 104 s, once, not 3 + 3.5");
  }

  @Test
  void shouldTakeTheServersCpuOnlyFromTheInjectorsOnItsMachine() {
    BulkInsertFigures elsewhere = new BulkInsertFigures(List.of(
        new Step("bulk B=8 T=1", 1, 64, 64, 8, 0, 64, T0, 2.0, List.of(), new Cpu(1.0, 1.0, 0.0, 0.0, 0.0, null, null)),
        new Step("bulk B=64 T=1", 1, 64, 64, 1, 0, 64, T0 + 3000, 1.0, List.of(),
            new Cpu(1.0, 1.0, 0.0, 0.0, 0.0, null, null))),
        null, false);

    BulkInsertFigures merged = BulkInsertFigures.merged(List.of(elsewhere, injector0()));

    assertEquals(SERVER, merged.server());
    assertEquals(new Cpu(2.0, 1.75, 0.25, 0.25, 0.125, 100.0, 103.0), merged.steps().get(0).cpu());
    assertEquals(List.of(new Point(1.0, 40), new Point(2.0, 80)), merged.steps().get(0).progress(),
        "an injector without progress points adds none");
    assertEquals(injector0(), BulkInsertFigures.merged(List.of(injector0())), "one injector merges to itself");
  }

  @Test
  @SuppressWarnings("unchecked")
  void shouldShowTheMergedDocsPerSecondOnTheMergedPage(@TempDir Path folder) throws IOException {
    // The merged run's parameters, as Merge finds the summary with them: the whole run's, without -Dinjector.
    Map<String, String> parameters = Map.of("batchSizes", "8,64", "threads", "1", "single", "false", "docs", "128");
    Summary<BulkInsertFigures> summary = (Summary<BulkInsertFigures>) MergeCommand.summaryOf(
        BulkInsertSummaryTest.results("*/2", parameters, List.of()).run()).orElseThrow();
    BulkInsertFigures merged = summary.merge(List.of(injector0(), injector1()));

    BulkInsertSummaryTest.writePage(summary, BulkInsertSummaryTest.results("*/2", List.of(
        BulkInsertSummaryTest.entry("bulk B=8 T=1", 17, Map.of("Premature close", 1L)),
        BulkInsertSummaryTest.entry("bulk B=64 T=1", 3, Map.of()))), merged, folder);

    assertEquals(List.of("method,B,T,replies,failed replies,failed requests,docs sent,docs acknowledged,doc_count,"
            + "seconds,docs/s",
        "bulk (_bulk_docs),8,1,18,1,1,144,144,144,3,48",
        "bulk (_bulk_docs),64,1,3,0,0,192,192,,1,192"),
        Files.readAllLines(folder.resolve("docs-per-second-by-step.csv")), "the injectors' sums, the union's seconds");
    assertEquals("bulk (_bulk_docs),8,1,2.5,2,0.5,0.75,0.25,4,0.625",
        Files.readAllLines(folder.resolve("cpu-by-step.csv")).get(1), "both JVMs' CPU, the server's once");
    assertEquals(2, Files.readAllLines(folder.resolve("cpu-by-step.csv")).size(),
        "no CPU row for a step that did not end in every injector");
    String page = Files.readString(folder.resolve("summary.html"));
    assertTrue(page.contains("Merged from 2 injectors: a step&#39;s replies, docs sent, docs acknowledged and"
        + " doc_count are the injectors&#39; sums"), page);
    assertTrue(page.contains("T virtual users on each of the 2 injectors together create at least 128 documents"),
        page);
    assertTrue(page.contains("client: the 2 injectors&#39; JVMs, each one&#39;s seconds added up"), page);
    assertTrue(page.contains("the server, node (pid 7), read once for all injectors"), page);
    assertTrue(page.contains("In all steps: client 2.50 s, server 4.00 s."), page);
    assertTrue(page.contains("CouchDB refused the login during the run"), "any injector's refusal");
    assertTrue(page.contains("Counts disagree: bulk B=64 T=1: 192 acknowledged, doc_count not read"), page);
  }

  @Test
  void shouldGiveTheMedianOfTheMergedRounds(@TempDir Path folder) throws IOException {
    BulkInsertPlan plan = BulkInsertPlan.from(Settings.of(Map.of("batchSizes", "8", "threads", "1",
        "single", "false", "rounds", "2"), Map.of()));
    // Round 1: 100 + 100 documents over the union's 2 s (100/s); round 2: 300 + 100 over 2 s (200/s).
    BulkInsertFigures injector0 = new BulkInsertFigures(List.of(
        new Step("bulk B=8 T=1 round 1", 1, 100, 100, 13, 0, 100, T0, 2.0, List.of(), null),
        new Step("bulk B=8 T=1 round 2", 1, 300, 300, 38, 0, 300, T0 + 3000, 1.5, List.of(), null)), null, false);
    BulkInsertFigures injector1 = new BulkInsertFigures(List.of(
        new Step("bulk B=8 T=1 round 1", 1, 100, 100, 13, 0, 100, T0 + 1000, 1.0, List.of(), null),
        new Step("bulk B=8 T=1 round 2", 1, 100, 100, 13, 0, 100, T0 + 3500, 1.5, List.of(), null)), null, false);
    BulkInsertFigures merged = BulkInsertSummary.of(plan).merge(List.of(injector0, injector1));

    BulkInsertSummaryTest.writePage(plan, BulkInsertSummaryTest.results("*/2", List.of(
        BulkInsertSummaryTest.entry("bulk B=8 T=1 round 1", 26, Map.of()),
        BulkInsertSummaryTest.entry("bulk B=8 T=1 round 2", 51, Map.of()))), merged, folder);

    assertEquals(List.of("method,B,T,rounds,docs acknowledged,seconds,docs/s,min,max",
        "bulk (_bulk_docs),8,1,2,300,2,150,100,200"),
        Files.readAllLines(folder.resolve("docs-per-second-by-step.csv")), "over the merged rounds' figures");
    assertNull(merged.steps().get(0).cpu());
  }
}
