package couchbench.history;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
    List<String> latencies = Files.readAllLines(root.resolve("history/memget-parameter-set-1-latency.csv"));
    assertTrue(latencies.toString().contains("100") && latencies.toString().contains("120"), latencies.toString());
    String html = Files.readString(page);
    assertTrue(html.contains("MemGet, parameter set 1") && html.contains("MemGet, parameter set 2"), html);
    assertTrue(html.contains("Left out: " + root.resolve("memget-cut/results.json")), html);
    assertTrue(html.contains("History: 3 runs under " + root), html);
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
}
