package couchbench.siege;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.GatlingReport;
import couchbench.GatlingRun;
import couchbench.MemcachedStats;
import couchbench.results.Results;
import couchbench.results.ResultsFile;
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
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/**
 * Targets that go away in the middle of a siege run, killed for good or restarted: the requests meanwhile
 * fail with a message, the run ends when its duration says, the report is written, the key file holds
 * exactly the acknowledged keys, and a restarted target gets the load again.
 */
class TargetLossIT {

  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(2);
  private static final Duration LOAD_WAIT = Duration.ofSeconds(60);
  private static final int DURATION = 8;
  // Sets to see before and after a restart: a small fraction of what 3 users reach in DURATION s even on a slow
  // machine (thousands a second on an idle one), so that they come before the run ends.
  private static final long SETS_SEEN = 100;
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @Test
  void shouldFailRequestsEndOnTimeAndReportWhenCouchDbDiesMidRun() throws Exception {
    Path keyFile = KeyFiles.fresh("couchdb");
    try (PouchDbServer couch = PouchDbServer.start()) {
      GatlingRun.Running run = couchSet(couch, keyFile);
      awaitCount(() -> docCount(couch), 50, "documents written before the kill");
      couch.close();
      long killed = System.nanoTime();
      GatlingRun.Result result = run.finish(RUN_TIMEOUT);

      assertEndedOnTime(killed);
      GatlingReport.Counts sets = assertFailedAndReported(result, "couchdb set");
      assertEquals(sets.ok(), KeyFiles.written(keyFile).size(), "the key file holds the acknowledged ids only");
    }
  }

  @Test
  void shouldLoseNothingAcknowledgedAndResumeWhenCouchDbRestartsMidRun() throws Exception {
    Path keyFile = KeyFiles.fresh("couchdb");
    PouchDbServer first = PouchDbServer.start();
    PouchDbServer restarted = first;
    try {
      GatlingRun.Running run = couchSet(first, keyFile);
      awaitCount(() -> docCount(first), 50, "documents written before the restart");
      restarted = first.restart();
      PouchDbServer again = restarted;
      long before = docCount(again);
      awaitCount(() -> docCount(again), before + 50, "documents written after the restart");
      GatlingRun.Result result = run.finish(RUN_TIMEOUT);

      GatlingReport.Counts sets = assertFailedAndReported(result, "couchdb set");
      List<String> ids = KeyFiles.written(keyFile);
      assertEquals(sets.ok(), ids.size(), "the key file holds the acknowledged ids only");
      assertEquals(0, missing(again, ids), "every acknowledged document survived the restart");
      // A write in flight at the kill may be stored with its reply lost: stored, yet rightly not acknowledged.
      long unacknowledged = docCount(again) - ids.size();
      assertTrue(unacknowledged >= 0 && unacknowledged <= 3, "at most one unacknowledged write per user: "
          + unacknowledged);
    } finally {
      restarted.close();
    }
  }

  @Test
  void shouldReconnectWhenMemcachedRestartsMidRun() throws Exception {
    Path keyFile = KeyFiles.fresh("memcache");
    MemcachedServer first = MemcachedServer.start();
    MemcachedServer restarted = first;
    int port = first.port();
    try {
      GatlingRun.Running run = GatlingRun.start("MemSet", Map.of("memcache.servers", first.address(),
          "users", "3", "duration", String.valueOf(DURATION), "warmup", "0", "valueSize", "50",
          "keyFile", keyFile.toString()), Map.of());
      awaitCount(() -> MemcachedStats.count(port, "cmd_set"), SETS_SEEN, "sets before the restart");
      restarted = first.restart();
      awaitCount(() -> MemcachedStats.count(port, "cmd_set"), SETS_SEEN, "sets after the restart");
      long stored = MemcachedStats.count(port, "cmd_set");
      GatlingRun.Result result = run.finish(RUN_TIMEOUT);

      GatlingReport.Counts sets = assertFailedAndReported(result, "memcache set");
      assertTrue(GatlingReport.errors(result.requireRunFolder()).keySet().stream()
          .allMatch(message -> message.startsWith("connection")), "grouped connection failures");
      assertEquals(sets.ok(), KeyFiles.written(keyFile).size(), "the key file holds the acknowledged keys only");
      assertTrue(sets.ok() > stored, "sets acknowledged before and after the restart: " + sets + ", " + stored);
      assertEquals(String.valueOf(sets.ko()), siegeRow(result, "memcache set").get(9),
          "the summary's failed transactions");
      // The stop dropped each of the 3 users' connections, and each opened a new one once memcached was back; a user
      // may get a new one while memcached is going down, and that one is dropped too. Every drop was followed by a
      // reopening, and each user's last connection was still open at the end.
      Results.ServerConnections connections = ResultsFile.read(result.requireRunFolder()).memcacheConnections().get(0);
      assertEquals(first.address(), connections.server());
      assertTrue(connections.droppedInAll() >= 3 && connections.reopened() == connections.droppedInAll()
          && connections.opened() == 3 + connections.reopened(), "results.json: " + connections);
      assertTrue(Set.of("closed by the server", "I/O error").containsAll(connections.dropped().keySet()),
          "dropped by the server going away: " + connections);
      assertTrue(result.output().contains("couchbench: memcache connections dropped: " + connections.describe()),
          result.output());
      String page = Files.readString(result.requireRunFolder().resolve("summary.html"));
      assertTrue(page.contains("Memcache connections dropped: " + connections.describe() + ". A server went away"),
          page);
    } finally {
      restarted.close();
    }
  }

  @Test
  void shouldCountThe503sAndGoOnWhenCouchDbIsUnavailableForAWhile() throws Exception {
    Path keyFile = KeyFiles.fresh("couchdb");
    try (PouchDbServer couch = PouchDbServer.start();
        UnavailableForAWhileProxy proxy = new UnavailableForAWhileProxy(couch.url(), 50, Duration.ofSeconds(2))) {
      GatlingRun.Result result = GatlingRun.run("CouchSet", Map.of("couchdb.url", proxy.url(), "users", "3",
          "duration", "6", "valueSize", "50", "keyFile", keyFile.toString(), "database", "siege_loss"), RUN_TIMEOUT);

      GatlingReport.Counts sets = assertFailedAndReported(result, "couchdb set");
      assertEquals(proxy.refused(), sets.ko(), "each 503 failed its request, and was counted");
      Map<String, Long> errors = GatlingReport.errors(result.requireRunFolder());
      assertTrue(errors.keySet().stream().allMatch(message -> message.contains("503")), errors.toString());
      assertTrue(proxy.passedAfter() > 0, "the load went on after the 503s");
      List<String> ids = KeyFiles.written(keyFile);
      assertEquals(sets.ok(), ids.size(), "the key file holds the acknowledged ids only");
      assertEquals(ids.size(), docCount(couch), "nothing answered 503 was stored, everything acknowledged was");
      assertEquals(String.valueOf(sets.ko()), siegeRow(result, "couchdb set").get(9),
          "the summary's failed transactions");
    }
  }

  /** A request's row in the summary's siege table (siege-s-figures.csv); column 9 is its failed transactions. */
  private static List<String> siegeRow(GatlingRun.Result result, String request) throws IOException {
    return Files.readAllLines(result.requireRunFolder().resolve("siege-s-figures.csv")).stream()
        .filter(line -> line.startsWith(request + ",")).findFirst().map(line -> List.of(line.split(",")))
        .orElseThrow(() -> new AssertionError("no row " + request + " in the siege table"));
  }

  private static GatlingRun.Running couchSet(PouchDbServer couch, Path keyFile) throws IOException {
    return GatlingRun.start("CouchSet", Map.of("couchdb.url", couch.url(), "users", "3",
        "duration", String.valueOf(DURATION), "valueSize", "50", "keyFile", keyFile.toString(),
        "database", "siege_loss"), Map.of());
  }

  /** Failed requests fail the run, yet Gatling's report is written and counts them, with their messages. */
  private static GatlingReport.Counts assertFailedAndReported(GatlingRun.Result result, String request)
      throws IOException {
    assertNotEquals(0, result.exitCode(), "failed requests fail the run's assertion:\n" + result.output());
    Path folder = result.requireRunFolder();
    assertTrue(Files.exists(folder.resolve("index.html")), "the report is written");
    GatlingReport.Counts counts = GatlingReport.requests(folder).get(request);
    assertTrue(counts.ok() > 0 && counts.ko() > 0, counts.toString());
    Map<String, Long> errors = GatlingReport.errors(folder);
    assertEquals(counts.ko(), errors.values().stream().mapToLong(Long::longValue).sum(),
        "every failure is in the error table, with a message: " + errors);
    assertTrue(errors.size() <= 4, "messages are grouped, not one per request: " + errors);
    assertTrue(result.output().contains("count of failed events is 0.0 : false (actual : " + counts.ko() + ".0)"),
        "the console's last word says how many failed:\n" + result.output());
    return counts;
  }

  private static void assertEndedOnTime(long killedAt) {
    double seconds = (System.nanoTime() - killedAt) / 1e9;
    assertTrue(seconds < DURATION + 15, "the run ended " + seconds + " s after the kill, its duration is " + DURATION);
  }

  private static void awaitCount(LongSupplier count, long atLeast, String what) throws InterruptedException {
    long deadline = System.nanoTime() + LOAD_WAIT.toNanos();
    while (count.getAsLong() < atLeast) {
      assertTrue(System.nanoTime() < deadline, what + ": fewer than " + atLeast + " within " + LOAD_WAIT);
      Thread.sleep(50);
    }
  }

  /** @return the documents in siege_loss, 0 while the database or the server is missing */
  private static long docCount(PouchDbServer couch) {
    try {
      HttpResponse<String> reply = HTTP.send(HttpRequest.newBuilder(URI.create(couch.url() + "/siege_loss"))
          .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
      return reply.statusCode() == 200 ? new ObjectMapper().readTree(reply.body()).path("doc_count").asLong() : 0;
    } catch (IOException e) {
      return 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 0;
    }
  }

  /** @return how many of the ids the database does not hold */
  private static long missing(PouchDbServer couch, List<String> ids) throws Exception {
    String keys = new ObjectMapper().writeValueAsString(Map.of("keys", ids));
    HttpResponse<String> reply = HTTP.send(HttpRequest.newBuilder(URI.create(couch.url() + "/siege_loss/_all_docs"))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(keys)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertEquals(200, reply.statusCode(), reply.body());
    JsonNode rows = new ObjectMapper().readTree(reply.body()).path("rows");
    assertEquals(ids.size(), rows.size(), "one row per id asked");
    long missing = 0;
    for (JsonNode row : rows) {
      missing += row.has("error") || row.path("value").path("deleted").asBoolean() ? 1 : 0;
    }
    return missing;
  }


}
