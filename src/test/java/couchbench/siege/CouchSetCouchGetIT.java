package couchbench.siege;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.GatlingReport;
import couchbench.GatlingRun;
import couchbench.results.ResultsFile;
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
import org.junit.jupiter.api.Test;

/**
 * CouchSet then CouchGet against a real pouchdb-server: the report's counts against the database's; then CouchGet's
 * staircase of three fixed rates.
 */
class CouchSetCouchGetIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(2);

  @Test
  void shouldWriteExactlyTheAcknowledgedIdsAndReadEveryDocumentBackIntact() throws Exception {
    Path keyFile = KeyFiles.fresh("couchdb");
    try (PouchDbServer couch = PouchDbServer.start()) {
      GatlingRun.Result set = GatlingRun.run("CouchSet", Map.of("couchdb.url", couch.url(), "users", "4",
          "duration", "3", "valueSize", "80", "keyFile", keyFile.toString(), "database", "siege_it"), TIMEOUT);

      assertEquals(0, set.exitCode(), set.why());
      GatlingReport.Counts sets = GatlingReport.requests(set.requireRunFolder()).get("couchdb set");
      List<String> ids = KeyFiles.written(keyFile); // header, no id twice
      assertTrue(ids.size() > 10, "some documents written: " + ids.size());
      assertEquals(sets.ok(), ids.size(), "Gatling's OK writes = the key file");
      long docCount = new ObjectMapper().readTree(get(couch.url() + "/siege_it")).path("doc_count").asLong();
      assertEquals(ids.size(), docCount, "the key file = the database's doc_count");

      GatlingRun.Result read = GatlingRun.run("CouchGet", Map.of("couchdb.url", couch.url(), "users", "4",
          "duration", "3", "keyFile", keyFile.toString(), "database", "siege_it"), TIMEOUT);

      assertEquals(0, read.exitCode(), read.why());
      GatlingReport.Counts gets = GatlingReport.requests(read.requireRunFolder()).get("couchdb get");
      assertTrue(gets.ok() > 10, "reads sent: " + gets);
      assertEquals(0, gets.ko());
      List<String> summary = Files.readAllLines(read.requireRunFolder().resolve("siege-s-figures.csv"));
      assertTrue(summary.get(1).startsWith("couchdb get," + gets.ok() + ",100,"), "siege's figures: " + summary);

      GatlingRun.Result curve = GatlingRun.run("CouchGet", Map.of("couchdb.url", couch.url(), "users", "4",
          "targets", "20,40,80", "settleSeconds", "1", "stepSeconds", "2", "keyFile", keyFile.toString(),
          "database", "siege_it"), TIMEOUT);

      assertThreePointsPerPercentile(curve);
    }
  }

  // The staircase's three steps, each at 90% of its rate or more, one point per step on every percentile's line.
  private static void assertThreePointsPerPercentile(GatlingRun.Result run) throws Exception {
    assertEquals(0, run.exitCode(), run.why());
    JsonNode steps = ResultsFile.read(run.requireRunFolder()).figures().path("steps");
    assertEquals(List.of(20.0, 40.0, 80.0), steps.findValues("target").stream().map(JsonNode::asDouble).toList());
    for (JsonNode step : steps) {
      assertTrue(step.path("achieved").asDouble() >= 0.9 * step.path("target").asDouble(), step.toString());
      assertEquals(0, step.path("failed").asLong(), step.toString());
    }
    List<String> points = Files.readAllLines(run.requireRunFolder().resolve("latency-against-throughput.csv"));
    for (String line : List.of("CouchGet p50", "CouchGet p99", "CouchGet p99.9", "CouchGet p99 from the actual start")) {
      assertEquals(3, points.stream().filter(point -> point.startsWith(line + ",")).count(), line + ": " + points);
    }
    assertTrue(run.output().contains("couchbench: curve: CouchGet step 3: asked 80/s"), run.output());
  }

  @Test
  void shouldStopWithOneLineWhenTheKeyFileIsMissing() throws Exception {
    Path missing = KeyFiles.fresh("absent");
    GatlingRun.Result run = GatlingRun.run("CouchGet", Map.of("couchdb.url", "http://127.0.0.1:1",
        "keyFile", missing.toString()), TIMEOUT);

    assertEquals(1, run.exitCode(), run.why());
    assertTrue(run.output().contains("key file " + missing + " does not exist: run CouchSet first"), run.output());
    assertFalse(run.output().contains("\tat "), "no stack trace:\n" + run.output());
  }

  private static String get(String url) throws Exception {
    return HttpClient.newHttpClient()
        .send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString())
        .body();
  }
}
