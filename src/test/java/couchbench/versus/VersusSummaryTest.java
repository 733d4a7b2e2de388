package couchbench.versus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.memcache.client.FakeMemcache;
import couchbench.memcache.client.FakeMemcache.Answer;
import couchbench.requests.MemcacheRequests;
import couchbench.resources.CouchResources;
import couchbench.resources.MemcacheResources;
import couchbench.resources.ResourceSnapshot;
import couchbench.results.Results;
import couchbench.siege.SiegeResults;
import couchbench.startup.Settings;
import couchbench.targets.CouchTarget;
import couchbench.targets.MemcacheTarget;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The servers' counts against the client's, against a memcache server whose stats have no curr_items, as MemcacheDB
 * 1.2's have not: the check falls back to cmd_set, says so, and puts a disagreement at the top of the page. And the
 * phases of two injectors merged: counts added, each phase's figures from the earliest reading before it to the latest
 * after it.
 */
class VersusSummaryTest {

  private static final long SETS = 744_346;

  private static final VersusSummary SUMMARY = VersusSummary.of("CouchVsMemcache",
      VersusPlan.from(Settings.of(Map.of("users", "2"), Map.of())));

  private static final String CPU = "memcached cpu time (s)";

  @TempDir
  Path folder;

  @Test
  void shouldCountMemcacheDbsItemsByCmdSetAndSaySo() throws Exception {
    String html = page(SETS);

    assertTrue(html.contains("memcache&#39;s cmd_set (its stats have no curr_items"), html);
    assertTrue(html.contains("<td>memcache items written</td><td>744346</td><td>744346</td><td>yes</td>"), html);
    assertTrue(!html.contains("<p class=\"warning\">"), "no disagreement: " + html);
  }

  @Test
  void shouldWarnAtTheTopWhenCmdSetDisagrees() throws Exception {
    String html = page(SETS - 1);

    int warning = html.indexOf("memcache items written: the client saw 744345 acknowledged, the server gained 744346");
    assertTrue(warning > 0, html);
    assertTrue(warning < html.indexOf("Targets:"), "the disagreement opens the page: " + html);
    assertTrue(html.contains("<td>memcache items written</td><td>744345</td><td>744346</td><td>NO</td>"), html);
  }

  @Test
  void shouldKeepThePhasesThroughJson() throws Exception {
    VersusSummary.Phases phases = injector(0, new VersusSummary.Acknowledged(1, 2, 3, 4, 5), 1000, 0, 2.5, null);
    ObjectMapper json = new ObjectMapper();

    assertEquals(phases, json.readValue(json.writeValueAsString(phases), VersusSummary.Phases.class));
  }

  @Test
  void shouldAddTheAcknowledgedCountsAndTakeEachPhaseFromTheEarliestReadingBeforeToTheLatestAfter() {
    VersusSummary.Phases merged = SUMMARY.merge(List.of(
        injector(0, new VersusSummary.Acknowledged(100, 10, 5, 2, 50), 1000, 0, 1.0, "figures lost"),
        injector(1, new VersusSummary.Acknowledged(200, 20, 6, 3, 60), 1500, 800, 1.2, null)));

    VersusSummary.Round round = merged.rounds().get(0);
    assertEquals(new VersusSummary.Acknowledged(300, 30, 11, 5, 110), round.acknowledged());
    assertEquals(List.of("injector 0/2: memcache set: all 100 keys of i0-memcache.csv",
        "injector 1/2: memcache set: all 200 keys of i1-memcache.csv"), round.keysRead());
    assertEquals(1000, round.writes().before().epochMillis(), "injector 0's, the earliest");
    assertEquals(11_800, round.writes().after().epochMillis(), "injector 1's, the latest");
    assertEquals(new BigDecimal("1.000"), round.writes().before().figures().get(ResourceSnapshot.CLOCK),
        "on the wall clock: the two readings come from two JVMs");
    assertEquals(new BigDecimal("11.800"), round.writes().after().figures().get(ResourceSnapshot.CLOCK));
    assertEquals(11_000, round.reads().before().epochMillis(), "injector 0's end of writes, the earliest");
    assertEquals(22_600, round.reads().after().epochMillis());
    assertEquals(List.of("injector 0/2: figures lost"), merged.figureFailures());
    assertTrue(merged.loginRefused(), "injector 0's login was refused");
  }

  @Test
  void shouldShowTheMergedRunsTablesAndCountsOfAllInjectors() throws Exception {
    VersusSummary.Phases merged = SUMMARY.merge(List.of(
        injector(0, new VersusSummary.Acknowledged(100, 10, 5, 2, 50), 1000, 0, 1.0, null),
        injector(1, new VersusSummary.Acknowledged(200, 20, 6, 3, 60), 1500, 800, 1.2, null)));
    // As Merge adds up the injectors' entries: 300 sets from 1 s to 11 s; 11 record reads, timed by Gatling.
    Results results = SiegeResults.of("CouchVsMemcache", "*/2", List.of("memcache at 127.0.0.1:11211",
        "CouchDB at http://127.0.0.1:5984"), List.of(
        SiegeResults.entry(MemcacheRequests.SET, "request", 300, 0, 250, 100, 900, 1000, 11_000),
        SiegeResults.entry(MemcacheRequests.RECORD_READ, "group", 11, 1, 2000, 1000, 3000, 12_000, 22_000)));

    SUMMARY.page(results, merged).writeTo(folder);

    List<String> operations = Files.readAllLines(folder.resolve("siege-s-figures-per-operation.csv"));
    assertTrue(operations.contains("memcache set,300,100,10,0.00025,30,n/a,0.0075,300,0,0.0009,0.0001"),
        operations.toString());
    List<String> records = Files.readAllLines(folder.resolve("siege-s-figures-per-whole-record.csv"));
    assertTrue(records.contains("memcache record read,11,91.7,10,0.002,1.1,n/a,0.0022,11,1,0.003,0.001"),
        records.toString());
    List<String> counts = Files.readAllLines(folder.resolve("the-servers-counts-against-the-client-s.csv"));
    assertTrue(counts.contains("CouchDB documents written,35,35,yes"), "10 + 2 + 20 + 3 documents: " + counts);
    assertTrue(counts.contains("memcache items written,410,410,yes"), "100 + 50 + 200 + 60 items: " + counts);
    List<String> writes = Files.readAllLines(folder.resolve("server-figures-over-the-write-phase.csv"));
    assertTrue(writes.contains("phase length (s),,,10.8"), "from 1 s on injector 0 to 11.8 s on 1: " + writes);
    assertTrue(writes.contains("memcached cpu % of the phase,,,50"), "5.4 s of CPU over 10.8 s: " + writes);
    String html = Files.readString(folder.resolve("summary.html"));
    assertTrue(html.contains("injector 1/2: memcache set: all 200 keys of i1-memcache.csv"), html);
    assertTrue(html.contains("the servers&#39; figures over a phase run from the earliest injector&#39;s reading"
        + " before it to the latest injector&#39;s after it"), html);
    assertTrue(html.contains("HTTP requests and groups by Gatling, in whole milliseconds"), html);
  }

  /**
   * One injector's phases of one round: its write phase from {@code start} to 11 s (plus {@code lateMillis}), its
   * read phase 10 s more; the servers gain 410 items and 35 documents over the write phase, memcached spends
   * 5.4 s of CPU from the first reading to the last. Its JVM's clock reads {@code clock} at the first.
   */
  private static VersusSummary.Phases injector(int index, VersusSummary.Acknowledged acknowledged, long start,
      long lateMillis, double clock, String failure) {
    VersusSummary.Reading before = reading(start, clock, 0, 0, 1.0);
    VersusSummary.Reading afterWrites = reading(11_000 + lateMillis, clock + 10, 410, 35, 6.4);
    VersusSummary.Reading afterReads = reading(21_000 + 2 * lateMillis, clock + 20, 410, 35, 7.0);
    return new VersusSummary.Phases(List.of(new VersusSummary.Round(
        List.of("memcache set: all " + (100 * (index + 1)) + " keys of i" + index + "-memcache.csv"), acknowledged,
        new VersusSummary.Phase(before, afterWrites), new VersusSummary.Phase(afterWrites, afterReads))),
        failure == null ? List.of() : List.of(failure), failure != null);
  }

  private static VersusSummary.Reading reading(long epochMillis, double clock, long items, long documents,
      double cpu) {
    Map<String, BigDecimal> figures = new LinkedHashMap<>();
    figures.put(MemcacheResources.CURR_ITEMS, BigDecimal.valueOf(items));
    figures.put("memcache evictions", null);
    figures.put(CouchResources.DOC_COUNT, BigDecimal.valueOf(documents));
    figures.put(CPU, BigDecimal.valueOf(cpu));
    figures.put(ResourceSnapshot.CLOCK, BigDecimal.valueOf(clock));
    return new VersusSummary.Reading(epochMillis, figures);
  }

  /** The page of a run whose write phase made the fake server count SETS sets, of which acknowledged were STORED. */
  private static String page(long acknowledged) throws Exception {
    AtomicLong cmdSet = new AtomicLong(1000);
    try (FakeMemcache memcacheDb = new FakeMemcache(command -> Answer.reply(command.equals("stats")
        ? "STAT pid 4242\r\nSTAT version 1.2.1\r\nSTAT cmd_set " + cmdSet.get() + "\r\nSTAT cmd_get 0\r\nEND\r\n"
        : "ERROR\r\n"))) {
      MemcacheTarget target = new MemcacheTarget(List.of("db1.example:" + memcacheDb.address().getPort()), false);
      MemcacheTarget reachable = new MemcacheTarget(List.of("127.0.0.1:" + memcacheDb.address().getPort()), false);
      VersusSummary.Reading before = VersusSummary.Reading.of(MemcacheResources.snapshot(reachable, List.of()), 0);
      cmdSet.addAndGet(SETS);
      VersusSummary.Reading after = VersusSummary.Reading.of(MemcacheResources.snapshot(reachable, List.of()), 1000);

      VersusSummary.Phases phases = new VersusSummary.Phases(List.of(new VersusSummary.Round(List.of(),
          new VersusSummary.Acknowledged(acknowledged, 0, 0, 0, 0), new VersusSummary.Phase(before, after),
          new VersusSummary.Phase(after, after))), List.of(), false);
      Results results = SiegeResults.of("CouchVsMemcache", null, List.of(target.describe(),
          new CouchTarget("http://db2.example:5984", Optional.empty(), false).describe()), List.of());
      return cellsWithoutClasses(VersusSummary.of("CouchVsMemcache", VersusPlan.from(Settings.of(Map.of(), Map.of())))
          .page(results, phases).toHtml());
    }
  }

  private static String cellsWithoutClasses(String html) {
    return html.replace("<td class=\"num\">", "<td>");
  }
}
