package couchbench.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.bulkinsert.BulkInsertFigures;
import couchbench.results.Results;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HistoryTest {

  @TempDir
  Path root;

  @Test
  void shouldDrawEachParameterSetAsItsOwnSeriesAndNameTheRunsLeftOut() throws IOException {
    GateRuns.write(root, "memget-1", GateRuns.run("MemGet", Map.of("users", "4"), "2026-12-01T10:00:00Z",
        List.of(100.0), 1000));
    GateRuns.write(root, "memget-2", GateRuns.run("MemGet", Map.of("users", "4", "baseline", "last"),
        "2026-12-01T11:00:00Z", List.of(120.0), 900));
    GateRuns.write(root, "memget-3", GateRuns.run("MemGet", Map.of("users", "8", "rounds", "3"),
        "2026-12-01T12:00:00Z", List.of(200.0, 210.0, 260.0), 1800));
    Files.createDirectories(root.resolve("memget-cut"));
    Files.writeString(root.resolve("memget-cut/results.json"), "{\"schema\" : 3, \"run\" : {");
    Files.createDirectories(root.resolve("compare-a-vs-b"));

    Path page = History.write(root);

    assertEquals(root.resolve("history/history.html"), page);
    List<String> runs = Files.readAllLines(root.resolve("history/the-runs.csv"));
    assertEquals(4, runs.size(), "a row per run read: " + runs);
    assertTrue(runs.get(1).startsWith("memget-1,MemGet,2026-12-01T10:00:00Z,1,,"), runs.toString());
    assertTrue(runs.get(2).startsWith("memget-2,MemGet,2026-12-01T11:00:00Z,1,,"), "the gate's settings do not make"
        + " another set: " + runs);
    assertTrue(runs.get(3).startsWith("memget-3,MemGet,2026-12-01T12:00:00Z,2,-Drounds (not read) against 3;"
        + " -Dusers 4 against 8,"), runs.toString());
    List<String> latencies = Files.readAllLines(root.resolve("history/memget-parameter-set-1-latency-of-each-request.csv"));
    assertTrue(latencies.toString().contains("100") && latencies.toString().contains("120"), latencies.toString());
    String html = Files.readString(page);
    assertTrue(html.contains("MemGet, parameter set 1") && html.contains("MemGet, parameter set 2"), html);
    assertTrue(html.contains("Left out: " + root.resolve("memget-cut/results.json")), html);
    assertTrue(html.contains("History: 3 runs under " + root), html);
  }

  @Test
  void shouldDrawBulkInsertsDocumentsASecondPerBAndTAcrossRunsNotItsFirstEightRequestNames() throws IOException {
    GateRuns.write(root, "bulk-1", bulkInsert("2026-12-01T10:00:00Z", Map.of(), 1));
    GateRuns.write(root, "bulk-2", bulkInsert("2026-12-01T11:00:00Z", Map.of(), 2));

    History.write(root);

    List<String> rows = Files.readAllLines(root.resolve(
        "history/bulkinsert-parameter-set-1-documents-a-second-per-b-and-t.csv"));
    assertEquals("series,run of the set,documents/s,smallest round,largest round", rows.get(0));
    assertTrue(rows.contains("bulk B=64 T=2,1,6400,6400,6400"), "64 documents a step of 0.01 s: " + rows);
    assertTrue(rows.contains("bulk B=64 T=2,2,12800,12800,12800"), rows.toString());
    assertTrue(rows.contains("single T=1,2,200,200,200"), "a step of each T in each chart: " + rows);
    assertTrue(Files.exists(root.resolve("history/bulkinsert-parameter-set-1-documents-a-second-per-b-and-t-1.png"))
        && Files.exists(root.resolve("history/bulkinsert-parameter-set-1-documents-a-second-per-b-and-t-2.png")),
        "one chart per T");
    assertFalse(Files.exists(root.resolve("history/bulkinsert-parameter-set-1-throughput.csv")));
    String html = Files.readString(root.resolve("history/history.html"));
    assertTrue(html.contains("documents a second, per B and T"), html);
  }

  @Test
  void shouldDrawAnUnknownSimulationByItsRequestsRates() throws IOException {
    GateRuns.write(root, "other-1", GateRuns.run("SomeOther", Map.of(), "2026-12-01T10:00:00Z", List.of(100.0), 1000));

    History.write(root);

    List<String> rows = Files.readAllLines(root.resolve(
        "history/someother-parameter-set-1-requests-a-second-per-request.csv"));
    assertEquals(List.of("series,run of the set,requests/s,smallest round,largest round", "memcache get,1,1000,1000,1000"),
        rows);
  }

  @Test
  void shouldDrawLatenciesInMillisecondsWhereAValuePassesOneMillisecondElseInMicroseconds() throws IOException {
    GateRuns.write(root, "memget-1", GateRuns.run("MemGet", Map.of(), "2026-12-01T10:00:00Z", List.of(400.0), 1000));
    GateRuns.write(root, "memget-2", GateRuns.run("MemGet", Map.of(), "2026-12-01T11:00:00Z", List.of(2500.0), 1000));
    GateRuns.write(root, "memset-1", GateRuns.run("MemSet", Map.of(), "2026-12-01T10:00:00Z", List.of(400.0), 1000));

    History.write(root);

    List<String> slow = Files.readAllLines(root.resolve("history/memget-parameter-set-1-latency-of-each-request.csv"));
    assertEquals("series,run of the set,ms,smallest round,largest round", slow.get(0));
    assertTrue(slow.contains("memcache get,2,2.5,2.5,2.5") && slow.contains("memcache get,1,0.4,0.4,0.4"),
        slow.toString());
    List<String> fast = Files.readAllLines(root.resolve("history/memset-parameter-set-1-latency-of-each-request.csv"));
    assertEquals("series,run of the set,µs,smallest round,largest round", fast.get(0));
    assertTrue(fast.contains("memcache get,1,400,400,400"), fast.toString());
  }

  @Test
  void shouldDrawASiegeHalfsTransactionsASecondAndSayOneRunNotOneRuns() throws IOException {
    GateRuns.write(root, "memget-1", GateRuns.run("MemGet", Map.of(), "2026-12-01T10:00:00Z", List.of(400.0), 900));

    History.write(root);

    assertEquals(List.of("series,run of the set,transactions/s,smallest round,largest round",
        "memcache get,1,100,100,100"), Files.readAllLines(root.resolve(
            "history/memget-parameter-set-1-transactions-a-second.csv")), "1,000 OK in 10 s, not the entry's rate");
    String html = Files.readString(root.resolve("history/history.html"));
    assertTrue(html.contains("History: 1 run under " + root), html);
    assertTrue(html.contains("1 run;") && !html.contains("1 runs"), html);
  }

  @Test
  void shouldSayWhenNoRunHoldsItsSimulationsHeadlineAndDrawItsRequestsRatesInstead() throws IOException {
    GateRuns.write(root, "memset-1", GateRuns.run("MemSet", Map.of(), "2026-12-01T10:00:00Z", List.of(400.0), 900));

    History.write(root);

    String html = Files.readString(root.resolve("history/history.html"));
    assertTrue(html.contains("MemSet, parameter set 1: no run holds its headline figure (transactions a second)"),
        "GateRuns' request is memcache get, not MemSet's memcache set: " + html);
    assertTrue(Files.readAllLines(root.resolve("history/memset-parameter-set-1-requests-a-second-per-request.csv"))
        .contains("memcache get,1,900,900,900"));
  }

  @Test
  void shouldDrawTwoMemSetRunsWhoseOnlyDifferenceIsTheirKeyFileAsOneParameterSet() throws IOException {
    GateRuns.write(root, "memset-1", GateRuns.run("MemSet", Map.of("users", "4", "keyFile", "data/keys/a.csv"),
        "2026-12-01T10:00:00Z", List.of(100.0), 1000));
    GateRuns.write(root, "memset-2", GateRuns.run("MemSet", Map.of("users", "4", "keyFile", "/tmp/b.csv"),
        "2026-12-01T11:00:00Z", List.of(100.0), 1000));

    History.write(root);

    List<String> runs = Files.readAllLines(root.resolve("history/the-runs.csv"));
    assertTrue(runs.get(1).startsWith("memset-1,MemSet,2026-12-01T10:00:00Z,1,,"), runs.toString());
    assertTrue(runs.get(2).startsWith("memset-2,MemSet,2026-12-01T11:00:00Z,1,,"), "-DkeyFile is an output: "
        + runs);
  }

  // A BulkInsert run of four steps (B=1 single and B=64, T=1 and 2), each of 0.01 s, whose documents grow by factor.
  private static Results bulkInsert(String start, Map<String, String> parameters, int factor) {
    List<BulkInsertFigures.Step> steps = new ArrayList<>();
    for (String name : List.of("single T=1", "bulk B=64 T=1", "single T=2", "bulk B=64 T=2")) {
      long documents = (name.startsWith("single") ? 1 : 64) * factor;
      steps.add(new BulkInsertFigures.Step(name, 1, documents, documents, 1, 0, documents, 0, 0.01, List.of(), null));
    }
    return GateRuns.run("BulkInsert", parameters, start, List.of(100.0), 1000)
        .withFigures(new ObjectMapper().valueToTree(new BulkInsertFigures(steps, null, false)));
  }
}
