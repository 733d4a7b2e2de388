package couchbench.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import couchbench.GatlingReport;
import couchbench.GatlingRun;
import couchbench.HttpPassThrough;
import couchbench.HttpReplies;
import couchbench.Injectors;
import couchbench.targets.PouchDbServer;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Sync against a real pouchdb-server: 20 clients in 2 databases, every client equal to the server at the end; a
 * document edited on the server after a client's last pull, and the run naming that client as different; the same
 * behind a proxy that hides _bulk_get, the clients pulling as PouchDB does without it; and the clients split
 * between two injectors, merged.
 */
class SyncIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(3);
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void shouldLeaveEveryClientEqualToTheServerAfterItsLastPull() throws Exception {
    try (PouchDbServer couch = PouchDbServer.start()) {
      GatlingRun.Result run = GatlingRun.run("Sync", Map.of("couchdb.url", couch.url(), "clients", "20", "syncs", "3",
          "syncInterval", "1"), TIMEOUT);

      assertEquals(0, run.exitCode(), run.why());
      JsonNode figures = JSON.readTree(run.requireRunFolder().resolve("results.json").toFile()).path("figures");
      assertEquals(20, figures.path("clientsEqual").asInt(), figures.toString());
      assertEquals(200, figures.path("serverDocs").asLong(), figures.toString());
      assertEquals(60, figures.path("syncs").asLong(), figures.toString());
    }
  }

  @Test
  void shouldReportAClientThatDiffersFromTheServerWhenADocumentIsEditedThereAfterItsLastPull() throws Exception {
    // Each client alone in its database, editing nothing after its first sync, and no editor on the server: only the
    // test's own edit, made as client 0 checkpoints its last pull (its third: 2 syncs, then the last), changes the
    // server behind that client's back.
    int syncs = 2;
    AtomicInteger pullCheckpoints = new AtomicInteger();
    AtomicReference<String> edit = new AtomicReference<>("not made");
    try (PouchDbServer couch = PouchDbServer.start();
        HttpPassThrough editingAfterTheLastPull = new HttpPassThrough(couch.url(), (exchange, length) -> {
          String path = exchange.getRequestURI().getPath();
          if (exchange.getRequestMethod().equals("PUT") && path.endsWith("/_local/couchbench-sync-0-pull")
              && pullCheckpoints.incrementAndGet() == syncs + 1) {
            edit.set(editOnTheServer(couch.url() + path.substring(0, path.indexOf("/_local/")) + "/client00000-0000"));
          }
          return false;
        })) {
      GatlingRun.Result run = GatlingRun.run("Sync", Map.of("couchdb.url", editingAfterTheLastPull.url(), "clients",
          "2", "clientsPerDatabase", "1", "syncs", String.valueOf(syncs), "syncInterval", "1", "editsPerSync", "0",
          "serverEdits", "0"), TIMEOUT);

      assertEquals("201", edit.get(), "the edit on the server, behind client 0's back");
      JsonNode figures = JSON.readTree(run.requireRunFolder().resolve("results.json").toFile()).path("figures");
      assertEquals(2, figures.path("clientsCompared").asInt(), figures.toString());
      assertEquals(1, figures.path("clientsEqual").asInt(), "client 1 is equal, client 0 is not: " + figures);
      String difference = figures.path("firstDifference").asText();
      assertTrue(difference.matches("client 0 has client00000-0000 at \\[1-\\w+], the server at \\[2-\\w+]"),
          difference);
      String page = Files.readString(run.requireRunFolder().resolve("summary.html"));
      assertTrue(page.contains("1 of 2 clients differ from the server after their last pull, e.g. " + difference),
          "the page's warning names it");
      assertEquals(2, run.exitCode(), "a client that differs fails the run, as a failed request does: "
          + run.output());
      assertTrue(run.output().contains("couchbench: FAILED: 1 of 2 clients differ from the server after their last"
          + " pull, e.g. " + difference), run.output());
    }
  }

  // A new revision of the document, written straight to the server: its status, or what went wrong.
  private static String editOnTheServer(String document) {
    try {
      HttpClient http = HttpClient.newHttpClient();
      ObjectNode doc = (ObjectNode) JSON.readTree(http.send(HttpRequest.newBuilder(URI.create(document)).build(),
          HttpResponse.BodyHandlers.ofString()).body());
      doc.put("text", "edited on the server after the client's last pull");
      HttpResponse<String> put = http.send(HttpRequest.newBuilder(URI.create(document))
          .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(doc.toString())).build(),
          HttpResponse.BodyHandlers.ofString());
      return put.statusCode() == 201 ? "201" : put.statusCode() + " " + put.body();
    } catch (IOException | RuntimeException e) {
      return e.toString();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return e.toString();
    }
  }

  @Test
  void shouldPullAsPouchDbDoesFromAServerWithoutBulkGetAndEndEqual() throws Exception {
    try (PouchDbServer couch = PouchDbServer.start();
        HttpPassThrough withoutBulkGet = new HttpPassThrough(couch.url(), (exchange, length) -> {
          if (!exchange.getRequestURI().getPath().endsWith("/_bulk_get")) {
            return false;
          }
          exchange.getRequestBody().readAllBytes();
          HttpReplies.json(exchange, 404, "{\"error\":\"not_found\",\"reason\":\"missing\"}");
          return true;
        })) {
      GatlingRun.Result run = GatlingRun.run("Sync", Map.of("couchdb.url", withoutBulkGet.url(), "clients", "20",
          "syncs", "3", "syncInterval", "1"), TIMEOUT);

      assertEquals(0, run.exitCode(), run.why());
      assertTrue(run.output().contains("has no _bulk_get (404 not_found: missing): the clients pull through _all_docs"),
          run.output());
      JsonNode figures = JSON.readTree(run.requireRunFolder().resolve("results.json").toFile()).path("figures");
      assertEquals(20, figures.path("clientsEqual").asInt(), figures.toString());
      assertTrue(figures.path("pullsThrough").asText().endsWith("(the server has no _bulk_get: 404 not_found: missing)"),
          figures.toString());
      Map<String, GatlingReport.Counts> report = GatlingReport.requests(run.requireRunFolder());
      assertTrue(report.get("all_docs keys").ok() > 0 && report.get("get open_revs").ok() > 0, report.toString());
      assertFalse(report.containsKey("bulk_get"), report.toString());
      assertEquals(1, withoutBulkGet.requests().stream().filter(request -> request.contains("/_bulk_get")).count(),
          "only the try before the load: " + withoutBulkGet.requests());
      assertTrue(Files.readString(run.requireRunFolder().resolve("summary.html"))
          .contains("The pulls did not use _bulk_get"));
    }
  }

  @Test
  void shouldSplitTheClientsBetweenTwoInjectorsInDatabasesOfTheirOwnAndAddUpTheirComparisons() throws Exception {
    try (PouchDbServer couch = PouchDbServer.start()) {
      Injectors.Run run = Injectors.run("Sync", 2, Map.of("couchdb.url", couch.url(), "clients", "21", "syncs", "2",
          "syncInterval", "1"), TIMEOUT);

      JsonNode merged = JSON.readTree(run.merged().resolve("results.json").toFile()).path("figures");
      assertEquals(21, merged.path("clientsCompared").asInt(), merged.toString());
      assertEquals(21, merged.path("clientsEqual").asInt(), "every client of both injectors: " + merged);
      assertEquals(42, merged.path("syncs").asLong(), merged.toString());
      assertEquals(210, merged.path("serverDocs").asLong(), "11 and 10 clients' 10 documents, each injector's own");
      long pushed = 0;
      for (Path folder : run.folders()) {
        pushed += JSON.readTree(folder.resolve("results.json").toFile()).path("figures").path("revisionsPushed")
            .asLong();
      }
      assertEquals(pushed, merged.path("revisionsPushed").asLong(), "added up");
    }
  }
}
