package couchbench.curve;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import couchbench.Forwarder;
import couchbench.GatlingRun;
import couchbench.targets.MemcachedServer;
import couchbench.targets.PouchDbServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Workload's staircase against real servers: a search for the highest rate meeting p99 < 25 ms on memcached, direct and
 * through a forwarder that holds each reply 10 ms (the rate found falls to what 4 threads can offer at that latency).
 * A fixed staircase's points are CouchGet's (CouchSetCouchGetIT), split over injectors CouchSet's (ScaleOutIT).
 */
class WorkloadCurveIT {

  private static final Duration TIMEOUT = Duration.ofMinutes(3);
  private static final ObjectMapper JSON = new ObjectMapper();
  // Each step settles the default 3 s: after 1 s, a CI run's first direct step (100/s) missed its p99 while the
  // forked JVM was still compiling its hot paths.
  private static final Map<String, String> SEARCH = Map.of("system", "memcache", "workload", "c", "records", "200",
      "threads", "4", "targets", "auto", "sla", "p99<25ms", "startRate", "100", "maxSteps", "4", "settleSeconds",
      "3", "stepSeconds", "2");

  @Test
  void shouldFindALowerRateUnderTheGoalWhenEachReplyIsHeld10Ms() throws Exception {
    try (MemcachedServer memcached = MemcachedServer.start(); Forwarder farther = Forwarder.start(memcached.port())) {
      farther.delay(Duration.ofMillis(10));
      double direct = highestRate(search(memcached.address()));
      double delayed = highestRate(search(farther.address()));

      // 4 threads, each one operation at a time, each over 10 ms: at most 400 operations a second.
      assertTrue(delayed <= 400, "at most threads / latency: " + delayed);
      assertTrue(delayed >= 100, "the first step, 100/s, is within reach at 10 ms: " + delayed);
      assertTrue(direct >= 400, "direct, the rate 4 threads cannot offer at 10 ms is met: " + direct + " against "
          + delayed + " through the forwarder");
    }
  }

  private static GatlingRun.Result search(String memcache) throws Exception {
    Map<String, String> properties = new HashMap<>(SEARCH);
    properties.put("memcache.servers", memcache);
    GatlingRun.Result run = GatlingRun.run("Workload", properties, TIMEOUT);
    assertEquals(0, run.exitCode(), run.output());
    return run;
  }

  private static double highestRate(GatlingRun.Result run) throws Exception {
    JsonNode memcache = figures(run).path("systems").get(0);
    assertTrue(memcache.path("highestRate").isNumber(), "a rate met the goal: " + memcache.path("steps"));
    String page = Files.readString(run.requireRunFolder().resolve("summary.html"));
    assertTrue(page.contains("operations/s is the highest rate asked that was met (90% of it or more"),
        "said at the top");
    return memcache.path("highestRate").asDouble();
  }

  private static JsonNode figures(GatlingRun.Result run) throws Exception {
    Path results = run.requireRunFolder().resolve("results.json");
    return JSON.readTree(results.toFile()).path("figures");
  }
}
