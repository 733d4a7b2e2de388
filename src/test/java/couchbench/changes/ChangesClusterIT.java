package couchbench.changes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.GatlingReport;
import couchbench.GatlingRun;
import couchbench.Prerequisites;
import couchbench.results.Histograms;
import couchbench.targets.RealCouchDb;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Changes -Dvisibility=nodes on a real 3-node Apache CouchDB 3.5 cluster on loopback: the lag of every pair of nodes,
 * and with one node stopped for 2 s mid-run, when it failed, and every acknowledged write found through every node
 * afterwards.
 */
class ChangesClusterIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(3);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Optional<Path> RELEASE = RealCouchDb.release(ChangesClusterIT.class);

  @Test
  void shouldMeasureTheLagOfEveryPairOfNodesAndLoseNothingAcknowledgedWhenANodeStopsFor2s() throws Exception {
    Prerequisites.require(RELEASE.isPresent(), RealCouchDb.NOT_HERE);
    try (RealCouchDb.Cluster cluster = RealCouchDb.cluster(RELEASE.get(), 3)) {
      GatlingRun.Running running = GatlingRun.start("Changes", Map.of("couchdb.url", cluster.urls(), "couchdb.user",
          RealCouchDb.USER, "couchdb.password", RealCouchDb.PASSWORD, "visibility", "nodes", "writers", "3",
          "docs", "900", "rate", "60", "readers", "2", "database", "lag"), Map.of());
      running.awaitLine("couchbench: progress: .*", TIMEOUT);
      RealCouchDb.Node third = cluster.nodes().get(2);
      third.stop();
      Thread.sleep(2000);
      third.start();
      GatlingRun.Result run = running.finish(TIMEOUT);

      // The requests through the stopped node failed, and fail the run; nothing else did.
      assertEquals(2, run.exitCode(), run.why());
      GatlingReport.requests(run.requireRunFolder()).forEach((request, counts) -> assertTrue(
          counts.ko() == 0 || request.equals("write") || request.equals("read through node 3"), request + counts));
      JsonNode visibility = JSON.readTree(run.requireRunFolder().resolve("results.json").toFile()).path("figures")
          .path("visibility");
      assertEquals(6, visibility.path("pairs").size(), "every ordered pair of 3 nodes: " + visibility);
      Map<Integer, Long> seenFrom = new HashMap<>();
      for (JsonNode pair : visibility.path("pairs")) {
        // Node 3's writer writes through it: the writes of its stop and restart fail (more of them the longer the
        // restart takes on a busy machine), so fewer are acknowledged through it than through the others.
        assertTrue(pair.path("seen").asLong() > (pair.path("from").asInt() == 3 ? 0 : 100), pair.toString());
        assertEquals(0, pair.path("notSeen").asLong(), "every write found through every other node: " + pair);
        Long other = seenFrom.putIfAbsent(pair.path("from").asInt(), pair.path("seen").asLong());
        assertTrue(other == null || other == pair.path("seen").asLong(), "each write acknowledged through a node is"
            + " found through both others: " + visibility.path("pairs"));
        assertEquals(pair.path("seen").asLong(), Histograms.decode(pair.path("lagMicros").asText()).getTotalCount());
      }
      for (JsonNode node : visibility.path("nodes")) {
        assertEquals(0, node.path("missingAfterwards").asLong(), "nothing acknowledged missing: " + node);
        boolean stopped = node.path("node").asInt() == 3;
        assertEquals(stopped, node.path("failures").asLong() > 0, node.toString());
        if (stopped) {
          // Stopped for 2 s, then started again: it answers some seconds later.
          assertTrue(node.path("lastFailure").asDouble() - node.path("firstFailure").asDouble() < 30, node.toString());
        }
      }
      String page = Files.readString(run.requireRunFolder().resolve("summary.html"));
      assertTrue(page.contains("node 3 (" + cluster.nodes().get(2).url() + "): "), "the page says when");
      assertTrue(page.contains("lag across nodes, per pair"), "the page shows the lag");
    }
  }
}
