package couchbench.replication;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.GatlingRun;
import couchbench.HttpPassThrough;
import couchbench.HttpReplies;
import couchbench.results.Histograms;
import couchbench.targets.RealCouchDb;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Replicate between two real Apache CouchDB 3.5 nodes, started once for the class: one-shot replications of 20,000
 * documents each, and continuous ones followed through a restart of the target; every target equal to its source. A
 * target that refuses the login, and one the source server cannot replicate to, stop the run before the load.
 */
class ReplicateCouchDbIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(6);
  private static final ObjectMapper JSON = new ObjectMapper();

  @RegisterExtension
  static final RealCouchDb.NodePerClass SOURCE = new RealCouchDb.NodePerClass();

  @RegisterExtension
  static final RealCouchDb.NodePerClass TARGET = new RealCouchDb.NodePerClass();

  @Test
  void shouldCopy20000DocumentsInEachOfTwoOneShotReplicationsToAnotherServerEveryRevisionThere() throws Exception {
    GatlingRun.Result run = GatlingRun.run("Replicate", SOURCE.runProperties(Map.of("couchdb.target",
        TARGET.node().url(), "jobs", "2", "docs", "20000", "database", "oneshot")), TIMEOUT);

    assertEquals(0, run.exitCode(), run.why());
    JsonNode figures = figures(run);
    for (JsonNode shot : PerJob.entries(figures, "oneShots", 2)) {
      assertEquals(20_000, shot.path("docsWritten").asLong(), shot.toString());
      assertTrue(shot.path("seconds").asDouble() > 0, shot.toString());
    }
    for (JsonNode job : PerJob.entries(figures, "comparisons", 2)) {
      assertEquals(20_000, job.path("targetDocs").asLong(), job.toString());
      assertEquals(job.path("sourceDigest").asText(), job.path("targetDigest").asText(), job.toString());
    }
    assertTrue(run.output().contains("couchbench: replicate: 2 sources of 20,000 documents written in"),
        run.output());
    assertFalse(run.output().contains(RealCouchDb.PASSWORD), "the login never printed");
  }

  @Test
  void shouldBringEveryTargetLevelWithItsSourceThroughARestartOfTheTargetWithTheGapOnThePage() throws Exception {
    GatlingRun.Running running = GatlingRun.start("Replicate", SOURCE.runProperties(Map.of("couchdb.target",
        TARGET.node().url(), "mode", "continuous", "jobs", "2", "docs", "20000", "writes", "600", "rate", "60",
        "quiet", "150", "database", "continuous")), Map.of());
    running.awaitLine("couchbench: progress: so far [1-9].*", TIMEOUT);
    TARGET.node().stop();
    Thread.sleep(2000);
    TARGET.node().start();
    GatlingRun.Result run = running.finish(TIMEOUT);

    assertEquals(0, run.exitCode(), run.why());
    JsonNode figures = figures(run);
    assertEquals(1200, figures.path("writesAcknowledged").asLong(), figures.toString());
    for (JsonNode job : PerJob.entries(figures, "watched", 2)) {
      assertEquals(20_000, job.path("docs").asLong(), job.toString());
      assertEquals(600, job.path("writes").asLong(), "every write reached the target: " + job);
      assertEquals(0, job.path("missing").asLong(), job.toString());
      assertTrue(job.path("copySeconds").asDouble() > 0, job.toString());
    }
    for (JsonNode job : PerJob.entries(figures, "comparisons", 2)) {
      assertEquals(20_600, job.path("targetDocs").asLong(), job.toString());
      assertEquals(job.path("sourceDigest").asText(), job.path("targetDigest").asText(), job.toString());
    }
    assertEquals(1200, Histograms.decode(figures.path("lagMicros").asText()).getTotalCount());
    // Beside the lag from the acknowledgement, the lag from the send, never below it; the writes seen before their
    // acknowledgement counted apart.
    Histogram fromSent = Histograms.decode(figures.path("lagFromSentMicros").asText());
    assertEquals(1200, fromSent.getTotalCount(), figures.toString());
    assertTrue(fromSent.getValueAtPercentile(50) >= Histograms.decode(figures.path("lagMicros").asText())
        .getValueAtPercentile(50), figures.toString());
    assertTrue(figures.path("beforeAck").canConvertToLong() && figures.path("beforeAck").asLong() < 1200,
        figures.toString());
    for (JsonNode job : PerJob.entries(figures, "scheduler", 2)) {
      assertTrue(job.path("checkpoints").asInt() > 0, "_scheduler read while it ran: " + job);
    }
    // The 2 s the target was down: the writes of those seconds reached it late, and the page says when.
    String page = Files.readString(run.requireRunFolder().resolve("summary.html"));
    assertTrue(page.matches("(?s).*Writes acknowledged from \\d+ s to \\d+ s into the load took up to \\d+\\.\\d s to"
        + " reach their target.*"), "the gap on the page");
    assertTrue(page.contains("write, sent to replicated"), "the lag from the send on the page");
    assertTrue(page.matches("(?s).*\\d+ writes reached their target before their writer had the acknowledgement.*"),
        "the early writes on the page");
  }

  @Test
  void shouldStopInOneLineBeforeAnyLoadWhenTheTargetRefusesTheLogin() throws Exception {
    RealCouchDb.Node target = TARGET.node();
    target.request("PUT", "/_node/_local/_config/admins/" + RealCouchDb.USER, "\"another-secret\"");
    try {
      GatlingRun.Result run = GatlingRun.run("Replicate", SOURCE.runProperties(Map.of("couchdb.target", target.url(),
          "docs", "10", "database", "refused")), TIMEOUT);

      run.assertStoppedBeforeLoad("couchbench: stopped: CouchDB at " + target.url() + " refused user 'admin' (401):"
          + " check -Dcouchdb.user and -Dcouchdb.password");
      assertFalse(run.output().contains(RealCouchDb.PASSWORD), "the login never printed");
    } finally {
      // Back to the class's password, as the admin the target now knows.
      HttpResponse<String> restored = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
              target.url() + "/_node/_local/_config/admins/" + RealCouchDb.USER))
          .header("Authorization", "Basic " + Base64.getEncoder().encodeToString((RealCouchDb.USER + ":another-secret")
              .getBytes(StandardCharsets.UTF_8)))
          .PUT(HttpRequest.BodyPublishers.ofString("\"" + RealCouchDb.PASSWORD + "\"")).build(),
          HttpResponse.BodyHandlers.ofString());
      assertEquals(200, restored.statusCode(), restored.body());
    }
  }

  @Test
  void shouldStopInOneLineBeforeAnyLoadWhenTheSourceServerCannotReplicateToTheTarget() throws Exception {
    // A front end that lets the load generator in and turns CouchDB's replicator away, as a target behind a firewall
    // or a gateway with its own login would: the source server refuses the replication, not couchbench.
    try (HttpPassThrough gateway = new HttpPassThrough(TARGET.node().url(), (exchange, length) -> {
      String agent = String.valueOf(exchange.getRequestHeaders().getFirst("User-Agent"));
      if (!agent.startsWith("CouchDB")) {
        return false;
      }
      exchange.getRequestBody().readAllBytes();
      HttpReplies.json(exchange, 403, "{\"error\":\"forbidden\",\"reason\":\"not from this address\"}");
      return true;
    })) {
      GatlingRun.Result run = GatlingRun.run("Replicate", SOURCE.runProperties(Map.of("couchdb.target",
          gateway.url(), "docs", "10", "database", "rejected")), TIMEOUT);

      String stopped = run.output().lines().filter(line -> line.startsWith("couchbench: stopped:")).findFirst()
          .orElseThrow(() -> new AssertionError(run.output()));
      assertTrue(stopped.startsWith("couchbench: stopped: CouchDB at " + SOURCE.node().url() + " refused to replicate"
          + " rejected"), stopped);
      assertTrue(stopped.contains(" to " + gateway.url() + "/rejected"), stopped);
      run.assertStoppedBeforeLoad(stopped);
      assertTrue(gateway.requests().size() > 1, "the replicator tried the target: " + gateway.requests());
      assertFalse(run.output().contains(RealCouchDb.PASSWORD), "the login never printed");
    }
  }

  private static JsonNode figures(GatlingRun.Result run) throws Exception {
    return JSON.readTree(run.requireRunFolder().resolve("results.json").toFile()).path("figures");
  }
}
