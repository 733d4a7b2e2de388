package couchbench.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.GatlingReport;
import couchbench.GatlingRun;
import couchbench.targets.RealCouchDb;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Query against a real Apache CouchDB 3.5 node, started once for the class: 10,000 orders in a global and a
 * partitioned database, every query class asked every way it has in both, with writes between, every answer right;
 * each index's build timed and followed in _active_tasks; what the server examined per result, as it says.
 */
class QueryCouchDbIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(8);
  private static final ObjectMapper JSON = new ObjectMapper();

  @RegisterExtension
  static final RealCouchDb.NodePerClass COUCHDB = new RealCouchDb.NodePerClass();

  @Test
  void shouldAnswerEveryQueryClassRightEveryWayInAGlobalAndAPartitionedDatabaseOf10000Orders() throws Exception {
    // 10 classes and writes, a share each, taken in a weighted round robin: each user's 120 requests ask each class at
    // least 10 times, its ways and databases in turn, so that each user alone asks each of the 58 at least once
    // (equality has the most, 5 ways in 2 databases).
    GatlingRun.Result run = GatlingRun.run("Query", COUCHDB.runProperties(Map.of("docs", "10000", "partitioned",
        "both", "users", "2", "requests", "120", "mix", "equality:1,range:1,sort:1,in:1,or:1,regex:1,elemmatch:1,"
            + "scan:1,page:1,sum:1,write:1")), TIMEOUT);

    assertEquals(0, run.exitCode(), run.why());
    Map<String, GatlingReport.Counts> report = GatlingReport.requests(run.requireRunFolder());
    for (QueryClass queryClass : QueryClass.values()) {
      for (Way way : queryClass.ways()) {
        for (Scope scope : Scope.values()) {
          String name = QueryCall.requestName(queryClass, way, scope);
          GatlingReport.Counts counts = report.get(name);
          assertTrue(counts != null && counts.ok() > 0, name + " asked and answered right: " + report.keySet());
          assertEquals(0, counts.ko(), name);
        }
      }
    }
    assertTrue(report.get("write / partitioned_mango").ok() > 0, report.keySet().toString());

    JsonNode figures = JSON.readTree(run.requireRunFolder().resolve("results.json").toFile()).path("figures");
    assertEquals(16, figures.path("builds").size(), "4 views and 4 Mango indexes in each kind of database");
    for (JsonNode build : figures.path("builds")) {
      assertTrue(build.path("seconds").asDouble() > 0, build.toString());
      assertTrue(build.path("samples").asInt() >= 1, "_active_tasks read during the build: " + build);
      assertTrue(build.path("indexBytes").asLong() > 0, "the index's size on disk: " + build);
    }
    assertTrue(figures.path("builds").findValues("samplesSeen").stream().anyMatch(seen -> seen.asInt() > 0),
        "a build of 10,000 documents is seen in _active_tasks: " + figures.path("builds"));

    Map<String, JsonNode> work = new HashMap<>();
    figures.path("work").forEach(counts -> work.put(counts.path("request").asText(), counts));
    // Without an index, the global database is read whole; a partition holds one customer's 200 orders (-Downers is
    // docs / 200).
    JsonNode globalScan = work.get("scan / mango / global");
    JsonNode partitionScan = work.get("scan / mango / partitioned");
    assertTrue(perReply(globalScan, "docsExamined") >= 10_000, globalScan.toString());
    assertTrue(perReply(partitionScan, "docsExamined") <= 200, partitionScan.toString());
    assertEquals(work.get("equality / mango / global").path("replies").asLong(),
        work.get("equality / mango / global").path("warnings").asLong(), "no index: each reply says so");
    assertEquals(0, work.get("equality / index / global").path("warnings").asLong());
    JsonNode indexed = work.get("equality / index / global");
    assertEquals(indexed.path("resultsReturned").asLong(), indexed.path("docsExamined").asLong(),
        "with the index, only the documents returned are read: " + indexed);
    JsonNode covering = work.get("equality / covering / global");
    assertEquals(0, covering.path("docsExamined").asLong(), "a covering index reads no document: " + covering);

    String page = Files.readString(run.requireRunFolder().resolve("summary.html"));
    assertTrue(page.contains("scan: amount in [x, y), no customer"), "a table per query class");
    assertTrue(page.contains("couchbench_query_partitioned_mango"), "the builds table names each database");
  }

  @Test
  void shouldCountTheWarningOfAnIndexGoneAndFailTheSortsItLeftWithoutOne() throws Exception {
    GatlingRun.Running running = GatlingRun.start("Query", COUCHDB.runProperties(Map.of("docs", "5000",
        "queries", "range,sort", "users", "1", "requests", "60", "database", "gone")), Map.of());
    running.awaitLine("couchbench: query: each of the 5 ways and databases asked once.*", TIMEOUT);
    // The index that range and sort name in use_index, deleted as the load starts (as an operator may).
    RealCouchDb.Node node = COUCHDB.node();
    String rev = JSON.readTree(node.request("GET", "/gone_global_mango/_design/mango-owner-ts", null)).path("_rev")
        .asText();
    node.request("DELETE", "/gone_global_mango/_design/mango-owner-ts?rev=" + rev, null);
    GatlingRun.Result run = running.finish(TIMEOUT);

    assertEquals(2, run.exitCode(), "the sorts refused fail the run: " + run.output());
    Map<String, GatlingReport.Counts> report = GatlingReport.requests(run.requireRunFolder());
    assertTrue(report.get("sort / index / global").ko() > 0, report.toString());
    assertEquals(0, report.get("range / index / global").ko(), "answered without the index, right");
    assertEquals(0, report.get("sort / view / global").ko());
    JsonNode work = null;
    for (JsonNode counts : JSON.readTree(run.requireRunFolder().resolve("results.json").toFile()).path("figures")
        .path("work")) {
      work = counts.path("request").asText().equals("range / index / global") ? counts : work;
    }
    assertTrue(work != null && work.path("warnings").asLong() > 0, "the server's warning, counted: " + work);
    String page = Files.readString(run.requireRunFolder().resolve("summary.html"));
    assertTrue(page.contains("sort / index / global: ") && page.contains("found 400"),
        "the failures, with their status");
    assertTrue(page.contains("range / index / global: ") && page.contains("mango-owner-ts"),
        "the warning's text names the index");
  }

  @Test
  void shouldSumInJavaScriptWithDreduceAndAnswerTheSumsAsTheBuiltInDoes() throws Exception {
    // The sums are checked against the data, as every answer is: a JavaScript reduce that summed wrong fails the run.
    GatlingRun.Result run = GatlingRun.run("Query", COUCHDB.runProperties(Map.of("docs", "1000", "queries", "sum",
        "users", "1", "requests", "20", "database", "jsreduce", "reduce", "javascript")), TIMEOUT);

    assertEquals(0, run.exitCode(), run.why());
    assertTrue(run.output().contains("the sum view reduces in javascript"), "the load's line says so");
    GatlingReport.Counts sums = GatlingReport.requests(run.requireRunFolder()).get("sum / view / global");
    assertTrue(sums != null && sums.ok() > 0 && sums.ko() == 0, "reduced sums asked and right: " + sums);
    JsonNode design = JSON.readTree(COUCHDB.node().request("GET", "/jsreduce_global/_design/view-owner-status", null));
    assertEquals(SumReduce.JAVASCRIPT.function(), design.path("views").path("by").path("reduce").asText(),
        "the view the server built reduces in JavaScript: " + design);
  }

  private static double perReply(JsonNode counts, String field) {
    return (double) counts.path(field).asLong() / counts.path("replies").asLong();
  }
}
