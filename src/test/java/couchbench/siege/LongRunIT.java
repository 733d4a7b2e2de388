package couchbench.siege;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.GatlingReport;
import couchbench.GatlingRun;
import couchbench.MemcachedStats;
import couchbench.targets.MemcachedServer;
import couchbench.targets.PouchDbServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * MemSet and CouchSet in a small heap (-Xmx96m) with the heap probe on (-Dcouchbench.heapProbe): the run finishes
 * with its report, the heap in use after GC at the end of the load is within 20% of that a few seconds in, and the
 * key file holds exactly what the server counted. MemSet's run acknowledges more keys than the old design, which held
 * them all in memory at about 100 bytes a key, could hold in this heap.
 */
class LongRunIT {

  private static final String HEAP = "-Xmx96m";
  private static final long HEAP_BYTES = 96L << 20;
  private static final Duration TIMEOUT = Duration.ofMinutes(3);
  private static final Pattern PROBE = Pattern.compile("couchbench: heap probe: (\\d+) s, (\\d+) bytes used after GC");

  @Test
  void shouldRunMemSetInFlatMemoryAndWriteExactlyWhatMemcachedCounted() throws Exception {
    Path keyFile = KeyFiles.fresh("long-memset");
    try (MemcachedServer memcached = MemcachedServer.start()) {
      // Pipeline 4, not 8: at 8 this machine acknowledged 5.6 million keys in the 30 s, and Gatling then spent 47 s
      // parsing their simulation.log; the check needs just over a million (HEAP_BYTES / 100), and the 30 s of probes.
      // With C1 only (GatlingRun's default) pipeline 4 acknowledged 1.65 million under a load average of 8, and
      // Gatling parsed them in 29 s.
      GatlingRun.Result run = GatlingRun.start("MemSet", Map.of("memcache.servers", memcached.address(),
          "users", "8", "pipeline", "4", "duration", "30", "warmup", "2", "valueSize", "10",
          "keyFile", keyFile.toString(),
          "couchbench.heapProbe", "3"), Map.of(), List.of(HEAP)).finish(TIMEOUT);

      assertEquals(0, run.exitCode(), run.why());
      assertTrue(Files.exists(run.requireRunFolder().resolve("index.html")), "Gatling's report is written");
      assertFlat(run.output(), "MemSet");
      long keys = keyLines(keyFile);
      long warmUpSets = GatlingReport.requests(run.requireRunFolder()).get("warm-up memcache set").ok();
      assertEquals(MemcachedStats.count(memcached.port(), "cmd_set") - warmUpSets, keys,
          "key file lines = memcached's cmd_set less the warm-up's sets");
      assertTrue(keys * 100 > HEAP_BYTES, "more keys than the old design could hold in " + HEAP + ": " + keys);
    }
  }

  @Test
  void shouldRunCouchSetInFlatMemoryAndWriteExactlyWhatCouchDbCounted() throws Exception {
    Path keyFile = KeyFiles.fresh("long-couchset");
    try (PouchDbServer couch = PouchDbServer.start()) {
      GatlingRun.Result run = GatlingRun.start("CouchSet", Map.of("couchdb.url", couch.url(), "users", "16",
          "duration", "30", "valueSize", "10", "keyFile", keyFile.toString(), "database", "long_run",
          "couchbench.heapProbe", "3"), Map.of(), List.of(HEAP)).finish(TIMEOUT);

      assertEquals(0, run.exitCode(), run.why());
      assertTrue(Files.exists(run.requireRunFolder().resolve("index.html")), "Gatling's report is written");
      assertFlat(run.output(), "CouchSet");
      long docCount = new ObjectMapper().readTree(HttpClient.newHttpClient()
          .send(HttpRequest.newBuilder(URI.create(couch.url() + "/long_run")).build(),
              HttpResponse.BodyHandlers.ofString()).body()).path("doc_count").asLong();
      assertEquals(docCount, keyLines(keyFile), "key file lines = the database's doc_count");
      assertTrue(docCount > 1000, "documents written: " + docCount);
    }
  }

  /**
   * The probes of the load, from Gatling's start of the simulation to the key file's end: the heap at its end is within
   * 20% of that a few seconds in (the first probe may still see the JIT and Gatling's start). Each side is the median of
   * three probes, because one probe also counts what happens to be in flight, e.g. up to 200 ms of queued keys: a
   * heap that grows with the run's length still raises the last three.
   */
  private static void assertFlat(String output, String simulation) {
    List<String> lines = output.lines().toList();
    int start = lines.indexOf("Simulation " + simulation + " started...");
    assertTrue(start >= 0, "Gatling started the simulation:\n" + output);
    List<long[]> probes = new ArrayList<>(); // seconds since the JVM started, bytes
    for (String line : lines.subList(start + 1, lines.size())) {
      if (line.startsWith("couchbench: key file: ") && line.contains(" written to ")) {
        break;
      }
      Matcher probe = PROBE.matcher(line);
      if (probe.matches()) {
        probes.add(new long[] {Long.parseLong(probe.group(1)), Long.parseLong(probe.group(2))});
      }
    }
    assertTrue(!probes.isEmpty(), "heap probes during the load:\n" + output);
    List<long[]> afterStart = probes.stream().filter(probe -> probe[0] >= probes.get(0)[0] + 3).toList();
    assertTrue(afterStart.size() >= 6, "six probes from a few seconds into the load:\n" + output);
    List<long[]> earlyThree = afterStart.subList(0, 3);
    List<long[]> lastThree = afterStart.subList(afterStart.size() - 3, afterStart.size());
    assertTrue(lastThree.get(2)[0] - earlyThree.get(0)[0] >= 20, "probes over 20 s of the load:\n" + output);
    long[] early = median(earlyThree);
    long[] end = median(lastThree);
    assertTrue(end[1] <= early[1] * 1.2, "heap after GC at " + end[0] + " s: " + end[1] + " bytes, at " + early[0]
        + " s: " + early[1] + " bytes (at most 20% more; medians of three probes)");
  }

  private static long[] median(List<long[]> threeProbes) {
    return threeProbes.stream().sorted(Comparator.comparingLong(probe -> probe[1])).toList().get(1);
  }

  /** The key lines of a key file, checking its header; streamed, the file may hold millions. */
  private static long keyLines(Path keyFile) throws IOException {
    try (Stream<String> lines = Files.lines(keyFile)) {
      long[] count = {0};
      lines.forEachOrdered(line -> {
        if (count[0]++ == 0) {
          assertEquals("key", line, keyFile + " header");
        }
      });
      return count[0] - 1;
    }
  }
}
