package couchbench.query;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.GatlingReport;
import couchbench.GatlingRun;
import couchbench.targets.PouchDbServer;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Query against a real pouchdb-server: the classes it answers (its Mango has no bookmarks, and it has no partitions),
 * every way, with writes between, every answer right; and what it lacks refused in one line before any load.
 */
class QueryIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(3);
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void shouldAnswerEveryClassButBookmarkPagingRightEveryWayWithWritesBetween() throws Exception {
    try (PouchDbServer couch = PouchDbServer.start()) {
      // 9 classes and writes, a share each: 2 users of 100 requests ask each of the 25 ways at least once.
      GatlingRun.Result run = GatlingRun.run("Query", Map.of("couchdb.url", couch.url(), "docs", "2000", "users", "2",
          "requests", "100", "mix", "equality:1,range:1,sort:1,in:1,or:1,regex:1,elemmatch:1,scan:1,sum:1,write:1"),
          TIMEOUT);

      assertEquals(0, run.exitCode(), run.why());
      Map<String, GatlingReport.Counts> report = GatlingReport.requests(run.requireRunFolder());
      for (QueryClass queryClass : QueryClass.values()) {
        for (Way way : queryClass == QueryClass.PAGE ? List.<Way>of() : queryClass.ways()) {
          String name = QueryCall.requestName(queryClass, way, Scope.GLOBAL);
          assertTrue(report.containsKey(name) && report.get(name).ok() > 0, name + ": " + report.keySet());
          assertEquals(0, report.get(name).ko(), name);
        }
      }
      assertEquals(20, report.get("write / global").ok() + report.get("write / global_mango").ok(),
          "a tenth of 200 requests");
      JsonNode figures = JSON.readTree(run.requireRunFolder().resolve("results.json").toFile()).path("figures");
      assertEquals(8, figures.path("builds").size(), "4 views, 4 Mango indexes");
      assertTrue(run.output().contains("query: each of the 25 ways and databases asked once, before the load"),
          run.output());
    }
  }

  @Test
  void shouldRefusePartitionsAndBookmarksTheServerLacksInOneLineBeforeAnyLoadOrLeaveOutAClassNotNamed()
      throws Exception {
    try (PouchDbServer couch = PouchDbServer.start()) {
      GatlingRun.Result partitioned = GatlingRun.run("Query", Map.of("couchdb.url", couch.url(), "docs", "200",
          "partitioned", "true"), TIMEOUT);
      partitioned.assertStoppedBeforeLoad("couchbench: stopped: the server at " + couch.url() + " made"
          + " couchbench_query_partitioned a global database (GET /couchbench_query_partitioned has no"
          + " props.partitioned): it has no partitioned databases (CouchDB 3.x has; pouchdb-server has not), so a"
          + " partitioned query cannot run: give -Dpartitioned=false");

      GatlingRun.Result paged = GatlingRun.run("Query", Map.of("couchdb.url", couch.url(), "docs", "200",
          "queries", "page"), TIMEOUT);
      paged.assertStoppedBeforeLoad("couchbench: stopped: CouchDB at " + couch.url() + " answered the page query"
          + " (mango, no index, global database) wrong: a full page without a new bookmark: the server does not page"
          + " with bookmarks; leave page out of -Dqueries");

      // Not named, but asked by default with every other class: left out, and the others run.
      GatlingRun.Result byDefault = GatlingRun.run("Query", Map.of("couchdb.url", couch.url(), "docs", "400",
          "users", "1", "requests", "30"), TIMEOUT);
      assertEquals(0, byDefault.exitCode(), byDefault.why());
      assertTrue(byDefault.output().contains("couchbench: query: page left out: CouchDB at " + couch.url()
          + " answered the page query (mango, no index, global database) wrong: a full page without a new bookmark"),
          byDefault.output());
      assertTrue(Files.readString(byDefault.requireRunFolder().resolve("summary.html")).contains("Left out: CouchDB"
          + " at " + couch.url() + " answered the page query"), "said on the page");
      assertEquals(30, GatlingReport.requests(byDefault.requireRunFolder()).values().stream()
          .mapToLong(GatlingReport.Counts::ok).sum(), "30 queries of the 9 other classes, none of page");
    }
  }
}
