package couchbench.sync;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.GatlingRun;
import couchbench.targets.PouchDbServer;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Sync against a real pouchdb-server: 20 clients in 2 databases, every client equal to the server at the end. */
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
}
