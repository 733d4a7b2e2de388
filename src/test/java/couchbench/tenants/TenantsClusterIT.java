package couchbench.tenants;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.GatlingRun;
import couchbench.Prerequisites;
import couchbench.report.Table;
import couchbench.targets.RealCouchDb;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Tenants on a real 3-node Apache CouchDB 3.5 cluster on loopback, every node loaded (-Dcouchdb.url names the three):
 * 20 users with cookie auth at -Diterations=1000 and -DmaxDbsOpen=1000. The settings read as set on every node during
 * the run and as before on every node after it; every probe and wrong password refused; the users and their
 * databases gone; each node's Erlang processes and memory charted over the load, every point positive.
 */
class TenantsClusterIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(3);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Optional<Path> RELEASE = RealCouchDb.release(TenantsClusterIT.class);
  private static final int USERS = 20;
  private static final String ITERATIONS = "1000";
  // Above CouchDB 3.5's 500: set, not a wall (20 databases of 2 shards on each node).
  private static final String MAX_DBS_OPEN = "1000";
  private static final String DATABASES = "-Ddatabases=own: each user's database made by couchbench";

  @Test
  void shouldApplyTheSettingsOnEveryNodeRefuseEveryProbeAndChartEachNodesErlangProcessesAndMemory()
      throws Exception {
    Prerequisites.require(RELEASE.isPresent(), RealCouchDb.NOT_HERE);
    String prefix = "tenants_cluster";
    try (RealCouchDb.Cluster cluster = RealCouchDb.cluster(RELEASE.get(), 3)) {
      List<CompletableFuture<String>> iterations = new ArrayList<>();
      List<CompletableFuture<String>> limits = new ArrayList<>();
      for (RealCouchDb.Node node : cluster.nodes()) {
        iterations.add(duringRun(node, "/_node/_local/_config/chttpd_auth/iterations"));
        limits.add(duringRun(node, "/_node/_local/_config/couchdb/max_dbs_open"));
      }
      Map<String, String> properties = new HashMap<>(Map.of("couchdb.url", cluster.urls(), "couchdb.user",
          RealCouchDb.USER, "couchdb.password", RealCouchDb.PASSWORD, "tenants", String.valueOf(USERS), "auth",
          "cookie", "iterations", ITERATIONS, "maxDbsOpen", MAX_DBS_OPEN, "duration", "3", "probeEvery", "5"));
      properties.putAll(Map.of("docs", "5", "database", prefix));

      GatlingRun.Result run = GatlingRun.run("Tenants", properties, TIMEOUT);

      for (int i = 0; i < cluster.nodes().size(); i++) {
        assertEquals("\"" + ITERATIONS + "\"", iterations.get(i).get().strip(), "-Diterations on node " + (i + 1));
        assertEquals("\"" + MAX_DBS_OPEN + "\"", limits.get(i).get().strip(), "-DmaxDbsOpen on node " + (i + 1));
      }
      assertEquals(0, run.exitCode(), run.why());
      JsonNode results = JSON.readTree(run.requireRunFolder().resolve("results.json").toFile());
      JsonNode figures = results.path("figures");
      assertEquals(USERS, TenantsIT.ok(results, "cookie login"), "each user's POST /_session, through its node");
      assertEquals(USERS, TenantsIT.ok(results, "cookie first request"), results.path("requests").toString());
      for (JsonNode probe : figures.path("probes")) {
        assertTrue(probe.path("tried").asLong() >= USERS, probe.toString());
        assertEquals(probe.path("tried").asLong(), probe.path("refused").asLong(), probe.toString());
      }
      assertEquals(USERS, figures.path("wrongLogins").get(0).path("refused").asLong(), figures.toString());
      assertEquals(0, figures.path("letInCount").asLong(), figures.toString());
      assertErlangChartedOnEveryNode(run, figures.path("erlang"), cluster);
      for (RealCouchDb.Node node : cluster.nodes()) {
        awaitLeftNothing(node, prefix);
      }
    }
  }

  // results.json's start, peak and end of each node's processes and memory, and the page's charts of them: a series a
  // node, every point positive.
  private static void assertErlangChartedOnEveryNode(GatlingRun.Result run, JsonNode erlang,
      RealCouchDb.Cluster cluster) throws Exception {
    assertEquals("own", erlang.path("databases").asText(), erlang.toString());
    Path folder = run.requireRunFolder();
    String page = Files.readString(folder.resolve("summary.html"));
    for (String figure : List.of("processes", "memory")) {
      JsonNode gauges = erlang.path(figure);
      assertEquals(cluster.nodes().size(), gauges.size(), "a node each: " + erlang);
      for (JsonNode gauge : gauges) {
        for (String at : List.of("beforeUsers", "start", "peak", "end")) {
          assertTrue(gauge.path(at).asDouble() > 0, at + ": " + gauge);
        }
        assertTrue(gauge.path("peak").asDouble() >= gauge.path("end").asDouble(), gauge.toString());
      }
      String caption = "CouchDB's Erlang " + figure + " over the load, " + DATABASES;
      assertTrue(page.contains(caption.replace("'", "&#39;")), caption + " on the page");
      Map<String, List<Double>> series = chartSeries(folder.resolve(caption.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-")
          .replaceAll("^-+|-+$", "") + ".csv"));
      for (RealCouchDb.Node node : cluster.nodes()) {
        String name = "couchdb " + URI.create(node.url()).getAuthority() + " erlang " + figure;
        List<Double> values = series.getOrDefault(name, List.of());
        assertFalse(values.isEmpty(), name + " charted: " + series.keySet());
        assertTrue(values.stream().allMatch(value -> value > 0), name + ": " + values);
      }
    }
  }

  // A chart's numbers as the page writes them beside it: series, x, y.
  private static Map<String, List<Double>> chartSeries(Path csv) throws Exception {
    Map<String, List<Double>> series = new HashMap<>();
    List<String> lines = Files.readAllLines(csv);
    for (String line : lines.subList(1, lines.size())) {
      List<String> cells = Table.csvCells(line);
      series.computeIfAbsent(cells.get(0), name -> new ArrayList<>()).add(Double.parseDouble(cells.get(2)));
    }
    return series;
  }

  // The node's value of a setting once the run has set it there.
  private static CompletableFuture<String> duringRun(RealCouchDb.Node node, String path) {
    return CompletableFuture.supplyAsync(() -> {
      long deadline = System.nanoTime() + TIMEOUT.toNanos();
      while (System.nanoTime() < deadline) {
        try {
          return node.request("GET", path, null);
        } catch (IllegalStateException notYet) {
          TenantsIT.pause();
        }
      }
      throw new AssertionError(path + " was never set on " + node.url());
    });
  }

  // A node learns of a deletion made through another a moment later (its own copy of _dbs, of _users' shards).
  private static void awaitLeftNothing(RealCouchDb.Node node, String prefix) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (true) {
      try {
        assertLeftNothing(node, prefix);
        return;
      } catch (AssertionError notYet) {
        if (System.nanoTime() > deadline) {
          throw notYet;
        }
        Thread.sleep(200);
      }
    }
  }

  // Through the node: the run's users and databases gone, and its own settings as before (CouchDB's defaults).
  private static void assertLeftNothing(RealCouchDb.Node node, String prefix) throws Exception {
    JsonNode users = JSON.readTree(node.request("GET", "/_users/_all_docs?startkey=%22org.couchdb.user:" + prefix
        + "%22&endkey=%22org.couchdb.user:" + prefix + "%EF%BF%B0%22", null));
    assertEquals(0, users.path("rows").size(), users.toString());
    JsonNode databases = JSON.readTree(node.request("GET", "/_all_dbs", null));
    databases.forEach(database -> assertFalse(database.asText().startsWith(prefix), databases.toString()));
    assertFalse(JSON.readTree(node.request("GET", "/_node/_local/_config/chttpd_auth", null)).has("iterations"),
        "iterations restored on " + node.url());
    assertFalse(JSON.readTree(node.request("GET", "/_node/_local/_config/couchdb", null)).has("max_dbs_open"),
        "max_dbs_open restored on " + node.url());
  }
}
