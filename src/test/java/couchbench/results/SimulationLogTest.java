package couchbench.results;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.GatlingReport;
import io.gatling.commons.util.GatlingVersion;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongUnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reader against a committed simulation.log (a run of MemcacheDslSimulation, with failed requests) and the
 * index.html Gatling wrote from it: every count must be the report's.
 */
class SimulationLogTest {

  static final Path FIXTURE = Path.of("src", "test", "resources", "couchbench", "results");

  @TempDir
  Path folder;

  @Test
  void shouldCountEveryRequestNameAsGatlingsReportDoes() throws Exception {
    RunLog log = RunLog.read(FIXTURE);
    Map<String, GatlingReport.Counts> report = GatlingReport.requests(FIXTURE);

    assertEquals("3.15.1", log.gatlingVersion());
    assertEquals("couchbench.memcache.MemcacheDslSimulation", log.simulationClass());
    assertEquals(report.keySet(), log.requests().keySet(), "the same request names");
    for (Map.Entry<String, GatlingReport.Counts> row : report.entrySet()) {
      RequestTally tally = log.requests().get(row.getKey());
      assertEquals(row.getValue().ok(), tally.ok(), row.getKey() + " OK");
      assertEquals(row.getValue().ko(), tally.ko(), row.getKey() + " KO");
      Outcomes times = log.requestTimes().get(row.getKey());
      assertEquals(tally.ok(), times.ok().getTotalCount(), row.getKey() + " OK histogram");
      assertEquals(tally.ko(), times.ko().getTotalCount(), row.getKey() + " KO histogram");
    }
    assertTrue(report.values().stream().anyMatch(counts -> counts.ko() > 0), "the fixture has failures");
  }

  @Test
  void shouldCountFailureMessagesAsGatlingsErrorTableDoes() throws Exception {
    RunLog log = RunLog.read(FIXTURE);
    Map<String, Long> byMessage = new LinkedHashMap<>();
    log.failures().values().forEach(kinds -> kinds.forEach((message, n) -> byMessage.merge(message, n, Long::sum)));
    log.errors().forEach((message, n) -> byMessage.merge(message, n, Long::sum));

    assertEquals(GatlingReport.errors(FIXTURE), byMessage);
  }

  @Test
  void shouldHandEveryTimeOverInIntervalsOnceAndLeaveClientTimedNamesOut() {
    List<String> tags = new ArrayList<>();
    long[] counted = new long[1];
    IntervalSink sink = (tag, start, end, histogram) -> {
      tags.add(tag);
      counted[0] += histogram.getTotalCount();
      assertEquals(RunOutput.INTERVAL.toMillis(), end - start);
    };
    RunLog log = SimulationLog.read(FIXTURE, Set.of("get"), sink, new LoadSeconds(), LongUnaryOperator.identity());

    long requests = log.requests().entrySet().stream().filter(e -> !e.getKey().equals("get"))
        .mapToLong(e -> e.getValue().ok() + e.getValue().ko()).sum();
    assertEquals(requests, counted[0]);
    assertTrue(tags.stream().noneMatch(tag -> tag.startsWith("request:get:")), tags.toString());
    assertTrue(!log.requestTimes().containsKey("get"), "no millisecond histogram for a client-timed name");
    assertTrue(tags.contains("request:multi-get:ok"), tags.toString());
  }

  @Test
  void shouldPlaceEveryTimeOnTheRunsClockAndCountTheNamesSaidApartInTheirOwnSeries() {
    // Gatling's clock an hour behind the run's: its JVM read the wall clock before a step, the run after.
    long behind = 3_600_000;
    List<Long> intervalStarts = new ArrayList<>();
    LoadSeconds seconds = new LoadSeconds();
    seconds.apart(SeriesKind.VERDICT, List.of("multi-get"));
    RunLog log = SimulationLog.read(FIXTURE, Set.of(), (tag, start, end, histogram) -> intervalStarts.add(start),
        seconds, gatling -> gatling + behind);

    long start = log.startEpochMillis() + behind;
    assertEquals(start, intervalStarts.stream().mapToLong(Long::longValue).min().orElseThrow(),
        "the histogram log's first interval starts at Gatling's start on the run's clock");
    List<LoadSeconds.Second> requests = seconds.seconds(SeriesKind.REQUEST);
    assertEquals(Math.floorDiv(start, 1000), requests.get(0).epochSecond(), "the first request in the run's second");
    assertTrue(requests.get(requests.size() - 1).epochSecond() <= (start + log.lastEndMillis()) / 1000);
    long multiGets = log.requests().get("multi-get").ok() + log.requests().get("multi-get").ko();
    long all = log.requests().values().stream().mapToLong(tally -> tally.ok() + tally.ko()).sum();
    assertEquals(multiGets, count(seconds.seconds(SeriesKind.VERDICT)), "the names said apart in their series");
    assertEquals(all - multiGets, count(requests), "and not among the requests");
    assertEquals(List.of(SeriesKind.REQUEST, SeriesKind.VERDICT), seconds.kinds());
  }

  private static long count(List<LoadSeconds.Second> seconds) {
    return seconds.stream().mapToLong(second -> second.ok() + second.ko()).sum();
  }

  @Test
  void shouldRefuseALogOfAnotherGatlingVersionWithOneLine() throws Exception {
    byte[] bytes = Files.readAllBytes(FIXTURE.resolve("simulation.log"));
    byte[] version = "3.15.1".getBytes(StandardCharsets.US_ASCII);
    int at = indexOf(bytes, version);
    System.arraycopy("3.99.0".getBytes(StandardCharsets.US_ASCII), 0, bytes, at, version.length);
    Files.write(folder.resolve("simulation.log"), bytes);

    ResultsException refused = assertThrows(ResultsException.class, () -> RunLog.read(folder));
    assertEquals(folder.resolve("simulation.log") + ": simulation.log of Gatling 3.99.0; couchbench reads 3.15.1",
        refused.getMessage());
  }

  @Test
  void shouldSayWhichLogIsCutShort() throws Exception {
    byte[] bytes = Files.readAllBytes(FIXTURE.resolve("simulation.log"));
    Files.write(folder.resolve("simulation.log"), Arrays.copyOf(bytes, bytes.length / 2));

    ResultsException refused = assertThrows(ResultsException.class, () -> RunLog.read(folder));
    assertTrue(refused.getMessage().startsWith(folder.resolve("simulation.log").toString()), refused.getMessage());
  }

  @Test
  void shouldSayWhenThereIsNoLog() {
    ResultsException refused = assertThrows(ResultsException.class, () -> RunLog.read(folder));
    assertTrue(refused.getMessage().contains("no such file"), refused.getMessage());
  }

  @Test
  void shouldReadTheLogOfTheGatlingOnTheClasspath() {
    assertEquals(GatlingVersion.ThisVersion().fullVersion(), SimulationLog.READS_GATLING,
        "the pom's Gatling and the log layout this reader follows");
  }

  @Test
  void shouldKeepAtMostFiftyFailureMessagesPerName() {
    Map<String, Long> tally = new LinkedHashMap<>();
    for (int i = 0; i < 120; i++) {
      FailureKinds.count(tally, "NOT_FOUND key-" + i);
    }
    FailureKinds.count(tally, "NOT_FOUND key-3");

    assertEquals(FailureKinds.MAX_KINDS + 1, tally.size());
    assertEquals(2L, tally.get("NOT_FOUND key-3"));
    assertEquals(70L, tally.get(FailureKinds.OTHER));
    assertEquals(121L, tally.values().stream().mapToLong(Long::longValue).sum());
  }

  @Test
  void shouldPutALateRecordInTheOldestOpenIntervalAndLoseNothing() {
    Map<Long, Long> byStart = new LinkedHashMap<>();
    IntervalBuckets buckets = new IntervalBuckets(0, 1000, (tag, start, end, histogram) ->
        byStart.merge(start, histogram.getTotalCount(), Long::sum));
    buckets.record("t", 100, 1);
    buckets.record("t", 3500, 1); // two intervals later: hands [0, 1000) over
    buckets.record("t", 500, 1); // late: counted in [1000, 2000), the oldest still open
    buckets.flushAll();

    assertEquals(Map.of(0L, 1L, 1000L, 1L, 3000L, 1L), byStart);
  }

  private static int indexOf(byte[] haystack, byte[] needle) {
    outer:
    for (int i = 0; i <= haystack.length - needle.length; i++) {
      for (int j = 0; j < needle.length; j++) {
        if (haystack[i + j] != needle[j]) {
          continue outer;
        }
      }
      return i;
    }
    throw new AssertionError("not found");
  }
}
