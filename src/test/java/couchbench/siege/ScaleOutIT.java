package couchbench.siege;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.Injectors;
import couchbench.MemcachedStats;
import couchbench.results.HistogramLog;
import couchbench.results.Histograms;
import couchbench.results.Results;
import couchbench.results.ResultsFile;
import couchbench.results.RunOutput;
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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Two injectors of MemSet, and of CouchSet, against one real server each, started at one instant and merged: the
 * merged counts against the servers' own, the merged histograms against the injectors', the merged siege table
 * against the injectors' own, and the key files.
 */
class ScaleOutIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(2);

  @Test
  void shouldMergeTwoMemSetInjectorsIntoExactlyWhatMemcachedCounted() throws Exception {
    Path keyFile = KeyFiles.fresh("memcache-scaleout");
    try (MemcachedServer memcached = MemcachedServer.start()) {
      long setsBefore = MemcachedStats.count(memcached.port(), "cmd_set");

      Injectors.Run run = Injectors.run("MemSet", 2, Map.of("memcache.servers", memcached.address(), "users", "4",
          "duration", "3", "warmup", "1", "valueSize", "50", "keyFile", keyFile.toString()), TIMEOUT);

      assertMergedBesideTheRunsAsTheLastRun(run, "memset");
      Results merged = ResultsFile.read(run.merged());
      long sets = ok(merged, "memcache set");
      long allSets = sets + ok(merged, "warm-up memcache set");
      Map<String, String> stats = MemcachedStats.of(memcached.port());
      assertEquals(Long.parseLong(stats.get("cmd_set")) - setsBefore, allSets,
          "merged OK sets, warm-ups included = memcached's cmd_set change");
      Results.ServerCount counted = merged.serverCounts().get(0);
      assertTrue(counted.agrees(), counted.describe());
      assertEquals(allSets, counted.change(), "the merged check is the server's own change");
      List<Results> injectors = assertEachInjectorsShare(run, "MemSet", "memcache set");
      assertEquals(sets, injectors.stream().mapToLong(r -> ok(r, "memcache set")).sum(), "counts summed");
      assertHistogramsAdded(run, merged, "memcache set");
      assertSiegeTableAdded(run, "memcache set", sets);

      List<String> keys = assertDisjointKeyFiles(run, injectors, "[0-9a-f]{32}");
      assertEquals(sets, keys.size(), "the merged key file holds exactly the acknowledged keys");
      assertEquals(keys.size(), MemcachedStats.held(memcached.port(), keys), "every key is on memcached");
      assertEquals(keys.size() + 1, Long.parseLong(stats.get("curr_items")),
          "memcached holds the merged keys and the warm-up's one key: no key of one injector overwrote another's");
    }
  }

  @Test
  void shouldMergeTwoCouchSetInjectorsIntoExactlyTheDatabasesDocCount() throws Exception {
    Path keyFile = KeyFiles.fresh("couchdb-scaleout");
    try (PouchDbServer couch = PouchDbServer.start()) {
      // A staircase of 40 then 80 writes a second, which each injector runs half of.
      Injectors.Run run = Injectors.run("CouchSet", 2, Map.of("couchdb.url", couch.url(), "users", "4",
          "targets", "40,80", "settleSeconds", "1", "stepSeconds", "2", "valueSize", "80",
          "keyFile", keyFile.toString(), "database", "scaleout_it"), TIMEOUT);

      Results merged = ResultsFile.read(run.merged());
      long sets = ok(merged, "couchdb set");
      long docCount = new ObjectMapper().readTree(HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create(couch.url() + "/scaleout_it")).build(),
          HttpResponse.BodyHandlers.ofString()).body()).path("doc_count").asLong();
      assertEquals(docCount, sets, "merged OK writes = the database's doc_count");
      assertTrue(merged.serverCounts().get(0).agrees(), merged.serverCounts().get(0).describe());
      List<Results> injectors = assertEachInjectorsShare(run, "CouchSet", "couchdb set");
      assertHistogramsAdded(run, merged, "couchdb set");
      assertSiegeTableAdded(run, "couchdb set", sets);
      List<String> ids = assertDisjointKeyFiles(run, injectors, "[0-9]+");
      assertEquals(docCount, ids.size(), "the merged key file holds exactly the acknowledged ids");
      assertStepsAdded(injectors, merged);
    }
  }

  /** Each injector ran half of each rate; the merged steps are theirs added up, on the whole rate. */
  private static void assertStepsAdded(List<Results> injectors, Results merged) {
    for (Results injector : injectors) {
      assertEquals(List.of(20.0, 40.0), injector.figures().path("steps").findValues("target").stream()
          .map(JsonNode::asDouble).toList(), "each injector's half of each rate");
    }
    JsonNode steps = merged.figures().path("steps");
    assertEquals(2, steps.size(), steps.toString());
    for (int step = 0; step < 2; step++) {
      assertEquals(40.0 * (step + 1), steps.get(step).path("target").asDouble());
      long ok = 0;
      for (Results injector : injectors) {
        ok += injector.figures().path("steps").get(step).path("ok").asLong();
      }
      assertEquals(ok, steps.get(step).path("ok").asLong(), "the merged step's writes are the injectors'");
      assertEquals(ok, Histograms.decode(steps.get(step).path("intendedMicros").asText()).getTotalCount(),
          "the merged step's histogram holds them all");
      assertTrue(steps.get(step).path("achieved").asDouble() >= 0.9 * 40 * (step + 1), steps.get(step).toString());
    }
  }

  /** Each injector ran its half of the users from the agreed start; returns their results in index order. */
  private static List<Results> assertEachInjectorsShare(Injectors.Run run, String simulation, String request) {
    List<Results> injectors = new ArrayList<>();
    for (int i = 0; i < run.folders().size(); i++) {
      Results results = ResultsFile.read(run.folders().get(i));
      assertEquals(simulation, results.run().simulation());
      assertEquals(i + "/2", results.run().injector());
      assertEquals(run.startAt().toString(), results.run().startAt());
      assertNotNull(results.run().startSkewMillis(), "the start skew is recorded");
      assertTrue(ok(results, request) > 0, "injector " + i + " sent its share: " + results.requests());
      injectors.add(results);
    }
    Results merged = ResultsFile.read(run.merged());
    assertEquals("*/2", merged.run().injector());
    assertEquals(injectors.stream().mapToLong(r -> r.run().startSkewMillis()).max().orElseThrow(),
        merged.run().startSkewMillis(), "the largest skew");
    return injectors;
  }

  /** The merged histogram of a request holds exactly the injectors' requests. */
  private static void assertHistogramsAdded(Injectors.Run run, Results merged, String request) {
    String tag = merged.requests().stream().filter(e -> e.name().equals(request)).findFirst().orElseThrow().okTag();
    long sum = run.folders().stream()
        .mapToLong(folder -> HistogramLog.totals(folder.resolve(RunOutput.HISTOGRAMS)).get(tag).getTotalCount()).sum();
    assertEquals(sum, HistogramLog.totals(run.merged().resolve(RunOutput.HISTOGRAMS)).get(tag).getTotalCount(),
        "merged histogram total = the sum of the injectors'");
    assertEquals(ok(merged, request), sum);
  }

  /**
   * The merged summary's siege table (its CSV beside summary.html) holds the whole run: its transactions are the sum
   * of those of each injector's own table, and its elapsed time spans both injectors'.
   */
  private static void assertSiegeTableAdded(Injectors.Run run, String request, long sets) throws Exception {
    List<String> merged = siegeRow(run.merged(), request);
    long sum = 0;
    double longestElapsed = 0;
    for (Path folder : run.folders()) {
      List<String> own = siegeRow(folder, request);
      sum += Long.parseLong(own.get(1));
      longestElapsed = Math.max(longestElapsed, Double.parseDouble(own.get(3)));
    }
    assertEquals(sum, Long.parseLong(merged.get(1)), "merged transactions = the injectors' summed: " + merged);
    assertEquals(sets, sum, "the siege table's transactions are the entries' OK");
    assertTrue(Double.parseDouble(merged.get(3)) >= longestElapsed, "the union of the windows: " + merged);
    assertTrue(Files.readString(run.merged().resolve("summary.html")).contains("figures of all injectors"),
        "the merged page says what its figures are");
  }

  /** The siege table's row of a request, in a run folder's summary. */
  private static List<String> siegeRow(Path folder, String request) throws Exception {
    return Files.readAllLines(folder.resolve("siege-s-figures.csv")).stream().map(line -> List.of(line.split(",")))
        .filter(row -> row.get(0).equals(request)).findFirst()
        .orElseThrow(() -> new AssertionError("no row " + request + " in " + folder.resolve("siege-s-figures.csv")));
  }

  /**
   * Each injector wrote its own key file of its own keys (prefix i<I>-), no key in two of them, and the merged file
   * is their union; returns the merged keys.
   */
  private static List<String> assertDisjointKeyFiles(Injectors.Run run, List<Results> injectors, String random)
      throws Exception {
    Set<String> union = new HashSet<>();
    long total = 0;
    for (int i = 0; i < injectors.size(); i++) {
      Results.KeyFile written = injectors.get(i).keyFiles().get(0);
      List<String> keys = KeyFiles.written(run.folders().get(i).resolve(written.path()));
      String prefix = "i" + i + "-";
      assertTrue(keys.stream().allMatch(key -> key.matches(prefix + random)), "injector " + i + "'s own keys");
      assertEquals(written.keys(), keys.size());
      union.addAll(keys);
      total += keys.size();
    }
    assertEquals(total, union.size(), "no key of one injector is another's");
    List<String> merged = KeyFiles.written(run.merged().resolve(ResultsFile.read(run.merged()).keyFiles().get(0).path()));
    assertEquals(union, new HashSet<>(merged), "the merged key file is the union");
    return merged;
  }

  private static long ok(Results results, String request) {
    return results.requests().stream().filter(e -> e.name().equals(request)).mapToLong(Results.Entry::ok).sum();
  }

  /** exec:java@merge's folder: in the results root, named as Gatling names a run's, and lastRun.txt names it. */
  private static void assertMergedBesideTheRunsAsTheLastRun(Injectors.Run run, String simulation) throws IOException {
    assertEquals(run.resultsRoot(), run.merged().getParent(), "the merged folder is in the results root");
    String name = run.merged().getFileName().toString();
    assertTrue(name.matches(simulation + "-merged-\\d{17}"), name);
    assertTrue(Files.isRegularFile(run.merged().resolve("summary.html")), "the folder printed holds the summary");
    assertEquals(name, Files.readString(run.resultsRoot().resolve("lastRun.txt")), "lastRun.txt names it");
  }
}
