package couchbench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.OfflinePage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Compare on two run folders written here, as RunOutput writes them. */
class CompareTest {

  @RegisterExtension
  final ResultsRootInTempDir reports = new ResultsRootInTempDir();

  @Test
  void shouldPutBothRunsSideBySideWithRatiosAndCurves() throws IOException {
    Path a = run("memget-1", "memcache get", "16", 100, 1000);
    Path b = run("memget-2", "memcache get", "32", 200, 2000);

    Path html = Compare.run(new String[] {a + "," + b});

    assertEquals(reports.root().resolve("compare-memget-1-vs-memget-2").resolve("compare.html"), html);
    List<String> csv = Files.readAllLines(html.resolveSibling("compare.csv"));
    assertEquals("request,kind,rate A (/s),rate B (/s),rate B/A,p50 A (us),p50 B (us),p50 B/A,p99 A (us),"
        + "p99 B (us),p99 B/A,p99.9 A (us),p99.9 B (us),p99.9 B/A,KO A,KO B", csv.get(0));
    assertEquals(2, csv.size(), "one row, the warm-up left out: " + csv);
    String[] row = csv.get(1).split(",");
    assertEquals("memcache get", row[0]);
    assertEquals("2.000", row[4], "rate B/A");
    assertEquals(2.0, Double.parseDouble(row[7]), 0.01, "p50 B/A");
    String page = Files.readString(html);
    assertTrue(OfflinePage.fetchesNothing(html), "compare.html opens offline");
    assertTrue(page.contains("The runs differ: -Dusers 16 against 32."), page);
    List<String> curves = Files.readAllLines(html.resolveSibling("latency-by-percentile.csv"));
    assertTrue(curves.stream().anyMatch(line -> line.startsWith("A: memcache get,")), curves.toString());
    assertTrue(curves.stream().anyMatch(line -> line.startsWith("B: memcache get,")), curves.toString());
  }

  @Test
  void shouldPutEachOfSeveralRunsAgainstTheBaselineInATableOfItsOwn() throws IOException {
    Path a = run("memget-1", "memcache get", "16", 100, 1000);
    Path b = run("memget-2", "memcache get", "16", 200, 2000);
    Path c = run("memget-3", "memcache get", "32", 50, 4000);

    Path html = Compare.run(new String[] {a + "," + b + "," + c});

    assertEquals(reports.root().resolve("compare-memget-1-vs-2-runs").resolve("compare.html"), html);
    List<String> againstB = Files.readAllLines(html.resolveSibling("compare-b-memget-2.csv"));
    assertEquals("2.000", againstB.get(1).split(",")[4], "rate B/A");
    List<String> againstC = Files.readAllLines(html.resolveSibling("compare-c-memget-3.csv"));
    assertTrue(againstC.get(0).startsWith("request,kind,rate A (/s),rate C (/s),rate C/A,"), againstC.get(0));
    assertEquals("0.500", againstC.get(1).split(",")[4], "rate C/A");
    String page = Files.readString(html);
    assertTrue(page.contains("The runs differ, A and C: -Dusers 16 against 32."), page);
    assertFalse(page.contains("A and B: -Dusers"), "B ran with A's parameters");
  }

  @Test
  void shouldPairDifferentlyNamedRequestsWhenTold() throws IOException {
    Path a = run("memget-1", "memcache get", "16", 100, 1000);
    Path b = run("couchget-1", "couchdb get", "16", 10, 5000);

    Path html = Compare.run(new String[] {a.resolve("results.json") + "," + b, "memcache get=couchdb get"});

    List<String> csv = Files.readAllLines(html.resolveSibling("compare.csv"));
    assertEquals(2, csv.size(), csv.toString());
    assertTrue(csv.get(1).startsWith("memcache get / couchdb get,request,"), csv.get(1));
    assertTrue(Files.readString(html).contains("The runs differ: targets"), "different targets are said");
  }

  @Test
  void shouldRefuseBadInputWithOneLineAndWriteNothing() throws IOException {
    Path good = run("memget-1", "memcache get", "16", 100, 1000);
    Path empty = Files.createDirectories(reports.root().resolve("empty-run"));
    Path otherSchema = run("memget-3", "memcache get", "16", 100, 1000);
    Files.writeString(otherSchema.resolve("results.json"),
        Files.readString(otherSchema.resolve("results.json")).replace("\"schema\" : 3", "\"schema\" : 7"));
    Path cutLog = run("memget-4", "memcache get", "16", 100, 1000);
    String hlog = Files.readString(cutLog.resolve(RunOutput.HISTOGRAMS));
    Files.writeString(cutLog.resolve(RunOutput.HISTOGRAMS), hlog.substring(0, hlog.length() - 30));

    assertEquals(empty.resolve("results.json") + ": no such file (a run folder written before couchbench wrote"
        + " results, or not a couchbench run)", message(good + "," + empty));
    assertEquals(otherSchema.resolve("results.json") + ": schema 7; this couchbench reads schemas [1, 2, 3]",
        message(good + "," + otherSchema));
    assertTrue(message(good + "," + cutLog).startsWith(cutLog.resolve(RunOutput.HISTOGRAMS) + ": cut short"));
    String giveTwo = "give two run folders (or results.json files) or more, the baseline first:"
        + " -Druns=reports/A,reports/B[,reports/C...]";
    assertEquals(giveTwo, message(good.toString()));
    assertEquals(giveTwo, message(""));
    assertEquals(giveTwo, message(good + ",," + good));
    try (var files = Files.list(reports.root())) {
      assertFalse(files.anyMatch(f -> f.getFileName().toString().startsWith("compare-")), "nothing written");
    }
  }

  private static String message(String runs) {
    return assertThrows(ResultsException.class, () -> Compare.run(new String[] {runs})).getMessage();
  }

  /** A run folder with results.json and histograms.hlog: one measured request and a warm-up. */
  private Path run(String name, String request, String users, double rate, long micros) throws IOException {
    Path folder = Files.createDirectories(reports.root().resolve(name));
    Outcomes times = Outcomes.compact();
    Outcomes warmUp = Outcomes.compact();
    for (int i = 0; i < 1000; i++) {
      times.record(true, micros * 1000 + i);
    }
    warmUp.record(true, 1);
    try (HistogramLog log = HistogramLog.create(folder.resolve(RunOutput.HISTOGRAMS), 0)) {
      log.interval(HistogramTags.request(request, true), 0, 5000, times.ok());
      log.interval(HistogramTags.request("warm-up " + request, true), 0, 5000, warmUp.ok());
    }
    Results results = new Results(Results.SCHEMA,
        new Results.Run(name.startsWith("memget") ? "MemGet" : "CouchGet", Map.of("users", users),
            List.of(request.startsWith("memcache") ? "memcache 127.0.0.1:1" : "CouchDB at http://127.0.0.1:2"),
            new Results.Versions("0.1.0", "3.15.1", "17"), "2026-12-01T10:00:00Z", "2026-12-01T10:00:10Z", null, 5,
            RunOutput.HISTOGRAMS, null, null),
        List.of(entry(request, times, rate), entry("warm-up " + request, warmUp, 1)), Map.of(), List.of(), List.of(), null);
    ResultsFile.write(folder, results);
    return folder;
  }

  private static Results.Entry entry(String name, Outcomes times, double rate) {
    return new Results.Entry(name, "request", Results.CLIENT_CLOCK, Entries.isWarmUp(name), times.ok().getTotalCount(),
        times.ok().getTotalCount(), 0, Map.of(), rate, Entries.latency(times.ok()), HistogramTags.request(name, true),
        HistogramTags.request(name, false), "2026-12-01T10:00:00Z", "2026-12-01T10:00:10Z");
  }
}
