package couchbench.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.GatlingRun;
import couchbench.MemcachedStats;
import couchbench.process.FreePort;
import couchbench.results.Results;
import couchbench.results.ResultsFile;
import couchbench.targets.MemcachedServer;
import couchbench.targets.RealCouchDb;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * -Dmetrics.port scraped every second by a real Prometheus during a MemSet run (memcached) and a CouchGet run (a real
 * Apache CouchDB 3.5, whose own _prometheus Prometheus scrapes beside it): the requests Prometheus counted equal
 * results.json's, per request name, and the p99 PromQL reads from the histogram lies within one bucket of the page's.
 */
class MetricsIT {

  private static final Duration STALL = Duration.ofMinutes(2);
  private static final ObjectMapper JSON = new ObjectMapper();
  // Over the whole test: a target gone at the run's end leaves its series stale, so an instant query reads their last
  // value over a range.
  private static final String RANGE = "[10m]";

  @RegisterExtension
  static final RealCouchDb.NodePerClass COUCHDB = new RealCouchDb.NodePerClass();

  private static Map<String, String> metrics(int port, Map<String, String> more) {
    Map<String, String> properties = new HashMap<>(more);
    properties.put("metrics.port", String.valueOf(port));
    properties.put("metrics.linger", "20");
    return properties;
  }

  @Test
  void shouldCountEveryMemSetRequestInPrometheusAsResultsJsonDoes() throws Exception {
    int port = FreePort.pick();
    try (MemcachedServer memcached = MemcachedServer.start();
        Prometheus prometheus = scraping(port)) {
      GatlingRun.Result run = memSet(port, memcached, Map.of("duration", "4"));

      assertEquals(0, run.exitCode(), run.why());
      assertTrue(run.output().contains("couchbench: metrics: served at http://127.0.0.1:" + port + "/metrics"),
          run.output());
      assertTrue(run.output().contains("couchbench: metrics: the final figures were scraped"), run.output());
      assertCountedAsResultsJson(prometheus, run, "MemSet", Set.of("memcache set"));
      assertP99WithinOneBucket(prometheus, run, "MemSet", "memcache set");
      // The servers' figures in the same scrapes: memcached's own count of sets as the sampler last read it, in the
      // load's last second: more than half the run's, no more than memcached counts now.
      long sets = ResultsFile.read(run.requireRunFolder().resolve(ResultsFile.NAME)).requests().stream()
          .filter(entry -> entry.name().startsWith("memcache set")).mapToLong(Results.Entry::ok).sum();
      JsonNode served = prometheus.query("last_over_time(couchbench_server_memcache_sets_total" + RANGE + ")");
      assertEquals(1, served.size(), served.toString());
      double sampled = served.get(0).path("value").get(1).asDouble();
      assertTrue(sampled > sets / 2.0 && sampled <= MemcachedStats.count(memcached.port(), "cmd_set"),
          "memcached's cmd_set as sampled: " + sampled + ", the run's sets " + sets);
    }
  }

  /**
   * A staircase (MemSet at 300, then 600 a second): its step and rate are served as they change, and its operations'
   * times from their intended start, each set once, as many as results.json counts.
   */
  @Test
  void shouldServeAStaircasesStepRateAndTimesFromTheIntendedStart() throws Exception {
    int port = FreePort.pick();
    try (MemcachedServer memcached = MemcachedServer.start();
        Prometheus prometheus = scraping(port)) {
      GatlingRun.Result run = memSet(port, memcached, Map.of("targets", "300,600", "settleSeconds", "1",
          "stepSeconds", "2"));

      assertEquals(0, run.exitCode(), run.why());
      assertEquals(Map.of("couchbench_staircase_step", 2.0, "couchbench_staircase_target_rate", 600.0),
          lastValues(prometheus, "{__name__=~\"couchbench_staircase_step|couchbench_staircase_target_rate\","
              + "simulation=\"MemSet\",system=\"MemSet\"}"), "the last step and its rate");
      JsonNode steps = prometheus.query("max_over_time(couchbench_staircase_target_rate" + RANGE + ") - min_over_time("
          + "couchbench_staircase_target_rate" + RANGE + ")");
      assertEquals(300.0, steps.get(0).path("value").get(1).asDouble(), "scraped at both steps: " + steps);
      long sets = ResultsFile.read(run.requireRunFolder().resolve(ResultsFile.NAME)).requests().stream()
          .filter(entry -> entry.name().equals("memcache set")).mapToLong(Results.Entry::ok).sum();
      assertTrue(sets > 100, "sets sent: " + sets);
      assertEquals(Map.of("couchbench_intended_duration_seconds_count", (double) sets),
          lastValues(prometheus, "couchbench_intended_duration_seconds_count{simulation=\"MemSet\",operation=\"MemSet\","
              + "status=\"ok\"}"), "every paced set, once, timed from its intended start");
    }
  }

  /**
   * Workload at -Dtarget (reads and updates, 200 a second): each operation timed from its intended start, under its
   * request's name, as many as the page's figures count.
   */
  @Test
  void shouldServeWorkloadsOperationsTimedFromTheirIntendedStartAtItsTarget() throws Exception {
    int port = FreePort.pick();
    try (MemcachedServer memcached = MemcachedServer.start();
        Prometheus prometheus = scraping(port)) {
      GatlingRun.Result run = GatlingRun.run("Workload", metrics(port, Map.of("system", "memcache", "workload", "a",
          "memcache.servers", memcached.address(), "records", "100", "threads", "2", "target", "200",
          "duration", "3")), STALL);

      assertEquals(0, run.exitCode(), run.why());
      JsonNode operations = JSON.readTree(run.requireRunFolder().resolve(ResultsFile.NAME).toFile())
          .path("figures").path("systems").get(0).path("operations");
      Map<String, Double> onThePage = new HashMap<>();
      for (JsonNode operation : operations) {
        if (operation.path("ok").asLong() > 0) {
            onThePage.put("memcache " + operation.path("operation").asText(), operation.path("ok").asDouble());
        }
      }
      assertTrue(onThePage.getOrDefault("memcache read", 0.0) > 100 && onThePage.getOrDefault("memcache update", 0.0)
          > 100, "reads and updates ran: " + onThePage);
      Map<String, Double> served = new HashMap<>();
      for (JsonNode series : prometheus.query("last_over_time(couchbench_intended_duration_seconds_count{"
          + "simulation=\"Workload\",status=\"ok\"}" + RANGE + ")")) {
        served.put(series.path("metric").path("operation").asText(), series.path("value").get(1).asDouble());
      }
      assertEquals(onThePage, served, "each operation once, timed from its intended start");
    }
  }

  /**
   * Changes' writers (one at 50 writes a second): each write timed from its intended start, as the page counts them. The
   * writes last 6 s, several of Prometheus's 1 s scrapes: a run never scraped while it ran waits for no final scrape, and
   * 200 writes at 100 a second (2 s) went unscraped once in CI.
   */
  @Test
  void shouldServeChangesWritesTimedFromTheirIntendedStart() throws Exception {
    int port = FreePort.pick();
    try (Prometheus prometheus = scraping(port)) {
      GatlingRun.Result run = GatlingRun.run("Changes", COUCHDB.runProperties(metrics(port, Map.of(
          "listeners", "continuous:2", "writers", "1", "docs", "300", "rate", "50", "heartbeat", "1000",
          "quiet", "5", "database", "metrics_changes"))), STALL);

      assertEquals(0, run.exitCode(), run.why());
      long acknowledged = JSON.readTree(run.requireRunFolder().resolve(ResultsFile.NAME).toFile()).path("figures")
          .path("writes").path("acknowledged").asLong();
      assertEquals(300, acknowledged, run.output());
      assertEquals(Map.of("couchbench_intended_duration_seconds_count", 300.0),
          lastValues(prometheus, "couchbench_intended_duration_seconds_count{simulation=\"Changes\","
              + "operation=\"write\",status=\"ok\"}"), "every write once, timed from its intended start");
    }
  }

  @Test
  void shouldServeACouchGetRunBesideCouchDbsOwnSeries() throws Exception {
    Path keyFile = Files.createDirectories(Path.of("target", "it-keys")).resolve("metrics-couch-" + System.nanoTime()
        + ".csv");
    GatlingRun.Result set = GatlingRun.run("CouchSet", COUCHDB.runProperties(Map.of("users", "2", "duration", "2",
        "keyFile", keyFile.toString(), "database", "metrics_it")), STALL);
    assertEquals(0, set.exitCode(), set.why());
    int port = FreePort.pick();
    String couchdb = COUCHDB.node().url().substring("http://".length());
    try (Prometheus prometheus = Prometheus.start(getClass(), List.of(
        new Prometheus.Job("couchbench", "127.0.0.1:" + port, "/metrics", Optional.empty()),
        new Prometheus.Job("couchdb", couchdb, "/_node/_local/_prometheus",
            Optional.of(List.of(RealCouchDb.USER, RealCouchDb.PASSWORD)))))) {
      prometheus.awaitUp("couchdb", STALL);
      GatlingRun.Result run = GatlingRun.run("CouchGet", COUCHDB.runProperties(metrics(port, Map.of("users", "2",
          "duration", "4", "keyFile", keyFile.toString(), "database", "metrics_it"))), STALL);

      assertEquals(0, run.exitCode(), run.why());
      assertCountedAsResultsJson(prometheus, run, "CouchGet", Set.of("couchdb get"));
      assertP99WithinOneBucket(prometheus, run, "CouchGet", "couchdb get");
      JsonNode both = prometheus.query("last_over_time({__name__=~\"couchbench_requests_total|"
          + "couchdb_httpd_requests_total\"}" + RANGE + ")");
      JsonNode erlang = prometheus.query("last_over_time(couchbench_server_erlang_memory_bytes{simulation=\"CouchGet\","
          + "server=\"couchdb\"}" + RANGE + ")");
      assertEquals(1, erlang.size(), "the node's own figures, sampled each second: " + erlang);
      assertTrue(erlang.get(0).path("value").get(1).asDouble() > 1e6, erlang.toString());
      Set<String> names = new TreeSet<>();
      both.forEach(series -> names.add(series.path("metric").path("job").asText() + " "
          + series.path("metric").path("__name__").asText()));
      assertTrue(names.containsAll(List.of("couchbench couchbench_requests_total", "couchdb couchdb_httpd_requests_total")),
          "couchbench's series and CouchDB's own in one query: " + both);
      assertDashboardAnswered(prometheus, run, "CouchGet");
    }
  }

  @Test
  void shouldStopInOneLineBeforeAnyLoadWhenThePortIsTaken() throws Exception {
    try (MemcachedServer memcached = MemcachedServer.start();
        ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      GatlingRun.Result run = GatlingRun.run("MemSet", metrics(taken.getLocalPort(), Map.of("memcache.servers",
          memcached.address(), "duration", "1")), STALL);

      run.assertStoppedBeforeLoad("couchbench: stopped: -Dmetrics.port=" + taken.getLocalPort() + ": live metrics"
          + " cannot be served on 127.0.0.1:" + taken.getLocalPort());
      assertTrue(run.output().contains("Give another -Dmetrics.port"), run.output());
    }
  }

  /**
   * Every query of deploy/grafana/couchbench.json, as Grafana would send it during the run (its variables given a
   * value), is answered by the real Prometheus; those of the panels that draw the load and CouchDB with data.
   */
  private static void assertDashboardAnswered(Prometheus prometheus, GatlingRun.Result run, String simulation)
      throws Exception {
    JsonNode dashboard = JSON.readTree(Path.of("deploy", "grafana", "couchbench.json").toFile());
    Instant during = Instant.parse(ResultsFile.read(run.requireRunFolder().resolve(ResultsFile.NAME)).run().end())
        .minusSeconds(1);
    List<String> empty = new ArrayList<>();
    int queries = 0;
    for (JsonNode panel : dashboard.path("panels")) {
      for (JsonNode target : panel.path("targets")) {
        String expr = target.path("expr").asText().replace("$simulation", simulation)
            .replace("$__rate_interval", "5s");
        JsonNode result = prometheus.query(expr, during);
        queries++;
        if (result.isEmpty()) {
          empty.add(panel.path("title").asText() + ": " + expr);
        }
      }
    }
    assertTrue(queries >= 10, "the dashboard's queries: " + queries);
    for (String drawn : List.of("Requests a second", "Latency p50", "Active users", "CouchDB's own requests")) {
      assertTrue(empty.stream().noneMatch(query -> query.startsWith(drawn) && !query.contains("status=\"ko\"")),
          drawn + " drew nothing: " + empty);
    }
  }

  /** @return a real Prometheus scraping couchbench's /metrics on this port every second */
  private Prometheus scraping(int port) throws Exception {
    return Prometheus.start(getClass(), List.of(new Prometheus.Job("couchbench", "127.0.0.1:" + port, "/metrics",
        Optional.empty())));
  }

  /** @return a MemSet run of 2 users, a second's warm-up and these settings, serving its metrics on this port */
  private static GatlingRun.Result memSet(int port, MemcachedServer memcached, Map<String, String> more)
      throws Exception {
    Path keyFile = Files.createDirectories(Path.of("target", "it-keys")).resolve("metrics-" + System.nanoTime()
        + ".csv");
    Map<String, String> properties = new HashMap<>(Map.of("memcache.servers", memcached.address(), "users", "2",
        "warmup", "1", "keyFile", keyFile.toString()));
    properties.putAll(more);
    return GatlingRun.run("MemSet", metrics(port, properties), STALL);
  }

  /** @return each series the selector matches, by its name, at its last scrape */
  private static Map<String, Double> lastValues(Prometheus prometheus, String selector) throws Exception {
    Map<String, Double> values = new HashMap<>();
    for (JsonNode series : prometheus.query("last_over_time(" + selector + RANGE + ")")) {
      values.put(series.path("metric").path("__name__").asText(), series.path("value").get(1).asDouble());
    }
    return values;
  }

  /** Each request name's OK and KO counts in Prometheus (its last scrape) equal results.json's. */
  private static void assertCountedAsResultsJson(Prometheus prometheus, GatlingRun.Result run, String simulation,
      Set<String> mustHave) throws Exception {
    Map<String, Long> counted = new HashMap<>();
    for (JsonNode series : prometheus.query("last_over_time(couchbench_requests_total{simulation=\"" + simulation
        + "\"}" + RANGE + ")")) {
      counted.put(series.path("metric").path("request").asText() + " " + series.path("metric").path("status").asText(),
          Math.round(series.path("value").get(1).asDouble()));
    }
    Map<String, Long> inResults = new HashMap<>();
    for (Results.Entry entry : ResultsFile.read(run.requireRunFolder().resolve(ResultsFile.NAME)).requests()) {
      if (entry.ok() > 0) {
        inResults.put(entry.name() + " ok", entry.ok());
      }
      if (entry.ko() > 0) {
        inResults.put(entry.name() + " ko", entry.ko());
      }
    }
    for (String name : mustHave) {
      assertTrue(inResults.getOrDefault(name + " ok", 0L) > 10, name + " sent: " + inResults);
    }
    assertEquals(inResults, counted, "Prometheus's counts per request name and outcome, against results.json's");
  }

  /** PromQL's p99 of the request's OK times lies in the bucket of the page's p99 or the one beside it. */
  private static void assertP99WithinOneBucket(Prometheus prometheus, GatlingRun.Result run, String simulation,
      String request) throws Exception {
    JsonNode p99 = prometheus.query("histogram_quantile(0.99, last_over_time(couchbench_request_duration_seconds_bucket{"
        + "simulation=\"" + simulation + "\",request=\"" + request + "\",status=\"ok\"}" + RANGE + "))");
    assertEquals(1, p99.size(), p99.toString());
    double fromPromQl = p99.get(0).path("value").get(1).asDouble();
    Results.Entry entry = ResultsFile.read(run.requireRunFolder().resolve(ResultsFile.NAME)).requests().stream()
        .filter(each -> each.name().equals(request)).findFirst().orElseThrow();
    double page = entry.latency().p99() / (entry.latency().unit().equals("ms") ? 1e3 : 1e6);
    assertTrue(Math.abs(bucket(fromPromQl) - bucket(page)) <= 1, "p99 from PromQL " + fromPromQl + " s, the page's "
        + page + " s: buckets " + bucket(fromPromQl) + " and " + bucket(page));
  }

  private static int bucket(double seconds) {
    int bucket = 0;
    while (bucket < LatencyBuckets.BOUNDS.length && seconds > LatencyBuckets.BOUNDS[bucket]) {
      bucket++;
    }
    return bucket;
  }
}
