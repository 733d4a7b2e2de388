package couchbench.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import couchbench.GatlingReport;
import couchbench.GatlingRun;
import couchbench.targets.PouchDbServer;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Replicate against a real pouchdb-server: one-shot replications between its databases, every target equal to its
 * source; and a target that is not CouchDB, or writes asked of a one-shot replication, refused in one line.
 */
class ReplicateIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(3);
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void shouldCopyEachSourceToItsTargetInTwoOneShotReplicationsEveryRevisionThere() throws Exception {
    try (PouchDbServer couch = PouchDbServer.start()) {
      GatlingRun.Result run = GatlingRun.run("Replicate", Map.of("couchdb.url", couch.url(), "jobs", "2", "docs",
          "2000"), TIMEOUT);

      assertEquals(0, run.exitCode(), run.why());
      JsonNode figures = JSON.readTree(run.requireRunFolder().resolve("results.json").toFile()).path("figures");
      for (JsonNode job : PerJob.entries(figures, "comparisons", 2)) {
        assertEquals(2000, job.path("targetDocs").asLong(), job.toString());
        assertEquals(job.path("sourceDigest").asText(), job.path("targetDigest").asText(), job.toString());
      }
      assertEquals(2, GatlingReport.requests(run.requireRunFolder()).get("replicate one-shot").ok());
    }
  }

  @Test
  void shouldRefuseATargetThatIsNotCouchDbWritesIntoAOneShotOrAContinuousReplicationWithoutSchedulerInOneLine()
      throws Exception {
    HttpServer hello = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    hello.createContext("/", exchange -> {
      exchange.sendResponseHeaders(200, 5);
      exchange.getResponseBody().write("hello".getBytes(StandardCharsets.US_ASCII));
      exchange.close();
    });
    hello.start();
    try (PouchDbServer couch = PouchDbServer.start()) {
      String notCouchDb = "http://127.0.0.1:" + hello.getAddress().getPort();
      GatlingRun.run("Replicate", Map.of("couchdb.url", couch.url(), "couchdb.target", notCouchDb, "docs", "10"),
          TIMEOUT).assertStoppedBeforeLoad("couchbench: stopped: -Dcouchdb.target=" + notCouchDb + " is not CouchDB:"
          + " GET / answered 200 hello; give a CouchDB server's URL");
      GatlingRun.run("Replicate", Map.of("couchdb.url", couch.url(), "writes", "10"), TIMEOUT)
          .assertStoppedBeforeLoad("couchbench: stopped: -Dwrites with -Dmode=oneshot: a one-shot replication copies"
              + " what its source holds as it starts; give -Dmode=continuous");
      GatlingRun.run("Replicate", Map.of("couchdb.url", couch.url(), "mode", "continuous", "docs", "10"), TIMEOUT)
          .assertStoppedBeforeLoad("couchbench: stopped: the server at " + couch.url() + " has no replication"
              + " scheduler (GET /_scheduler/jobs is not there): continuous replications are _replicator documents,"
              + " which CouchDB 2.x and later run and pouchdb-server does not; give -Dmode=oneshot");
    } finally {
      hello.stop(0);
    }
  }
}
