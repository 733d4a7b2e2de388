package couchbench.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.GatlingReport;
import couchbench.GatlingRun;
import couchbench.HttpPassThrough;
import couchbench.HttpReplies;
import couchbench.Injectors;
import couchbench.targets.PouchDbServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Sync against a real pouchdb-server: 20 clients in 2 databases, every client equal to the server at the end; the
 * same behind a proxy that hides _bulk_get, the clients pulling as PouchDB does without it; and the clients split
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

      assertEquals(0, run.exitCode(), run.output());
      JsonNode figures = JSON.readTree(run.requireRunFolder().resolve("results.json").toFile()).path("figures");
      assertEquals(20, figures.path("clientsEqual").asInt(), figures.toString());
      assertEquals(200, figures.path("serverDocs").asLong(), figures.toString());
      assertEquals(60, figures.path("syncs").asLong(), figures.toString());
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

      assertEquals(0, run.exitCode(), run.output());
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
          "syncInterval", "1"), Duration.ofSeconds(20), TIMEOUT);

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
