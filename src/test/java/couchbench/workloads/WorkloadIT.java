package couchbench.workloads;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.Forwarder;
import couchbench.GatlingReport;
import couchbench.GatlingRun;
import couchbench.MemcachedStats;
import couchbench.results.Histograms;
import couchbench.targets.MemcachedServer;
import couchbench.targets.PouchDbServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/**
 * Workload against a real pouchdb-server and memcached: YCSB's workloads A, C, E and F run with every read checked,
 * the servers' counts equal to what the run acknowledged, conflicts counted apart; and under -Dtarget, a server that
 * stalls for a second shows in the latencies from the intended start, not in those from the actual start.
 */
class WorkloadIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(2);
  private static final int RECORDS = 100;
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void shouldRunWorkloadsACAndEWithEveryReadCheckedAndTheServersCountsEqualToTheAcknowledged() throws Exception {
    try (PouchDbServer couch = PouchDbServer.start()) {
      for (String workload : new String[] {"a", "c", "e"}) {
        try (MemcachedServer memcached = MemcachedServer.start()) {
          GatlingRun.Result run = run(workload, couch, memcached, RECORDS, Map.of());
          JsonNode systems = figures(run).path("systems");
          assertEquals(workload.equals("e") ? 1 : 2, systems.size(), "E runs on CouchDB only: " + systems);
          for (JsonNode system : systems) {
            assertEquals(RECORDS, system.path("loaded").asLong(), system.toString());
            for (JsonNode operation : system.path("operations")) {
              assertTrue(operation.path("ok").asLong() > 0, "each operation of the mix ran: " + operation);
              // Two users may update one record at once: CouchDB refuses the second (a conflict, counted apart).
              assertEquals(0, operation.path("failed").asLong(), "no failure: " + operation);
            }
          }
          assertServersCountTheAcknowledged(run, systems, couch, memcached, "wl_" + workload);
        }
      }
    }
  }

  @Test
  void shouldRunWorkloadFCountingConflictsApartWhenTwoUsersReadModifyWriteOneRecord() throws Exception {
    try (PouchDbServer couch = PouchDbServer.start(); MemcachedServer memcached = MemcachedServer.start()) {
      GatlingRun.Result run = run("f", couch, memcached, 1, Map.of());

      JsonNode systems = figures(run).path("systems");
      for (JsonNode system : systems) {
        JsonNode modify = system.path("operations").get(1);
        assertEquals("read-modify-write", modify.path("operation").asText());
        assertTrue(modify.path("conflicts").asLong() > 0, "two users on one record conflict: " + modify);
        assertEquals(0, modify.path("failed").asLong(), "a conflict is not a failure: " + modify);
      }
      GatlingReport.errors(run.requireRunFolder()).keySet().forEach(message ->
          assertTrue(message.startsWith(CouchOperations.CONFLICT) || message.startsWith(MemcacheOperations.CONFLICT),
              "the only errors are conflicts: " + message));
      assertServersCountTheAcknowledged(run, systems, couch, memcached, "wl_f");
    }
  }

  // In the meta protocol (mg v), which Workload speaks with -Dprotocol=meta, as MemGet does.
  @Test
  void shouldShowAStallInTheLatenciesFromTheIntendedStartOnly() throws Exception {
    try (MemcachedServer memcached = MemcachedServer.start(); Forwarder stalling = Forwarder.start(memcached.port())) {
      Map<String, String> properties = new HashMap<>(Map.of("system", "memcache", "workload", "c",
          "memcache.servers", stalling.address(), "records", String.valueOf(RECORDS), "threads", "1",
          "target", "200", "duration", "4", "protocol", "meta"));
      GatlingRun.Running running = GatlingRun.start("Workload", properties, Map.of());
      // A second into the operations (200 gets), the server's replies stop for a second.
      while (MemcachedStats.count(memcached.port(), "cmd_get") < 200 && running.process().isAlive()) {
        Thread.sleep(20);
      }
      stalling.stall(Duration.ofSeconds(1));
      GatlingRun.Result run = running.finish(TIMEOUT);

      assertEquals(0, run.exitCode(), run.why());
      JsonNode read = figures(run).path("systems").get(0).path("operations").get(0);
      Histogram intended = Histograms.decode(read.path("intended").asText());
      Histogram actual = Histograms.decode(read.path("actual").asText());
      long halfSecond = 500_000_000;
      long queuedIntended = intended.getCountBetweenValues(halfSecond, Long.MAX_VALUE / 2);
      long queuedActual = actual.getCountBetweenValues(halfSecond, Long.MAX_VALUE / 2);
      // At 200/s, the gets due in the second of the stall wait behind it: about 100 of them are late by over 0.5 s.
      assertTrue(queuedIntended >= 50, "from the intended start, the gets queued behind the stall: " + queuedIntended);
      assertTrue(intended.getMaxValue() >= 900_000_000, "about 1 s: " + intended.getMaxValue());
      assertTrue(queuedActual <= 1, "from the actual start, only the stalled get itself: " + queuedActual);
      assertTrue(read.path("late").asLong() >= 50 && read.path("maxLagMillis").asDouble() >= 800,
          "the page says how many started late and by how much: " + read);
      assertTrue(run.output().contains("started late"), "said at the end: " + run.output());
    }
  }

  private static GatlingRun.Result run(String workload, PouchDbServer couch, MemcachedServer memcached, int records,
      Map<String, String> more) throws Exception {
    Map<String, String> properties = new HashMap<>(Map.of("couchdb.url", couch.url(),
        "memcache.servers", memcached.address(), "workload", workload, "records", String.valueOf(records),
        "threads", "2", "duration", "2", "database", "wl_" + workload));
    properties.putAll(more);
    GatlingRun.Result run = GatlingRun.run("Workload", properties, TIMEOUT);
    assertEquals(0, run.exitCode(), run.why());
    return run;
  }

  private static JsonNode figures(GatlingRun.Result run) throws Exception {
    return JSON.readTree(run.requireRunFolder().resolve("results.json").toFile()).path("figures");
  }

  // CouchDB's doc_count = the records loaded and inserted; memcached's items the same, its cmd_set every set and cas
  // sent, its get_hits every get that found its record.
  private static void assertServersCountTheAcknowledged(GatlingRun.Result run, JsonNode systems, PouchDbServer couch,
      MemcachedServer memcached, String database) throws Exception {
    Map<String, GatlingReport.Counts> report = GatlingReport.requests(run.requireRunFolder());
    for (JsonNode system : systems) {
      long records = system.path("loaded").asLong() + system.path("inserted").asLong();
      if (system.path("system").asText().equals("couchdb")) {
        long docCount = JSON.readTree(get(couch.url() + "/" + database)).path("doc_count").asLong();
        assertEquals(records, docCount, "doc_count = records loaded and inserted");
        continue;
      }
      Map<String, String> stats = MemcachedStats.of(memcached.port());
      assertEquals(records, Long.parseLong(stats.get("curr_items")), "curr_items = records loaded and inserted");
      long sets = Stream.of("memcache load", "memcache insert", "memcache update", "memcache read-modify-write write")
          .mapToLong(name -> report.getOrDefault(name, new GatlingReport.Counts(0, 0, 0)).total()).sum();
      assertEquals(sets, Long.parseLong(stats.get("cmd_set")), "cmd_set = sets and cas sent");
      long gets = Stream.of("memcache read", "memcache read-modify-write read")
          .mapToLong(name -> report.getOrDefault(name, new GatlingReport.Counts(0, 0, 0)).ok()).sum();
      assertEquals(gets, Long.parseLong(stats.get("get_hits")), "get_hits = reads that found their record");
    }
  }

  private static String get(String url) throws Exception {
    return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
        HttpResponse.BodyHandlers.ofString()).body();
  }
}
