package couchbench.viewquery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import couchbench.GatlingReport;
import couchbench.GatlingRun;
import couchbench.Injectors;
import couchbench.couchdb.CouchDbClient;
import couchbench.couchdb.DesignDocument;
import couchbench.results.Results;
import couchbench.results.ResultsFile;
import couchbench.targets.CouchTarget;
import couchbench.targets.PouchDbServer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** ViewQuery run as a user runs it, in its own Gatling JVM, against a real pouchdb-server. */
class ViewQueryIT {

  private static final Duration RUN_TIMEOUT = Duration.ofMinutes(2);

  private static PouchDbServer couch;
  private static CouchDbClient client;

  @BeforeAll
  static void startCouch() {
    couch = PouchDbServer.start();
    client = new CouchDbClient(new CouchTarget(couch.url(), Optional.empty(), false));
  }

  @AfterAll
  static void stopCouch() {
    couch.close();
  }

  @Test
  void shouldReportHttperfsFiguresOfABriefRunWithTheIndexBuildApart() throws Exception {
    // 20 connections/s for 6 s: one full 5 s window of httperf's reply rate sampling.
    GatlingRun.Result run = run(Map.of("couchdb.url", couch.url(), "database", "viewquery_it",
        "rows", "3", "rate", "20", "conns", "120"));

    assertEquals(0, run.exitCode(), run.why());
    Path folder = run.requireRunFolder();
    Map<String, String> figures = figures(folder.resolve("figures.csv"));
    assertEquals("120", figures.get("connections"));
    assertEquals("120", figures.get("requests"));
    assertEquals("120", figures.get("replies"));
    assertEquals("120", figures.get("status 2xx"));
    for (String other : List.of("status 1xx", "status 3xx", "status 4xx", "status 5xx", "failed requests")) {
      assertEquals("0", figures.get(other), other);
    }
    for (String kind : ErrorKinds.NAMES) {
      assertEquals("0", figures.get("errors " + kind), kind);
    }
    assertEquals("1", figures.get("reply rate samples"));
    double replyRate = Double.parseDouble(figures.get("reply rate avg"));
    assertTrue(replyRate > 18 && replyRate < 22, "about 20 replies/s: " + replyRate);
    double duration = Double.parseDouble(figures.get("test-duration s"));
    // Arrivals span 6 s; a reply the server holds back (pouchdb-server stalls now and then on a busy
    // machine) can only lengthen the test by its own delay.
    assertTrue(duration > 5.5 && duration < 10, "about 6 s: " + duration);
    List<String> rateChart = Files.readAllLines(folder.resolve("reply-rate-over-the-run.csv"));
    assertEquals(List.of("series,end of the sample (s since the first connection),replies/s",
        "reply rate,5," + figures.get("reply rate avg")), rateChart, "the one sample, drawn at the window's end");
    List<String> connectionChart = Files.readAllLines(folder.resolve("connection-times.csv"));
    assertEquals(121, connectionChart.size(), "a point per connection: " + connectionChart);
    assertTrue(connectionChart.get(120).endsWith("," + figures.get("connection time max ms") + ",100"),
        "the slowest connection at 100%: " + connectionChart.get(120));
    assertEquals("5", figures.get("index build total_rows"), "the seed's 2 and -Drows=3");
    assertTrue(Double.parseDouble(figures.get("index build ms")) > 0);

    Map<String, GatlingReport.Counts> gatling = GatlingReport.requests(folder);
    assertEquals(new GatlingReport.Counts(120, 120, 0), gatling.get("view list"));
    assertEquals(List.of("view list"), List.copyOf(gatling.keySet()), "the index build is not a measured request");
    assertTrue(run.output().contains("couchbench: view index build: first query "), run.output());
    assertTrue(run.output().contains("couchbench: Total: connections 120 requests 120 replies 120 test-duration "),
        run.output());
    String httperf = Files.readString(folder.resolve("httperf-s-figures.txt"));
    assertTrue(httperf.contains("Reply status: 1xx=0 2xx=120 3xx=0 4xx=0 5xx=0\n"), httperf);
    assertTrue(httperf.contains("Connection length [replies/conn]: 1.000\n"), httperf);
    String summary = Files.readString(folder.resolve("summary.html"));
    assertTrue(summary.contains("httperf --client=0/1 --server=127.0.0.1 --port=" + couch.port()
        + " --uri=/viewquery_it/_design/todo/_view/list --rate=20 --num-conns=120 --num-calls=1"), summary);
  }

  @Test
  void shouldRunTheLoadTwiceAfterOneSetupAndGiveTheMedianOfTheRounds() throws Exception {
    GatlingRun.Result run = run(Map.of("couchdb.url", couch.url(), "database", "viewquery_rounds",
        "rate", "20", "conns", "120", "rounds", "2"));

    assertEquals(0, run.exitCode(), run.why());
    Path folder = run.requireRunFolder();
    Map<String, GatlingReport.Counts> gatling = GatlingReport.requests(folder);
    assertEquals(new GatlingReport.Counts(120, 120, 0), gatling.get("view list round 1"));
    assertEquals(new GatlingReport.Counts(120, 120, 0), gatling.get("view list round 2"));
    assertEquals(2, gatling.size(), "each round's requests apart, the index build none of them: " + gatling.keySet());
    Results results = ResultsFile.read(folder);
    assertEquals(120, entry(results, "view list round 2").ok());
    assertEquals(1, run.output().split("couchbench: view index build: first query ", -1).length - 1,
        "set up once: " + run.output());
    assertTrue(run.output().contains("couchbench: round 2: Total: connections 120 requests 120 replies 120 "),
        run.output());

    Map<String, String> figures = figures(folder.resolve("figures.csv"));
    assertEquals("figure,median,min,max", Files.readAllLines(folder.resolve("figures.csv")).get(0));
    assertEquals("120,120,120", figures.get("connections"));
    assertEquals("1,1,1", figures.get("reply rate samples"), "one full 5 s window in each round");
    String[] rate = figures.get("reply rate avg").split(",");
    assertTrue(Double.parseDouble(rate[1]) <= Double.parseDouble(rate[0])
        && Double.parseDouble(rate[0]) <= Double.parseDouble(rate[2]), figures.get("reply rate avg"));
    Map<String, String> byRound = figures(folder.resolve("figures-by-round.csv"));
    assertEquals("120,120", byRound.get("connections"));
    List<String> rateChart = Files.readAllLines(folder.resolve("reply-rate-over-the-run.csv"));
    assertEquals(List.of("series,end of the sample (s since the first connection),replies/s,smallest round,"
        + "largest round", "reply rate,5," + figures.get("reply rate avg")), rateChart);
    List<String> connectionChart = Files.readAllLines(folder.resolve("connection-times.csv"));
    assertEquals(1 + 2 * 120, connectionChart.size(), "a line per round: " + connectionChart.size());
    assertTrue(connectionChart.get(240).startsWith("round 2,"), connectionChart.get(240));
    String summary = Files.readString(folder.resolve("summary.html"));
    assertTrue(summary.contains("median of 2 rounds"), summary);
    assertFalse(summary.contains("Warning"), summary);
  }

  @Test
  void shouldGiveTheCombinedRateFromTwoInjectorsEachRunningHalf() throws Exception {
    // 20 connections/s and 120 connections between them: 10/s and 60 each, over the same 6 s. The combined rate needs
    // both on time: they start a moment after both said they are ready.
    Injectors.Run run = Injectors.run("ViewQuery", 2, Map.of("couchdb.url", couch.url(), "database",
        "viewquery_scaleout", "rows", "3", "rate", "20", "conns", "120"), RUN_TIMEOUT);

    long connections = 0;
    for (int i = 0; i < 2; i++) {
      Path folder = run.folders().get(i);
      Results.Entry own = entry(ResultsFile.read(folder), "view list");
      assertEquals(60, own.ok(), "injector " + i + " ran half the connections");
      assertEquals(0, own.ko());
      assertTrue(own.ratePerSecond() > 9 && own.ratePerSecond() < 11, "about half the rate: " + own.ratePerSecond());
      assertEquals("60", figures(folder.resolve("figures.csv")).get("connections"));
      connections += Long.parseLong(figures(folder.resolve("figures.csv")).get("connections"));
      long bytes = Files.size(folder.resolve(ResultsFile.NAME));
      assertTrue(bytes < 40_000, "60 connections' samples keep results.json small: " + bytes + " bytes");
      String summary = Files.readString(folder.resolve("summary.html"));
      assertTrue(summary.contains("httperf --client=" + i + "/2 "), "the same load from httperf, as injector " + i
          + " of 2");
      assertEquals(i == 1, summary.contains("set up by injector 0, which built the index: this query only read it"),
          "only injector 1 says that another built the index: " + i);
    }
    Results merged = ResultsFile.read(run.merged());
    Results.Entry all = entry(merged, "view list");
    assertEquals(120, all.ok(), "every connection of both");
    assertTrue(merged.run().startSkewMillis() < 1000, "both started within a second of -DstartAt: "
        + merged.run().startSkewMillis() + " ms");
    assertTrue(all.ratePerSecond() > 18 && all.ratePerSecond() < 22, "the combined rate, about 20/s: "
        + all.ratePerSecond());
    Map<String, String> httperf = figures(run.merged().resolve("figures.csv"));
    assertEquals(String.valueOf(connections), httperf.get("connections"), "httperf's figures of both: " + httperf);
    assertEquals("120", httperf.get("status 2xx"));
    double rate = Double.parseDouble(httperf.get("connection rate conn/s"));
    assertTrue(rate > 16 && rate < 22, "the combined connection rate, about 20/s over the union: " + rate);
    String summary = Files.readString(run.merged().resolve("summary.html"));
    assertTrue(summary.contains("httperf --client=0/1 "), "the whole run's httperf command: " + summary);
    assertTrue(summary.contains("Merged from 2 injectors: counts add"), summary);
    assertTrue(client.document("viewquery_scaleout", "_design/todo").isPresent(), "set up once, by injector 0");
  }

  private static Results.Entry entry(Results results, String name) {
    return results.requests().stream().filter(e -> e.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void shouldFollowAnIndexBuildLongerThanTheReplyTimeoutToItsEndWithProgressLines() throws Exception {
    SlowView.create(client, "viewquery_slow");

    GatlingRun.Result run = run(SlowView.runProperties(couch.url(), "viewquery_slow"));

    // pouchdb-server lists no indexer in _active_tasks: the time so far alone.
    SlowView.assertFollowed(run, "viewquery_slow", "building");
  }

  @Test
  void shouldStopWithOneLineBeforeAnyLoadWhenTheViewIsMissingOrBroken() throws Exception {
    client.ensureDatabase("viewquery_missing");
    client.ensureDatabase("viewquery_broken");
    client.putDocument("viewquery_broken", "a-task", "{\"task\":\"learn\"}");
    DesignDocument broken = new DesignDocument("todo", "list", "function(doc) { emit(doc._id, ");
    client.putDocument("viewquery_broken", broken.id(), broken.json(Optional.empty()));
    Map<String, String> expected = Map.of(
        "viewquery_missing", "view /viewquery_missing/_design/todo/_view/list is missing (404 not_found: ",
        "viewquery_broken", "view /viewquery_broken/_design/todo/_view/list is broken or empty (200, 0 rows)");

    for (Map.Entry<String, String> database : expected.entrySet()) {
      GatlingRun.Result run = run(Map.of("couchdb.url", couch.url(), "database", database.getKey(),
          "setup", "false", "rate", "20", "conns", "20"));

      assertEquals(1, run.exitCode(), run.why());
      assertEquals(1, run.output().lines().filter(line -> line.startsWith("couchbench: stopped: ")).count());
      assertTrue(run.output().contains("couchbench: stopped: " + database.getValue()), run.output());
      assertFalse(run.output().contains("Simulation ViewQuery started"), "no load: " + run.output());
      assertTrue(run.runFolder().isEmpty(), "Gatling did not start");
      assertFalse(run.output().contains("\tat "), "no stack trace:\n" + run.output());
    }
  }

  @Test
  void shouldRefuseBadParametersWithOneLineBeforeConnectingAnywhere() throws Exception {
    Map<String, String> refused = Map.of(
        "rate", "-Drate=-5 is too small (expected > 0",
        "client", "-Dclient=3/2 is not I/N with 0 <= I < N",
        "injector", "-Dinjector=0/0 is not I/N with 0 <= I < N",
        "startAt", "-DstartAt=noon is not an ISO-8601 UTC instant");
    try (ServerSocket untouched = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      for (Map.Entry<String, String> parameter : List.of(Map.entry("rate", "-5"), Map.entry("client", "3/2"),
          Map.entry("injector", "0/0"), Map.entry("startAt", "noon"))) {
        GatlingRun.Result run = run(Map.of("couchdb.url", "http://127.0.0.1:" + untouched.getLocalPort(),
            parameter.getKey(), parameter.getValue()));

        assertEquals(1, run.exitCode(), run.why());
        List<String> stopped = run.output().lines().filter(line -> line.startsWith("couchbench: stopped: ")).toList();
        assertEquals(1, stopped.size(), run.output());
        assertTrue(stopped.get(0).startsWith("couchbench: stopped: " + refused.get(parameter.getKey())), stopped.get(0));
        assertFalse(run.output().contains("\tat "), "no stack trace:\n" + run.output());
      }
      untouched.setSoTimeout(1);
      assertThrows(SocketTimeoutException.class, untouched::accept, "nothing connected to the CouchDB given");
    }
  }

  private static GatlingRun.Result run(Map<String, String> properties) throws Exception {
    return GatlingRun.run("ViewQuery", properties, RUN_TIMEOUT);
  }

  private static Map<String, String> figures(Path csv) throws Exception {
    Map<String, String> figures = new HashMap<>();
    for (String line : Files.readAllLines(csv).subList(1, Files.readAllLines(csv).size())) {
      String[] cells = line.split(",", 2);
      figures.put(cells[0], cells[1]);
    }
    return figures;
  }
}
