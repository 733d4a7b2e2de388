package couchbench.siege;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.FakeCouchCluster;
import couchbench.Forwarder;
import couchbench.GatlingRun;
import couchbench.targets.PouchDbServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

/**
 * Several CouchDB nodes in -Dcouchdb.url. pouchdb-server has no cluster: three forwarding ports in front of one
 * pouchdb-server stand in for three nodes of one cluster (spreading, per-node figures, counts read through every node,
 * a node going down and coming back); {@link FakeCouchCluster} answers what pouchdb-server lacks as CouchDB's
 * documentation says (_membership, _shards, q and n, 202 Accepted).
 */
class ClusterIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(2);
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void shouldPinEachBulkInsertUserToANodeAndCountEveryNode() throws Exception {
    try (PouchDbServer couch = PouchDbServer.start(); Nodes nodes = Nodes.before(couch)) {
      GatlingRun.Result run = GatlingRun.run("BulkInsert", Map.of("couchdb.url", nodes.url(), "batchSizes", "8",
          "threads", "3", "docs", "96", "stepSeconds", "0"), TIMEOUT);

      assertEquals(0, run.exitCode(), run.why());
      assertTrue(run.output().contains("cluster: pouchdb-server, the stand-in, has no cluster (nor _shards, q and n):"
          + " that " + nodes.urls().replace(",", ", ") + " are one cluster is not checked"), run.output());
      JsonNode cluster = results(run).path("cluster");
      assertEquals("user", cluster.path("spread").asText());
      List<JsonNode> perNode = list(cluster.path("nodes"));
      assertEquals(3, perNode.size(), cluster.toString());
      for (JsonNode node : perNode) {
        assertTrue(node.path("count").asLong() > 0, "every node got requests: " + node);
        assertEquals(0, node.path("ko").asLong(), node.toString());
        assertTrue(node.path("latency").path("p50").asDouble() > 0, node.toString());
      }
      assertEquals(gatling(run, "count"), perNode.stream().mapToLong(node -> node.path("count").asLong()).sum(),
          "the nodes' counts add up to Gatling's");
      for (JsonNode docCount : list(cluster.path("docCounts"))) {
        assertEquals(3, docCount.path("byNode").size(), "doc_count read through every node: " + docCount);
        assertEquals(1, list(docCount.path("byNode")).stream().map(JsonNode::asLong).distinct().count(),
            "the same through every node: " + docCount);
      }
      String page = Files.readString(run.requireRunFolder().resolve("summary.html"));
      assertTrue(page.contains("Cluster: 3 nodes loaded, each virtual user pinned to one node"), page);
      assertTrue(page.contains("is the same through every node"), page);
    }
  }

  @Test
  void shouldSpreadCouchSetPerRequestThenCountANodeThatGoesDownDuringCouchGet() throws Exception {
    Path keyFile = KeyFiles.fresh("cluster");
    try (PouchDbServer couch = PouchDbServer.start(); Nodes nodes = Nodes.before(couch)) {
      GatlingRun.Result set = GatlingRun.run("CouchSet", Map.of("couchdb.url", nodes.url(), "couchdb.spread",
          "request", "users", "2", "duration", "2", "valueSize", "40", "keyFile", keyFile.toString(),
          "database", "cluster_it"), TIMEOUT);
      assertEquals(0, set.exitCode(), set.why());
      for (JsonNode node : list(results(set).path("cluster").path("nodes"))) {
        assertTrue(node.path("count").asLong() > 0, "each request to the next node, every node written: " + node);
      }

      GatlingRun.Running get = GatlingRun.start("CouchGet", Map.of("couchdb.url", nodes.url(), "users", "3",
          "duration", "5", "keyFile", keyFile.toString(), "database", "cluster_it"), Map.of());
      get.awaitLine("Simulation CouchGet started.*", TIMEOUT);
      Thread.sleep(1500);
      nodes.forwarders.get(1).down(Duration.ofSeconds(1));
      GatlingRun.Result read = get.finish(TIMEOUT);

      assertEquals(2, read.exitCode(), "the down node's requests failed: " + read.output());
      List<JsonNode> perNode = list(results(read).path("cluster").path("nodes"));
      JsonNode down = perNode.get(1);
      assertTrue(down.path("ko").asLong() > 0, "the down node's failures, counted for it: " + down);
      JsonNode outage = down.path("outages").get(0);
      assertNotNull(outage, down.toString());
      assertFalse(outage.path("until").isNull(), "it came back before the load ended: " + outage);
      for (JsonNode up : List.of(perNode.get(0), perNode.get(2))) {
        assertEquals(0, up.path("ko").asLong(), "the other nodes went on: " + up);
        assertTrue(up.path("ok").asLong() > down.path("ok").asLong(), up + " against " + down);
      }
      assertEquals(gatling(read, "ko"), perNode.stream().mapToLong(node -> node.path("ko").asLong()).sum(),
          "the nodes' failures add up to Gatling's");
      String page = Files.readString(read.requireRunFolder().resolve("summary.html"));
      assertTrue(page.contains("Node " + nodes.urls().split(",")[1] + " stopped answering at "), page);
      assertTrue(page.contains("and answered again at "), page);
    }
  }

  @Test
  void shouldCountAcceptedBelowQuorumApartAndShowShardsAndMembers() throws Exception {
    Path keyFile = KeyFiles.fresh("quorum");
    try (FakeCouchCluster cluster = FakeCouchCluster.of(3, "one")) {
      GatlingRun.Result run = GatlingRun.run("CouchSet", Map.of("couchdb.url", cluster.url(), "users", "3",
          "duration", "2", "valueSize", "20", "keyFile", keyFile.toString(), "database", "quorum_it", "q", "4",
          "n", "3", "w", "3"), TIMEOUT);

      assertEquals(0, run.exitCode(), "202 is a success: " + run.output());
      assertEquals("q=4 n=3", cluster.created("quorum_it"));
      assertEquals(Set.of("w=3"), cluster.writeQueries(), "every write asked for 3 copies");
      assertTrue(run.output().contains("cluster: 3 nodes (node1@one.example, node2@one.example, node3@one.example)"),
          run.output());
      JsonNode results = results(run).path("cluster");
      for (JsonNode node : list(results.path("nodes"))) {
        assertTrue(node.path("accepted").asLong() > 0, node.toString());
        assertEquals(0, node.path("ok").asLong(), "no 202 counted as a 201: " + node);
        assertEquals(500.0, node.path("systemBefore").path("process_count").asDouble(), node.toString());
        assertTrue(node.path("systemAfter").path("couchdb.httpd.requests").asDouble()
            > node.path("systemBefore").path("couchdb.httpd.requests").asDouble(), node.toString());
      }
      assertEquals(4, results.path("shards").path("quorum_it").size(), results.toString());
      String page = Files.readString(run.requireRunFolder().resolve("summary.html"));
      assertTrue(page.contains("accepted below quorum (202 Accepted)"), page);
      assertTrue(page.contains("node1@one.example, node2@one.example, node3@one.example"), page);
      assertTrue(page.contains("Shards of quorum_it"), page);
    }
  }

  @Test
  void shouldCountAcceptedBelowQuorumOfOneNodeWithW() throws Exception {
    try (FakeCouchCluster cluster = FakeCouchCluster.of(1, "single")) {
      GatlingRun.Result run = GatlingRun.run("CouchSet", Map.of("couchdb.url", cluster.url(), "users", "2",
          "duration", "1", "valueSize", "20", "keyFile", KeyFiles.fresh("single").toString(), "database", "w_it",
          "w", "2"), TIMEOUT);

      assertEquals(0, run.exitCode(), run.why());
      List<JsonNode> perNode = list(results(run).path("cluster").path("nodes"));
      assertEquals(1, perNode.size());
      assertTrue(perNode.get(0).path("accepted").asLong() > 0, perNode.toString());
      assertTrue(Files.readString(run.requireRunFolder().resolve("summary.html"))
          .contains("accepted below quorum (202 Accepted)"));
    }
  }

  @Test
  void shouldRefuseNodesOfTwoClustersAURLGivenTwiceAndANodeThatDoesNotAnswerBeforeAnyLoad() throws Exception {
    try (FakeCouchCluster one = FakeCouchCluster.of(2, "one"); FakeCouchCluster other = FakeCouchCluster.of(1, "two")) {
      assertOneLine(one.url() + "," + other.url(), "are not nodes of one cluster");
      assertOneLine(one.url() + "," + one.urls().get(0), "-Dcouchdb.url names " + one.urls().get(0) + " twice");
      assertOneLine(one.url() + ",http://127.0.0.1:1", "CouchDB at http://127.0.0.1:1 does not answer");
    }
  }

  private static void assertOneLine(String urls, String line) throws Exception {
    GatlingRun.Result run = GatlingRun.run("CouchSet", Map.of("couchdb.url", urls, "keyFile",
        KeyFiles.fresh("none").toString()), TIMEOUT);
    assertEquals(1, run.exitCode(), run.why());
    assertTrue(run.output().contains(line), run.output());
    assertFalse(run.output().contains("\tat "), "no stack trace:\n" + run.output());
  }

  /** Three forwarders in front of one server: three "nodes". */
  private record Nodes(List<Forwarder> forwarders) implements AutoCloseable {

    static Nodes before(PouchDbServer couch) throws InterruptedException {
      List<Forwarder> started = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        started.add(Forwarder.start(couch.port()));
      }
      return new Nodes(started);
    }

    String urls() {
      return String.join(",", forwarders.stream().map(f -> "http://" + f.address()).toList());
    }

    String url() {
      return urls();
    }

    @Override
    public void close() {
      forwarders.forEach(Forwarder::close);
    }
  }

  private static JsonNode results(GatlingRun.Result run) throws Exception {
    return JSON.readTree(run.requireRunFolder().resolve("results.json").toFile());
  }

  private static List<JsonNode> list(JsonNode array) {
    return StreamSupport.stream(array.spliterator(), false).toList();
  }

  /** Gatling's requests (not groups) of the run, added up: their count, or with "ko" their failures. */
  private static long gatling(GatlingRun.Result run, String figure) throws Exception {
    return list(results(run).path("requests")).stream().filter(entry -> entry.path("kind").asText().equals("request"))
        .mapToLong(entry -> entry.path(figure).asLong()).sum();
  }
}
