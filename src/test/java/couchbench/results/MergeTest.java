package couchbench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.OfflinePage;
import couchbench.report.SummaryPage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Merge on injector folders written here as RunOutput writes them: sums, windows, counts, key files, refusals. */
class MergeTest {

  private static final Instant START = Instant.parse("2026-12-01T10:00:00Z");

  @RegisterExtension
  final ResultsRootInTempDir reports = new ResultsRootInTempDir();

  /** What an injector's folder holds: its share, its parameters, when it ran, its times, its server counter. */
  private record Injector(String name, String share, Map<String, String> parameters, String startAt,
      long offsetMillis, long skewMillis, int requests, long micros, long before, long after) {

    Injector with(String key, String value) {
      Map<String, String> changed = new HashMap<>(parameters);
      changed.put(key, value);
      return new Injector(name + "-" + key, share, changed, startAt, offsetMillis, skewMillis, requests, micros,
          before, after);
    }
  }

  /** A simulation's own figures, as a test's MemSet keeps them: its sets, and where its injector ran. */
  record SetFigures(long sets, String host) {}

  /** MemSet's summary here: the figures added up, the hosts joined, a line of them on the page. */
  private static final Summary<SetFigures> SET_SUMMARY = new Summary<>() {
    @Override
    public Class<SetFigures> figuresType() {
      return SetFigures.class;
    }

    @Override
    public SetFigures merge(List<SetFigures> injectors) {
      return new SetFigures(injectors.stream().mapToLong(SetFigures::sets).sum(),
          String.join("; ", injectors.stream().map(SetFigures::host).toList()));
    }

    @Override
    public SummaryPage page(Results results, SetFigures figures) {
      return SummaryPage.titled(results.run().simulation() + ": sets")
          .line(figures.sets() + " sets from " + figures.host());
    }
  };

  private static final Summary.Finder SETS =
      run -> run.simulation().equals("MemSet") ? Optional.of(SET_SUMMARY) : Optional.empty();

  private static Injector injector(int index, int count) {
    // Injector 1 starts 2 s after injector 0 and ends 2 s after it: the union of the windows is 12 s.
    return new Injector("memset-" + index, index + "/" + count,
        Map.of("users", "4", "duration", "10", "injector", index + "/" + count, "startAt", START.toString()),
        START.toString(), index * 2000L, index * 40L, 1000 * (index + 1), 100 * (index + 1),
        index == 0 ? 5 : 900, index == 0 ? 2000 : 3005);
  }

  @Test
  void shouldAddTheInjectorsUpExactly() throws IOException {
    Path a = folder(injector(0, 2));
    Path b = folder(injector(1, 2));
    Path out = reports.root().resolve("merged");

    Path summary = Merge.run(new String[] {b + "," + a, out.toString()}, SETS);

    assertEquals(out.resolve("summary.html"), summary);
    Results merged = ResultsFile.read(out);
    Results.Entry set = merged.requests().get(0);
    assertEquals("memcache set", set.name());
    assertEquals(3000, set.count(), "1000 + 2000");
    assertEquals(3000, set.ok());
    assertEquals(3000 / 12.0, set.ratePerSecond(), 0.001, "over the union of the windows, 12 s");
    assertEquals("2026-12-01T10:00:00Z", set.firstStart());
    assertEquals("2026-12-01T10:00:12Z", set.lastEnd());
    Map<String, Histogram> totals = HistogramLog.totals(out.resolve(RunOutput.HISTOGRAMS));
    Histogram ok = totals.get(set.okTag());
    assertEquals(3000, ok.getTotalCount(), "the merged histograms hold every injector's");
    Histogram expected = HistogramLog.totals(a.resolve(RunOutput.HISTOGRAMS)).get(set.okTag()).copy();
    expected.add(HistogramLog.totals(b.resolve(RunOutput.HISTOGRAMS)).get(set.okTag()));
    assertEquals(expected, ok, "exactly their sum");
    assertEquals(expected.getValueAtPercentile(50) / 1000.0, set.latency().p50(), 0.001);
    assertEquals("*/2", merged.run().injector());
    assertEquals(40L, merged.run().startSkewMillis(), "the largest skew");
    assertFalse(merged.run().parameters().containsKey("injector"), "the share is no parameter of the whole run");
    Results.ServerCount count = merged.serverCounts().get(0);
    assertEquals(5, count.before(), "injector 0 read first, before any load");
    assertEquals(3005, count.after(), "injector 1 read last, after all of it");
    assertEquals(3000, count.acknowledged());
    assertTrue(count.agrees());
    assertEquals(List.of("key", "i0-0", "i0-1", "i0-2"), Files.readAllLines(out.resolve("memcache.csv")).subList(0, 4));
    assertEquals(1 + 3000, Files.readAllLines(out.resolve("memcache.csv")).size(), "every injector's keys, once");
    assertEquals(new Results.KeyFile("data/keys/memcache.csv", "memcache.csv", 3000),
        merged.keyFiles().get(0));
    String page = Files.readString(summary);
    assertTrue(page.contains("href=\"../memset-0/index.html\""), "links injector 0's Gatling report: " + page);
    assertTrue(page.contains("href=\"../memset-1/index.html\""), page);
    assertTrue(page.contains("largest start skew 40 ms."), page);
    assertEquals(new SetFigures(3000, "10.0.0.1; 10.0.0.2"), ResultsFile.figures(out, merged, SetFigures.class),
        "the simulation's own figures, merged by its summary");
    assertTrue(page.contains("<title>MemSet: sets (2 injectors, merged)</title>"), page);
    assertTrue(page.contains("3000 sets from 10.0.0.1; 10.0.0.2"), "its page of the merged figures: " + page);
    assertTrue(page.contains("memcache cmd_set went from 5 to 3005 (+3000) against 3000 acknowledged"), page);
    assertTrue(OfflinePage.fetchesNothing(summary), "summary.html opens offline");
  }

  @Test
  void shouldWarnWhenTheServerCountsDisagree() throws IOException {
    Injector lossy = injector(1, 2);
    Path a = folder(injector(0, 2));
    Path b = folder(new Injector(lossy.name(), lossy.share(), lossy.parameters(), lossy.startAt(),
        lossy.offsetMillis(), lossy.skewMillis(), lossy.requests(), lossy.micros(), lossy.before(), 2900));

    Path summary = Merge.run(new String[] {a + "," + b, reports.root().resolve("merged").toString()}, SETS);

    assertFalse(ResultsFile.read(summary.getParent()).serverCounts().get(0).agrees());
    assertTrue(Files.readString(summary).contains("(+2895) against 3000 acknowledged (memcache set): they DIFFER"));
  }

  @Test
  void shouldMergeTheInjectorsThatEndedAndSayWhichWereLostAndWhy() throws IOException {
    Path a = folder(injector(0, 3));
    Injector second = injector(1, 3);
    // The server counted the lost injector's 3 flushed keys and 2 sets of which no trace is left.
    Path b = folder(new Injector(second.name(), second.share(), second.parameters(), second.startAt(),
        second.offsetMillis(), second.skewMillis(), second.requests(), second.micros(), second.before(), 3010));
    // Injector 2 was killed mid-run: its run folder has no results.json, its part file the keys it had flushed, the
    // last line cut by the kill.
    Path killed = Files.createDirectories(reports.root().resolve("memset-2"));
    Files.writeString(killed.resolve("memcache.injector2of3.csv.4242.part"), "key\ni2-0\ni2-1\ni2-2\ni2-");
    Path out = reports.root().resolve("merged");

    Path summary = Merge.run(new String[] {a + "," + killed + "," + b, out.toString(), "2=ended with exit code 137"},
        SETS);

    Results merged = ResultsFile.read(out);
    assertEquals("*/2", merged.run().injector(), "the merged figures are of 2 injectors");
    assertEquals(List.of(new Results.LostInjector("2/3", "ended with exit code 137", List.of(new Results.LostKeyFile(
        "data/keys/memcache.csv", "../memset-2/memcache.injector2of3.csv.4242.part", 3, "partial")))),
        merged.lostInjectors());
    assertEquals("2 of 3 injectors; injector 2/3: ended with exit code 137", Merge.lostLine(merged));
    List<String> keys = Files.readAllLines(out.resolve("memcache.csv"));
    assertEquals(1 + 3000 + 3, keys.size(), "the ended injectors' keys and the lost one's whole flushed keys");
    assertEquals(List.of("i2-0", "i2-1", "i2-2"), keys.subList(keys.size() - 3, keys.size()));
    assertEquals(3003, merged.keyFiles().get(0).keys());
    Results.ServerCount count = merged.serverCounts().get(0);
    assertEquals(3003, count.acknowledged(), "the ended injectors' and the lost one's flushed keys");
    assertEquals(3005, count.change());
    assertTrue(count.agrees(), "at least what is known: " + count.describe());
    String page = Files.readString(summary);
    assertTrue(page.contains("2 of 3 injectors; injector 2/3: ended with exit code 137: every figure below is of the 2"
        + " that ended."), page);
    assertTrue(page.contains("(partial), 3 keys it had flushed"), page);
    assertTrue(page.contains(killed + " holds no results.json (its injector did not end its run): left out."), page);
    assertTrue(page.contains("against at least 3003 acknowledged (memcache set), of which 3 are keys that the lost"
        + " injector 2/3 had flushed to its key file"), page);
    assertTrue(page.contains("<title>MemSet: sets (2 of 3 injectors, merged)</title>"), page);

    Path third = reports.root().resolve("merged-without-reason");
    Merge.run(new String[] {a + "," + b, third.toString()}, SETS);
    Results without = ResultsFile.read(third);
    assertEquals("2 of 3 injectors; injector 2/3: no results", Merge.lostLine(without));
    assertEquals("lost", without.lostInjectors().get(0).keyFiles().get(0).state(),
        "its folder not given, its key file is not where the others' are");
    assertTrue(without.serverCounts().get(0).agrees(), without.serverCounts().get(0).describe());
  }

  @Test
  void shouldMergeACounterThatAServerLacksAsNotAvailable() throws IOException {
    Injector second = injector(1, 2);
    Path a = folder(injector(0, 2));
    Path b = folder(new Injector(second.name(), second.share(), second.parameters(), second.startAt(),
        second.offsetMillis(), second.skewMillis(), second.requests(), second.micros(), -1, -1));

    Path summary = Merge.run(new String[] {a + "," + b, reports.root().resolve("merged").toString()}, SETS);

    Results.ServerCount count = ResultsFile.read(summary.getParent()).serverCounts().get(0);
    assertFalse(count.counted());
    assertEquals("injector 1/2: memcache server 127.0.0.1:11211 reports no cmd_set", count.notCounted());
    assertTrue(Files.readString(summary).contains("Server count: memcache cmd_set n/a (injector 1/2: memcache server"
        + " 127.0.0.1:11211 reports no cmd_set): the server&#39;s count is not checked against 3000 acknowledged"),
        count.describe());
  }

  @Test
  void shouldRefuseFoldersThatAreNotTheInjectorsOfOneRunWithOneLineEach() throws IOException {
    Path first = folder(injector(0, 2));
    Path second = folder(injector(1, 2));
    Path otherSimulation = folder(injector(1, 2).with("simulation", "CouchSet"));
    Path otherParameters = folder(new Injector("memset-users", "1/2", injector(1, 2).with("users", "8").parameters(),
        START.toString(), 0, 0, 10, 100, 0, 10));
    Path otherRun = folder(new Injector("memset-later", "1/2", injector(1, 2).parameters(), "2026-12-01T11:00:00Z",
        0, 0, 10, 100, 0, 10));
    Path thirdOfThree = folder(new Injector("memset-third", "2/3", injector(2, 3).parameters(), START.toString(),
        0, 0, 10, 100, 0, 10));
    Path twice = folder(new Injector("memset-twice", "0/2", injector(0, 2).parameters(), START.toString(),
        0, 0, 10, 100, 0, 10));

    assertEquals(first + " and " + otherSimulation + " are runs of different simulations (MemSet, CouchSet): give the"
        + " folders of one run's injectors", message(first, otherSimulation));
    assertEquals(first + " and " + otherParameters + " ran with different parameters (-Dusers=4 and 8): the injectors"
        + " of one run share every parameter but -Dinjector", message(first, otherParameters));
    assertEquals(first + " and " + otherRun + " are different runs (-DstartAt=2026-12-01T10:00:00Z and"
        + " 2026-12-01T11:00:00Z): give the folders of one run's injectors, which share -DstartAt",
        message(first, otherRun));
    assertEquals(first + " and " + thirdOfThree + " are injectors 0/2 and 2/3 of runs of different sizes: give the"
        + " folders of one run's injectors", message(first, thirdOfThree));
    assertEquals(first + " and " + twice + " are both injector 0/2: give each injector's folder once",
        message(first, twice));
    assertEquals("-Dlost=2: \"2\" is not I=why (expected e.g. -Dlost=\"2=did not end in 300 s;3=ended with exit code"
        + " 137\")", assertThrows(ResultsException.class,
            () -> Merge.run(new String[] {first.toString(), null, "2"}, SETS)).getMessage());
    Path killed = Files.createDirectories(reports.root().resolve("memset-killed"));
    assertEquals("no injector left results: " + killed + " holds no results.json, nothing to merge", message(killed));
    assertEquals("give the injectors' run folders: -Druns=reports/memset-A,reports/memset-B",
        assertThrows(ResultsException.class, () -> Merge.run(new String[] {null}, SETS)).getMessage());
    Path merged = reports.root().resolve("merged");
    Merge.run(new String[] {first + "," + second, merged.toString()}, SETS);
    assertEquals(merged + ": merged results already; give the injectors' own run folders", message(merged, first));
    try (var files = Files.list(reports.root())) {
      assertEquals(List.of("merged"), files.map(Path::getFileName).map(Path::toString)
          .filter(name -> name.contains("merged")).toList(), "only the one merge that was right wrote anything");
    }
  }

  @Test
  void shouldWriteTheMergedFolderBesideTheRunsNamedAsARunAndNameItInLastRun() throws IOException {
    Path a = folder(injector(0, 2));
    Path b = folder(injector(1, 2));
    Instant before = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);

    Path summary = Merge.run(new String[] {a + "," + b}, SETS);

    Path merged = summary.getParent();
    assertEquals(reports.root().toAbsolutePath(), merged.toAbsolutePath().getParent(), "beside the runs");
    String name = merged.getFileName().toString();
    assertTrue(name.matches("memset-merged-\\d{17}"), name);
    Instant stamped = java.time.format.DateTimeFormatter.ofPattern("yyyyMMddHHmmssSSS")
        .withZone(java.time.ZoneOffset.UTC).parse(name.substring("memset-merged-".length()), Instant::from);
    assertFalse(stamped.isBefore(before) || stamped.isAfter(Instant.now()), "stamped with the merge's time: " + name);
    assertTrue(Files.isRegularFile(merged.resolve("results.json")));
    Path lastRun = reports.root().resolve(RunFolders.LAST_RUN);
    assertEquals(name, Files.readString(lastRun), "lastRun.txt names the merged folder");

    Path elsewhere = Files.createTempDirectory("couchbench-merge-elsewhere-").resolve("merged");
    Merge.run(new String[] {a + "," + b, elsewhere.toString()}, SETS);
    assertEquals(name, Files.readString(lastRun), "a folder outside the results root leaves lastRun.txt as it was");
    Path given = reports.root().resolve("memset-merged-by-hand");
    Merge.run(new String[] {a + "," + b, given.toString()}, SETS);
    assertEquals("memset-merged-by-hand", Files.readString(lastRun), "one given in the results root becomes it");
  }

  private static String message(Path... folders) {
    String runs = String.join(",", Arrays.stream(folders).map(Path::toString).toList());
    return assertThrows(ResultsException.class, () -> Merge.run(new String[] {runs}, SETS)).getMessage();
  }

  /** An injector's run folder: results.json, histograms.hlog, and its key file beside them. */
  private Path folder(Injector injector) throws IOException {
    Path folder = Files.createDirectories(reports.root().resolve(injector.name()));
    Instant start = START.plusMillis(injector.offsetMillis());
    Instant end = start.plusSeconds(10);
    Outcomes times = Outcomes.compact();
    for (int i = 0; i < injector.requests(); i++) {
      times.record(true, injector.micros() * 1000 + i);
    }
    try (HistogramLog log = HistogramLog.create(folder.resolve(RunOutput.HISTOGRAMS), start.toEpochMilli())) {
      log.interval(HistogramTags.request("memcache set", true), start.toEpochMilli(), end.toEpochMilli(), times.ok());
    }
    int index = Integer.parseInt(injector.share().split("/")[0]);
    Path keys = folder.resolve("memcache.injector" + index + "of" + injector.share().split("/")[1] + ".csv");
    StringBuilder lines = new StringBuilder("key\n");
    for (int i = 0; i < injector.requests(); i++) {
      lines.append('i').append(index).append('-').append(i).append('\n');
    }
    Files.writeString(keys, lines);
    ResultsFile.write(folder, new Results(Results.SCHEMA,
        new Results.Run(injector.parameters().getOrDefault("simulation", "MemSet"), injector.parameters(),
            List.of("memcache 127.0.0.1:11211"), new Results.Versions("0.1.0", "3.15.1", "17"), start.toString(),
            end.toString(), injector.share(), 5, RunOutput.HISTOGRAMS, injector.startAt(), injector.skewMillis()),
        List.of(new Results.Entry("memcache set", "request", Results.CLIENT_CLOCK, false, injector.requests(),
            injector.requests(), 0, Map.of(), injector.requests() / 10.0, Entries.latency(times.ok()),
            HistogramTags.request("memcache set", true), HistogramTags.request("memcache set", false),
            start.toString(), end.toString())),
        Map.of(),
        List.of(new Results.KeyFile("data/keys/memcache.csv", keys.getFileName().toString(), injector.requests())),
        List.of(injector.before() < 0
            ? Results.ServerCount.unavailable("memcache cmd_set", "memcache server 127.0.0.1:11211 reports no cmd_set",
                injector.requests(), List.of("memcache set"))
            : new Results.ServerCount("memcache cmd_set", injector.before(), start.minusSeconds(1).toString(),
                injector.after(), end.plusSeconds(1).toString(), injector.requests(), List.of("memcache set"))),
        ResultsFile.tree(new SetFigures(injector.requests(), "10.0.0." + (index + 1)))));
    return folder;
  }
}
