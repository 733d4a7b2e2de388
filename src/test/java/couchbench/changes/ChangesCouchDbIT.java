package couchbench.changes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.Forwarder;
import couchbench.GatlingReport;
import couchbench.GatlingRun;
import couchbench.RunSeconds;
import couchbench.results.Histograms;
import couchbench.targets.RealCouchDb;
import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Changes against a real Apache CouchDB 3.5 node, started once for the class: hundreds of listeners of the three
 * streaming and polling feeds see every write exactly once, through a connection cut mid-run and through a restart of
 * the server, and while the run builds a view on the database and compacts it; a _selector filter delivers exactly
 * the matching writes.
 */
class ChangesCouchDbIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(4);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CUT_LISTENERS = "continuous:200,longpoll:50,eventsource:50";
  // Each write goes to 300 listeners: 600,000 notifications (docs/changes.md measured 10,000 writes, 137 s here).
  private static final long CUT_WRITES = 2_000;
  private static final String RESTART_LISTENERS = "continuous:20,longpoll:5,eventsource:5";
  private static final String SELECTOR_LISTENERS = "continuous:10,longpoll:4,eventsource:4";
  private static final String BACKGROUND_LISTENERS = "continuous:20,longpoll:10";

  @RegisterExtension
  static final RealCouchDb.NodePerClass COUCHDB = new RealCouchDb.NodePerClass();

  @Test
  void shouldDeliverEveryWriteOnceTo300ListenersOfThreeFeedsThroughACutConnection() throws Exception {
    try (Forwarder cutting = Forwarder.start(URI.create(COUCHDB.node().url()).getPort())) {
      GatlingRun.Running running = GatlingRun.start("Changes", properties(Map.of(
          "listeners", CUT_LISTENERS, "writers", "4", "docs", String.valueOf(CUT_WRITES), "batch", "50",
          "rate", "1000", "database", "cut", "listenThrough", "http://" + cutting.address())), Map.of());
      // The writers start once every listener's feed is open: cut once a fifth of the writes are in, mid-run at any
      // pace, rather than at the first progress line, 10 s in, which a run of fewer writes may not reach.
      awaitDocuments(running, "cut_0", CUT_WRITES / 5);
      // Every listener's connection closed, as a proxy in front of CouchDB may close it.
      cutting.down(Duration.ZERO);
      GatlingRun.Result run = running.finish(TIMEOUT);

      assertEquals(0, run.exitCode(), run.why());
      JsonNode figures = figures(run);
      assertEquals(CUT_WRITES, figures.path("writes").path("acknowledged").asLong(), figures.toString());
      for (JsonNode feed : feeds(figures, CUT_LISTENERS)) {
        int listeners = feed.path("listeners").asInt();
        assertEquals(CUT_WRITES * listeners, feed.path("expected").asLong(), feed.toString());
        assertEquals(CUT_WRITES * listeners, feed.path("delivered").asLong(), "every write to every listener: " + feed);
        assertEquals(0, feed.path("missed").asLong(), feed.toString());
        assertEquals(0, feed.path("duplicated").asLong(), feed.toString());
        assertEquals(0, feed.path("unexpected").asLong(), feed.toString());
        assertEquals(listeners, feed.path("mostConnections").asInt(), "one connection each at once: " + feed);
        assertTrue(feed.path("reconnects").asLong() >= listeners, "each listener's connection was cut: " + feed);
        Histogram latency = Histograms.decode(feed.path("fromAckMicros").asText());
        assertEquals(CUT_WRITES * listeners, latency.getTotalCount(), feed.toString());
      }
      Map<String, GatlingReport.Counts> report = GatlingReport.requests(run.requireRunFolder());
      assertEquals(CUT_WRITES * 200, report.get("notification continuous").ok(),
          "each notification in Gatling's report");
      assertEquals(200, report.get("delivery continuous").ok());
    }
  }

  @Test
  void shouldResumeEveryListenerFromItsLastSeqWhenTheServerRestartsMidRun() throws Exception {
    GatlingRun.Running running = GatlingRun.start("Changes", properties(Map.of(
        "listeners", RESTART_LISTENERS, "writers", "2", "docs", "1500", "rate", "100",
        "database", "restart")), Map.of());
    running.awaitLine("couchbench: progress: .*", TIMEOUT);
    COUCHDB.node().stop();
    Thread.sleep(2000);
    COUCHDB.node().start();
    GatlingRun.Result run = running.finish(TIMEOUT);

    // The writes sent while it was down failed, and fail the run; nothing else did.
    assertEquals(2, run.exitCode(), run.why());
    Map<String, GatlingReport.Counts> report = GatlingReport.requests(run.requireRunFolder());
    report.forEach((request, counts) -> assertTrue(request.equals("write") || counts.ko() == 0, request + counts));
    JsonNode figures = figures(run);
    JsonNode writes = figures.path("writes");
    assertTrue(writes.path("failed").asLong() > 0, writes.toString());
    assertEquals(1500, writes.path("acknowledged").asLong() + writes.path("failed").asLong(), writes.toString());
    for (JsonNode feed : feeds(figures, RESTART_LISTENERS)) {
      int listeners = feed.path("listeners").asInt();
      assertEquals(writes.path("acknowledged").asLong() * listeners, feed.path("expected").asLong(), feed.toString());
      assertEquals(0, feed.path("missed").asLong(), "every acknowledged write after the restart too: " + feed);
      assertEquals(0, feed.path("duplicated").asLong(), feed.toString());
      assertTrue(feed.path("reconnects").asLong() >= listeners, "every listener reconnected: " + feed);
    }
    // The node second by second: its own counters read while it ran, a gap while it was down.
    RunSeconds seconds = RunSeconds.of(run.requireRunFolder());
    List<Double> requests = seconds.column("couchdb httpd requests (/s)");
    assertTrue(requests.stream().anyMatch(rate -> rate > 10), "the node's own request rate: " + requests);
    assertTrue(seconds.column("couchdb database writes (/s)").stream().anyMatch(rate -> rate > 0));
    assertTrue(seconds.column("couchdb erlang memory (MB)").stream().anyMatch(megabytes -> megabytes > 1));
    // A CouchDB node runs hundreds of Erlang processes; the run's databases are open, each with its file.
    assertTrue(seconds.column("couchdb erlang processes (count)").stream().anyMatch(processes -> processes > 100));
    assertTrue(seconds.column("couchdb open databases (count)").stream().anyMatch(open -> open >= 1));
    assertTrue(seconds.column("couchdb open files (count)").stream().anyMatch(open -> open >= 1));
    assertTrue(IntStream.range(1, requests.size() - 1).anyMatch(second -> Double.isNaN(requests.get(second))
        && !Double.isNaN(seconds.column("load generator heap (MB)").get(second))), "the restart's gap: " + requests);
  }

  @Test
  void shouldDeliverExactlyTheWritesASelectorMatches() throws Exception {
    GatlingRun.Result run = GatlingRun.run("Changes", properties(Map.of(
        "listeners", SELECTOR_LISTENERS, "writers", "2", "docs", "400", "rate", "200",
        "databases", "2", "filter", "selector", "database", "selector")), TIMEOUT);

    assertEquals(0, run.exitCode(), run.why());
    for (JsonNode feed : feeds(figures(run), SELECTOR_LISTENERS)) {
      // Each listener follows one of the two databases: 200 writes, every other one "even".
      long matching = 100L * feed.path("listeners").asInt();
      assertEquals(matching, feed.path("expected").asLong(), feed.toString());
      assertEquals(matching, feed.path("delivered").asLong(), feed.toString());
      assertEquals(0, feed.path("unexpected").asLong(), "nothing the selector excludes: " + feed);
      assertEquals(0, feed.path("foreign").asLong(), feed.toString());
    }
  }

  @Test
  void shouldDeliverEveryWriteWhileTheRunBuildsAViewOnTheDatabaseThenCompactsIt() throws Exception {
    // Four writers, not two: each waits for CouchDB's commit of its last write, and two wrote some 45 a second, so
    // 2,000 writes took 40 s. Four write some 60 a second: the 1,000 writes take some 17 s, and the compaction still
    // starts 4 s in, under the writes.
    GatlingRun.Result run = GatlingRun.run("Changes", properties(Map.of(
        "listeners", BACKGROUND_LISTENERS, "writers", "4", "docs", "1000", "rate", "250",
        "database", "background", "background", "viewbuild,compact", "backgroundAt", "1", "backgroundGap", "1")),
        TIMEOUT);

    assertEquals(0, run.exitCode(), "every listener saw every write: " + run.output());
    for (JsonNode feed : feeds(figures(run), BACKGROUND_LISTENERS)) {
      assertEquals(1000L * feed.path("listeners").asInt(), feed.path("delivered").asLong(), feed.toString());
      assertEquals(0, feed.path("missed").asLong(), feed.toString());
      assertEquals(0, feed.path("duplicated").asLong(), feed.toString());
    }
    List<String> tasks = Files.readAllLines(run.requireRunFolder().resolve("background-tasks.csv"));
    assertEquals(3, tasks.size(), tasks.toString());
    assertTrue(tasks.get(1).startsWith("1 viewbuild,") && tasks.get(1).endsWith(",ended"), tasks.toString());
    // Under a steady stream of writes a compaction copies what was written during its last pass in another, so it
    // may outlast the writers (a run here saw it run through all of them): either way the server ends it.
    assertTrue(tasks.get(2).matches("2 compact,POST /background_0/_compact,.*,(ended|the load ended before it did)"),
        tasks.toString());
    long deadline = System.currentTimeMillis() + 60_000;
    while (JSON.readTree(COUCHDB.node().request("GET", "/background_0", null)).path("compact_running").asBoolean()
        && System.currentTimeMillis() < deadline) {
      Thread.sleep(200);
    }
    assertFalse(JSON.readTree(COUCHDB.node().request("GET", "/background_0", null)).path("compact_running")
        .asBoolean(), "the compaction ended on the server once the writers stopped");
  }

  @Test
  void shouldCatchUpFromZeroWithASeqIntervalMissingNothing() throws Exception {
    GatlingRun.Result run = GatlingRun.run("Changes", properties(Map.of("catchup", "20000",
        "pageSize", "1000", "seqInterval", "100", "readers", "2", "database", "catchup")), TIMEOUT);

    assertEquals(0, run.exitCode(), run.why());
    JsonNode readers = figures(run).path("catchUp").path("readers");
    assertEquals(2, readers.size(), "one entry per reader of -Dreaders: " + readers);
    for (JsonNode reader : readers) {
      assertEquals(20_000, reader.path("rows").asLong(), reader.toString());
      assertEquals(0, reader.path("missed").asLong() + reader.path("duplicated").asLong(), reader.toString());
      assertTrue(reader.path("seconds").asDouble() > 0, reader.toString());
    }
  }

  private static Map<String, String> properties(Map<String, String> more) {
    Map<String, String> properties = new HashMap<>(Map.of("heartbeat", "1000", "quiet", "20"));
    properties.putAll(more);
    return COUCHDB.runProperties(properties);
  }

  /**
   * The run's feeds, asserted to be one entry per feed that -Dlisteners named, with its listeners: a loop over them
   * would pass with none.
   */
  private static JsonNode feeds(JsonNode figures, String listeners) {
    Map<String, Integer> named = new TreeMap<>();
    for (String part : listeners.split(",")) {
      named.put(part.split(":")[0], Integer.parseInt(part.split(":")[1]));
    }
    JsonNode feeds = figures.path("feeds");
    Map<String, Integer> reported = new TreeMap<>();
    feeds.forEach(feed -> reported.put(feed.path("feed").asText(), feed.path("listeners").asInt()));
    assertEquals(named, reported, "one entry per feed: " + feeds);
    assertEquals(named.size(), feeds.size(), feeds.toString());
    return feeds;
  }

  /** Waits until the run's database holds this many documents, failing the test when the run ends first. */
  private static void awaitDocuments(GatlingRun.Running running, String database, long documents) throws Exception {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    while (documentCount(database) < documents) {
      assertTrue(running.process().isAlive() && System.nanoTime() < deadline, "no " + documents + " documents in "
          + database + " while the run went on:\n" + running.output());
      Thread.sleep(100);
    }
  }

  private static long documentCount(String database) throws Exception {
    try {
      return JSON.readTree(COUCHDB.node().request("GET", "/" + database, null)).path("doc_count").asLong();
    } catch (IllegalStateException notYet) {
      return 0; // the run has not created it yet
    }
  }

  private static JsonNode figures(GatlingRun.Result run) throws Exception {
    return JSON.readTree(run.requireRunFolder().resolve("results.json").toFile()).path("figures");
  }
}
