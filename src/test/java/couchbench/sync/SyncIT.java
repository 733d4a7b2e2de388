package couchbench.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.GatlingRun;
import couchbench.Injectors;
import couchbench.targets.PouchDbServer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Sync against a real pouchdb-server: 20 clients in 2 databases, every client equal to the server at the end; and the
 * clients split between two injectors, merged.
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
