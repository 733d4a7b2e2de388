package couchbench.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.GatlingReport;
import couchbench.GatlingRun;
import couchbench.results.Histograms;
import couchbench.targets.RealCouchDb;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Sync against a real Apache CouchDB 3.5 node: 200 clients in 20 databases push and pull as PouchDB does, editing
 * their own and each other's documents while the server's are edited too, each client's second sync cut mid-pull and
 * resumed from its checkpoints; after its last pull every client holds exactly the server's documents, conflicts
 * included, and picks the same winners; and 20 clients told to pull without _bulk_get (-DbulkGet=false), as PouchDB
 * does from a server without it, also equal.
 */
class SyncCouchDbIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(4);
  private static final ObjectMapper JSON = new ObjectMapper();

  @RegisterExtension
  static final RealCouchDb.NodePerClass COUCHDB = new RealCouchDb.NodePerClass();

  @Test
  void shouldLeaveEachOf200ClientsEqualToTheServerAfterEditsOnBothSidesAndACutSyncConflictsIncluded()
      throws Exception {
    GatlingRun.Result run = GatlingRun.run("Sync", COUCHDB.runProperties(Map.of("clients", "200",
        "clientsPerDatabase", "10", "docsPerClient", "5", "syncs", "3", "syncInterval", "2", "serverEdits", "100",
        "dropEvery", "2")), TIMEOUT);

    assertEquals(0, run.exitCode(), run.why());
    JsonNode figures = JSON.readTree(run.requireRunFolder().resolve("results.json").toFile()).path("figures");
    assertEquals(600, figures.path("syncs").asLong(), figures.toString());
    assertEquals(200, figures.path("clientsCompared").asInt(), figures.toString());
    assertEquals(200, figures.path("clientsEqual").asInt(), "every client equal to the server: " + figures);
    assertEquals(1000, figures.path("serverDocs").asLong(), "5 documents of each of the 200 clients");
    assertEquals(200, figures.path("cuts").asLong(), "each client's second sync cut mid-pull, resumed at its third");
    assertTrue(figures.path("serverConflicts").asLong() > 0, "edits on both sides made conflicts: " + figures);
    assertEquals(10 * figures.path("serverConflicts").asLong(), figures.path("clientConflicts").asLong(),
        "each of a database's 10 clients holds its conflicts");
    assertTrue(Histograms.decode(figures.path("reachMicros").asText()).getTotalCount() > 0, figures.toString());
    Map<String, GatlingReport.Counts> report = GatlingReport.requests(run.requireRunFolder());
    assertTrue(report.get("server edit").ok() > 0, report.toString());
  }

  @Test
  void shouldPullWithoutBulkGetAsPouchDbDoesWhenToldAndEndEqualConflictsIncluded() throws Exception {
    GatlingRun.Result run = GatlingRun.run("Sync", COUCHDB.runProperties(Map.of("clients", "20",
        "clientsPerDatabase", "10", "docsPerClient", "5", "syncs", "3", "syncInterval", "1", "serverEdits", "20",
        "dropEvery", "2", "bulkGet", "false", "database", "couchbench_sync_open_revs")), TIMEOUT);

    assertEquals(0, run.exitCode(), run.why());
    JsonNode figures = JSON.readTree(run.requireRunFolder().resolve("results.json").toFile()).path("figures");
    assertEquals(20, figures.path("clientsEqual").asInt(), "every client equal to the server: " + figures);
    assertEquals(100, figures.path("serverDocs").asLong(), figures.toString());
    assertTrue(figures.path("serverConflicts").asLong() > 0, figures.toString());
    assertEquals(10 * figures.path("serverConflicts").asLong(), figures.path("clientConflicts").asLong(),
        figures.toString());
    Map<String, GatlingReport.Counts> report = GatlingReport.requests(run.requireRunFolder());
    assertTrue(report.get("all_docs keys").ok() > 0 && report.get("get open_revs").ok() > 0, report.toString());
    assertFalse(report.containsKey("bulk_get"), report.toString());
  }
}
