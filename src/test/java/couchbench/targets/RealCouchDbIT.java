package couchbench.targets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.Prerequisites;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The tests' Apache CouchDB 3.5: a node that keeps its data over a restart, and a cluster whose nodes see one data. */
class RealCouchDbIT {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Optional<Path> RELEASE = RealCouchDb.release(RealCouchDbIT.class);

  @Test
  void shouldRunANodeWithAnAdminThatKeepsItsDataOverARestartAndLeavesNothingBehind() throws Exception {
    Prerequisites.require(RELEASE.isPresent(), RealCouchDb.NOT_HERE);
    Path folder;
    try (RealCouchDb.Node node = RealCouchDb.node(RELEASE.get())) {
      JsonNode welcome = JSON.readTree(node.request("GET", "/", null));
      assertEquals("3.5.0", welcome.path("version").asText());
      assertTrue(JSON.readTree(node.request("GET", "/_all_dbs", null)).toString().contains("_users"),
          "a single node creates its system databases");
      node.request("PUT", "/kept", null);
      node.request("PUT", "/kept/a", "{\"x\":1}");
      long pid = node.pid();

      node.stop();
      assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "stopped");
      node.start();

      assertEquals(1, JSON.readTree(node.request("GET", "/kept", null)).path("doc_count").asInt(), "data kept");
      folder = node.folder();
      assertTrue(Files.isDirectory(folder.resolve("data")));
    }
    assertFalse(Files.exists(folder), "a closed node's folder is deleted");
  }

  @Test
  void shouldRunAClusterOfThreeNodesThatSeeOneDatabase() throws Exception {
    Prerequisites.require(RELEASE.isPresent(), RealCouchDb.NOT_HERE);
    try (RealCouchDb.Cluster cluster = RealCouchDb.cluster(RELEASE.get(), 3)) {
      RealCouchDb.Node first = cluster.nodes().get(0);
      first.request("PUT", "/shared?q=2&n=3", null);
      // w=3: acknowledged once every copy has it, so that each node's doc_count counts it at once.
      cluster.nodes().get(1).request("PUT", "/shared/a?w=3", "{\"x\":1}");

      for (RealCouchDb.Node node : cluster.nodes()) {
        JsonNode membership = JSON.readTree(node.request("GET", "/_membership", null));
        assertEquals(3, membership.path("cluster_nodes").size(), membership.toString());
        JsonNode info = JSON.readTree(node.request("GET", "/shared", null));
        assertEquals(1, info.path("doc_count").asInt(), node.url());
        assertEquals(3, info.path("cluster").path("n").asInt());
      }
      assertEquals(3, cluster.urls().split(",").length);
    }
  }
}
