package couchbench.bulkinsert;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import couchbench.FakeCouchDb;
import couchbench.GatlingReport;
import couchbench.GatlingRun;
import couchbench.OfflinePage;
import couchbench.results.Results;
import couchbench.results.ResultsFile;
import couchbench.targets.PouchDbServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** BulkInsert run as a user runs it, in its own Gatling JVM, against a real pouchdb-server. */
class BulkInsertIT {

  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(3);
  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final ObjectMapper JSON = new ObjectMapper();

  private static PouchDbServer couch;

  @BeforeAll
  static void startCouch() {
    couch = PouchDbServer.start();
  }

  @AfterAll
  static void stopCouch() {
    couch.close();
  }

  @Test
  void shouldMeasureEveryStepWithCountsThatAgreeWithTheServerAndGatling() throws Exception {
    GatlingRun.Result run =
        run(Map.of("couchdb.url", couch.url(), "batchSizes", "1,8,64", "threads", "1,2", "docs", "256",
            "warmup", "20", "stepSeconds", "0"));

    assertEquals(0, run.exitCode(), run.why());
    Path folder = run.requireRunFolder();
    List<Map<String, String>> steps = csv(folder.resolve("docs-per-second-by-step.csv"));
    assertEquals(8, steps.size(), "a single step and three bulk steps per thread count");
    Map<String, GatlingReport.Counts> gatling = GatlingReport.requests(folder);
    Results results = ResultsFile.read(folder);
    Map<String, Double> rates = new HashMap<>();
    for (Map<String, String> step : steps) {
      boolean single = step.get("method").startsWith("single");
      String name = single ? "single T=" + step.get("T") : "bulk B=" + step.get("B") + " T=" + step.get("T");
      long acknowledged = Long.parseLong(step.get("docs acknowledged"));
      assertTrue(acknowledged >= 256, name + " created at least the documents asked for");
      assertEquals(step.get("docs sent"), step.get("docs acknowledged"), name + ": every document sent stored");
      assertEquals(step.get("doc_count"), step.get("docs acknowledged"), name + ": server count");
      assertEquals("0", step.get("failed replies"), name);
      assertEquals("0", step.get("failed requests"), name);
      GatlingReport.Counts counts = gatling.get(name);
      assertEquals(Long.parseLong(step.get("replies")), counts.ok(), name + ": Gatling's OK count");
      assertEquals(0, counts.ko(), name);
      assertTrue(counts.ok() >= 8L * Long.parseLong(step.get("T")), name + ": at least 8 requests per user");
      assertEquals(acknowledged, counts.ok() * Long.parseLong(step.get("B")), name + ": docs per request");
      Results.Entry entry = results.requests().stream().filter(e -> e.name().equals(name)).findFirst().orElseThrow();
      assertEquals(counts.ok(), entry.ok(), name + ": results.json's OK count = Gatling's");
      assertEquals(step.get("doc_count"), String.valueOf(entry.ok() * Long.parseLong(step.get("B"))),
          name + ": results.json's OK requests x B = CouchDB's doc_count");
      assertEquals(0, entry.ko(), name);
      assertEquals(Results.GATLING_CLOCK, entry.clock(), "HTTP at Gatling's precision, and said so");
      assertTrue(entry.latency().max() > 0 && entry.latency().max() % 1000 == 0, "whole milliseconds, in us: "
          + entry.latency());
      double rate = Double.parseDouble(step.get("docs/s"));
      assertTrue(rate > 0, name + " docs/s");
      rates.put(name, rate);
    }
    assertEquals(new GatlingReport.Counts(8, 8, 0), gatling.get(BulkInsertChains.DOC_COUNT_CHECK));
    // Each kind of request, 20 documents' worth for 2 users, at least one request each: single 2 x 10,
    // B=1 2 x 10, B=8 2 x 2, B=64 2 x 1.
    assertEquals(new GatlingReport.Counts(46, 46, 0), gatling.get(BulkInsertChains.WARMUP),
        "the warm-up takes every kind of request, and is in the report under its own name, in no step");
    for (String t : List.of("1", "2")) {
      assertTrue(rates.get("bulk B=64 T=" + t) > rates.get("bulk B=1 T=" + t),
          "batches of 64 beat one document per request at T=" + t + ": " + rates);
    }
    String summary = Files.readString(folder.resolve("summary.html"));
    assertTrue(OfflinePage.fetchesNothing(folder.resolve("summary.html")), "the summary opens offline");
    assertTrue(summary.contains("latency by percentile"), "the percentile chart");
    assertTrue(summary.contains("data:image/png;base64,"), "the chart is embedded");
    List<Map<String, String>> cpu = csv(folder.resolve("cpu-by-step.csv"));
    assertEquals(8, cpu.size(), "the CPU of every step");
    double client = 0;
    double server = 0;
    for (Map<String, String> step : cpu) {
      client += Double.parseDouble(step.get("client CPU (s)"));
      server += Double.parseDouble(step.get("server CPU (s)"));
      assertTrue(Double.parseDouble(step.get("client JIT (s)")) >= 0, step.toString());
    }
    assertTrue(client > 0 && server > 0, "the load generator's CPU and the local server's: " + cpu);
    assertTrue(summary.contains("client CPU (s)") && summary.contains("server CPU (s)"), "side by side on the page");
    assertTrue(summary.contains("node (pid "), "the server's process, found listening on its port");
    assertTrue(run.output().contains("summary: " + folder.resolve("summary.html")), run.output());
    assertTrue(databases().stream().noneMatch(db -> db.startsWith("couchbench_bulkinsert_")),
        "step databases are deleted: " + databases());
  }

  @Test
  void shouldRunEachRoundOfEveryStepForItsSecondsAndGiveTheMedianAndRange() throws Exception {
    // Two rounds of two tiny steps, each held to the rule's 2 s: 16 documents grow to whatever 2 s take.
    GatlingRun.Result run = run(Map.of("couchdb.url", couch.url(), "batchSizes", "1,8", "threads", "1",
        "docs", "16", "single", "false", "warmup", "0", "rounds", "2"));

    assertEquals(0, run.exitCode(), run.why());
    Path folder = run.requireRunFolder();
    Map<String, GatlingReport.Counts> gatling = GatlingReport.requests(folder);
    Results results = ResultsFile.read(folder);
    List<Map<String, String>> rounds = csv(folder.resolve("docs-per-second-by-step-and-round.csv"));
    assertEquals(4, rounds.size(), "each step in each round: " + rounds);
    Map<String, List<Double>> rates = new HashMap<>();
    for (Map<String, String> step : rounds) {
      String name = "bulk B=" + step.get("B") + " T=1 round " + step.get("round");
      assertTrue(Double.parseDouble(step.get("seconds")) >= 2, name + " ran its 2 s: " + step);
      long acknowledged = Long.parseLong(step.get("docs acknowledged"));
      assertTrue(acknowledged > 16L * Long.parseLong(step.get("B")), name + " grew past its 16 documents and 8"
          + " requests: " + step);
      assertEquals(step.get("docs sent"), step.get("docs acknowledged"), name);
      assertEquals(step.get("doc_count"), step.get("docs acknowledged"), name + ": the round's own server count");
      assertEquals(acknowledged, gatling.get(name).ok() * Long.parseLong(step.get("B")), name + ": Gatling's count");
      assertEquals(gatling.get(name).ok(), results.requests().stream().filter(e -> e.name().equals(name))
          .findFirst().orElseThrow().ok(), name + ": in results.json under its round's name");
      rates.computeIfAbsent(step.get("B"), b -> new ArrayList<>()).add(Double.parseDouble(step.get("docs/s")));
    }
    assertEquals(new GatlingReport.Counts(4, 4, 0), gatling.get(BulkInsertChains.DOC_COUNT_CHECK), "one per round");
    List<Map<String, String>> medians = csv(folder.resolve("docs-per-second-by-step.csv"));
    assertEquals(2, medians.size(), medians.toString());
    for (Map<String, String> step : medians) {
      List<Double> two = rates.get(step.get("B"));
      assertEquals("2", step.get("rounds"));
      assertEquals((two.get(0) + two.get(1)) / 2, Double.parseDouble(step.get("docs/s")), 0.01 * two.get(0),
          "the median of two rounds, their mean: " + step);
      assertEquals(Math.min(two.get(0), two.get(1)), Double.parseDouble(step.get("min")), 0.001 * two.get(0));
      assertEquals(Math.max(two.get(0), two.get(1)), Double.parseDouble(step.get("max")), 0.001 * two.get(0));
    }
    assertTrue(Files.readAllLines(folder.resolve("docs-per-second-against-batch-size.csv")).get(0)
        .endsWith(",smallest round,largest round"), "the chart's range, in its CSV");
    String summary = Files.readString(folder.resolve("summary.html"));
    assertTrue(summary.contains("median of 2 rounds"), summary);
    assertFalse(summary.contains("steps rest on fewer than"), "no step below the rule");
  }

  @Test
  void shouldKeepTheStepDatabasesWhenAsked() throws Exception {
    GatlingRun.Result run = run(Map.of("couchdb.url", couch.url(), "batchSizes", "4", "threads", "1",
        "docs", "8", "single", "false", "keep", "true", "docSize", "100", "stepSeconds", "0"));

    assertEquals(0, run.exitCode(), run.why());
    List<String> kept = databases().stream().filter(db -> db.startsWith("couchbench_bulkinsert_")).toList();
    assertEquals(1, kept.size(), kept.toString());
    JsonNode info = getJson("/" + kept.get(0));
    assertEquals(32, info.path("doc_count").asLong(), "8 requests of 4: the step grew from 8 documents to that");
    JsonNode doc = getJson("/" + kept.get(0) + "/_all_docs?include_docs=true&limit=1").path("rows").get(0);
    assertEquals(100, doc.path("doc").path("text").asText().length(), "docSize characters of text");
    send("DELETE", "/" + kept.get(0));
  }

  @Test
  void shouldStopWithOneLineWhenCouchDbDoesNotAnswer() throws Exception {
    String url = "http://127.0.0.1:" + closedPort();
    GatlingRun.Result run = run(Map.of("couchdb.url", url));

    assertEquals(1, run.exitCode(), run.why());
    assertTrue(run.output().contains("CouchDB at " + url + " does not answer"), run.output());
    assertTrue(run.output().contains("-Dcouchdb.url"), run.output());
    assertNoStackTrace(run);
  }

  @Test
  void shouldStopAtTheFirstRefusalOfAWrongPassword() throws Exception {
    try (FakeCouchDb refusing = FakeCouchDb.refusingEverything()) {
      GatlingRun.Result run = run(Map.of("couchdb.url", refusing.url(), "couchdb.user", "admin",
          "couchdb.password", "wrong-secret-1"));

      assertEquals(1, run.exitCode(), run.why());
      assertEquals(List.of("GET /"), refusing.requests(), "one request carried the wrong password");
      assertTrue(run.output().contains("rejects the login of user admin"), run.output());
      assertFalse(run.output().contains("wrong-secret-1"), "the password is never printed");
      assertNoStackTrace(run);
    }
  }

  @Test
  void shouldSendTheRightLoginWithEveryRequestAndStopAtAWrongOne() throws Exception {
    try (PouchDbServer guarded = PouchDbServer.start()) {
      String created = send(guarded.url(), "PUT", "/_config/admins/admin", "\"right-secret\"");
      assertEquals(200, Integer.parseInt(created.substring(0, 3)), created);
      // A warm-up of 16 documents, not the default's 856 requests: its own database, both kinds of request and the
      // database's deletion still go with the login.
      GatlingRun.Result right = GatlingRun.run("BulkInsert", Map.of("couchdb.url", guarded.url(),
          "couchdb.user", "admin", "batchSizes", "8", "threads", "2", "docs", "32", "stepSeconds", "0", "warmup", "16"),
          Map.of("COUCHDB_PASSWORD", "right-secret"), RUN_TIMEOUT);

      assertEquals(0, right.exitCode(), "an admin-only server accepts every request: " + right.output());
      assertFalse(right.output().contains("right-secret"), "the password is never printed");

      String url = guarded.url().replace("http://", "http://admin:wrong-secret-2@");
      GatlingRun.Result run = run(Map.of("couchdb.url", url));

      assertEquals(1, run.exitCode(), run.why());
      assertTrue(run.output().contains("rejects the login of user admin"), run.output());
      assertFalse(run.output().contains("wrong-secret-2"), "the password is never printed");
      assertNoStackTrace(run);
    }
  }

  @Test
  void shouldStopTheLoadAndStillReportWhenTheLoginIsRefusedMidRun() throws Exception {
    try (FakeCouchDb refusing = FakeCouchDb.refusingWrites()) {
      GatlingRun.Result run = run(Map.of("couchdb.url", refusing.url(), "couchdb.user", "admin",
          "couchdb.password", "changed-secret-3", "batchSizes", "4", "threads", "2", "docs", "400"));

      assertNotEquals(0, run.exitCode(), run.why());
      long writes = refusing.requests().stream().filter(r -> r.startsWith("POST ")).count();
      assertTrue(writes >= 1 && writes <= 2, "at most one write per user: " + refusing.requests());
      assertTrue(refusing.requests().stream().noneMatch(r -> r.startsWith("DELETE ")),
          "nothing more is sent after the refusal: " + refusing.requests());
      assertEquals(1, run.output().split("refused user 'admin'", -1).length - 1, run.output());
      assertFalse(run.output().contains("changed-secret-3"), "the password is never printed");
      Path folder = run.requireRunFolder();
      assertTrue(Files.exists(folder.resolve("index.html")), "Gatling's report is written");
      assertTrue(Files.readString(folder.resolve("summary.html")).contains("refused the login"));
    }
  }

  @Test
  void shouldFailHostileBulkRepliesWithAGroupedMessageAndCountNoDocumentForThem() throws Exception {
    // A body cut short by a dropped connection is no reply: not a failed reply, but a failed request.
    record Hostile(FakeCouchDb server, String failedReplies, String message) {}
    List<Hostile> cases = List.of(
        new Hostile(FakeCouchDb.answeringWrites("[{\"ok\":true,\"id\":\"a\",\"rev"), "4",
            "document results, found reply is not JSON"),
        new Hostile(FakeCouchDb.answeringWrites("[{\"ok\":true,\"id\":\"a\",\"rev\":\"1-a\"}]"), "4",
            "document results, found reply has fewer results than documents"),
        new Hostile(FakeCouchDb.truncatingWrites(), "0", "Premature close"));
    for (Hostile hostile : cases) {
      try (FakeCouchDb fake = hostile.server()) {
        GatlingRun.Result run = run(Map.of("couchdb.url", fake.url(), "batchSizes", "4", "threads", "2",
            "docs", "16", "single", "false", "warmup", "0", "stepRequests", "1", "stepSeconds", "0"));

        assertEquals(2, run.exitCode(), "failed requests fail the run's assertion: " + run.output());
        Path folder = run.requireRunFolder();
        assertEquals(new GatlingReport.Counts(4, 0, 4), GatlingReport.requests(folder).get("bulk B=4 T=2"),
            "each user's two requests, every one failed");
        Map<String, Long> errors = GatlingReport.errors(folder);
        assertTrue(errors.entrySet().stream().anyMatch(error -> error.getKey().contains(hostile.message())
                && error.getValue() == 4L), "the four failures grouped under one message saying what is wrong: " + errors);
        Map<String, String> step = csv(folder.resolve("docs-per-second-by-step.csv")).get(0);
        assertEquals(hostile.failedReplies(), step.get("failed replies"), "the summary counts the failed replies: " + step);
        assertEquals("4", step.get("failed requests"), "and every failed request: " + step);
        assertTrue(Long.parseLong(step.get("docs acknowledged")) <= 4, "at most the one result of each short "
            + "reply counts, never a document no reply acknowledged: " + step);
      }
    }
  }

  @Test
  void shouldRefuseAPortHeldBySomethingThatIsNotCouchDb() throws Exception {
    HttpServer hello = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    hello.createContext("/", exchange -> {
      exchange.sendResponseHeaders(200, 5);
      exchange.getResponseBody().write("hello".getBytes(StandardCharsets.US_ASCII));
      exchange.close();
    });
    hello.start();
    try {
      GatlingRun.Result run =
          run(Map.of("couchdb.url", "http://127.0.0.1:" + hello.getAddress().getPort()));

      assertEquals(1, run.exitCode(), run.why());
      assertTrue(run.output().contains("is not CouchDB"), run.output());
      assertNoStackTrace(run);
    } finally {
      hello.stop(0);
    }
  }

  @Test
  void shouldRefuseBadParametersBeforeSendingAnything() throws Exception {
    try (FakeCouchDb untouched = FakeCouchDb.refusingEverything()) {
      GatlingRun.Result run = run(Map.of("couchdb.url", untouched.url(), "batchSizes", "1,0"));

      assertEquals(1, run.exitCode(), run.why());
      assertTrue(run.output().contains("-DbatchSizes"), run.output());
      assertEquals(List.of(), untouched.requests());
      assertNoStackTrace(run);
    }
  }

  private static GatlingRun.Result run(Map<String, String> properties) throws Exception {
    return GatlingRun.run("BulkInsert", properties, RUN_TIMEOUT);
  }

  private static void assertNoStackTrace(GatlingRun.Result run) {
    assertFalse(run.output().contains("\tat "), "no stack trace:\n" + run.output());
  }

  private static List<Map<String, String>> csv(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file);
    String[] header = lines.get(0).split(",");
    List<Map<String, String>> rows = new ArrayList<>();
    for (String line : lines.subList(1, lines.size())) {
      String[] cells = line.split(",", -1);
      Map<String, String> row = new HashMap<>();
      for (int i = 0; i < header.length; i++) {
        row.put(header[i], cells[i]);
      }
      rows.add(row);
    }
    return rows;
  }

  private static List<String> databases() throws Exception {
    List<String> names = new ArrayList<>();
    getJson("/_all_dbs").forEach(node -> names.add(node.asText()));
    return names;
  }

  private static JsonNode getJson(String path) throws Exception {
    return JSON.readTree(send(couch.url(), "GET", path, null).substring(4));
  }

  private static void send(String method, String path) throws Exception {
    send(couch.url(), method, path, null);
  }

  /** @return "STATUS body" */
  private static String send(String base, String method, String path, String body) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create(base + path))
        .header("Content-Type", "application/json")
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body))
        .build();
    HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    return response.statusCode() + " " + response.body();
  }

  private static int closedPort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
