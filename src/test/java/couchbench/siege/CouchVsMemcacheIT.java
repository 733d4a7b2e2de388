package couchbench.siege;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.FakeCouchDb;
import couchbench.GatlingReport;
import couchbench.GatlingRun;
import couchbench.MemcachedStats;
import couchbench.memcache.client.FakeMemcache;
import couchbench.memcache.client.FakeMemcache.Answer;
import couchbench.targets.MemcachedServer;
import couchbench.targets.PouchDbServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * CouchVsMemcache with small parameters against a real memcached and pouchdb-server: one report
 * with both systems, key files holding exactly the acknowledged keys, and the summary's counts
 * agreeing with the servers' own.
 */
class CouchVsMemcacheIT {

  private static final int FIELDS = 3;

  @Test
  void shouldPutBothSystemsInOneReportAndAgreeWithTheServersCounts() throws Exception {
    Path keyDir = KeyFiles.freshFolder("vs");
    try (MemcachedServer memcached = MemcachedServer.start(); PouchDbServer couch = PouchDbServer.start()) {
      // 1 s a step, nine steps: every step sends at least a request per user, and what is checked is counts.
      GatlingRun.Result run = GatlingRun.run("CouchVsMemcache", Map.of("memcache.servers", memcached.address(),
          "couchdb.url", couch.url(), "users", "3", "duration", "1", "fields", String.valueOf(FIELDS),
          "warmup", "1", "keyDir", keyDir.toString(), "database", "vs_it"), Duration.ofMinutes(3));

      assertEquals(0, run.exitCode(), run.why());
      Path folder = run.requireRunFolder();
      Map<String, GatlingReport.Counts> report = GatlingReport.requests(folder);
      List<String> measured = List.of("memcache set", "couchdb set", "memcache get", "couchdb get",
          "memcache record write", "couchdb record write", "memcache record read", "memcache record multi-get read",
          "couchdb record read", "memcache field set", "couchdb record put", "memcache field get",
          "memcache record multi-get", "couchdb record get");
      for (String name : measured) {
        GatlingReport.Counts counts = report.get(name);
        assertTrue(counts != null && counts.ok() > 0, name + " in the report: " + report.keySet());
        assertEquals(0, counts.ko(), name);
      }

      // Key files: exactly what the servers acknowledged.
      List<String> memcacheKeys = KeyFiles.written(keyDir.resolve("memcache.csv"));
      List<String> couchIds = KeyFiles.written(keyDir.resolve("couchdb.csv"));
      List<String> memcacheRecords = KeyFiles.written(keyDir.resolve("memcache-records.csv"));
      List<String> couchRecords = KeyFiles.written(keyDir.resolve("couchdb-records.csv"));
      assertEquals(report.get("memcache set").ok(), memcacheKeys.size());
      assertEquals(report.get("couchdb set").ok(), couchIds.size());
      assertEquals(report.get("memcache record write").ok(), memcacheRecords.size());
      assertEquals(report.get("memcache field set").ok(), FIELDS * memcacheRecords.size(), "whole records only");
      assertEquals(report.get("couchdb record put").ok(), couchRecords.size());

      // The servers' own counts: every acknowledged write is there, and nothing else (but the warm-up's).
      Map<String, String> stats = MemcachedStats.of(memcached.port());
      long warmUpItems = report.get("warm-up memcache set").ok();
      assertEquals(memcacheKeys.size() + FIELDS * memcacheRecords.size() + warmUpItems,
          Long.parseLong(stats.get("curr_items")), "memcached's items");
      long warmUpDocs = report.get("warm-up couchdb put").ok();
      assertEquals(couchIds.size() + couchRecords.size() + warmUpDocs,
          new ObjectMapper().readTree(get(couch.url() + "/vs_it")).path("doc_count").asLong(), "the database's docs");
      long valuesFound = report.get("memcache get").ok() + report.get("memcache field get").ok()
          + FIELDS * report.get("memcache record multi-get").ok() + 2 * report.get("warm-up memcache get").ok();
      assertEquals(valuesFound, Long.parseLong(stats.get("get_hits")), "memcached's get hits");
      assertEquals("0", stats.get("get_misses"));

      // The summary: siege's table for the four operations and the five record operations, counts agreeing.
      assertTrue(Files.exists(folder.resolve("summary.html")), "summary written");
      String page = Files.readString(folder.resolve("summary.html"));
      String memcacheRead = String.format("memcache set: all %,d keys of %s", memcacheKeys.size(),
          keyDir.resolve("memcache.csv"));
      assertTrue(page.contains(memcacheRead), "the summary names what the reads drew from: " + memcacheRead);
      List<List<String>> operations = csv(folder.resolve("siege-s-figures-per-operation.csv"));
      assertEquals(List.of("memcache set", "couchdb set", "memcache get", "couchdb get"),
          operations.stream().map(row -> row.get(0)).toList());
      for (List<String> row : operations) {
        assertEquals(String.valueOf(report.get(row.get(0)).ok()), row.get(1), "transactions of " + row.get(0));
        assertEquals("100", row.get(2), "availability of " + row.get(0));
        assertTrue(Double.parseDouble(row.get(5)) > 0, "transaction rate of " + row.get(0));
      }
      List<List<String>> records = csv(folder.resolve("siege-s-figures-per-whole-record.csv"));
      assertEquals(5, records.size());
      for (List<String> row : records) {
        assertEquals(String.valueOf(report.get(row.get(0)).ok()), row.get(1), "records of " + row.get(0));
      }
      assertEquals(List.of(List.of("CouchDB documents written", String.valueOf(couchIds.size() + couchRecords.size()),
              String.valueOf(couchIds.size() + couchRecords.size()), "yes"),
          List.of("memcache items written", String.valueOf(memcacheKeys.size() + FIELDS * memcacheRecords.size()),
              String.valueOf(memcacheKeys.size() + FIELDS * memcacheRecords.size()), "yes")),
          csv(folder.resolve("the-servers-counts-against-the-client-s.csv")));
      assertTrue(Files.exists(folder.resolve("server-figures-over-the-write-phase.csv")));
      assertTrue(Files.exists(folder.resolve("server-figures-over-the-read-phase.csv")));
    }
  }

  @Test
  void shouldStopAtTheFirstRefusedLoginAndSendThatPasswordNoMore() throws Exception {
    Path keyDir = KeyFiles.freshFolder("vs-refused");
    try (MemcachedServer memcached = MemcachedServer.start(); FakeCouchDb refusing = FakeCouchDb.refusingWrites()) {
      GatlingRun.Result run = GatlingRun.run("CouchVsMemcache", Map.of("memcache.servers", memcached.address(),
          "couchdb.url", refusing.url(), "couchdb.user", "admin", "couchdb.password", "changed-secret-7",
          "users", "3", "duration", "2", "fields", "2", "warmup", "0", "keyDir", keyDir.toString()),
          Duration.ofMinutes(2));

      assertNotEquals(0, run.exitCode(), run.why());
      List<String> requests = refusing.requests();
      int firstWrite = 0;
      while (firstWrite < requests.size() && !requests.get(firstWrite).matches("PUT /couchbench_siege/.+")) {
        firstWrite++;
      }
      List<String> fromFirstWrite = requests.subList(firstWrite, requests.size());
      assertTrue(!fromFirstWrite.isEmpty() && fromFirstWrite.size() <= 3
              && fromFirstWrite.stream().allMatch(request -> request.matches("PUT /couchbench_siege/.+")),
          "at most one write per user, then nothing (no server figures either): " + requests);
      assertFalse(run.output().contains("changed-secret-7"), "the password is never printed");
      Path folder = run.requireRunFolder();
      assertTrue(Files.readString(folder.resolve("summary.html")).contains("CouchDB refused the login"));
      assertEquals(GatlingReport.requests(folder).get("memcache set").ok(),
          KeyFiles.written(keyDir.resolve("memcache.csv")).size(),
          "the key file of the step that ran is written");
    }
  }

  @Test
  void shouldStopWithOneLineBeforeAReadStepWithNoKeyToRead() throws Exception {
    Path keyDir = KeyFiles.freshFolder("vs-no-keys");
    List<String> commands = new CopyOnWriteArrayList<>();
    // A memcache server that refuses every set: the memcache set step acknowledges no key.
    try (FakeMemcache full = new FakeMemcache(command -> {
          commands.add(command);
          return Answer.reply(command.equals("version") ? "VERSION 1.2.1\r\n"
              : command.equals("stats") ? "STAT pid 4242\r\nSTAT cmd_set 0\r\nEND\r\n"
              : command.startsWith("set ") ? "SERVER_ERROR out of memory storing object\r\n" : "ERROR\r\n");
        });
        PouchDbServer couch = PouchDbServer.start()) {
      GatlingRun.Result run = GatlingRun.run("CouchVsMemcache", Map.of(
          "memcache.servers", "127.0.0.1:" + full.address().getPort(), "couchdb.url", couch.url(), "users", "2",
          "duration", "1", "fields", "0", "warmup", "0", "keyDir", keyDir.toString(), "database", "vs_no_keys"),
          Duration.ofMinutes(2));

      assertNotEquals(0, run.exitCode(), run.why());
      assertTrue(run.output().contains("couchbench: stopped: memcache set acknowledged no key ("
          + keyDir.resolve("memcache.csv") + "): the read phase would have nothing to read"), run.output());
      assertTrue(commands.stream().noneMatch(command -> command.startsWith("get ")), "no read step ran: " + commands);
      assertEquals(0, KeyFiles.written(keyDir.resolve("memcache.csv")).size(), "the empty key file is written");
    }
  }

  /** The rows of a CSV the summary wrote, without its header; its cells hold no commas. */
  private static List<List<String>> csv(Path file) throws Exception {
    List<String> lines = Files.readAllLines(file);
    return lines.subList(1, lines.size()).stream().map(line -> List.of(line.split(",", -1))).toList();
  }

  private static String get(String url) throws Exception {
    return HttpClient.newHttpClient()
        .send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString())
        .body();
  }
}
