package couchbench.changes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.GatlingReport;
import couchbench.GatlingRun;
import couchbench.RunSeconds;
import couchbench.targets.PouchDbServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Changes against a real pouchdb-server: the feeds it offers, followed with a _doc_ids filter while writers write
 * through _bulk_docs into two databases, every write seen exactly by the listeners that should see it; and what it
 * does not offer (eventsource), or a feed that does not exist, refused in one line before any load.
 */
class ChangesIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(2);
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void shouldFollowContinuousLongpollAndNormalFeedsWithADocIdsFilterOverBulkWritesIntoTwoDatabases() throws Exception {
    try (PouchDbServer couch = PouchDbServer.start()) {
      GatlingRun.Result run = GatlingRun.run("Changes", Map.of("couchdb.url", couch.url(), "listeners",
          "continuous:6,longpoll:3,normal:3", "writers", "2", "docs", "400", "batch", "10", "rate", "200",
          "databases", "2", "filter", "doc_ids", "pollInterval", "200", "heartbeat", "1000"), TIMEOUT);

      assertEquals(0, run.exitCode(), run.why());
      JsonNode figures = JSON.readTree(run.requireRunFolder().resolve("results.json").toFile()).path("figures");
      assertEquals(400, figures.path("writes").path("acknowledged").asLong());
      assertEquals(400, figures.path("docCount").asLong(), "the databases hold what was acknowledged");
      for (JsonNode feed : figures.path("feeds")) {
        // A listener follows one of the two databases: 200 writes, every tenth of each writer's in its _doc_ids.
        long followed = 20L * feed.path("listeners").asInt();
        assertEquals(followed, feed.path("expected").asLong(), feed.toString());
        assertEquals(followed, feed.path("delivered").asLong(), feed.toString());
        assertEquals(0, feed.path("missed").asLong() + feed.path("duplicated").asLong()
            + feed.path("unexpected").asLong(), feed.toString());
      }
      Map<String, GatlingReport.Counts> report = GatlingReport.requests(run.requireRunFolder());
      assertEquals(40, report.get("write _bulk_docs").ok(), "400 documents in requests of 10");
      assertEquals(20 * 6, report.get("notification continuous").ok(), "each notification an entry of its own");
      assertEquals(3, report.get("delivery normal").ok(), "one verdict per listener");
      // The run's seconds count the writes as its requests, the notifications and the verdicts apart.
      RunSeconds seconds = RunSeconds.of(run.requireRunFolder());
      assertEquals(entries(report, "write"), sum(seconds.column("requests (/s)")), "the writes alone");
      assertEquals(entries(report, "notification "), sum(seconds.column("notifications (/s)")));
      assertEquals(entries(report, "delivery "), sum(seconds.column("verdicts (/s)")));
      assertEquals(report.values().stream().mapToLong(counts -> counts.ok() + counts.ko()).sum(),
          entries(report, "write") + entries(report, "notification ") + entries(report, "delivery "),
          "nothing else in the report: " + report.keySet());
      assertTrue(run.output().contains("couchbench: summary: "), run.output());
    }
  }

  private static long entries(Map<String, GatlingReport.Counts> report, String namedFrom) {
    return report.entrySet().stream().filter(entry -> entry.getKey().startsWith(namedFrom))
        .mapToLong(entry -> entry.getValue().ok() + entry.getValue().ko()).sum();
  }

  private static long sum(List<Double> perSecond) {
    return Math.round(perSecond.stream().mapToDouble(Double::doubleValue).sum());
  }

  @Test
  void shouldCatchUpFromZeroInPagesEveryReaderSeeingEveryDocumentOnce() throws Exception {
    try (PouchDbServer couch = PouchDbServer.start()) {
      GatlingRun.Result run = GatlingRun.run("Changes", Map.of("couchdb.url", couch.url(), "catchup", "5000",
          "pageSize", "500", "readers", "2", "includeDocs", "true"), TIMEOUT);

      assertEquals(0, run.exitCode(), run.why());
      JsonNode catchUp = JSON.readTree(run.requireRunFolder().resolve("results.json").toFile()).path("figures")
          .path("catchUp");
      assertEquals(2, catchUp.path("readers").size(), catchUp.toString());
      for (JsonNode reader : catchUp.path("readers")) {
        assertEquals(5000, reader.path("rows").asLong(), reader.toString());
        assertEquals(11, reader.path("pages").asLong(), "10 full pages, then an empty one: " + reader);
        assertEquals(0, reader.path("missed").asLong() + reader.path("duplicated").asLong(), reader.toString());
      }
      assertEquals(22, GatlingReport.requests(run.requireRunFolder()).get("catch-up page").ok());
      assertTrue(run.output().contains("catch-up: 5,000 documents written in"), run.output());
    }
  }

  @Test
  void shouldRefuseAFeedTheServerDoesNotOfferAFeedThatDoesNotExistOrOneNodeForTheLagInOneLineBeforeAnyLoad() throws Exception {
    try (PouchDbServer couch = PouchDbServer.start()) {
      GatlingRun.Result eventsource = GatlingRun.run("Changes", Map.of("couchdb.url", couch.url(), "listeners", "2",
          "feed", "eventsource", "docs", "10"), TIMEOUT);
      eventsource.assertStoppedBeforeLoad("couchbench: stopped: the server at " + couch.url() + " does not offer"
          + " feed=eventsource: it answered 200 application/json, not text/event-stream");

      GatlingRun.Result unknown = GatlingRun.run("Changes", Map.of("couchdb.url", couch.url(), "feed", "websocket"),
          TIMEOUT);
      GatlingRun.Result oneNode = GatlingRun.run("Changes", Map.of("couchdb.url", couch.url(), "visibility", "nodes"),
          TIMEOUT);
      oneNode.assertStoppedBeforeLoad("couchbench: stopped: -Dvisibility=nodes reads through the nodes a write did"
          + " not go through: list a cluster's nodes in -Dcouchdb.url");

      unknown.assertStoppedBeforeLoad("couchbench: stopped: -Dfeed/-Dlisteners: no feed websocket: CouchDB's feeds are"
          + " continuous, eventsource, longpoll, normal");
    }
  }
}
